#!/usr/bin/env python3
"""A relay in front of a real ClickHouse's native TCP port that breaks the
stream on request -- a test harness for test/fault/tcp_fault_test.sh, not a
ClickHouse server and not part of the extension.

Every connection is relayed byte for byte to the real server until the
client's bytes (the Query packet carries the SQL as plain text, also when
blocks are compressed) name one of these markers; from then on the server's
answer on that connection is broken as the marker says:

  tcp_cut        the first CUT bytes of the answer, then both sockets are
                 closed: a server killed in the middle of a block.
  tcp_stall      the first CUT bytes, then silence with the socket open
                 (for receive_timeout, or a cancel).
  tcp_garbage    the first CUT bytes, then endless pseudo-random bytes (the
                 same on every run).
  tcp_flip       the whole answer, with one byte flipped at offset CUT (in a
                 compressed block: its CityHash128 must catch it).
  tcp_refuse     no answer: both sockets are closed at once.
  tcp_progress   no answer from the server; instead endless Progress packets
                 (ClickHouse's Protocol::Server::Progress = 3, three VarUInts:
                 rows, bytes, total_rows, the layout of revisions below 54420,
                 i.e. 18.16) until the client goes away.
  tcp_badtype    no answer from the server; instead one uncompressed Data
                 packet (18.16's layout: table name, BlockInfo, one column)
                 whose type name, malformed, holds a line break; then silence.
  tcp_insert_cut in the client's direction: the server gets the first CUT
                 bytes that follow the marker, then both sockets are closed
                 (an INSERT whose connection breaks mid-stream).

Usage: tcp_relay.py LISTEN_PORT SERVER_PORT [CUT]   (SIGTERM to stop)
CUT defaults to 65536.
"""
import os
import random
import select
import signal
import socket
import sys
import threading

MARKERS = (b"tcp_insert_cut", b"tcp_badtype", b"tcp_cut", b"tcp_stall", b"tcp_garbage", b"tcp_flip",
           b"tcp_refuse", b"tcp_progress")
CUT = 65536
SERVER_PORT = 0


def close(*socks):
    for s in socks:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.close()
        except OSError:
            pass


def send_all(sock, data):
    try:
        sock.sendall(data)
        return True
    except OSError:
        return False


def endless(client, make):
    """Send make() to client again and again until it goes away."""
    client.setblocking(True)
    while True:
        # drain what the client sends (e.g. a Cancel packet)
        r, _, _ = select.select([client], [], [], 0)
        if r:
            try:
                if not client.recv(65536):
                    return
            except OSError:
                return
        if not send_all(client, make()):
            return


def relay(client):
    try:
        server = socket.create_connection(("127.0.0.1", SERVER_PORT), timeout=10)
    except OSError:
        close(client)
        return
    server.settimeout(None)
    mode = None
    seen = b""                  # the client's bytes, for a marker split across reads
    answered = 0                # bytes of the broken answer sent so far
    sent_up = 0                 # client bytes after an insert marker
    try:
        while True:
            r, _, _ = select.select([client, server], [], [])
            if client in r:
                data = client.recv(65536)
                if not data:
                    break
                if mode is None:
                    seen = (seen + data)[-4096:]
                    for m in MARKERS:
                        if m in seen:
                            mode = m.decode()
                            break
                    if mode == "tcp_refuse":
                        break
                    if mode == "tcp_badtype":
                        close(server)
                        # Data, table "", BlockInfo (1: is_overflows 0,
                        # 2: bucket_num -1, 0: end), 1 column, 1 row, "v"
                        bad = b"(\nString"
                        send_all(client, b"\x01\x00" + b"\x01\x00\x02\xff\xff\xff\xff\x00"
                                 + b"\x01\x01\x01v" + bytes([len(bad)]) + bad + b"\x00")
                        while client.recv(65536):
                            pass
                        break
                    if mode == "tcp_progress":
                        close(server)
                        endless(client, lambda: b"\x03\x01\x08\x00" * 4096)
                        break
                    if mode == "tcp_insert_cut":
                        # the bytes after the marker count
                        after = seen.split(b"tcp_insert_cut", 1)[1]
                        keep = len(data) - len(after)
                        if not send_all(server, data[:max(keep, 0)]):
                            break
                        data = after
                if mode == "tcp_insert_cut":
                    take = min(len(data), CUT - sent_up)
                    send_all(server, data[:take])
                    sent_up += take
                    if sent_up >= CUT:
                        break
                    continue
                if not send_all(server, data):
                    break
            if server in r:
                data = server.recv(65536)
                if not data:
                    break
                if mode in ("tcp_cut", "tcp_stall", "tcp_garbage"):
                    take = min(len(data), CUT - answered)
                    if take > 0 and not send_all(client, data[:take]):
                        break
                    answered += take
                    if answered >= CUT:
                        if mode == "tcp_cut":
                            break
                        close(server)
                        if mode == "tcp_garbage":
                            # the same bytes on every run (a seeded generator)
                            rng = random.Random(13)
                            endless(client, lambda: rng.randbytes(65536))
                        else:
                            # silence until the client gives up
                            while client.recv(65536):
                                pass
                        break
                    continue
                if mode == "tcp_flip" and answered <= CUT < answered + len(data):
                    i = CUT - answered
                    data = data[:i] + bytes([data[i] ^ 0x5a]) + data[i + 1:]
                if mode == "tcp_flip":
                    answered += len(data)
                if not send_all(client, data):
                    break
    except OSError:
        pass
    finally:
        close(client, server)


def main():
    global CUT, SERVER_PORT
    port, SERVER_PORT = int(sys.argv[1]), int(sys.argv[2])
    if len(sys.argv) > 3:
        CUT = int(sys.argv[3])
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(64)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=relay, args=(c,), daemon=True).start()


if __name__ == "__main__":
    main()
