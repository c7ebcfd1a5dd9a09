#!/usr/bin/env python3
"""test/golden/capture_tcp.py -- record native TCP exchanges between the real
clickhouse-client 18.16 and the real ClickHouse 18.16 server of
test/servers.sh, for the unit tests of the packet codec (test/unit/test_tcp_proto.c).

    eval "$(bash test/servers.sh env)"; python3 test/golden/capture_tcp.py [NAME...]

A relay listens on a free local port, forwards every byte to CH_TCP_PORT and
records both directions: test/golden/tcp_v18_16/NAME.c2s (client to server)
and NAME.s2c (server to client), plus NAME.txt (the command). Each case runs
clickhouse-client once; the files are written only after every case worked.
A test harness, run by hand: the normal tests only read the files.
"""
import os, socket, subprocess, sys, threading

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tcp_v18_16")

# name: (clickhouse-client arguments, stdin)
CASES = {
    "select1": (["--query", "SELECT 1 AS x"], None),
    "select1_nocompress": (["--compression", "0", "--query", "SELECT 1 AS x"], None),
    "select_types": (["--query",
        "SELECT number AS n, toString(number) AS s, [number, NULL] AS a, "
        "toNullable(toDate(number)) AS d, toFixedString('ab', 2) AS f "
        "FROM system.numbers LIMIT 3"], None),
    "multi_block": (["--compression", "0", "--max_block_size", "1000", "--query",
        "SELECT number FROM system.numbers LIMIT 2500"], None),
    "totals_extremes": (["--extremes", "1", "--query",
        "SELECT number % 2 AS k, count() AS c FROM numbers(10) GROUP BY k WITH TOTALS ORDER BY k"], None),
    "exception": (["--query", "SELECT * FROM capture_no_such_db.t"], None),
    "exception_after_data": (["--compression", "0", "--max_block_size", "100", "--query",
        "SELECT number, throwIf(number = 300) FROM system.numbers"], None),
    "logs": (["--send_logs_level", "trace", "--query", "SELECT 2 AS y"], None),
    "insert": (["--query", "INSERT INTO default.capture_tcp_ins (a, s) VALUES"], b"(1,'x')\n(2,'yy')\n"),
}


def relay(listener, upstream_port, c2s, s2c):
    conn, _ = listener.accept()
    up = socket.create_connection(("127.0.0.1", upstream_port))

    def pump(src, dst, log):
        while True:
            data = src.recv(65536)
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            log.extend(data)
            dst.sendall(data)

    t1 = threading.Thread(target=pump, args=(conn, up, c2s))
    t2 = threading.Thread(target=pump, args=(up, conn, s2c))
    t1.start(); t2.start(); t1.join(); t2.join()
    conn.close(); up.close()


def run(name, args, stdin, port):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    c2s, s2c = bytearray(), bytearray()
    th = threading.Thread(target=relay, args=(listener, port, c2s, s2c))
    th.start()
    cmd = ["clickhouse-client", "--host", "127.0.0.1", "--port", str(listener.getsockname()[1])] + args
    p = subprocess.run(cmd, input=stdin or b"", stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    th.join(timeout=30)
    listener.close()
    if not s2c:
        sys.exit(f"capture_tcp: {name}: nothing received ({p.stderr.decode()[:300]})")
    return bytes(c2s), bytes(s2c), " ".join(cmd[3:]) + "\n"


def main():
    port = int(os.environ.get("CH_TCP_PORT") or sys.exit("capture_tcp: CH_TCP_PORT is not set"))
    names = sys.argv[1:] or list(CASES)
    subprocess.run(["clickhouse-client", "--host", "127.0.0.1", "--port", str(port), "--multiquery", "--query",
                    "DROP TABLE IF EXISTS default.capture_tcp_ins; "
                    "CREATE TABLE default.capture_tcp_ins (a UInt32, s String) ENGINE = Memory"], check=True)
    got = {}
    for n in names:
        if n not in CASES:
            sys.exit(f"capture_tcp: unknown case {n}")
        got[n] = run(n, CASES[n][0], CASES[n][1], port)
    subprocess.run(["clickhouse-client", "--host", "127.0.0.1", "--port", str(port), "--query",
                    "DROP TABLE default.capture_tcp_ins"], check=True)
    os.makedirs(OUT, exist_ok=True)
    for n, (c2s, s2c, cmd) in got.items():
        for ext, data in (("c2s", c2s), ("s2c", s2c)):
            with open(os.path.join(OUT, f"{n}.{ext}"), "wb") as f:
                f.write(data)
        with open(os.path.join(OUT, f"{n}.txt"), "w") as f:
            f.write("clickhouse-client 18.16 -> ClickHouse 18.16.1 server: " + cmd)
        print(f"{n}: {len(c2s)} bytes sent, {len(s2c)} received")


if __name__ == "__main__":
    main()
