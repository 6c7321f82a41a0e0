"""A small WebSocket server (RFC 6455) for the web_websocket test, on 127.0.0.1:PORT.

Usage: ws_server.py PORT [REPLY_FILE] (PORT 0: any free port). It prints "listening PORT"
once it listens, then one
line per message it gets ("PATH OPCODE LENGTH TEXT"). To each text or binary message it answers
with the bytes of REPLY_FILE as one binary message (without REPLY_FILE, it echoes the
message back). A close frame is answered with the same close frame (code and reason).
"""
import base64
import hashlib
import socketserver
import struct
import sys

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
REPLY = open(sys.argv[2], "rb").read() if len(sys.argv) > 2 else None


class Handler(socketserver.StreamRequestHandler):
    def send(self, opcode, data):
        n = len(data)
        if n < 126:
            head = struct.pack(">BB", 0x80 | opcode, n)
        elif n < 65536:
            head = struct.pack(">BBH", 0x80 | opcode, 126, n)
        else:
            head = struct.pack(">BBQ", 0x80 | opcode, 127, n)
        self.wfile.write(head + data)
        self.wfile.flush()

    def handle(self):
        request = self.rfile.readline().split()
        if len(request) < 2:
            return
        path = request[1].decode("latin-1")
        headers = {}
        while True:
            line = self.rfile.readline().decode("latin-1").strip()
            if not line:
                break
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        key = headers.get("sec-websocket-key", "")
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        self.wfile.write(
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Accept: {accept}\r\n\r\n"
            ).encode()
        )
        self.wfile.flush()
        while True:
            head = self.rfile.read(2)
            if len(head) < 2:
                return
            opcode, n = head[0] & 15, head[1] & 127
            if n == 126:
                n = struct.unpack(">H", self.rfile.read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self.rfile.read(8))[0]
            mask = self.rfile.read(4) if head[1] & 128 else b"\0\0\0\0"
            data = bytes(b ^ mask[k % 4] for k, b in enumerate(self.rfile.read(n)))
            print(path, opcode, len(data), data[:60].decode("utf-8", "replace"), flush=True)
            if opcode == 8:
                self.send(8, data)
                return
            if opcode in (1, 2):
                if REPLY is not None:
                    self.send(2, REPLY)
                else:
                    self.send(opcode, data)


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


with Server(("127.0.0.1", int(sys.argv[1])), Handler) as server:
    print("listening", server.server_address[1], flush=True)
    server.serve_forever()
