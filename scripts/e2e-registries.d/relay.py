"""A relay that serves only the simple API of one package index, for make e2e-registries.

    python3 relay.py INDEX_URL

listens on 127.0.0.1 (it prints the port), and answers GET /+simple/<project>/ with what
INDEX_URL + <project>/ answers for the same Accept header: status, Content-Type and body, as
received. Every other path is 404, so docidx, given http://127.0.0.1:PORT/+simple/ as its index,
sees a mirror without the JSON API (the path is devpi's) and reads the real index's PEP 691 or
PEP 503 pages. File URLs in those pages are absolute and are fetched from the index directly.
Credentials in INDEX_URL are sent as basic auth and never printed.
"""
import base64
import http.server
import socketserver
import sys
import urllib.error
import urllib.parse
import urllib.request

u = urllib.parse.urlsplit(sys.argv[1])
AUTH = None
if u.username:
    pair = urllib.parse.unquote(u.username) + ":" + urllib.parse.unquote(u.password or "")
    AUTH = "Basic " + base64.b64encode(pair.encode()).decode()
host = u.hostname + (":%d" % u.port if u.port else "")
UPSTREAM = urllib.parse.urlunsplit((u.scheme, host, u.path.rstrip("/") + "/", "", ""))


class Relay(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if not self.path.startswith("/+simple/") or "?" in self.path:
            self.send_error(404)
            return
        headers = {"Accept": self.headers.get("Accept", "*/*")}
        if AUTH:
            headers["Authorization"] = AUTH
        req = urllib.request.Request(UPSTREAM + self.path[len("/+simple/"):], headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, ctype, body = r.status, r.headers.get("Content-Type", ""), r.read()
        except urllib.error.HTTPError as e:
            status, ctype, body = e.code, e.headers.get("Content-Type", ""), e.read()
        except OSError as e:
            status, ctype, body = 502, "text/plain", str(e).encode()
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Relay)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
