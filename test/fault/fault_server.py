#!/usr/bin/env python3
"""A misbehaving HTTP "ClickHouse" for failure tests -- a test harness, NOT a server.

It answers clickhouse_fdw's HTTP requests with broken responses, chosen by the
table name in the query text:

  cut_mid_block    HTTP 200, chunked, the first 10,000 bytes of a valid Native
                   stream (which ends inside a block), then the socket is closed
                   without the final chunk: a server killed mid-scan.
  cut_at_boundary  HTTP 200, complete Native blocks, then the socket is closed
                   without the final chunk (the stream looks whole, the HTTP
                   response is not).
  garbage          HTTP 200 and bytes that are not a Native block.
  stall            HTTP 200 headers, then silence (for receive_timeout).
  refuse_after     closes the connection before answering.
Hostile streams (a server trying to exhaust the backend's memory or to pin
it); the endless ones run until the client goes away:
  code_flood       HTTP 200, "Code: 1000. DB::Exception: " then endless bytes.
  error_flood      HTTP 500, "Code: 1000. DB::Exception: " then endless bytes.
  zero_flood       HTTP 200, endless zero bytes (each pair is an empty block).
  zstd_bomb        one ZSTD frame whose decompressed_size is 1 GiB of zeros
  lz4_bomb         the same with LZ4 (both need compress=1 in the URL).
  zstd_zeros       endless ZSTD frames of 1 MiB of zeros (74 bytes each).
  lz4_zeros        endless LZ4 frames of 1 MiB of zeros.
  gzip_zeros       Content-Encoding: gzip, endless zeros (compression 'gzip').
  type_flood       endless one-row blocks, each with a new Enum8 type name.
  bad_utf8         HTTP 500 with an exception text that is not valid UTF-8.
  bad_code_header  HTTP 404 whose X-ClickHouse-Exception-Code overflows.
A request through a proxy (absolute URL) is answered like any other.
  dt64_overflow    one DateTime64(0) value whose microseconds overflow int64.
  date32_overflow  one Date32 value (INT32_MIN) whose day number overflows.
The frame files come from test/fault/make_frames.c (FRAMES_DIR).
A request whose URL says database=v24 is answered as ClickHouse 24.3 (which
gets compressed frames, compress=1); others as 18.16 (HTTP gzip).
Anything else (e.g. SELECT version()) gets a small valid answer.

Usage: fault_server.py PORT GOLDEN.bin [FRAMES_DIR]   (Ctrl-C or SIGTERM to stop)
"""
import os
import signal
import socket
import socketserver
import sys
import time

GOLDEN = b""
FRAMES = {}


def native_version_block(val=b"18.16.1"):
    # one column "version()" String, one row
    name, typ = b"version()", b"String"
    return (bytes([1, 1, len(name)]) + name + bytes([len(typ)]) + typ
            + bytes([len(val)]) + val)


class Handler(socketserver.BaseRequestHandler):
    def read_request(self):
        data = b""
        self.request.settimeout(10)
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        while len(body) < length:
            chunk = self.request.recv(65536)
            if not chunk:
                break
            body += chunk
        return head + b"\n" + body

    def send_headers(self):
        self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                             b"Transfer-Encoding: chunked\r\nConnection: Keep-Alive\r\n\r\n")

    def send_chunk(self, data):
        self.request.sendall(b"%x\r\n" % len(data) + data + b"\r\n")

    def endless(self, data, gzip=False):
        """Send data again and again until the client goes away."""
        try:
            if gzip:
                # one gzip stream that never ends: its header once, then
                # deflate blocks that reference nothing before them
                import zlib
                z = zlib.compressobj(9, zlib.DEFLATED, 31)
                while True:
                    self.send_chunk(z.compress(data) + z.flush(zlib.Z_FULL_FLUSH))
            while True:
                self.send_chunk(data)
        except OSError:
            return

    def hostile(self, req):
        """True if req asked for a hostile stream (which was then sent)."""
        if b"code_flood" in req:
            self.send_headers()
            try:
                self.send_chunk(b"Code: 1000. DB::Exception: ")
            except OSError:
                return True
            self.endless(b"x" * 65536)
            return True
        if b"error_flood" in req:
            self.request.sendall(b"HTTP/1.1 500 Internal Server Error\r\n"
                                 b"Transfer-Encoding: chunked\r\nConnection: Keep-Alive\r\n\r\n")
            try:
                self.send_chunk(b"Code: 1000. DB::Exception: ")
            except OSError:
                return True
            self.endless(b"y" * 65536)
            return True
        if b"zero_flood" in req:
            self.send_headers()
            self.endless(bytes(65536))
            return True
        for name in (b"zstd_bomb", b"lz4_bomb", b"zstd_zeros", b"lz4_zeros"):
            if name in req:
                self.send_headers()
                frame = FRAMES[name.decode()]
                if name.endswith(b"_bomb"):
                    try:
                        self.send_chunk(frame)
                        self.send_chunk(b"")
                    except OSError:
                        pass
                else:
                    self.endless(frame * 64)
                return True
        if b"gzip_zeros" in req:
            self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                                 b"Content-Encoding: gzip\r\n"
                                 b"Transfer-Encoding: chunked\r\nConnection: Keep-Alive\r\n\r\n")
            self.endless(bytes(1 << 20), gzip=True)
            return True
        if b"dt64_overflow" in req or b"date32_overflow" in req:
            # a value whose conversion overflows int64 (DateTime64: ticks
            # * 10^6 wraps to 10^15 us, a date in 2001) or int32 (Date32)
            import struct
            if b"dt64_overflow" in req:
                typ, val = b"DateTime64(0, 'UTC')", struct.pack("<q", 288230377151711744)
            else:
                typ, val = b"Date32", struct.pack("<i", -2**31)
            self.send_headers()
            self.send_chunk(bytes([1, 1, 1]) + b"v" + bytes([len(typ)]) + typ + val)
            self.send_chunk(b"")
            return True
        if b"type_flood" in req:
            self.send_headers()
            try:
                n = 0
                while True:
                    out = []
                    for _ in range(256):
                        typ = b"Enum8('v%d' = 1, 'w' = 2)" % n
                        n += 1
                        out.append(bytes([1, 1, 1]) + b"v" + bytes([len(typ)]) + typ + b"\x01")
                    self.send_chunk(b"".join(out))
            except OSError:
                pass
            return True
        return False

    def handle(self):
        while True:
            req = self.read_request()
            if req is None:
                return
            if self.hostile(req):
                return
            if b"bad_utf8" in req:
                # an exception text that is not valid UTF-8, with a control byte
                body = b"Code: 1000. DB::Exception: bad \xff\xfe bytes, \xe2\x82 cut, \x01 and \xe2\x82\xac ok"
                self.request.sendall(b"HTTP/1.1 500 Internal Server Error\r\n"
                                     b"X-ClickHouse-Exception-Code: 1000\r\n"
                                     b"Content-Length: %d\r\nConnection: Keep-Alive\r\n\r\n" % len(body) + body)
                continue
            if b"bad_code_header" in req:
                # an exception code header atoi() would turn into garbage
                body = b"Code: 60. DB::Exception: Table default.x doesn't exist."
                self.request.sendall(b"HTTP/1.1 404 Not Found\r\n"
                                     b"X-ClickHouse-Exception-Code: 99999999999999999999\r\n"
                                     b"Content-Length: %d\r\nConnection: Keep-Alive\r\n\r\n" % len(body) + body)
                continue
            if b"version()" in req and b"database=v24" in req:
                self.send_headers()
                self.send_chunk(native_version_block(b"24.3.1"))
                self.send_chunk(b"")
                continue
            if b"cut_mid_block" in req:
                self.send_headers()
                self.send_chunk(GOLDEN[:10000])
                return                    # close: no final chunk
            if b"cut_at_boundary" in req:
                self.send_headers()
                self.send_chunk(native_version_block())
                return
            if b"garbage" in req:
                self.send_headers()
                self.send_chunk(b"\x05\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01xyz")
                self.send_chunk(b"")
                continue
            if b"stall" in req:
                self.send_headers()
                time.sleep(30)
                return
            if b"refuse_after" in req:
                return
            self.send_headers()
            self.send_chunk(native_version_block())
            self.send_chunk(b"")


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def main():
    global GOLDEN
    port = int(sys.argv[1])
    GOLDEN = open(sys.argv[2], "rb").read()
    if len(sys.argv) > 3:
        for name in ("zstd_bomb", "lz4_bomb", "zstd_zeros", "lz4_zeros"):
            with open(os.path.join(sys.argv[3], name + ".bin"), "rb") as f:
                FRAMES[name] = f.read()
    srv = Server(("127.0.0.1", port), Handler)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    srv.serve_forever()


if __name__ == "__main__":
    main()
