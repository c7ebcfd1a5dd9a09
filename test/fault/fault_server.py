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
Anything else (e.g. SELECT version()) gets a small valid answer.

Usage: fault_server.py PORT GOLDEN.bin   (Ctrl-C or SIGTERM to stop)
"""
import signal
import socket
import socketserver
import sys
import time

GOLDEN = b""


def native_version_block():
    # one column "version()" String, one row "18.16.1"
    name, typ, val = b"version()", b"String", b"18.16.1"
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

    def handle(self):
        while True:
            req = self.read_request()
            if req is None:
                return
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
    srv = Server(("127.0.0.1", port), Handler)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    srv.serve_forever()


if __name__ == "__main__":
    main()
