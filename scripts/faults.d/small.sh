# small.sh: the faults group of issue 25's "smaller ones" (point 6), one try per point:
#
#   gomod-module-path     a module zip whose go.mod names another module is refused, not indexed
#   busy-unpack, busy-crawl
#                         a second writer names the command holding the lock and its pid
#   reload-releases       a reloading server closes the generation it left at once (no fd into it,
#                         and the next unpack can remove it) and warns once, not once per session
#   anchor-agrees         resources/read and read_package_doc both refuse readme#nosuchanchor,
#                         naming the anchors there are
#   uri-1MB-*             a 1 MB URI or tool name is not echoed whole into the error
#   nested-100k-*         a body nested 100,000 deep is called too deeply nested, not "not JSON"
#
# Sourced by scripts/faults.sh, whose helpers it uses; everything listens on 127.0.0.1.

cat >"$W/small.py" <<'PY'
import io, json, os, socket, subprocess, sys, time, zipfile

def proxy_tree(root):
    """A GOPROXY tree: example.com/wanted@v1.0.0 whose zip's go.mod says module example.com/other."""
    mod, ver = "example.com/wanted", "v1.0.0"
    d = os.path.join(root, mod, "@v")
    os.makedirs(d, exist_ok=True)
    gomod = b"module example.com/other\n\ngo 1.22\n"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(mod + "@" + ver + "/go.mod", gomod)
        z.writestr(mod + "@" + ver + "/p.go", "// Package other is another module.\npackage other\n\n// Hello greets.\nfunc Hello() {}\n")
        z.writestr(mod + "@" + ver + "/README.md", "# other\n\nThe other module.\n")
    open(os.path.join(d, ver + ".zip"), "wb").write(buf.getvalue())
    open(os.path.join(d, ver + ".mod"), "wb").write(gomod)
    open(os.path.join(d, ver + ".info"), "w").write('{"Version":"%s","Time":"2024-01-01T00:00:00Z"}' % ver)
    open(os.path.join(d, "list"), "w").write(ver + "\n")

def stdio(binary, index, lines, timeout=20):
    init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"faults","version":"1"}}}'
    msgs = [init, '{"jsonrpc":"2.0","method":"notifications/initialized"}'] + lines
    p = subprocess.run([binary, "serve", "--stdio", "--index", index], input="\n".join(msgs) + "\n",
                       capture_output=True, text=True, timeout=timeout)
    out = {}
    for l in p.stdout.splitlines():
        try: m = json.loads(l)
        except ValueError: continue
        if isinstance(m, dict) and "id" in m: out[m["id"]] = (m, len(l))
    return out

def req(i, method, params):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params})

def errtext(m):
    """The error text of a reply: a JSON-RPC error's message and data, or an isError result's text."""
    if "error" in m:
        return m["error"].get("message", "") + " " + json.dumps(m["error"].get("data", ""))
    r = m.get("result") or {}
    if r.get("isError"):
        return " ".join(c.get("text", "") for c in r.get("content", []))
    return None

def anchor(binary, index):
    uri = "docidx://golang/example.com/hello@v1.0.0/readme#nosuchanchor"
    got = stdio(binary, index, [req(2, "resources/read", {"uri": uri}),
                                req(3, "tools/call", {"name": "read_package_doc", "arguments": {"uri": uri}})])
    if 2 not in got or 3 not in got: return "lost: no reply for " + ("2" if 2 not in got else "3")
    res, tool = errtext(got[2][0]), errtext(got[3][0])
    if res is None: return "wrong: resources/read returned the document: " + json.dumps(got[2][0])[:120]
    if tool is None: return "wrong: read_package_doc returned the document"
    for name, t in (("resources/read", res), ("read_package_doc", tool)):
        if "nosuchanchor" not in t or "#hello" not in t:
            return "wrong: %s error does not name the anchors there are: %s" % (name, t[:140])
    return "ok"

def long_uri(binary, index, case):
    x = "x" * (1 << 20)
    line = {
        "resource": req(2, "resources/read", {"uri": "docidx://golang/example.com/" + x + "@v1.0.0/readme"}),
        "tool-name": req(2, "tools/call", {"name": x, "arguments": {}}),
        "read-tool": req(2, "tools/call", {"name": "read_package_doc", "arguments": {"uri": "docidx://golang/example.com/hello@v1.0.0/doc/" + x}}),
    }[case]
    got = stdio(binary, index, [line])
    if 2 not in got: return "lost: no reply for id 2"
    m, n = got[2]
    if errtext(m) is None: return "wrong: not an error: " + json.dumps(m)[:120]
    if n > 64 << 10: return "wrong: a %d-byte reply to a 1 MB URI (%.1f copies of it)" % (n, n / len(x))
    return "ok"

DEEP = '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":' + "[" * 100000 + "]" * 100000 + "}}"

def nested_stdio(binary, index):
    got = stdio(binary, index, [DEEP])
    if 2 not in got and None not in got: return "lost: no reply to the nested line"
    m = (got.get(2) or got.get(None))[0]
    msg = (m.get("error") or {}).get("message", "")
    if "nested" not in msg or "10000" not in msg: return "wrong: " + msg[:140]
    return "ok"

def nested_http(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    body = DEEP.encode()
    s.sendall(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % (port, len(body))).encode() + body)
    data = b""
    while True:
        c = s.recv(65536)
        if not c: break
        data += c
    s.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    text = rest.decode("utf-8", "replace")
    if "nested" not in text or "10000" not in text:
        return "wrong: %s %s" % (head.split(b"\r\n")[0].decode(), " ".join(text.split())[:120])
    return "ok"

if __name__ == "__main__":
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "proxy-tree": proxy_tree(a[0])
    elif cmd == "anchor": print(anchor(a[0], a[1]))
    elif cmd == "long-uri": print(long_uri(a[0], a[1], a[2]))
    elif cmd == "nested-stdio": print(nested_stdio(a[0], a[1]))
    elif cmd == "nested-http": print(nested_http(int(a[0])))
PY

check_module_path() {
	if [ "$RC" -eq 0 ] && "$BIN" list --index "$SMALL_DIR" 2>&1 | grep -q 'example.com/wanted'; then
		echo "wrong: exit 0, example.com/other's zip indexed as example.com/wanted"
	elif [ "$RC" -ne 0 ] && grep -q 'example.com/other' "$1.err" && grep -q 'go.mod' "$1.err"; then
		echo ok
	else
		echo "wrong: exit $RC: $(first_line "$1.err")"
	fi
}

# check_busy PREFIX: the error names the holder's command ($HOLDER) and pid ($HOLDER_PID).
check_busy() {
	if [ "$RC" -eq 0 ]; then echo "wrong: exit 0 while $HOLDER held the lock"
	elif grep -q "another docidx $HOLDER (pid $HOLDER_PID) is writing" "$1.err"; then echo ok
	else echo "wrong: exit $RC: $(first_line "$1.err")"; fi
}

# reload_try: a server with three sessions; an unpack makes a new generation; once the server
# switched, it must hold no file of the generation it left, the next unpack must remove that
# generation, and the two reloads may log at most one notification warning each.
reload_try() {
	local d=$W/small-reload pid port i fds gone warns
	copy_base "$d"
	"$BIN" pack --index "$d" -o "$W/small-reload.tar.zst" >/dev/null 2>&1 || { record small reload-releases wrong "pack failed"; return; }
	http_start "$d" || return
	pid=$HTTP_PID port=$HTTP_PORT
	for i in 1 2 3; do
		python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import rpc; rpc.session(int(sys.argv[2]))' "$W" "$port" 2>/dev/null
	done
	"$BIN" unpack --index "$d" "$W/small-reload.tar.zst" >/dev/null 2>&1
	sleep 2.5 # the server checks CURRENT every second
	fds=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c "/$GEN/")
	"$BIN" unpack --index "$d" "$W/small-reload.tar.zst" >/dev/null 2>&1
	sleep 1.5
	gone=yes
	[ -d "$d/$GEN" ] && gone=no
	warns=$(grep -c 'calling notifications/resources/list_changed' "$W/http.$port.err")
	http_stop "$pid" "$port" small "reload server exit"
	if [ "$fds" -ne 0 ]; then record small reload-releases wrong "$fds fds into $GEN after the switch (no request in flight)"
	elif [ "$gone" != yes ]; then record small reload-releases wrong "$GEN still on disk after the next unpack"
	elif [ "$warns" -gt 2 ]; then record small reload-releases wrong "$warns list_changed warnings for 2 reloads of 3 sessions"
	else record small reload-releases ok; fi
}

group_small() {
	local proxy_port proxy_pid fifo holder_pid hole_port hole_pid
	# a. A module zip whose go.mod names another module.
	python3 "$W/small.py" proxy-tree "$W/small-proxy"
	proxy_port=$(rpc port)
	python3 -m http.server --bind 127.0.0.1 --directory "$W/small-proxy" "$proxy_port" >/dev/null 2>&1 &
	proxy_pid=$!
	BG_PIDS+=("$proxy_pid")
	wait_port "$proxy_port"
	SMALL_DIR=$W/small-gomod
	try small gomod-module-path check_module_path /dev/null "$BIN" crawl --index "$SMALL_DIR" --quiet --goproxy "http://127.0.0.1:$proxy_port/" go:example.com/wanted@v1.0.0
	kill "$proxy_pid" 2>/dev/null

	# b. The writer lock names its holder: an unpack reading a FIFO holds it while a crawl tries,
	# then a crawl fetching from a registry that never answers holds it while a compact tries.
	SMALL_DIR=$W/small-busy
	copy_base "$SMALL_DIR"
	"$BIN" pack --index "$SMALL_DIR" -o "$W/small-busy.tar.zst" >/dev/null 2>&1
	fifo=$W/small-busy.fifo
	mkfifo "$fifo"
	"$BIN" unpack --index "$SMALL_DIR" "$fifo" >/dev/null 2>&1 &
	holder_pid=$!
	BG_PIDS+=("$holder_pid")
	exec 7>"$fifo" # the unpack's open returns; it then waits for the archive's bytes, lock held
	sleep 1
	HOLDER=unpack HOLDER_PID=$holder_pid
	try small busy-unpack check_busy /dev/null "$BIN" crawl --index "$SMALL_DIR" --quiet --offline --go-modcache "$MODCACHE"
	# The whole archive, so that the unpack ends well: on an error it opens the FIFO again.
	cat "$W/small-busy.tar.zst" >&7
	exec 7>&-
	wait "$holder_pid" 2>/dev/null

	hole_port=$(rpc port)
	python3 -c 'import socket,sys,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64); time.sleep(60)' "$hole_port" &
	hole_pid=$!
	BG_PIDS+=("$hole_pid")
	sleep 0.3
	"$BIN" crawl --index "$SMALL_DIR" --quiet --npm-registry "http://127.0.0.1:$hole_port/" npm:leftpad@1.3.0 >/dev/null 2>&1 &
	holder_pid=$!
	BG_PIDS+=("$holder_pid")
	sleep 1.5
	HOLDER=crawl HOLDER_PID=$holder_pid
	try small busy-crawl check_busy /dev/null "$BIN" compact --index "$SMALL_DIR"
	kill "$holder_pid" "$hole_pid" 2>/dev/null
	wait "$holder_pid" 2>/dev/null

	# c. A reload releases the generation it left when its last request ends, and warns once.
	reload_try

	# d, e, f: over stdio (and HTTP for f).
	try small anchor-agrees py_verdict /dev/null python3 "$W/small.py" anchor "$BIN" "$BASE"
	for case in resource tool-name read-tool; do
		try small "uri-1MB-$case" py_verdict /dev/null python3 "$W/small.py" long-uri "$BIN" "$BASE" "$case"
	done
	try small nested-100k-stdio py_verdict /dev/null python3 "$W/small.py" nested-stdio "$BIN" "$BASE"
	copy_base "$W/small-http"
	if http_start "$W/small-http"; then
		try small nested-100k-http py_verdict /dev/null python3 "$W/small.py" nested-http "$HTTP_PORT"
		http_stop "$HTTP_PID" "$HTTP_PORT" small "nested server exit"
	fi
}
