#!/usr/bin/env python3
"""chdb.py -- TEST HARNESS, NOT A SERVER.

Runs SQL on an in-process ClickHouse engine (chDB, ClickHouse 26.5 built as
a shared library, libchdb.so from the npm package @chdb/lib-linux-x64-gnu,
fetched by test/chdb/install.sh) and returns the raw result bytes in any
ClickHouse output format (Native, RowBinary, TSV, ...).

There is no network listener: nothing here speaks HTTP or the native TCP
protocol. It exists so tests can (a) produce golden Native/RowBinary bytes
from a modern engine and (b) check that bytes written by our C encoder are
read back by a modern engine (see roundtrip.py). Python 3 standard library
only (ctypes).

C API used (libchdb.so exports; signatures from chDB's programs/local/chdb.h):

    typedef struct chdb_connection_ { void *internal_data; } *chdb_connection;
    typedef struct chdb_result_     { void *internal_data; }  chdb_result;

    chdb_connection *chdb_connect(int argc, char **argv);   /* argv: "clickhouse", "--path=DIR", "--setting=value"... */
    void             chdb_close_conn(chdb_connection *conn);
    chdb_result     *chdb_query(chdb_connection conn, const char *query, const char *format);
    char            *chdb_result_buffer(chdb_result *result);
    size_t           chdb_result_length(chdb_result *result);
    double           chdb_result_elapsed(chdb_result *result);
    const char      *chdb_result_error(chdb_result *result);      /* NULL if no error */
    void             chdb_destroy_query_result(chdb_result *result);
    void             chdb_set_signal_handlers_enabled(int enabled);  /* before connect */

Note chdb_connect returns a POINTER to the handle; chdb_query takes the
handle itself (dereferenced), chdb_close_conn takes the pointer again.
The engine allows one storage path per process.

CLI:
    python3 test/chdb/chdb.py [--path DIR] [--timing] "SQL" [FORMAT]
writes the raw result bytes to stdout (FORMAT defaults to TabSeparated);
engine errors go to stderr and the exit status is 1.
Without --path a fresh temporary directory is used and removed at exit.

Library lookup: $CHDB_LIB, else ${CHDB_CACHE_DIR:-<repo>/.state/chdb}/<version>/package/libchdb.so;
if it is missing, test/chdb/install.sh is run (downloads once per machine).
"""

import atexit
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CHDB_NPM_VERSION = "26.5.3"  # keep in sync with install.sh


class ChdbError(Exception):
    """An error reported by the engine; str() is the engine's error text."""


def find_lib():
    env = os.environ.get("CHDB_LIB")
    if env:
        if not os.path.isfile(env):
            raise ChdbError("CHDB_LIB=%s does not exist" % env)
        return env
    cache = os.environ.get("CHDB_CACHE_DIR") or os.path.join(REPO, ".state", "chdb")
    cached = os.path.join(cache, CHDB_NPM_VERSION, "package", "libchdb.so")
    if os.path.isfile(cached) and os.path.isfile(
            os.path.join(os.path.dirname(os.path.dirname(cached)), ".unpacked")):
        return cached
    out = subprocess.run(["bash", os.path.join(HERE, "install.sh")],
                         stdout=subprocess.PIPE, check=True)
    return out.stdout.decode().strip().splitlines()[-1]


_lib = None


def load_lib(path=None):
    """dlopen libchdb.so once per process and declare the signatures."""
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(path or find_lib())
    c_void_p, c_char_p = ctypes.c_void_p, ctypes.c_char_p
    lib.chdb_connect.argtypes = [ctypes.c_int, ctypes.POINTER(c_char_p)]
    lib.chdb_connect.restype = ctypes.POINTER(c_void_p)      # chdb_connection *
    lib.chdb_close_conn.argtypes = [ctypes.POINTER(c_void_p)]
    lib.chdb_close_conn.restype = None
    lib.chdb_query.argtypes = [c_void_p, c_char_p, c_char_p]
    lib.chdb_query.restype = c_void_p                        # chdb_result *
    lib.chdb_result_buffer.argtypes = [c_void_p]
    lib.chdb_result_buffer.restype = c_void_p                # char * (binary)
    lib.chdb_result_length.argtypes = [c_void_p]
    lib.chdb_result_length.restype = ctypes.c_size_t
    lib.chdb_result_elapsed.argtypes = [c_void_p]
    lib.chdb_result_elapsed.restype = ctypes.c_double
    lib.chdb_result_error.argtypes = [c_void_p]
    lib.chdb_result_error.restype = c_char_p
    lib.chdb_destroy_query_result.argtypes = [c_void_p]
    lib.chdb_destroy_query_result.restype = None
    lib.chdb_set_signal_handlers_enabled.argtypes = [ctypes.c_int]
    lib.chdb_set_signal_handlers_enabled.restype = None
    _lib = lib
    return lib


class Chdb:
    """One engine connection. Test harness only -- not a server.

    Chdb(path=None, settings=None): path is the engine's data directory
    (a temporary one, removed at close, if None); settings are query-level
    ClickHouse settings applied to the connection (--name=value).
    """

    def __init__(self, path=None, settings=None, lib=None):
        self.lib = load_lib(lib)
        self._tmp = None
        if path is None:
            self._tmp = tempfile.mkdtemp(prefix="chdb-")
            path = self._tmp
        self.path = os.path.abspath(path)
        os.makedirs(self.path, exist_ok=True)
        args = ["clickhouse", "--path=" + self.path]
        for k, v in (settings or {}).items():
            args.append("--%s=%s" % (k, v))
        argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
        # Keep Python's own signal handling (Ctrl-C etc.).
        self.lib.chdb_set_signal_handlers_enabled(0)
        self._connp = self.lib.chdb_connect(len(args), argv)
        if not self._connp or not self._connp[0]:
            self._cleanup_tmp()
            raise ChdbError("chdb_connect failed (path %s)" % self.path)
        self._conn = self._connp[0]          # dereference: chdb_connection
        self.last_elapsed = 0.0

    def query(self, sql, fmt="Native"):
        """Run one statement; return the raw output bytes in format fmt."""
        if self._connp is None:
            raise ChdbError("connection is closed")
        if isinstance(sql, str):
            sql = sql.encode()
        res = self.lib.chdb_query(self._conn, sql, fmt.encode())
        if not res:
            raise ChdbError("chdb_query returned NULL")
        try:
            err = self.lib.chdb_result_error(res)
            if err:
                raise ChdbError(err.decode("utf-8", "replace").strip())
            n = self.lib.chdb_result_length(res)
            buf = self.lib.chdb_result_buffer(res)
            self.last_elapsed = self.lib.chdb_result_elapsed(res)
            return ctypes.string_at(buf, n) if n else b""
        finally:
            self.lib.chdb_destroy_query_result(res)

    def close(self):
        if self._connp is not None:
            self.lib.chdb_close_conn(self._connp)
            self._connp = None
            self._conn = None
        self._cleanup_tmp()

    def _cleanup_tmp(self):
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(
        description="Run one SQL statement on in-process chDB (ClickHouse "
                    "26.5; test harness, not a server); raw result to stdout.")
    ap.add_argument("--path", help="engine data directory (default: temporary)")
    ap.add_argument("sql")
    ap.add_argument("format", nargs="?", default="TabSeparated")
    ap.add_argument("--timing", action="store_true",
                    help="print load/connect/query/close times to stderr")
    a = ap.parse_args(argv)
    import time
    t0 = time.monotonic()
    try:
        load_lib()
        t1 = time.monotonic()
        db = Chdb(a.path)
    except (ChdbError, OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("chdb: %s\n" % e)
        return 1
    t2 = time.monotonic()
    try:
        out = db.query(a.sql, a.format)
    except ChdbError as e:
        sys.stderr.write("%s\n" % e)
        return 1
    finally:
        t3 = time.monotonic()
        db.close()
        t4 = time.monotonic()
        if a.timing:
            sys.stderr.write("chdb timing: load %.3fs, connect %.3fs, query %.3fs "
                             "(engine %.3fs), close %.3fs\n"
                             % (t1 - t0, t2 - t1, t3 - t2, db.last_elapsed, t4 - t3))
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
