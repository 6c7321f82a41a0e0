"""A small HTTP server for the web_url_loader test, on 127.0.0.1:PORT (0: any free port).

It prints "listening PORT" once it listens. A POST is answered with "len=N fnv=H": the
body's length and its FNV-1a hash (32 bits, 8 hex digits), with the CORS and
cross-origin-isolation headers a cross-origin-isolated page needs to read it.
"""
import http.server
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def headers_out(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "POST")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")

    def do_OPTIONS(self):
        self.send_response(204)
        self.headers_out()
        self.end_headers()

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        h = 2166136261
        for b in body:
            h = ((h ^ b) * 16777619) & 0xFFFFFFFF
        reply = f"len={len(body)} fnv={h:08x}".encode()
        self.send_response(200)
        self.headers_out()
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)
        print(f"POST {self.path} {len(body)}", flush=True)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
