# deadline: issue 25 point 5, "no registry can stall a crawl". An npm registry on 127.0.0.1 that
# answers every request with 429 and Retry-After: 999999, trickles its packument or its tarball at
# one byte a second, or never answers at all, next to a Go module from the offline module cache:
# with a package deadline of 5 s (DOCIDX_PACKAGE_TIMEOUT, so that a docidx without the setting
# shows what it does without one: it hangs), the npm package fails with a clear error within the
# deadline, the Go module is indexed first (one worker, -j 1: the slow registry must not hold it),
# and the crawl exits 1 having written the snapshot. Also: the flag itself, its validation and its
# documented default.

# slowreg.py MODE PORT: a fake npm registry for package "stall" in one of the modes above.
deadline_server() {
	cat >"$W/slowreg.py" <<'PY'
import http.server, json, socketserver, sys, time

mode, port = sys.argv[1], int(sys.argv[2])
base = "http://127.0.0.1:%d" % port

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def trickle(self, n):
        self.send_response(200)
        self.send_header("Content-Length", str(n))
        self.end_headers()
        for _ in range(n):  # one byte a second until the client gives up
            try:
                self.wfile.write(b" "); self.wfile.flush()
            except OSError:
                return
            time.sleep(1)
    def do_GET(self):
        if mode == "hole":
            time.sleep(600); return
        if mode == "retry-after":
            self.send_response(429)
            self.send_header("Retry-After", "999999")
            self.send_header("Content-Length", "0")
            self.end_headers(); return
        if mode == "trickle" or self.path.endswith(".tgz"):
            self.trickle(100000); return
        body = json.dumps({"name": "stall", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": {
            "name": "stall", "version": "1.0.0",
            "dist": {"tarball": base + "/stall/-/stall-1.0.0.tgz", "shasum": "0" * 40}}}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

S(("127.0.0.1", port), H).serve_forever()
PY
}

# check_deadline: exit 1; in the --json summary the npm package failed with an error holding
# $WANT and the Go module was indexed; when the npm package waited out its deadline, the Go module
# came first (it did not wait for it).
check_deadline() {
	python3 - "$1.out" "$RC" "$WANT" <<'PY' 2>&1 || echo "wrong: exit $RC: $(first_line "$1.err")"
import json, sys
out, rc, want = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    res = json.load(open(out))["results"]
except Exception:
    print("wrong: exit %d, no --json summary on stdout" % rc); sys.exit()
npm = [i for i, r in enumerate(res) if r["spec"].startswith("npm:")]
go = [i for i, r in enumerate(res) if r["spec"].startswith("golang:")]
if not npm or not go:
    print("wrong: results %s" % [r["spec"] for r in res]); sys.exit()
n, g = res[npm[0]], res[go[0]]
if n["status"] != "failed" or want not in n.get("error", ""):
    print("wrong: npm package %s: %s, want failed with %r" % (n["status"], n.get("error", "")[:140], want))
elif g["status"] != "indexed":
    print("wrong: Go module %s: %s" % (g["status"], g.get("error", "")[:140]))
elif go[0] > npm[0] and "did not answer" in want:
    print("wrong: the Go module waited for the stalled npm package")
elif rc != 1:
    print("wrong: exit %d, want 1 (a package failed)" % rc)
else:
    print("ok")
PY
}

check_help_timeout() {
	if grep -qE -- '--package-timeout .*default: 2m0s' "$1.out"; then echo ok; else echo "wrong: crawl --help shows no --package-timeout with default 2m0s"; fi
}
check_timeout_zero() {
	if [ "$RC" -eq 2 ] && grep -q 'want a duration above 0' "$1.err"; then echo ok; else echo "wrong: exit $RC: $(first_line "$1.err")"; fi
}

group_deadline() {
	local mode port pid n=0
	deadline_server
	for mode in retry-after trickle trickle-tarball hole; do
		port=$(rpc port)
		python3 "$W/slowreg.py" "$mode" "$port" &
		pid=$!
		BG_PIDS+=("$pid")
		wait_port "$port"
		case $mode in
		retry-after) WANT="registry asked to retry after 277h46m39s" ;;
		*) WANT="npm registry http://127.0.0.1:$port/ did not answer within 5s; raise --package-timeout" ;;
		esac
		n=$((n + 1))
		DOCIDX_PACKAGE_TIMEOUT=5s WANT=$WANT try deadline "$mode" check_deadline /dev/null "$BIN" crawl --json --index "$W/deadline-$n" \
			-j 1 --go-modcache "$MODCACHE" --goproxy off --npm-registry "http://127.0.0.1:$port/" npm:stall@1.0.0 go:example.com/hello@v1.1.0
		if [ "$mode" = trickle ]; then # the flag, not the environment variable
			WANT="did not answer within 5s; raise --package-timeout" try deadline trickle-flag check_deadline /dev/null "$BIN" crawl --json --index "$W/deadline-flag" \
				--package-timeout 5s -j 1 --go-modcache "$MODCACHE" --goproxy off --npm-registry "http://127.0.0.1:$port/" npm:stall@1.0.0 go:example.com/hello@v1.1.0
		fi
		kill "$pid" 2>/dev/null
	done
	try deadline help-default check_help_timeout /dev/null "$BIN" crawl --help
	try deadline flag-zero check_timeout_zero /dev/null "$BIN" crawl --index "$W/deadline-zero" --package-timeout 0 npm:stall
}
