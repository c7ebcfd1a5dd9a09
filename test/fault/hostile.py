#!/usr/bin/env python3
"""Run one query against a hostile fake server and measure the backend -- a
test harness for test/fault/fault_test.sh, not part of the extension.

Usage: hostile.py DBNAME QUERY [RUN_SECONDS [terminate]]

Opens a psql session, notes its backend's pid and idle RSS (VmRSS) and resets
the backend's peak RSS (writing 5 to /proc/PID/clear_refs), runs QUERY, and:
  - if QUERY ends by itself within RUN_SECONDS: reports how it ended;
  - else sends pg_cancel_backend (pg_terminate_backend with "terminate":
    then ended is "terminated" once the backend process is gone) and
    measures how long the backend takes to end the query.
Then runs "SELECT 1" in the same session (the backend must still work).
Prints one line of JSON: ended ("error" | "cancelled" | "ok" | "stuck"),
message, seconds (query start to end), cancel_seconds (cancel to end, or
null), peak_mb_above_idle, late_growth_mb (how much the peak grew after the
first third of the run, for a query that had to be cancelled), works_after.
A stuck backend (no end within 10 s of the cancel) is terminated, then
killed.
"""
import json
import os
import re
import select
import signal
import subprocess
import sys
import time


def status_kb(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def psql_c(db, sql):
    return subprocess.run(["psql", "-X", "-At", "-d", db, "-c", sql],
                          capture_output=True, text=True, timeout=30).stdout.strip()


class Session:
    def __init__(self, db):
        self.p = subprocess.Popen(["psql", "-X", "-At", "-d", db, "-v", "ON_ERROR_STOP=0"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, bufsize=0)
        self.buf = b""

    def send(self, sql):
        self.p.stdin.write(sql.encode() + b"\n")
        self.p.stdin.flush()

    def line(self, timeout):
        """The next output line, or None after timeout seconds."""
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                chunk = os.read(self.p.stdout.fileno(), 65536)
                if not chunk:
                    return None
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace")


def main():
    db, query = sys.argv[1], sys.argv[2]
    run = float(sys.argv[3]) if len(sys.argv) > 3 else 1.5
    terminate = len(sys.argv) > 4 and sys.argv[4] == "terminate"
    s = Session(db)
    s.send("SELECT pg_backend_pid();")
    pid = int(s.line(10))
    s.send("SELECT 'warm' FROM ints LIMIT 1;")   # loads the extension, connects
    s.line(10)
    idle_kb = status_kb(pid, "VmRSS")
    try:
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")             # reset VmHWM to the current RSS
        hwm_reset = True
    except OSError:
        hwm_reset = False
    peak_kb = idle_kb
    early_kb = None              # the peak a third of the way in
    marker = "-- end of hostile query"
    s.send(query + ";\n\\echo '%s'" % marker)
    t0 = time.monotonic()
    out, ended, cancel_at, t_end = [], None, None, None
    while ended is None:
        now = time.monotonic()
        if cancel_at is None and now - t0 >= run:
            psql_c(db, "SELECT %s(%d)" % ("pg_terminate_backend" if terminate
                                          else "pg_cancel_backend", pid))
            cancel_at = time.monotonic()
        if terminate and cancel_at is not None and not os.path.exists("/proc/%d" % pid):
            t_end = time.monotonic()
            ended = "terminated"
            break
        if cancel_at is not None and now - cancel_at > 10:
            ended = "stuck"
            break
        try:
            peak_kb = max(peak_kb, status_kb(pid, "VmHWM" if hwm_reset else "VmRSS"))
        except OSError:
            pass
        if early_kb is None and now - t0 >= run / 3:
            early_kb = peak_kb
        line = s.line(0.02)
        if line is None:
            continue
        if line == marker.strip("'"):
            t_end = time.monotonic()
            text = " ".join(out)
            # sqlstate_of() answers "SQLSTATE message" for an error
            ended = "cancelled" if "canceling statement" in text else \
                "error" if "ERROR" in text or re.match(r"[0-9A-Z]{5} ", text) else "ok"
            break
        out.append(line)
    try:
        peak_kb = max(peak_kb, status_kb(pid, "VmHWM" if hwm_reset else "VmRSS"))
    except OSError:
        pass
    works = False
    if ended == "terminated":
        works = True             # the session is gone, as asked
    elif ended == "stuck":
        psql_c(db, "SELECT pg_terminate_backend(%d)" % pid)
        time.sleep(3)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    else:
        s.send("SELECT 'still works';")
        works = s.line(10) == "still works"
    s.p.kill()
    print(json.dumps({
        "ended": ended,
        "message": " ".join(out)[:300],
        "seconds": None if t_end is None else round(t_end - t0, 3),
        "cancel_seconds": None if cancel_at is None or t_end is None else round(t_end - cancel_at, 3),
        "peak_mb_above_idle": round((peak_kb - idle_kb) / 1024, 1),
        # growth of the peak over the last two thirds of the run (endless
        # streams: it must not keep growing)
        "late_growth_mb": None if early_kb is None or cancel_at is None
        else round((peak_kb - early_kb) / 1024, 1),
        "works_after": works,
    }))


if __name__ == "__main__":
    main()
