#!/usr/bin/env python3
"""front.py -- A TEST HARNESS, NOT A CLICKHOUSE SERVER.

    ***************************************************************
    *  a test harness, NOT a ClickHouse server: never expose it,  *
    *  never use it for data you care about.                      *
    ***************************************************************

A small HTTP front that runs queries on the chDB engine (ClickHouse 26.5.1.1
built as a shared library, libchdb.so, fetched by test/chdb/install.sh) and
answers the subset of ClickHouse's HTTP interface that clickhouse_fdw uses,
so the FDW's regression tests can run against a modern engine. Python 3
standard library only (http.server, ctypes, zlib); listens on 127.0.0.1.

What it answers (ClickHouse HTTP interface, ../shared/docs/clickhouse-wire.md
section 5):

  GET /ping, GET / without a query, GET /replicas_status   ->  "Ok.\\n"
  POST / (or GET /?query=..., read-only)  -> run one statement:
    * the query is the POST body, the `query` URL parameter, or both: then,
      like ClickHouse, the statement is <query parameter> "\\n" <body>, and for
      "INSERT ... FORMAT <fmt>" everything after the format name is the data
      (binary bodies included: Native, RowBinary, any input format). The data
      is written to a temporary file and inserted with
      "INSERT INTO t [(cols)] FROM INFILE '<tmp>' [SETTINGS ...] FORMAT <fmt>",
      so the engine reads it with the INSERT's own header exactly as a server
      reads a request body: Native columns are matched BY NAME (order free,
      unknown columns skipped per input_format_skip_unknown_fields, missing
      ones get their DEFAULT), LowCardinality-encoded Native is accepted for
      plain and LowCardinality columns; RowBinary is positional.
    * other statements run as given; the output format is the statement's
      FORMAT clause, else `default_format` (or X-ClickHouse-Format), else
      TabSeparated. SELECTs are run with chDB's streaming API.
    * `database` (or X-ClickHouse-Database): USE <db> before the statement.
    * `query_id` (or X-ClickHouse-Query-Id): echoed in X-ClickHouse-Query-Id
      (a UUID is made up when absent).
    * `param_<name>`: query parameters for {name:Type} placeholders.
    * `decompress=1`: the request body is ClickHouse compressed frames
      (CityHash128 v1.0.2 checksum + LZ4 / ZSTD / NONE), checked and decoded
      here (LZ4 in pure Python if liblz4 cannot be loaded; ZSTD needs
      libzstd.so.1, otherwise HTTP 501).
    * `compress=1`: the response body is sent as compressed frames (LZ4, or
      NONE frames when liblz4 is missing).
    * Content-Encoding gzip/deflate request bodies; gzip/deflate responses
      with enable_http_compression=1 and Accept-Encoding.
    * every other URL parameter is a ClickHouse setting for this request
      only (SET before the statement, reset after it). Names must be
      identifiers; an unknown name is the engine's UNKNOWN_SETTING (115).
      Reserved and accepted without effect: session_id, session_timeout,
      session_check, quota_key, stacktrace, role, client_protocol_version.
    * authentication: X-ClickHouse-User / X-ClickHouse-Key headers, `user` /
      `password` URL parameters or HTTP Basic. Users: `default` (no password)
      and `tester` / `tester_pw` (add more with --user NAME:PASSWORD). A wrong
      password or unknown user is code 516 AUTHENTICATION_FAILED, HTTP 403,
      as on a modern server.
    * errors before the body started: the HTTP status of ClickHouse's
      exceptionCodeToHTTPStatus (UNKNOWN_TABLE 60 -> 404, SYNTAX_ERROR 62 ->
      400, AUTHENTICATION_FAILED 516 -> 403, NOT_IMPLEMENTED 48 -> 501, others
      500 ...), header X-ClickHouse-Exception-Code: <n>, body
      "Code: <n>. DB::Exception: <text> (<NAME>) (version 26.5.1.1)\\n".
    * mid-stream exceptions, as a 25.11+ server sends them: a result is held
      until it passes `buffer_size` bytes (default 1 MiB, like the server's
      output buffer; `wait_end_of_query=1` holds all of it). An error after
      that point is sent after HTTP 200 and the data produced so far as
          \\r\\n__exception__\\r\\n<TAG>\\r\\n<message>\\n<len> <TAG>\\r\\n__exception__\\r\\n
      (TAG = the response's X-ClickHouse-Exception-Tag header), and the
      chunked body is left without its final chunk, connection closed.
    * HTTP/1.1 keep-alive: every response has Content-Length or chunked
      encoding (chunked above `buffer_size`); idle connections are closed
      after 10 s (Keep-Alive: timeout=10). TCP_NODELAY is set on every
      connection (the same bytes, without Nagle's ~40 ms per response).
    * "KILL QUERY WHERE query_id = '...' [SYNC|ASYNC]" is answered at once
      (outside the engine lock) and stops the running statement at its next
      streamed chunk with QUERY_WAS_CANCELLED (394); a statement that is not
      streamed (INSERT, DDL) runs to its end.
    * response headers: X-ClickHouse-Query-Id, -Format, -Timezone (UTC),
      -Server-Display-Name, -Exception-Tag, -Summary (read/written rows and
      bytes as chDB reports them).

Concurrency: statements run one at a time on one chDB connection (the engine
is not thread-safe; a lock serialises them), but connections are served by
their own threads, so an idle keep-alive connection, or a response that a
client reads slowly, never blocks other clients (the FDW keeps a pool of
connections and may have two scans in flight). A result is materialised in
memory before it is sent (fine for tests, not for huge results).

Not emulated: sessions (session_id is ignored; a SET statement only affects
its own request, like a request without a session), quotas, readonly users,
progress headers, the http_write_exception_in_output_format JSON form,
multipart external data, HTTP/2, TLS, Content-Encoding other than
gzip/deflate.

Usage:
    python3 test/chdb/front.py [--port N] [--path DIR]     # serve (foreground)
    python3 test/chdb/front.py --load FILE [--port N]       # send FILE's statements
    python3 test/chdb/front.py --check [--port N]           # protocol self-check

test/servers.sh starts it (start|stop|status, port in `env` as CH_MODERN_PORT,
log in .state/chdb-front/front.log). --load splits FILE on top-level
semicolons (quotes and comments respected) and POSTs each statement, stopping
at the first error (exit 1, with the statement and the server's answer).

Port: --port, else $CH_MODERN_PORT, else 18124. Data: --path, else
<repo>/.state/chdb-front/data. Library lookup as in chdb.py ($CHDB_LIB,
.state/chdb, test/chdb/install.sh).
"""

import argparse
import base64
import ctypes
import ctypes.util
import http.client
import http.server
import json
import os
import random
import re
import shutil
import signal
import socket
import string
import struct
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import chdb  # noqa: E402  (test/chdb/chdb.py)

DEFAULT_PORT = 18124
DEFAULT_BUFFER = 1 << 20          # the server's output buffer before headers go out
KEEP_ALIVE_TIMEOUT = 10           # seconds an idle connection is kept
SEND_TIMEOUT = 300                # seconds without progress while reading/writing
MAX_BODY = 1 << 31
BANNER = "a test harness, NOT a ClickHouse server"

# URL parameters that are not settings (ClickHouse's HTTPHandler reserved names)
RESERVED = {
    "query", "database", "default_format", "user", "password", "quota_key",
    "query_id", "stacktrace", "session_id", "session_timeout", "session_check",
    "close_session", "compress", "decompress", "buffer_size",
    "wait_end_of_query", "role", "client_protocol_version",
}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
KILL_RE = re.compile(rb"^\s*KILL\s+QUERY\s+WHERE\s+query_id\s*=\s*'((?:[^'\\]|\\.)*)'\s*(SYNC|ASYNC)?\s*;?\s*$",
                     re.I | re.S)

# ClickHouse's exceptionCodeToHTTPStatus, by error name
STATUS_BY_NAME = {}
for _n in ("UNKNOWN_USER WRONG_PASSWORD AUTHENTICATION_FAILED SET_NON_GRANTED_ROLE "
           "ACCESS_DENIED").split():
    STATUS_BY_NAME[_n] = 403
for _n in ("BAD_ARGUMENTS CANNOT_COMPILE_REGEXP CANNOT_PARSE_TEXT CANNOT_PARSE_ESCAPE_SEQUENCE "
           "CANNOT_PARSE_QUOTED_STRING CANNOT_PARSE_DATE CANNOT_PARSE_DATETIME "
           "CANNOT_PARSE_NUMBER CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING CANNOT_PARSE_IPV4 "
           "CANNOT_PARSE_IPV6 CANNOT_PARSE_INPUT_ASSERTION_FAILED CANNOT_PARSE_UUID "
           "DUPLICATE_COLUMN ILLEGAL_COLUMN UNKNOWN_ELEMENT_IN_AST UNKNOWN_TYPE_OF_AST_NODE "
           "THERE_IS_NO_COLUMN TOO_DEEP_AST TOO_BIG_AST UNEXPECTED_AST_STRUCTURE SYNTAX_ERROR "
           "INCORRECT_DATA TYPE_MISMATCH VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE").split():
    STATUS_BY_NAME[_n] = 400
for _n in ("UNKNOWN_TABLE UNKNOWN_FUNCTION UNKNOWN_IDENTIFIER UNKNOWN_TYPE UNKNOWN_STORAGE "
           "UNKNOWN_DATABASE UNKNOWN_SETTING UNKNOWN_DIRECTION_OF_SORTING "
           "UNKNOWN_AGGREGATE_FUNCTION UNKNOWN_FORMAT UNKNOWN_DATABASE_ENGINE "
           "UNKNOWN_TYPE_OF_QUERY UNKNOWN_ROLE").split():
    STATUS_BY_NAME[_n] = 404
STATUS_BY_NAME.update({
    "REQUIRED_PASSWORD": 401, "QUERY_IS_TOO_LARGE": 413, "NOT_IMPLEMENTED": 501,
    "SOCKET_TIMEOUT": 503, "CANNOT_OPEN_FILE": 503, "CANNOT_SCHEDULE_TASK": 503,
    "HTTP_LENGTH_REQUIRED": 411, "TIMEOUT_EXCEEDED": 408, "UNSUPPORTED_MEDIA_TYPE": 415,
})

BINARY_FORMATS = ("native", "rowbinary", "rowbinarywithnames", "rowbinarywithnamesandtypes",
                  "rowbinarywithdefaults", "parquet", "arrow", "arrowstream", "orc", "avro",
                  "protobuf", "protobufsingle", "capnproto", "msgpack", "bsoneachrow", "npy")


class ServerError(Exception):
    """A ClickHouse-style exception: code, NAME, message (without 'Code: ...').

    early: raised before the server has a session and an output stream
    (authentication): sent without the version suffix and never compressed,
    as a 26.x server does.
    """

    def __init__(self, code, name, text, early=False):
        super().__init__(text)
        self.code, self.name, self.text, self.early = code, name, text, early

    def body(self, version):
        if self.early:
            return "Code: %d. DB::Exception: %s (%s)" % (self.code, self.text, self.name)
        return "Code: %d. DB::Exception: %s (%s) (version %s)" % (
            self.code, self.text, self.name, version)


ERR_RE = re.compile(r"^\s*Code: (\d+)\. DB::Exception: (.*)$", re.S)
TAIL_RE = re.compile(r"\s*\(([A-Z][A-Z0-9_]*)\)\s*$")
VERSION_RE = re.compile(r" \(version [0-9.]+(?: \([^)]*\))?\)\.?")


def parse_engine_error(text, tmp_path=None):
    """chDB's error text -> ServerError (code, NAME, message)."""
    text = text.strip()
    if tmp_path:
        text = text.replace("(in file/uri %s)" % tmp_path, "(in the request body)")
        text = text.replace(tmp_path, "<request body>")
        text = text.replace("data for INSERT was parsed from file",
                            "data for INSERT was parsed from query")
    m = ERR_RE.match(text)
    if not m:
        return ServerError(1002, "UNKNOWN_EXCEPTION", text)
    code, rest = int(m.group(1)), m.group(2)
    # FROM INFILE and a few other paths nest the same exception: keep one
    prefix = "Code: %d. DB::Exception: " % code
    while rest.startswith(prefix):
        rest = rest[len(prefix):]
    rest = VERSION_RE.sub("", rest)
    name = "UNKNOWN_EXCEPTION"
    t = TAIL_RE.search(rest)
    if t:
        name = t.group(1)
        rest = rest[:t.start()]
        # a nested copy may have left "(NAME)." behind: drop it too
        t2 = TAIL_RE.search(rest.rstrip("."))
        if t2 and t2.group(1) == name:
            rest = rest.rstrip(".")[:t2.start()]
    return ServerError(code, name, rest.strip())


def http_status(err):
    return STATUS_BY_NAME.get(err.name, 500)


# ------------------------------------------------------------------ CityHash128 v1.0.2

M64 = (1 << 64) - 1
K0 = 0xc3a5c85c97cb3127
K1 = 0xb492b66fbe98f273
K2 = 0x9ae16a3b2f90404f
K3 = 0xc949d7c7509e6557
KMUL = 0x9ddfea08eb382d69


def _f64(s, i):
    return int.from_bytes(s[i:i + 8], "little")


def _f32(s, i):
    return int.from_bytes(s[i:i + 4], "little")


def _rot(v, n):
    return v if n == 0 else ((v >> n) | (v << (64 - n))) & M64


def _smix(v):
    return v ^ (v >> 47)


def _h16(u, v):
    a = ((u ^ v) * KMUL) & M64
    a ^= a >> 47
    b = ((v ^ a) * KMUL) & M64
    b ^= b >> 47
    return (b * KMUL) & M64


def _len0to16(s, off, n):
    if n > 8:
        a = _f64(s, off)
        b = _f64(s, off + n - 8)
        return _h16(a, _rot((b + n) & M64, n)) ^ b
    if n >= 4:
        a = _f32(s, off)
        return _h16((n + (a << 3)) & M64, _f32(s, off + n - 4))
    if n > 0:
        a, b, c = s[off], s[off + (n >> 1)], s[off + n - 1]
        y = a + (b << 8)
        z = n + (c << 2)
        return (_smix(((y * K2) ^ (z * K3)) & M64) * K2) & M64
    return K2


def _weak32(s, off, a, b):
    w, x, y, z = _f64(s, off), _f64(s, off + 8), _f64(s, off + 16), _f64(s, off + 24)
    a = (a + w) & M64
    b = _rot((b + a + z) & M64, 21)
    c = a
    a = (a + x) & M64
    a = (a + y) & M64
    b = (b + _rot(a, 44)) & M64
    return (a + z) & M64, (b + c) & M64


def _murmur(s, off, n, lo, hi):
    a, b = lo, hi
    if n <= 16:
        a = (_smix((a * K1) & M64) * K1) & M64
        c = (b * K1 + _len0to16(s, off, n)) & M64
        d = _smix((a + (_f64(s, off) if n >= 8 else c)) & M64)
    else:
        c = _h16((_f64(s, off + n - 8) + K1) & M64, a)
        d = _h16((b + n) & M64, (c + _f64(s, off + n - 16)) & M64)
        a = (a + d) & M64
        while True:
            a ^= (_smix((_f64(s, off) * K1) & M64) * K1) & M64
            a = (a * K1) & M64
            b ^= a
            c ^= (_smix((_f64(s, off + 8) * K1) & M64) * K1) & M64
            c = (c * K1) & M64
            d ^= c
            off += 16
            n -= 16
            if n <= 16:
                break
    a = _h16(a, c)
    b = _h16(d, b)
    return a ^ b, _h16(b, a)


def _city128_seed(s, off, n, lo, hi):
    if n < 128:
        return _murmur(s, off, n, lo, hi)
    x, y = lo, hi
    z = (n * K1) & M64
    v0 = (_rot(y ^ K1, 49) * K1 + _f64(s, off)) & M64
    v1 = (_rot(v0, 42) * K1 + _f64(s, off + 8)) & M64
    w0 = (_rot((y + z) & M64, 35) * K1 + x) & M64
    w1 = (_rot((x + _f64(s, off + 88)) & M64, 53) * K1) & M64
    while True:
        for _ in (0, 1):
            x = (_rot((x + y + v0 + _f64(s, off + 16)) & M64, 37) * K1) & M64
            y = (_rot((y + v1 + _f64(s, off + 48)) & M64, 42) * K1) & M64
            x ^= w1
            y ^= v0
            z = _rot(z ^ w0, 33)
            v0, v1 = _weak32(s, off, (v1 * K1) & M64, (x + w0) & M64)
            w0, w1 = _weak32(s, off + 32, (z + w1) & M64, y)
            z, x = x, z
            off += 64
        n -= 128
        if n < 128:
            break
    y = (y + _rot(w0, 37) * K0 + z) & M64
    x = (x + _rot((v0 + z) & M64, 49) * K0) & M64
    done = 0
    while done < n:
        done += 32
        y = (_rot((y - x) & M64, 42) * K0 + v1) & M64
        w0 = (w0 + _f64(s, off + n - done + 16)) & M64
        x = (_rot(x, 49) * K0 + w0) & M64
        w0 = (w0 + v0) & M64
        v0, v1 = _weak32(s, off + n - done, v0, v1)
    x = _h16(x, v0)
    y = _h16(y, w0)
    return (_h16((x + v1) & M64, w1) + y) & M64, _h16((x + w1) & M64, (y + v1) & M64)


def cityhash128(data):
    """CityHash128 v1.0.2 (ClickHouse's frame checksum) -> (lo, hi)."""
    s = bytes(data)
    n = len(s)
    if n >= 16:
        return _city128_seed(s, 16, n - 16, _f64(s, 0) ^ K3, _f64(s, 8))
    if n >= 8:
        return _city128_seed(b"", 0, 0, _f64(s, 0) ^ ((n * K0) & M64), _f64(s, n - 8) ^ K1)
    return _city128_seed(s, 0, n, K0, K1)


# ------------------------------------------------------------------ LZ4 / ZSTD / frames

def _load(name):
    path = ctypes.util.find_library(name)
    for cand in ([path] if path else []) + ["lib%s.so.1" % name]:
        try:
            return ctypes.CDLL(cand)
        except OSError:
            continue
    return None


_LZ4 = _load("lz4")
if _LZ4 is not None:
    _LZ4.LZ4_decompress_safe.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    _LZ4.LZ4_decompress_safe.restype = ctypes.c_int
    _LZ4.LZ4_compressBound.argtypes = [ctypes.c_int]
    _LZ4.LZ4_compressBound.restype = ctypes.c_int
    _LZ4.LZ4_compress_default.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    _LZ4.LZ4_compress_default.restype = ctypes.c_int
_ZSTD = _load("zstd")
if _ZSTD is not None:
    _ZSTD.ZSTD_decompress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    _ZSTD.ZSTD_decompress.restype = ctypes.c_size_t
    _ZSTD.ZSTD_isError.argtypes = [ctypes.c_size_t]
    _ZSTD.ZSTD_isError.restype = ctypes.c_uint


def _lz4_more_length(src, i, length, what):
    """An LZ4 length of 15 goes on in bytes up to the first one below 255."""
    while True:
        if i >= len(src):
            raise ValueError("truncated %s length" % what)
        b = src[i]
        i += 1
        length += b
        if b != 255:
            return length, i


def lz4_block_decompress_py(src, dsize):
    """Raw LZ4 block decoder in pure Python (fallback when liblz4 is missing)."""
    out = bytearray()
    i, n = 0, len(src)
    while i < n:
        token = src[i]
        i += 1
        lit = token >> 4
        if lit == 15:
            lit, i = _lz4_more_length(src, i, lit, "literal")
        if i + lit > n:
            raise ValueError("literals past the end")
        out += src[i:i + lit]
        i += lit
        if i == n:
            break
        if i + 2 > n:
            raise ValueError("truncated match offset")
        offset = src[i] | (src[i + 1] << 8)
        i += 2
        if offset == 0 or offset > len(out):
            raise ValueError("bad match offset")
        ml = token & 15
        if ml == 15:
            ml, i = _lz4_more_length(src, i, ml, "match")
        ml += 4
        start = len(out) - offset
        if ml <= offset:
            out += out[start:start + ml]
        else:
            for k in range(ml):
                out.append(out[start + k])
        if len(out) > dsize:
            raise ValueError("output longer than decompressed_size")
    return bytes(out)


def lz4_decompress(src, dsize):
    if _LZ4 is not None:
        buf = ctypes.create_string_buffer(max(dsize, 1))
        r = _LZ4.LZ4_decompress_safe(src, buf, len(src), dsize)
        if r < 0:
            raise ValueError("malformed LZ4 data")
        return buf.raw[:r]
    return lz4_block_decompress_py(src, dsize)


def lz4_compress(src):
    """One raw LZ4 block; a single literal run when liblz4 is missing."""
    if _LZ4 is not None:
        cap = _LZ4.LZ4_compressBound(len(src))
        buf = ctypes.create_string_buffer(cap)
        r = _LZ4.LZ4_compress_default(src, buf, len(src), cap)
        if r > 0:
            return buf.raw[:r]
    n = len(src)
    out = bytearray()
    if n >= 15:
        out.append(0xF0)
        rest = n - 15
        while rest >= 255:
            out.append(255)
            rest -= 255
        out.append(rest)
    else:
        out.append(n << 4)
    return bytes(out) + src


def decompress_frames(body):
    """A stream of ClickHouse compressed frames -> the plain bytes."""
    out = []
    pos, n = 0, len(body)
    while pos < n:
        if n - pos < 25:
            raise ServerError(33, "CANNOT_READ_ALL_DATA",
                              "Cannot read all data. Bytes read: %d. Bytes expected: 25." % (n - pos))
        method = body[pos + 16]
        csize, dsize = struct.unpack_from("<II", body, pos + 17)
        if csize < 9 or csize > 0x40000000:
            raise ServerError(271, "CANNOT_DECOMPRESS",
                              "Too large size_compressed_without_checksum: %d. "
                              "Most likely corrupted data." % csize)
        if pos + 16 + csize > n:
            raise ServerError(33, "CANNOT_READ_ALL_DATA",
                              "Cannot read all data. Bytes read: %d. Bytes expected: %d."
                              % (n - pos - 16, csize))
        want = struct.unpack_from("<QQ", body, pos)
        frame = body[pos + 16:pos + 16 + csize]
        got = cityhash128(frame)
        if tuple(got) != want:
            raise ServerError(40, "CHECKSUM_DOESNT_MATCH",
                              "Checksum doesn't match: corrupted data. Reference: %016x%016x. "
                              "Actual: %016x%016x. Size of compressed block: %d"
                              % (want[1], want[0], got[1], got[0], csize))
        payload = frame[9:]
        if method == 0x02:
            data = payload
        elif method == 0x82:
            try:
                data = lz4_decompress(payload, dsize)
            except ValueError as e:
                raise ServerError(271, "CANNOT_DECOMPRESS", "Cannot decompress LZ4-encoded data: %s" % e)
        elif method == 0x90:
            if _ZSTD is None:
                raise ServerError(48, "NOT_IMPLEMENTED",
                                  "ZSTD compressed frames need libzstd.so.1, which this test "
                                  "harness could not load")
            buf = ctypes.create_string_buffer(max(dsize, 1))
            r = _ZSTD.ZSTD_decompress(buf, dsize, payload, len(payload))
            if _ZSTD.ZSTD_isError(r):
                raise ServerError(271, "CANNOT_DECOMPRESS", "Cannot decompress ZSTD-encoded data")
            data = buf.raw[:r]
        else:
            raise ServerError(89, "UNKNOWN_COMPRESSION_METHOD",
                              "Unknown compression method: %d" % method)
        if len(data) != dsize:
            raise ServerError(271, "CANNOT_DECOMPRESS",
                              "Cannot decompress: %d bytes instead of %d" % (len(data), dsize))
        out.append(data)
        pos += 16 + csize
    return b"".join(out)


def compress_frames(data, chunk=1 << 20):
    """Plain bytes -> ClickHouse compressed frames (LZ4), like compress=1."""
    out = []
    for i in range(0, len(data), chunk) or [0]:
        piece = data[i:i + chunk]
        payload = lz4_compress(piece)
        hdr = struct.pack("<BII", 0x82, 9 + len(payload), len(piece))
        lo, hi = cityhash128(hdr + payload)
        out.append(struct.pack("<QQ", lo, hi) + hdr + payload)
    return b"".join(out)


# ------------------------------------------------------------------ SQL scanning

def _skip_ws_comments(s, i):
    n = len(s)
    while i < n:
        c = s[i:i + 1]
        if c in (b" ", b"\t", b"\n", b"\r", b"\f", b"\v"):
            i += 1
        elif s.startswith(b"--", i) or s.startswith(b"#", i):
            j = s.find(b"\n", i)
            i = n if j < 0 else j + 1
        elif s.startswith(b"/*", i):
            j = s.find(b"*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            break
    return i


def _quoted_end(s, i):
    q = s[i:i + 1]
    i += 1
    n = len(s)
    while i < n:
        c = s[i:i + 1]
        if c == b"\\":
            i += 2
        elif c == q:
            if s[i + 1:i + 2] == q:
                i += 2
            else:
                return i + 1
        else:
            i += 1
    return n


WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def tokens(s, start=0):
    """Yield (kind, start, end, depth) of a statement's tokens, lazily."""
    i, depth, n = start, 0, len(s)
    while True:
        i = _skip_ws_comments(s, i)
        if i >= n:
            return
        c = s[i:i + 1]
        if c in (b"'", b'"', b"`"):
            j = _quoted_end(s, i)
            yield ("quoted", i, j, depth)
        elif WORD.match(s, i):
            j = WORD.match(s, i).end()
            yield ("word", i, j, depth)
        elif c in (b"(", b"["):
            depth += 1
            j = i + 1
            yield ("open", i, j, depth)
        elif c in (b")", b"]"):
            depth -= 1
            j = i + 1
            yield ("close", i, j, depth)
        else:
            j = i + 1
            yield ("other", i, j, depth)
        i = j


def first_word(s):
    for kind, a, b, _ in tokens(s):
        return s[a:b].upper().decode("ascii", "replace") if kind == "word" else ""
    return ""


def split_insert(s):
    """For "INSERT ... FORMAT fmt<data>": (head, fmt, data_start, settings_pos).

    head is the statement up to the format name; settings_pos the offset of a
    top-level SETTINGS clause before FORMAT (or None). None when s is not an
    INSERT with a FORMAT clause (e.g. INSERT ... VALUES or INSERT ... SELECT).
    """
    it = tokens(s)
    t = next(it, None)
    if t is None or t[0] != "word" or s[t[1]:t[2]].upper() != b"INSERT":
        return None
    settings_pos = None
    for kind, a, b, depth in it:
        if kind != "word" or depth != 0:
            continue
        w = s[a:b].upper()
        if w in (b"VALUES", b"SELECT", b"WITH"):
            return None
        if w == b"SETTINGS" and settings_pos is None:
            settings_pos = a
        if w == b"FORMAT":
            j = _skip_ws_comments(s, b)
            m = WORD.match(s, j)
            if not m:
                return None
            fmt = s[j:m.end()].decode("ascii")
            k = m.end()
            # data starts after blanks and at most one line break
            while k < len(s) and s[k:k + 1] in (b" ", b"\t"):
                k += 1
            if s[k:k + 1] == b"\r":
                k += 1
            if s[k:k + 1] == b"\n":
                k += 1
            return s[:m.end()], fmt, k, settings_pos, a
    return None


def trailing_format(s):
    """The name in a top-level FORMAT clause of a statement, or None."""
    fmt = None
    toks = list(tokens(s))
    for idx, (kind, a, b, depth) in enumerate(toks):
        if kind == "word" and depth == 0 and s[a:b].upper() == b"FORMAT" and idx + 1 < len(toks):
            k2, a2, b2, _ = toks[idx + 1]
            if k2 == "word":
                fmt = s[a2:b2].decode("ascii")
    return fmt


def split_statements(text):
    """Split a SQL script on top-level semicolons (quotes and comments respected)."""
    s = text.encode() if isinstance(text, str) else text
    out, start = [], 0
    for kind, a, b, depth in tokens(s):
        if kind == "other" and s[a:b] == b";":
            stmt = s[start:a].strip()
            if _skip_ws_comments(stmt, 0) < len(stmt):
                out.append(stmt)
            start = b
    stmt = s[start:].strip()
    if _skip_ws_comments(stmt, 0) < len(stmt):
        out.append(stmt)
    return out


def set_statement_names(s):
    """The setting names a "SET a = 1, b = 'x'" statement assigns (else [])."""
    if first_word(s) != "SET":      # (never tokenise an INSERT's binary data)
        return []
    toks = list(tokens(s))
    names, expect = [], True
    for i, (kind, a, b, depth) in enumerate(toks[1:], 1):
        if depth != 0:
            continue
        if expect and kind == "word" and i + 1 < len(toks) and s[toks[i + 1][1]:toks[i + 1][2]] == b"=":
            name = s[a:b].decode("ascii")
            if name.upper() not in ("ROLE", "DEFAULT"):
                names.append(name)
            expect = False
        elif kind == "other" and s[a:b] == b",":
            expect = True
    return names


def quote_ident(name):
    return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"


def quote_literal(v):
    return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"


# ------------------------------------------------------------------ engine

class Engine:
    """One chDB connection; every method must be called with .lock held."""

    def __init__(self, path):
        os.makedirs(path, exist_ok=True)
        self.db = chdb.Chdb(path)
        self.lib = lib = self.db.lib
        self.conn = self.db._conn
        self.lock = threading.Lock()
        self.current = None              # query_id of the statement running now
        self.current_sql = ""
        self.cancel = threading.Event()  # set by KILL QUERY for the running statement
        vp, cp, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
        lib.chdb_query_n.argtypes = [vp, cp, sz, cp, sz]
        lib.chdb_query_n.restype = vp
        lib.chdb_stream_query_n.argtypes = [vp, cp, sz, cp, sz]
        lib.chdb_stream_query_n.restype = vp
        arr = ctypes.POINTER(cp)
        szp = ctypes.POINTER(sz)
        lib.chdb_query_with_params_n.argtypes = [vp, cp, sz, cp, sz, arr, szp, arr, szp, sz]
        lib.chdb_query_with_params_n.restype = vp
        lib.chdb_stream_query_with_params_n.argtypes = [vp, cp, sz, cp, sz, arr, szp, arr, szp, sz]
        lib.chdb_stream_query_with_params_n.restype = vp
        lib.chdb_stream_fetch_result.argtypes = [vp, vp]
        lib.chdb_stream_fetch_result.restype = vp
        lib.chdb_stream_cancel_query.argtypes = [vp, vp]
        lib.chdb_stream_cancel_query.restype = None
        for f in ("chdb_result_rows_read", "chdb_result_bytes_read",
                  "chdb_result_rows_written", "chdb_result_bytes_written"):
            getattr(lib, f).argtypes = [vp]
            getattr(lib, f).restype = ctypes.c_uint64
        self.version = self.simple("SELECT version()").strip()
        self.baseline = self.changed_settings()

    def _call(self, stream, sql, fmt, params):
        f = fmt.encode()
        if params:
            names = [k.encode() for k in params]
            vals = [v.encode() for v in params.values()]
            n = len(names)
            na = (ctypes.c_char_p * n)(*names)
            va = (ctypes.c_char_p * n)(*vals)
            nl = (ctypes.c_size_t * n)(*[len(x) for x in names])
            vl = (ctypes.c_size_t * n)(*[len(x) for x in vals])
            fn = self.lib.chdb_stream_query_with_params_n if stream else self.lib.chdb_query_with_params_n
            return fn(self.conn, sql, len(sql), f, len(f), na, nl, va, vl, n)
        fn = self.lib.chdb_stream_query_n if stream else self.lib.chdb_query_n
        return fn(self.conn, sql, len(sql), f, len(f))

    def _take(self, res):
        """(bytes, error text or None, stats) of a chdb_result; destroys it."""
        lib = self.lib
        if not res:
            return b"", "chdb returned no result", {}
        try:
            err = lib.chdb_result_error(res)
            n = lib.chdb_result_length(res)
            data = ctypes.string_at(lib.chdb_result_buffer(res), n) if n else b""
            stats = {"read_rows": lib.chdb_result_rows_read(res),
                     "read_bytes": lib.chdb_result_bytes_read(res),
                     "written_rows": lib.chdb_result_rows_written(res),
                     "written_bytes": lib.chdb_result_bytes_written(res),
                     "elapsed": lib.chdb_result_elapsed(res)}
            return data, (err.decode("utf-8", "replace") if err else None), stats
        finally:
            lib.chdb_destroy_query_result(res)

    def run(self, sql, fmt="TabSeparated", params=None):
        """Materialised run: (bytes, stats); raises ServerError."""
        data, err, stats = self._take(self._call(False, sql, fmt, params))
        if err:
            raise parse_engine_error(err)
        return data, stats

    def simple(self, sql, fmt="TabSeparated"):
        return self.run(sql.encode(), fmt)[0].decode()

    def run_streamed(self, sql, fmt, params=None):
        """Stream a SELECT: (chunks, ServerError or None, stats).

        Falls back to a materialised run for statements chDB cannot stream.
        An error after some chunks is returned, not raised.
        """
        h = self._call(True, sql, fmt, params)
        err = self.lib.chdb_result_error(h) if h else b"no result"
        if err:
            text = err.decode("utf-8", "replace")
            if h:
                self.lib.chdb_destroy_query_result(h)
            if "Streaming query is not supported" in text:
                data, stats = self.run(sql, fmt, params)
                return [data] if data else [], None, stats
            raise parse_engine_error(text)
        chunks, stats = [], {"read_rows": 0, "read_bytes": 0, "written_rows": 0,
                             "written_bytes": 0, "elapsed": 0.0, "result_rows": 0}
        failure = None
        try:
            while True:
                data, e, st = self._take(self.lib.chdb_stream_fetch_result(self.conn, h))
                for k in ("read_rows", "read_bytes"):
                    stats[k] = max(stats[k], st.get(k, 0))
                stats["elapsed"] = max(stats["elapsed"], st.get("elapsed", 0.0))
                if e:
                    failure = parse_engine_error(e)
                    break
                if not data:
                    break
                chunks.append(data)
                if self.cancel.is_set():
                    failure = ServerError(394, "QUERY_WAS_CANCELLED", "Query was cancelled.")
                    break
        finally:
            if failure is not None:
                self.lib.chdb_stream_cancel_query(self.conn, h)
            self.lib.chdb_destroy_query_result(h)
        return chunks, failure, stats

    def changed_settings(self):
        out = self.simple("SELECT name, value FROM system.settings WHERE changed FORMAT JSONEachRow")
        return {r["name"]: r["value"] for r in map(json.loads, filter(None, out.splitlines()))}

    def restore_settings(self, names):
        """Undo the settings a request changed (its URL settings, its SET
        statement): each back to its value at start, one SET at a time, so
        that a limit the request set (max_result_rows, readonly, ...) cannot
        stop its own reset."""
        for name in names:
            if name in self.baseline:
                sql = "SET %s = %s" % (name, quote_literal(self.baseline[name]))
            else:
                sql = "SET %s = DEFAULT" % name
            try:
                self.run(sql.encode())
            except ServerError as e:
                sys.stderr.write("front: could not reset setting %s: %s\n" % (name, e.text))


# ------------------------------------------------------------------ HTTP

class Front(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, engine, opts):
        self.engine = engine
        self.opts = opts
        self.users = {"default": "", "tester": "tester_pw"}
        for spec in opts.user or []:
            name, _, pw = spec.partition(":")
            self.users[name] = pw
        self.tmpdir = os.path.join(opts.state, "tmp")
        os.makedirs(self.tmpdir, exist_ok=True)
        super().__init__(addr, Handler)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "chdb-front"
    sys_version = ""
    # TCP_NODELAY on every connection (socketserver.StreamRequestHandler's
    # knob; libcurl sets it on its side by default): a response's headers and
    # body are separate writes, and with Nagle's algorithm the body waited for
    # the client's delayed ACK of the headers, ~40 ms per request. The bytes
    # sent are the same.
    disable_nagle_algorithm = True

    # -- plumbing

    def log_message(self, fmt, *args):
        if not self.server.opts.quiet:
            sys.stderr.write("%s front: %s\n" % (time.strftime("%H:%M:%S"), fmt % args))

    def handle_one_request(self):
        # idle keep-alive connections are closed after KEEP_ALIVE_TIMEOUT
        try:
            self.connection.settimeout(KEEP_ALIVE_TIMEOUT)
        except OSError:
            pass
        try:
            super().handle_one_request()
        except (socket.timeout, ConnectionError):
            self.close_connection = True

    def read_body(self):
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            parts = []
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    raise ConnectionError("connection closed inside a chunked body")
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while True:      # trailers
                        t = self.rfile.readline(65537)
                        if t in (b"\r\n", b"\n", b""):
                            break
                    break
                parts.append(self.rfile.read(size))
                self.rfile.readline(3)
            return b"".join(parts)
        n = int(self.headers.get("Content-Length") or 0)
        if n < 0 or n > MAX_BODY:
            raise ConnectionError("bad Content-Length")
        data = self.rfile.read(n) if n else b""
        if len(data) != n:
            raise ConnectionError("connection closed inside the body")
        return data

    def common_headers(self, query_id, fmt=None):
        self.send_header("X-ClickHouse-Server-Display-Name", "chdb-front")
        self.send_header("X-ClickHouse-Query-Id", query_id)
        self.send_header("X-ClickHouse-Timezone", "UTC")
        self.send_header("X-ClickHouse-Exception-Tag", self.tag)
        if fmt:
            self.send_header("X-ClickHouse-Format", fmt)
        if self.close_connection:
            self.send_header("Connection", "close")
        else:
            self.send_header("Connection", "Keep-Alive")
            self.send_header("Keep-Alive", "timeout=%d" % KEEP_ALIVE_TIMEOUT)

    def send_plain(self, status, body, query_id="", extra=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.common_headers(query_id)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Type", "text/plain; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def response_encodings(self, params):
        """(compress=1 frames?, HTTP Content-Encoding or None) for this request."""
        frames = params.get("compress") in ("1", "true")
        enc = None
        if params.get("enable_http_compression") in ("1", "true"):
            acc = (self.headers.get("Accept-Encoding") or "").lower()
            enc = "gzip" if "gzip" in acc else ("deflate" if "deflate" in acc else None)
        return frames, enc

    def send_exception(self, err, query_id="", params=None):
        """An error before the body started. Like a 26.x server, the text goes
        through the response's compression (compress=1 frames, HTTP gzip)
        unless it happened before the output was set up (authentication)."""
        body = (err.body(self.server.engine.version) + "\n").encode()
        extra = [("X-ClickHouse-Exception-Code", str(err.code))]
        if err.name == "REQUIRED_PASSWORD":
            extra.append(("WWW-Authenticate", 'Basic realm="ClickHouse server HTTP API"'))
        if not err.early and params:
            frames, enc = self.response_encodings(params)
            if frames:
                body = compress_frames(body)
            if enc:
                z = zlib.compressobj(3, zlib.DEFLATED, 31 if enc == "gzip" else 15)
                body = z.compress(body) + z.flush()
                extra.append(("Content-Encoding", enc))
        self.send_plain(http_status(err), body, query_id, extra)

    # -- methods

    def do_GET(self):
        self.handle_request(readonly=True)

    def do_POST(self):
        self.handle_request(readonly=False)

    def do_HEAD(self):
        self.handle_request(readonly=True)

    def handle_request(self, readonly):
        self.tag = "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(16))
        t0 = time.monotonic()
        try:
            self.connection.settimeout(SEND_TIMEOUT)
        except OSError:
            pass
        url = urllib.parse.urlsplit(self.path)
        params = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        try:
            body = self.read_body()
        except (ConnectionError, ValueError) as e:
            self.close_connection = True
            self.log_message("bad request body: %s", e)
            return
        path = url.path
        if path in ("/ping", "/replicas_status") or (path == "/" and "query" not in params and not body):
            self.send_plain(200, "Ok.\n")
            return
        if path != "/":
            self.send_plain(404, "There is no handle %s\n\nUse / or /ping for health checks.\n" % path)
            return
        query_id = self.headers.get("X-ClickHouse-Query-Id") or params.get("query_id") or str(uuid.uuid4())
        status, summary = 200, ""
        try:
            self.authenticate(params)
            status = self.execute(params, body, readonly, query_id)
        except ServerError as err:
            status = http_status(err)
            summary = " %s" % err.name
            self.send_exception(err, query_id, params)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            status = 0
        if not self.server.opts.quiet:
            sql = (params.get("query") or body[:200].decode("utf-8", "replace")).replace("\n", " ")
            self.log_message("%s %d%s %.0f ms %s: %s", self.command, status, summary,
                             (time.monotonic() - t0) * 1000, query_id, sql[:160])

    def log_request(self, code="-", size="-"):
        pass     # one line per request comes from handle_request

    def authenticate(self, params):
        h_user = self.headers.get("X-ClickHouse-User")
        h_key = self.headers.get("X-ClickHouse-Key")
        user, key = "default", ""
        if h_user is not None or h_key is not None:
            if self.headers.get("Authorization") or "user" in params or "password" in params:
                raise ServerError(516, "AUTHENTICATION_FAILED",
                                  "Invalid authentication: it is not allowed to use X-ClickHouse HTTP "
                                  "headers and other authentication methods simultaneously", early=True)
            user, key = h_user or "default", h_key or ""
        elif "user" in params or "password" in params:
            user, key = params.get("user", "default"), params.get("password", "")
        else:
            auth = self.headers.get("Authorization") or ""
            if auth.lower().startswith("basic "):
                try:
                    user, _, key = base64.b64decode(auth[6:].strip()).decode().partition(":")
                except (ValueError, UnicodeDecodeError):
                    user, key = "", ""
        if self.server.users.get(user) != key or user not in self.server.users:
            raise ServerError(516, "AUTHENTICATION_FAILED",
                              "%s: Authentication failed: password is incorrect, or there is no "
                              "user with such name." % user, early=True)
        self.user = user

    def execute(self, params, body, readonly, query_id):
        opts = self.server.opts
        engine = self.server.engine
        # request body encodings: HTTP Content-Encoding, then ClickHouse frames
        ce = (self.headers.get("Content-Encoding") or "").lower().strip()
        if ce in ("gzip", "x-gzip", "deflate"):
            try:
                body = zlib.decompress(body, 47 if ce != "deflate" else 15)
            except zlib.error as e:
                raise ServerError(354, "CANNOT_DECOMPRESS", "inflate failed: %s" % e)
        elif ce and ce != "identity":
            raise ServerError(48, "NOT_IMPLEMENTED",
                              "Content-Encoding %s is not supported by this test harness" % ce)
        if params.get("decompress") in ("1", "true"):
            body = decompress_frames(body)

        q = params.get("query")
        sql = q.encode() + b"\n" + body if (q is not None and body) else (q.encode() if q is not None else body)
        if not sql.strip():
            raise ServerError(62, "SYNTAX_ERROR", "Empty query")

        settings, qparams, controls = {}, {}, {}
        for k, v in params.items():
            if k in RESERVED:
                continue
            if k.startswith("x_test_"):
                # harness controls, not settings: x_test_lose_answer_once=1
                # performs an INSERT, then drops the connection without an
                # answer, once per insert_deduplication_token (retry tests)
                controls[k] = v
                continue
            if k.startswith("param_"):
                qparams[k[6:]] = v
                continue
            if not IDENT.match(k):
                raise ServerError(115, "UNKNOWN_SETTING", "Unknown setting '%s'" % k)
            settings[k] = v
        database = self.headers.get("X-ClickHouse-Database") or params.get("database") or "default"
        default_format = self.headers.get("X-ClickHouse-Format") or params.get("default_format") or "TabSeparated"
        if readonly and first_word(sql) not in ("SELECT", "WITH", "SHOW", "DESCRIBE", "DESC",
                                                "EXISTS", "EXPLAIN", "CHECK", ""):
            raise ServerError(164, "READONLY", "Cannot execute query in readonly mode. "
                                               "For queries over HTTP, method GET implies readonly. "
                                               "You should use method POST for modifying queries")
        try:
            # like the server: at least its 1 MiB output buffer
            buffer_bytes = max(int(params.get("buffer_size", opts.buffer_bytes)), opts.buffer_bytes)
        except ValueError:
            buffer_bytes = opts.buffer_bytes
        if params.get("wait_end_of_query") in ("1", "true"):
            buffer_bytes = float("inf")

        kill = KILL_RE.match(sql)
        if kill:
            return self.kill_query(kill, query_id)

        ins = split_insert(sql)
        tmp = None
        with engine.lock:
            engine.current, engine.current_sql = query_id, sql[:1000].decode("utf-8", "replace")
            engine.cancel.clear()
            try:
                engine.run(("USE %s" % quote_ident(database)).encode())
                for k, v in settings.items():
                    engine.run(("SET %s = %s" % (k, quote_literal(v))).encode())
                if ins is not None:
                    head, fmt, data_start, settings_pos, format_pos = ins
                    fd, tmp = tempfile.mkstemp(prefix="insert-", suffix="." + fmt.lower(),
                                               dir=self.server.tmpdir)
                    with os.fdopen(fd, "wb") as f:
                        f.write(sql[data_start:])
                    at = settings_pos if settings_pos is not None else format_pos
                    rewritten = (head[:at].rstrip() + (" FROM INFILE %s " % quote_literal(tmp)).encode()
                                 + head[at:])
                    try:
                        data, stats = engine.run(rewritten, default_format, qparams)
                    except ServerError as e:
                        raise parse_engine_error("Code: %d. DB::Exception: %s (%s)" % (e.code, e.text, e.name),
                                                 tmp)
                    chunks, failure = ([data] if data else []), None
                    out_fmt = default_format
                else:
                    out_fmt = trailing_format(sql) or default_format
                    if first_word(sql) in ("SELECT", "WITH", "("):
                        chunks, failure, stats = engine.run_streamed(sql, default_format, qparams)
                    else:
                        data, stats = engine.run(sql, default_format, qparams)
                        chunks, failure = ([data] if data else []), None
            finally:
                engine.current = None
                if tmp:
                    try:
                        os.unlink(tmp)
                    except OSError:
                        pass
                engine.restore_settings(list(settings) + set_statement_names(sql))
        if ins is not None and controls.get("x_test_lose_answer_once") == "1":
            token = settings.get("insert_deduplication_token") or query_id
            lost = self.server.__dict__.setdefault("lost_answers", set())
            if token not in lost:
                lost.add(token)
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return 0
        total = sum(len(c) for c in chunks)
        if failure is not None and total <= buffer_bytes:
            raise failure
        stats["result_bytes"] = total
        return self.send_result(chunks, failure, stats, out_fmt, query_id, params, buffer_bytes)

    def kill_query(self, m, query_id):
        """KILL QUERY WHERE query_id = '...' [SYNC|ASYNC], answered without the
        engine lock: flags the running statement, which stops at its next
        streamed chunk with QUERY_WAS_CANCELLED (394). A statement that is not
        streamed runs to its end."""
        engine = self.server.engine
        target = re.sub(r"\\(.)", r"\1", m.group(1).decode("utf-8", "replace"))
        rows = b""
        if engine.current is not None and engine.current == target:
            engine.cancel.set()
            sync = (m.group(2) or b"").upper() == b"SYNC"
            if sync:
                for _ in range(600):
                    if engine.current != target:
                        break
                    time.sleep(0.05)
            rows = ("%s\t%s\t%s\t%s\n" % ("finished" if sync else "waiting", target, self.user,
                                           engine.current_sql.replace("\t", " ").replace("\n", " "))).encode()
        return self.send_result([rows] if rows else [], None, {}, "TabSeparated", query_id, {},
                                self.server.opts.buffer_bytes)

    def send_result(self, chunks, failure, stats, fmt, query_id, params, buffer_bytes):
        compress, enc = self.response_encodings(params)
        data = b"".join(chunks)
        if compress:
            data = compress_frames(data)
        zobj = None
        if enc:
            zobj = zlib.compressobj(3, zlib.DEFLATED, 31 if enc == "gzip" else 15)
        chunked = failure is not None or len(data) > buffer_bytes
        if failure is not None:
            self.close_connection = True
        self.send_response(200)
        self.common_headers(query_id, fmt)
        lf = fmt.lower()
        if lf.startswith("json"):
            ctype = "application/json; charset=UTF-8"
        elif lf in ("tabseparated", "tsv") or lf.startswith("tabseparated") or lf.startswith("tsv"):
            ctype = "text/tab-separated-values; charset=UTF-8"
        elif lf.startswith("csv"):
            ctype = "text/csv; charset=UTF-8"
        elif lf in BINARY_FORMATS or compress:
            ctype = "application/octet-stream"
        else:
            ctype = "text/plain; charset=UTF-8"
        self.send_header("Content-Type", ctype)
        if enc:
            self.send_header("Content-Encoding", enc)
        summary = {"read_rows": stats.get("read_rows", 0), "read_bytes": stats.get("read_bytes", 0),
                   "written_rows": stats.get("written_rows", 0),
                   "written_bytes": stats.get("written_bytes", 0),
                   "total_rows_to_read": stats.get("read_rows", 0),
                   "result_rows": stats.get("result_rows", 0),
                   "result_bytes": stats.get("result_bytes", 0),
                   "elapsed_ns": int(stats.get("elapsed", 0.0) * 1e9)}
        self.send_header("X-ClickHouse-Summary", json.dumps({k: str(v) for k, v in summary.items()},
                                                            separators=(",", ":")))
        if not chunked:
            if zobj:
                data = zobj.compress(data) + zobj.flush()
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            return 200
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if self.command == "HEAD":
            return 200

        def chunk(b):
            if zobj:
                b = zobj.compress(b) + zobj.flush(zlib.Z_SYNC_FLUSH)
            if b:
                self.wfile.write(b"%x\r\n" % len(b) + b + b"\r\n")

        step = 1 << 20
        for i in range(0, len(data), step):
            chunk(data[i:i + step])
        if failure is None:
            if zobj:
                tail = zobj.flush()
                if tail:
                    self.wfile.write(b"%x\r\n" % len(tail) + tail + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
            return 200
        # a 25.11+ server's mid-stream exception block; no final chunk
        msg = failure.body(self.server.engine.version).encode()
        if not msg.endswith(b"\n"):
            msg += b"\n"
        block = (b"\r\n__exception__\r\n" + self.tag.encode() + b"\r\n" + msg
                 + b"%d " % len(msg) + self.tag.encode() + b"\r\n__exception__\r\n")
        if compress:
            # written through the same compressed stream as the data
            block = compress_frames(block)
        chunk(block)
        self.wfile.flush()
        self.close_connection = True
        return 200


# ------------------------------------------------------------------ client modes

def request(port, sql=None, body=b"", params=None, headers=None, method="POST", conn=None):
    """One HTTP request to the front: (status, headers dict, body)."""
    own = conn is None
    if own:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    p = dict(params or {})
    if sql is not None:
        p["query"] = sql
    path = "/" + ("?" + urllib.parse.urlencode(p) if p else "")
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    data = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    if own:
        conn.close()
    return r.status, hdrs, data


def load(port, path, quiet=False):
    """Send every statement of a SQL file, in order; stop at the first error."""
    with open(path, "rb") as f:
        stmts = split_statements(f.read())
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    for i, stmt in enumerate(stmts, 1):
        try:
            status, _, data = request(port, body=stmt, conn=conn)
        except (OSError, http.client.HTTPException) as e:
            sys.stderr.write("front --load: statement %d of %s: %s\n" % (i, path, e))
            return 1
        if status != 200:
            sys.stderr.write("front --load: statement %d of %s failed (HTTP %d):\n%s\n%s\n"
                             % (i, path, status, stmt.decode("utf-8", "replace")[:2000],
                                data.decode("utf-8", "replace")))
            return 1
    conn.close()
    if not quiet:
        print("front --load: %d statements of %s in %.2f s"
              % (len(stmts), path, time.monotonic() - t0))
    return 0


def self_check(port):
    """Protocol checks against a running front; prints 'N passed, N failed'."""
    results = []

    def ok(name, cond, info=""):
        results.append(bool(cond))
        print("%s %s%s" % ("ok  " if cond else "FAIL", name, ("  -- " + str(info)) if not cond else ""))

    st, h, b = request(port, method="GET", sql=None)
    ok("GET / -> Ok.", st == 200 and b == b"Ok.\n", (st, b))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/ping")
    r = conn.getresponse()
    ok("GET /ping", r.status == 200 and r.read() == b"Ok.\n")
    st, h, b = request(port, "SELECT 1", conn=conn)
    ok("keep-alive: second request on one connection", st == 200 and b == b"1\n", (st, b))
    st, h, b = request(port, body=b"SELECT 'x' AS s FORMAT JSONEachRow", conn=conn)
    ok("query in the body, FORMAT passed through", b == b'{"s":"x"}\n', b)
    st, h, b = request(port, "SELECT", body=b"2 + 2", conn=conn)
    ok("query parameter + body concatenated", b == b"4\n", b)
    st, h, b = request(port, "SELECT getSetting('max_block_size')", params={"max_block_size": "7"}, conn=conn)
    ok("URL setting applied", b == b"7\n", b)
    st, h, b = request(port, "SELECT getSetting('max_block_size') != 7", conn=conn)
    ok("URL setting reset after the request", b == b"1\n", b)
    st, h, b = request(port, "SELECT number FROM numbers(10)", conn=conn,
                       params={"max_result_rows": "2", "result_overflow_mode": "throw"})
    ok("a limit set by URL settings applies (396)", h.get("x-clickhouse-exception-code") == "396", (st, b))
    st, h, b = request(port, "SELECT count() FROM numbers(10)", conn=conn)
    st2, h2, b2 = request(port, "SELECT number FROM numbers(5) FORMAT TSV", conn=conn)
    ok("... and is reset afterwards", b == b"10\n" and b2.count(b"\n") == 5, (b, b2))
    st, h, b = request(port, "SET max_block_size = 11, max_threads = 1", conn=conn)
    st, h, b = request(port, "SELECT getSetting('max_block_size') != 11, getSetting('max_threads') != 1", conn=conn)
    ok("a SET statement lasts for its request only", b == b"1\t1\n", (st, b))
    st, h, b = request(port, "SELECT 1", params={"no such": "1"}, conn=conn)
    ok("non-identifier setting rejected (115)", st == 404 and h.get("x-clickhouse-exception-code") == "115", (st, b))
    st, h, b = request(port, "SELECT currentDatabase()", params={"database": "system"}, conn=conn)
    ok("database parameter", b == b"system\n", b)
    st, h, b = request(port, "SELECT {x:UInt8} + 1", params={"param_x": "41"}, conn=conn)
    ok("query parameters", b == b"42\n", b)
    st, h, b = request(port, "SELECT 1", params={"query_id": "my-id"}, conn=conn)
    ok("query_id echoed", h.get("x-clickhouse-query-id") == "my-id", h)
    st, h, b = request(port, "SELECT * FROM system.nosuch_table", conn=conn)
    ok("UNKNOWN_TABLE -> 404 + code 60", st == 404 and h.get("x-clickhouse-exception-code") == "60"
       and b.startswith(b"Code: 60. DB::Exception: ") and b.rstrip().endswith(b"(UNKNOWN_TABLE) (version 26.5.1.1)"), (st, b))
    st, h, b = request(port, "SELECT * FROM system.nosuch_table", params={"compress": "1"}, conn=conn)
    ok("with compress=1 the error text is a compressed frame too", st == 404
       and h.get("x-clickhouse-exception-code") == "60"
       and decompress_frames(b).startswith(b"Code: 60. DB::Exception: "), (st, b[:60]))
    st, h, b = request(port, "SELEC 1", conn=conn)
    ok("SYNTAX_ERROR -> 400 + code 62", st == 400 and h.get("x-clickhouse-exception-code") == "62", (st, b))
    st, h, b = request(port, "SELECT throwIf(1)", conn=conn)
    ok("other errors -> 500", st == 500 and h.get("x-clickhouse-exception-code") == "395", (st, b))
    st, h, b = request(port, "SELECT 1", headers={"X-ClickHouse-User": "tester", "X-ClickHouse-Key": "tester_pw"}, conn=conn)
    ok("tester/tester_pw accepted", st == 200, (st, b))
    st, h, b = request(port, "SELECT 1", headers={"X-ClickHouse-User": "tester", "X-ClickHouse-Key": "bad"}, conn=conn)
    ok("wrong key -> 403 + code 516 (plain text, no version: no session yet)", st == 403
       and h.get("x-clickhouse-exception-code") == "516" and b.endswith(b"(AUTHENTICATION_FAILED)\n"), (st, b))
    st, h, b = request(port, "INSERT INTO system.one VALUES (1)", method="GET", conn=conn)
    ok("GET is read-only (164)", h.get("x-clickhouse-exception-code") == "164", (st, b))
    conn.close()

    # inserts: by-name Native, LowCardinality, RowBinary, compressed frames
    request(port, "DROP DATABASE IF EXISTS front_check")
    request(port, "CREATE DATABASE front_check")
    st, h, b = request(port, "CREATE TABLE front_check.t (a UInt8, b String, c LowCardinality(String), "
                       "d UInt32 DEFAULT 42) ENGINE = MergeTree ORDER BY a")
    ok("CREATE TABLE", st == 200, b)
    _, _, nat = request(port, "SELECT 'x1' AS b, toUInt8(1) AS a, toLowCardinality('lc1') AS c FORMAT Native")
    st, h, b = request(port, "INSERT INTO front_check.t (a, b, c) FORMAT Native", body=nat)
    ok("Native INSERT, columns in another order (matched by name), LowCardinality-encoded", st == 200, b)
    _, _, rb = request(port, "SELECT toUInt8(2) AS a, 'x2' AS b FORMAT RowBinary")
    st, h, b = request(port, "INSERT INTO front_check.t (a, b) FORMAT RowBinary", body=rb)
    ok("RowBinary INSERT (positional)", st == 200, b)
    _, _, nat3 = request(port, "SELECT toUInt8(3) AS a, 'x3' AS b FORMAT Native")
    st, h, b = request(port, "INSERT INTO t (a, b) FORMAT Native", body=compress_frames(nat3),
                       params={"decompress": "1", "database": "front_check"})
    ok("decompress=1 (LZ4 frames) + database parameter", st == 200, b)
    bad = bytearray(compress_frames(nat3))
    bad[-1] ^= 1
    st, h, b = request(port, "INSERT INTO front_check.t (a, b) FORMAT Native", body=bytes(bad),
                       params={"decompress": "1"})
    ok("corrupted frame -> CHECKSUM_DOESNT_MATCH (40)", h.get("x-clickhouse-exception-code") == "40", (st, b))
    st, h, b = request(port, body=b"INSERT INTO front_check.t (a, b) FORMAT TSV\n4\tx4\n")
    ok("INSERT with inline TSV data in the body", st == 200, b)
    st, h, b = request(port, "SELECT a, b, c, d FROM front_check.t ORDER BY a")
    ok("rows read back", b == b"1\tx1\tlc1\t42\n2\tx2\t\t42\n3\tx3\t\t42\n4\tx4\t\t42\n", b)
    st, h, b = request(port, "SELECT a FROM front_check.t ORDER BY a FORMAT Native", params={"compress": "1"})
    ok("compress=1 response frames decode", decompress_frames(b) == request(
        port, "SELECT a FROM front_check.t ORDER BY a FORMAT Native")[2], b[:40])

    # large result: chunked; mid-stream exception after 200
    st, h, b = request(port, "SELECT number FROM numbers(500000) FORMAT Native")
    ok("large result (chunked)", st == 200 and len(b) > (1 << 20), len(b))
    good, info = check_midstream(port)
    ok("mid-stream exception: 200, data, __exception__ block, no final chunk", good, info)
    request(port, "DROP DATABASE IF EXISTS front_check")
    return results


def check_midstream(port):
    """Raw socket: the body of a query failing after 1 MiB of output."""
    sql = "SELECT number FROM numbers(1000000) WHERE throwIf(number = 400000) = 0 FORMAT Native"
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(sql), sql)).encode())
    parts = []
    while True:
        d = s.recv(1 << 16)
        if not d:
            break
        parts.append(d)
    s.close()
    raw = b"".join(parts)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    hdrs = {k.lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    tag = hdrs.get("x-clickhouse-exception-tag", "?").encode()
    m = re.search(rb"\r\n__exception__\r\n" + re.escape(tag) + rb"\r\n(Code: 395\..*?\n)(\d+) "
                  + re.escape(tag) + rb"\r\n__exception__\r\n\r\n$", body, re.S)
    good = (lines[0].startswith("HTTP/1.1 200") and hdrs.get("transfer-encoding") == "chunked"
            and m is not None and int(m.group(2)) == len(m.group(1)) and len(body) > (1 << 20)
            and not body.endswith(b"0\r\n\r\n"))
    return good, (lines[0], hdrs.get("transfer-encoding"), body[-300:])


def self_check_main(port):
    try:
        results = self_check(port)
    except (OSError, http.client.HTTPException) as e:
        print("FAIL could not talk to the front: %s" % e)
        return 1
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


# ------------------------------------------------------------------ main

def main(argv):
    ap = argparse.ArgumentParser(
        prog="front.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="chdb-front: %s.\n\nAnswers the subset of ClickHouse's HTTP interface that "
                    "clickhouse_fdw uses, running the queries on chDB (the ClickHouse 26.5 engine "
                    "as a library), for the FDW's tests only. Listens on 127.0.0.1 only; never "
                    "expose it." % BANNER,
        epilog="See the header of test/chdb/front.py for the supported interface.")
    ap.add_argument("--port", type=int, default=int(os.environ.get("CH_MODERN_PORT") or DEFAULT_PORT),
                    help="port on 127.0.0.1 (default $CH_MODERN_PORT or %d)" % DEFAULT_PORT)
    ap.add_argument("--state", default=os.path.join(REPO, ".state", "chdb-front"),
                    help="state directory (default <repo>/.state/chdb-front)")
    ap.add_argument("--path", help="chDB data directory (default <state>/data)")
    ap.add_argument("--user", action="append", metavar="NAME:PASSWORD",
                    help="another user (besides default and tester/tester_pw)")
    ap.add_argument("--buffer-bytes", type=int, default=DEFAULT_BUFFER,
                    help="bytes of result held before the response starts (default 1 MiB)")
    ap.add_argument("--quiet", action="store_true", help="no per-request log lines")
    ap.add_argument("--load", metavar="FILE",
                    help="client mode: send the statements of FILE to the running front, in order")
    ap.add_argument("--check", action="store_true",
                    help="client mode: protocol self-check against the running front")
    a = ap.parse_args(argv)

    if a.load:
        return load(a.port, a.load, a.quiet)
    if a.check:
        return self_check_main(a.port)

    os.makedirs(a.state, exist_ok=True)
    path = a.path or os.path.join(a.state, "data")
    tmpdir = os.path.join(a.state, "tmp")
    shutil.rmtree(tmpdir, ignore_errors=True)
    t0 = time.monotonic()
    engine = Engine(path)
    srv = Front(("127.0.0.1", a.port), engine, a)

    def stop(signum, frame):
        # wait for the statement in progress, then leave without running more
        with engine.lock:
            try:
                engine.db.close()
            finally:
                os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.stderr.write("chdb-front (%s): ClickHouse %s engine, http://127.0.0.1:%d/, data %s, "
                     "ready in %.2f s\n" % (BANNER, engine.version, a.port, path, time.monotonic() - t0))
    sys.stderr.flush()
    srv.serve_forever(poll_interval=0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
