#!/usr/bin/env bash
# faults.sh: the fault benchmark of issue 15 ("Every fault is an error: no crash, no hang, no lost
# request, no leak"). It repeats the issue's black-box tries against a docidx binary and prints,
# per group, how many tries ended how:
#
#   ok     the expected clear error or result
#   crash  killed by a signal, or a Go panic / "fatal error" on stderr
#   hang   still running when its timeout ran out (every try has one, so a hang never blocks)
#   lost   a request that was read (or a connection that was accepted) but never answered
#   wrong  an answer, but not the expected clear error or result (also: a leaked Go type or path)
#
# Groups: snapshot (damaged files of a snapshot), stdio (malformed JSON-RPC over serve --stdio),
# http (serve --http: error shapes, sessions, a trickled body, SIGTERM with requests in flight),
# crawl (prune after a failed spec, FIFOs, SIGTERM, flag parsing, no-op crawls) and leaks (Go type
# names and host paths in what clients see). Further groups live one to a file in scripts/faults.d:
# NAME.sh defines group_NAME and may use every helper defined here; they run after these five, in
# the order of their file names.
#
# Offline and hermetic: every snapshot is crawled here with --offline from the repository's own
# test fixtures (registries/gomod/testdata/mod, registries/npm/testdata/node_modules); servers
# listen on 127.0.0.1 only. Takes about two minutes (longer when tries hang).
#
#   make faults                      # builds bin/docidx first
#   BIN=/path/to/docidx bash scripts/faults.sh
#
# Environment: BIN (default bin/docidx); ONLY="stdio http" runs only those groups; TRY_TIMEOUT
# (seconds per try, default 10); TRICKLE_WAIT (seconds a trickled request may stay open, default
# 60); KEEP=1 keeps the scratch directory with every try's stdout and stderr (try.GROUP.NAME.*).
# Needs bash, coreutils (timeout, truncate), mkfifo and python3 (the JSON-RPC checks: python keeps
# ids byte-for-byte, which jq does not). Exit status 0 when every try is ok, 1 otherwise.
set -u
cd "$(dirname "$0")/.."
REPO=$(pwd -P)
BIN=${BIN:-bin/docidx}
BIN=$(cd "$(dirname "$BIN")" && pwd -P)/$(basename "$BIN")
TRY_TIMEOUT=${TRY_TIMEOUT:-10}
TRICKLE_WAIT=${TRICKLE_WAIT:-60}
[ -x "$BIN" ] || { echo "faults: no docidx binary at $BIN (run make build, or set BIN=)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "faults: python3 is needed for the JSON-RPC checks" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/docidx-faults.XXXXXX")
W=$(cd "$W" && pwd -P)
RESULTS=$W/results.tsv
: >"$RESULTS"
BG_PIDS=()
cleanup() {
	local pid
	for pid in "${BG_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	wait 2>/dev/null
	if [ "${KEEP:-}" = 1 ]; then echo "faults: scratch kept in $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

MODCACHE=$REPO/registries/gomod/testdata/mod
NODE_MODULES=$REPO/registries/npm/testdata/node_modules
PROTO=2025-06-18
INITIALIZED='{"jsonrpc":"2.0","method":"notifications/initialized"}'
init_line() { # init_line [ID [PROTOCOL]]: an initialize request
	printf '{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"faults","version":"1"}}}\n' "${1:-1}" "${2:-$PROTO}"
}
ping_line() { printf '{"jsonrpc":"2.0","id":%s,"method":"ping"}\n' "$1"; }
search_line() { printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"%s"}}}\n' "$1" "${2:-greet someone by name}"; }

# ---------------------------------------------------------------------------------------------
# Recording and running tries.

# record GROUP NAME OUTCOME [DETAIL]: one try's outcome (ok, crash, hang, lost, wrong, or skip).
record() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >>"$RESULTS"
	case $3 in
	ok) ;;
	skip) printf '  skip  %-9s %s: %s\n' "$1" "$2" "${4:-}" ;;
	*) printf '  FAIL  %-9s %s: %s: %s\n' "$1" "$2" "$3" "$(printf '%s' "${4:-}" | tr '\n\t' '  ' | cut -c1-160)" ;;
	esac
}

# run_cmd PREFIX STDIN CMD...: runs CMD under `timeout` (TERM at TRY_TIMEOUT, KILL 3 s later)
# with an address-space cap, so a runaway read fails instead of taking the machine's memory.
# Stdout goes to PREFIX.out, stderr to PREFIX.err; the exit status is left in RC.
run_cmd() {
	local p=$1 in=$2
	shift 2
	# The outer braces take bash's "Killed" notice when timeout has to SIGKILL.
	{ (
		ulimit -v 8388608 2>/dev/null
		exec timeout -k 3 "$TRY_TIMEOUT" "$@"
	) <"$in" >"$p.out" 2>"$p.err"; } 2>/dev/null
	RC=$?
}

# fault_of PREFIX: prints "crash DETAIL" or "hang DETAIL" when the run in RC was one, else nothing.
fault_of() {
	local p=$1 line
	if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
		echo "hang no exit within ${TRY_TIMEOUT}s"
	elif line=$(grep -m1 -E '^(panic: |fatal error: )|^goroutine [0-9]+ \[|^\[signal ' "$p.err"); then
		echo "crash $line"
	elif [ "$RC" -gt 128 ]; then
		echo "crash killed by signal $((RC - 128))"
	fi
}

# try GROUP NAME CHECK STDIN CMD...: runs CMD once (see run_cmd) and records its outcome: crash or
# hang from fault_of, else what the shell function CHECK prints when called with the output
# prefix ("ok", or "wrong: why" / "lost: why"); CHECK sees the exit status in RC.
try() {
	local group=$1 name=$2 check=$3 in=$4 p f verdict
	shift 4
	p=$W/try.$group.$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' _)
	run_cmd "$p" "$in" "$@"
	f=$(fault_of "$p")
	if [ -n "$f" ]; then
		record "$group" "$name" "${f%% *}" "${f#* }"
		return
	fi
	verdict=$("$check" "$p")
	case $verdict in
	ok) record "$group" "$name" ok ;;
	lost*) record "$group" "$name" lost "${verdict#lost: }" ;;
	hang*) record "$group" "$name" hang "${verdict#hang: }" ;;
	*) record "$group" "$name" wrong "${verdict#wrong: }" ;;
	esac
}

first_line() { grep -m1 -v '^[[:space:]]*$' "$1" | cut -c1-140; }
# wait_port PORT: waits up to 5 s for a server started in the background to accept on PORT.
wait_port() { for _ in $(seq 50); do (: </dev/tcp/127.0.0.1/"$1") 2>/dev/null && return; sleep 0.1; done; }

# The JSON-RPC checks, in python because they must see ids exactly as written (1.5, 2^63, ...).
cat >"$W/rpc.py" <<'PY'
import json, os, re, signal, socket, sys, threading, time

class Num(str):
    """A JSON number kept as its source text."""

def loads(text):
    return json.loads(text, parse_int=Num, parse_float=Num, parse_constant=Num)

def idtext(v):
    if v is None: return "null"
    if isinstance(v, Num): return str(v)
    return json.dumps(v, separators=(",", ":"))

def messages(lines):
    """The JSON-RPC messages in lines (a batch reply is several); bad lists the non-JSON lines."""
    msgs, bad = [], []
    for line in lines:
        line = line.strip()
        if not line: continue
        try: v = loads(line)
        except ValueError: bad.append(line[:80]); continue
        msgs.extend(v if isinstance(v, list) else [v])
    return [m for m in msgs if isinstance(m, dict)], bad

def kind(m):
    if "error" in m:
        e = m["error"] if isinstance(m["error"], dict) else {}
        return "error", str(e.get("code")), json.dumps(e)
    r = m.get("result")
    if isinstance(r, dict) and r.get("isError") is True:
        return "toolerror", None, json.dumps(r)
    return "result", None, json.dumps(r)

def term_ok(m, want):
    k, code, _ = kind(m)
    if want in ("", "any"): return True
    if want == "result": return k == "result"
    if want == "err": return k in ("error", "toolerror")
    if want == "nz": return k == "error" and code not in ("0", "None")
    return k == "error" and code == want

def check(out, specs):
    """Each spec must hold: alternatives split by |, terms by &, a term is ID[:WANT] with WANT one
    of result, err (JSON-RPC or tool error), nz (JSON-RPC error, code not 0), a code, or nothing.
    ID null matches one error reply with id null (each such reply serves one term)."""
    with open(out, encoding="utf-8", errors="replace") as f:
        msgs, bad = messages(f.read().split("\n"))
    if bad: return "wrong: stdout line is not JSON-RPC: " + bad[0]
    byid = {}
    nulls = []
    for m in msgs:
        if "id" not in m: continue
        if m["id"] is None: nulls.append(m)
        else: byid.setdefault(idtext(m["id"]), []).append(m)
    mentioned, lost, wrong = set(), [], []
    used_nulls = 0
    for spec in specs:
        alts = [[t.split(":", 1) + [""] * (1 - t.count(":")) for t in a.split("&")] for a in spec.split("|")]
        for a in alts:
            for i, _ in a:
                if i != "null": mentioned.add(i)
        ok = False
        for a in alts:
            need_null = [w for i, w in a if i == "null"]
            avail = nulls[used_nulls:]
            if len(need_null) > len(avail): continue
            if not all(term_ok(avail[j], w) for j, w in enumerate(need_null)): continue
            if all(any(term_ok(m, w) for m in byid.get(i, [])) for i, w in a if i != "null"):
                used_nulls += len(need_null); ok = True; break
        if ok: continue
        ids = [i for a in alts for i, _ in a if i != "null"]
        got = [kind(m)[2][:100] for i in ids for m in byid.get(i, [])] + [kind(m)[2][:100] for m in nulls[used_nulls:]]
        if got: wrong.append("%s: got %s" % (spec, got[0]))
        else: lost.append(spec)
    if lost:
        stray = sorted(set(byid) - mentioned)
        if stray: return "wrong: no reply for %s; replies with ids %s" % (", ".join(lost), ", ".join(stray))
        return "lost: no reply for " + ", ".join(lost)
    if wrong: return "wrong: " + "; ".join(wrong)
    return "ok"

# Go type names as encoding/json and the SDK spell them in their errors.
GOISH = re.compile(r"\b(mcp|jsonrpc|json|jsonschema)\.[A-Z]\w+|Go (struct field|value of type)|map\[string\]|\binterface \{\}|unmarshaling .* into")

def leak(out, ident, paths):
    """The reply to ident must exist and mention no Go type names and none of paths."""
    with open(out, encoding="utf-8", errors="replace") as f:
        msgs, _ = messages(f.read().split("\n"))
    for m in msgs:
        if "id" in m and idtext(m["id"]) == ident:
            text = json.dumps(m, ensure_ascii=False).replace("\\/", "/")
            g = GOISH.search(text)
            if g: return "wrong: Go type in reply: ..." + text[max(0, g.start() - 40):g.end() + 40]
            for p in paths:
                if p and p in text:
                    i = text.index(p)
                    return "wrong: host path %s in reply: ...%s" % (p, text[max(0, i - 30):i + len(p) + 30])
            return "ok"
    return "lost: no reply for id " + ident

# ---- HTTP ----

def http(port, method, path, body=b"", headers=None, timeout=10):
    """One HTTP/1.1 request on its own connection: (status, headers dict, body bytes)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        h = {"Host": "127.0.0.1:%d" % port, "Connection": "close", "Content-Length": str(len(body))}
        h.update(headers or {})
        req = "%s %s HTTP/1.1\r\n" % (method, path) + "".join("%s: %s\r\n" % kv for kv in h.items()) + "\r\n"
        s.sendall(req.encode() + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
    finally:
        s.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    hdrs = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    if "chunked" in hdrs.get("transfer-encoding", ""):
        out = b""
        while rest:
            n, _, rest = rest.partition(b"\r\n")
            n = int(n.split(b";")[0] or b"0", 16)
            if n == 0: break
            out += rest[:n]; rest = rest[n + 2:]
        rest = out
    return status, hdrs, rest

MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

def rpc_bodies(hdrs, body):
    """The JSON-RPC messages of a response body: plain JSON or the data lines of an SSE stream."""
    text = body.decode("utf-8", "replace")
    if hdrs.get("content-type", "").startswith("text/event-stream"):
        lines = [l[5:].strip() for l in text.split("\n") if l.startswith("data:")]
    else:
        lines = [text]
    return messages(lines)[0]

def session(port):
    st, h, b = http(port, "POST", "/mcp", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "faults", "version": "1"}}}).encode(), MCP_HEADERS)
    sid = h.get("mcp-session-id", "")
    hs = dict(MCP_HEADERS, **{"MCP-Protocol-Version": "2025-06-18"})
    if sid: hs["Mcp-Session-Id"] = sid
    http(port, "POST", "/mcp", b'{"jsonrpc":"2.0","method":"notifications/initialized"}', hs)
    return hs

def http_case(port, case):
    hs = session(port)
    if case == "ids-verbatim":
        for ident in ("1.5", "123456789012345678901234567890", "9223372036854775808", "-0", '"a<b>&c"'):
            st, h, b = http(port, "POST", "/mcp", ('{"jsonrpc":"2.0","id":%s,"method":"ping"}' % ident).encode(), hs)
            got = [idtext(m.get("id")) for m in rpc_bodies(h, b)]
            if got != [ident]: return "wrong: id %s came back as %s" % (ident, got or "nothing")
        return "ok"
    if case == "params-leak":
        st, h, b = http(port, "POST", "/mcp", b'{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":5}}', hs)
        text = b.decode("utf-8", "replace")
        g = GOISH.search(text)
        if g: return "wrong: Go type in reply: ..." + text[max(0, g.start() - 40):g.end() + 40]
        if not any(isinstance(m.get("error"), dict) and m["error"].get("code") == -32602 or str(m.get("error", {}).get("code")) == "-32602" for m in rpc_bodies(h, b)):
            return "wrong: want -32602, got %d %s" % (st, " ".join(text[:100].split()))
        return "ok"
    bodies = {
        "unknown-method": ('{"jsonrpc":"2.0","id":2,"method":"no/such/method"}', ["-32601"]),
        "notification-with-id": ('{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}', ["-32600", "-32601"]),
        "id-null": ('{"jsonrpc":"2.0","id":null,"method":"ping"}', ["-32600"]),
        "batch": ('[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]', ["-32600"]),
        "no-session-id": ('{"jsonrpc":"2.0","id":6,"method":"tools/list"}', None),
    }
    body, codes = bodies[case]
    if case == "no-session-id":
        hs = dict(MCP_HEADERS, **{"MCP-Protocol-Version": "2025-06-18"})
    st, h, b = http(port, "POST", "/mcp", body.encode(), hs)
    ct = h.get("content-type", "")
    desc = "%d %s %s" % (st, ct or "(no content type)", " ".join(b[:100].decode("utf-8", "replace").split()))
    msgs = rpc_bodies(h, b)
    errs = [str(m["error"].get("code")) for m in msgs if isinstance(m.get("error"), dict)]
    if case == "no-session-id":
        if st == 400 and ct.startswith("application/json") and errs: return "ok"
        return "wrong: want 400 with a JSON-RPC error body, got " + desc
    if case == "batch" and sorted(idtext(m.get("id")) for m in msgs if "result" in m) == ["4", "5"]:
        return "ok"
    if not ct.startswith(("application/json", "text/event-stream")) or not errs:
        return "wrong: want a JSON-RPC error %s as JSON, got %s" % ("/".join(codes), desc)
    if not any(c in codes for c in errs):
        return "wrong: want code %s, got %s" % ("/".join(codes), ",".join(errs))
    return "ok"

def trickle(port, wait):
    """Send a POST's headers, then its body one byte per 2 s; the server should give up on it."""
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"slow","version":"1"}}}'
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n" % (port, len(body))
    s.sendall(head.encode())
    start = time.time()
    for i in range(len(body)):
        if time.time() - start > wait:
            return "hang: the connection is still open after %ds of a 1-byte-per-2s body" % wait
        try:
            s.sendall(body[i:i + 1])
            s.settimeout(2)
            s.recv(4096)  # data (e.g. a 408) or b"" (closed): the server gave up on the body
            return "ok"
        except socket.timeout:
            continue
        except OSError:
            return "ok"
    return "wrong: the whole body was read without the server closing the connection"

SPREAD = 0.1  # seconds over which inflight starts its requests; SIGTERM comes halfway

def inflight(port, n, pid):
    """n requests spread over SPREAD seconds on their own connections, SIGTERM to the server halfway.
    A request whose connection was accepted and whose bytes were sent must get an HTTP response;
    one refused at connect (the listener already closed) was never in flight and is not counted."""
    hs = session(port)
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search_package_docs", "arguments": {"query": "greet someone by name"}}}).encode()
    h = {"Host": "127.0.0.1:%d" % port, "Connection": "close", "Content-Length": str(len(body))}
    h.update(hs)
    req = "POST /mcp HTTP/1.1\r\n".encode() + "".join("%s: %s\r\n" % kv for kv in h.items()).encode() + b"\r\n" + body
    res = [None] * n
    t0 = time.time()
    def one(i):
        time.sleep(max(0, t0 + SPREAD * i / n - time.time()))
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            res[i] = "refused"; return
        data = b""
        try:
            s.sendall(req)
            while True:
                c = s.recv(65536)
                if not c: break
                data += c
        except OSError:
            pass
        finally:
            s.close()
        res[i] = "answered" if data.startswith(b"HTTP/1.1 ") else "lost"
    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts: t.start()
    time.sleep(max(0, t0 + SPREAD / 2 - time.time()))
    os.kill(pid, signal.SIGTERM)
    for t in ts: t.join()
    a, l, r = res.count("answered"), res.count("lost"), res.count("refused")
    if l: return "lost: %d of %d requests in flight at SIGTERM got no answer (reset or closed; %d answered, %d refused at connect)" % (l, a + l, a, r)
    return "ok"

if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "check": print(check(args[0], args[1:]))
    elif cmd == "leak": print(leak(args[0], args[1], args[2:]))
    elif cmd == "http": print(http_case(int(args[0]), args[1]))
    elif cmd == "trickle": print(trickle(int(args[0]), int(args[1])))
    elif cmd == "inflight": print(inflight(int(args[0]), int(args[1]), int(args[2])))
    elif cmd == "healthz":
        for _ in range(100):
            try:
                if http(int(args[0]), "GET", "/healthz", timeout=2)[0] == 200: sys.exit(0)
            except OSError: pass
            time.sleep(0.1)
        sys.exit(1)
    elif cmd == "port":
        s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
rpc() { python3 "$W/rpc.py" "$@"; }

# Checks for try: each prints ok, or wrong:/lost: with the reason.
py_verdict() { # the checker's own verdict, the last line it printed
	local v
	v=$(tail -n1 "$1.out")
	case $v in ok | wrong:* | lost:* | hang:*) echo "$v" ;; *) echo "wrong: checker failed (exit $RC): $(tail -n1 "$1.err")" ;; esac
}

# ---------------------------------------------------------------------------------------------
# Fixtures: a small snapshot crawled offline from the repository's test fixtures.

BASE=$W/base
crawl_base() {
	if ! "$BIN" crawl --index "$BASE" --offline --quiet --go-modcache "$MODCACHE" --node-modules "$NODE_MODULES" 2>"$W/base.err"; then
		echo "faults: cannot crawl the fixture snapshot:" >&2
		cat "$W/base.err" >&2
		exit 2
	fi
	GEN=$(cat "$BASE/CURRENT")
}
copy_base() { rm -rf "$1" && cp -a "$BASE" "$1"; }

# ---------------------------------------------------------------------------------------------
# 1. snapshot: damage one file of a copy of the snapshot, then search, show and a stdio session.

# damage DIR KIND: damages the snapshot in DIR; prints the pattern the error must name.
damage() {
	# The search indexes are in the one segment beside the generation (the fixture is crawled once).
	local d=$1 g=$1/$GEN s=$1/seg-000001 zap
	zap=$(find "$s/search.bleve/store" -name '*.zap' | head -n1)
	case $2 in
	intact) echo '' ;;
	store.db-half) truncate -s $(($(stat -c %s "$g/store.db") / 2)) "$g/store.db" && echo 'store\.db' ;;
	store.db-empty) : >"$g/store.db" && echo 'store\.db' ;;
	root.bolt-empty) : >"$s/search.bleve/store/root.bolt" && echo 'root\.bolt|search\.bleve' ;;
	root.bolt-removed) rm "$s/search.bleve/store/root.bolt" && echo 'root\.bolt|search\.bleve' ;;
	index_meta-garbage) echo 'garbage{' >"$s/search.bleve/index_meta.json" && echo 'index_meta\.json|search\.bleve' ;;
	search.bleve-removed) rm -rf "$s/search.bleve" && echo 'search\.bleve' ;;
	zap-half) truncate -s $(($(stat -c %s "$zap") / 2)) "$zap" && echo '\.zap|search\.bleve' ;;
	rank.idx-half) truncate -s $(($(stat -c %s "$s/rank.idx") / 2)) "$s/rank.idx" && echo 'rank\.idx' ;;
	rank.idx-flip) flip_byte "$s/rank.idx" && echo 'rank\.idx' ;;
	rank.idx-removed) rm "$s/rank.idx" && echo 'rank\.idx' ;;
	rank.idx-fifo) rm "$s/rank.idx" && mkfifo "$s/rank.idx" && echo 'rank\.idx' ;;
	rank.idx-devzero) rm "$s/rank.idx" && ln -s /dev/zero "$s/rank.idx" && echo 'rank\.idx' ;;
	segment-removed) rm -rf "$s" && echo 'seg-000001' ;;
	CURRENT-fifo) rm "$d/CURRENT" && mkfifo "$d/CURRENT" && echo 'CURRENT' ;;
	CURRENT-devzero) rm "$d/CURRENT" && ln -s /dev/zero "$d/CURRENT" && echo 'CURRENT' ;;
	CURRENT-missing-gen) echo gen-000099 >"$d/CURRENT" && echo 'gen-000099|CURRENT' ;;
	manifest-missing) rm "$g/manifest.json" && echo 'manifest' ;;
	store.db-chmod000) chmod 000 "$g/store.db" && echo 'store\.db' ;;
	root.bolt-chmod000) chmod 000 "$s/search.bleve/store/root.bolt" && echo 'root\.bolt|search\.bleve' ;;
	rank.idx-chmod000) chmod 000 "$s/rank.idx" && echo 'rank\.idx' ;;
	*) return 1 ;;
	esac
}
# flip_byte FILE: inverts the byte in the middle of FILE, leaving its size: only a checksum
# tells.
flip_byte() {
	local off=$(($(stat -c %s "$1") / 2)) b
	b=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((255 - b)))" | dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}
DAMAGES="intact store.db-half store.db-empty root.bolt-empty root.bolt-removed index_meta-garbage
search.bleve-removed zap-half rank.idx-half rank.idx-flip rank.idx-removed rank.idx-fifo rank.idx-devzero
segment-removed CURRENT-fifo CURRENT-devzero CURRENT-missing-gen manifest-missing store.db-chmod000
root.bolt-chmod000 rank.idx-chmod000"

# A damaged snapshot must fail with a non-zero exit and an error naming the file, or give the
# very answer of the intact snapshot (INTACT: the damage did not touch what it needed); the intact
# one (NAMES empty) must answer with OUTPUT in it.
check_cli_damaged() {
	if [ -z "$NAMES" ]; then
		if [ "$RC" -eq 0 ] && grep -q "$OUTPUT" "$1.out"; then echo ok; else echo "wrong: intact snapshot: exit $RC: $(first_line "$1.err")"; fi
	elif [ "$RC" -eq 0 ] && cmp -s "$1.out" "$INTACT"; then
		echo ok
	elif [ "$RC" -eq 0 ]; then
		echo "wrong: exit 0 and an answer unlike the intact snapshot's (no error): $(first_line "$1.out")"
	elif grep -qE "$NAMES" "$1.err"; then
		echo ok
	else
		echo "wrong: error does not name the file ($NAMES): $(first_line "$1.err")"
	fi
}
# The stdio session: exit non-zero naming the file on stderr, or answer initialize and give the
# search an error naming the file.
check_serve_damaged() {
	local v
	if [ -z "$NAMES" ]; then
		v=$(rpc check "$1.out" 1:result 2:result)
		if [ "$v" = ok ] && [ "$RC" -ne 0 ]; then v="wrong: exit $RC"; fi
		echo "$v"
	elif [ "$RC" -ne 0 ]; then
		if grep -qE "$NAMES" "$1.err"; then echo ok; else echo "wrong: exit $RC, stderr does not name the file ($NAMES): $(first_line "$1.err")"; fi
	else
		v=$(rpc check "$1.out" 1 2:err)
		if [ "$v" = ok ] && ! grep -qE "$NAMES" "$1.out"; then v="wrong: the search's error does not name the file ($NAMES)"; fi
		if [ "$v" != ok ] && [ "$(grep '"id":2,' "$1.out")" = "$(grep '"id":2,' "$INTACT")" ]; then v=ok; fi
		echo "$v"
	fi
}

snapshot_try() { # snapshot_try KIND CMD: one command on its own damaged copy
	# The copy's path must not name the damaged file: the error has to.
	local kind=$1 cmd=$2 d=$W/snap/$BASHPID # $BASHPID: the three tries of a kind run in parallel subshells, which share $RANDOM's seed
	copy_base "$d"
	NAMES=$(damage "$d" "$kind") || { record snapshot "$kind/$cmd" wrong "cannot apply the damage"; return; }
	case $cmd in
	search) INTACT=$W/intact.search OUTPUT='example.com/hello' try snapshot "$kind/search" check_cli_damaged /dev/null "$BIN" search --index "$d" greet someone by name ;;
	show) INTACT=$W/intact.show OUTPUT='example.com/hello v1' try snapshot "$kind/show" check_cli_damaged /dev/null "$BIN" show --index "$d" go:example.com/hello ;;
	serve) INTACT=$W/intact.serve try snapshot "$kind/serve" check_serve_damaged "$W/session.search" "$BIN" serve --stdio --index "$d" ;;
	esac
}

group_snapshot() {
	local kind cmd pids
	mkdir -p "$W/snap"
	{ init_line; echo "$INITIALIZED"; search_line 2; } >"$W/session.search"
	# The intact snapshot's answers, to tell an unaffected answer from a silently different one.
	"$BIN" search --index "$BASE" greet someone by name >"$W/intact.search" 2>&1
	"$BIN" show --index "$BASE" go:example.com/hello >"$W/intact.show" 2>&1
	"$BIN" serve --stdio --index "$BASE" <"$W/session.search" >"$W/intact.serve" 2>/dev/null
	for kind in $DAMAGES; do
		if [ "$(id -u)" = 0 ] && [ "${kind%-chmod000}" != "$kind" ]; then
			record snapshot "$kind" skip "running as root: permissions do not apply"
			continue
		fi
		# The three commands on separate copies at once, so hangs cost one timeout, not three.
		pids=()
		for cmd in search show serve; do
			snapshot_try "$kind" "$cmd" &
			pids+=($!)
		done
		wait "${pids[@]}"
	done
}

# ---------------------------------------------------------------------------------------------
# 2. stdio: malformed lines, odd ids and protocol-state errors over serve --stdio.

# stdio_try NAME SPEC...: serve the session in $W/session over stdio; every SPEC (see rpc.py
# check) must hold and the session must end with exit 0 when stdin closes.
stdio_try() {
	local name=$1
	shift
	SPECS=("$@")
	try stdio "$name" check_stdio "$W/session" "$BIN" serve --stdio --index "$BASE"
}
check_stdio() {
	local v
	v=$(rpc check "$1.out" "${SPECS[@]}")
	if [ "$v" = ok ] && [ "$RC" -ne 0 ]; then v="wrong: exit $RC at end of input: $(first_line "$1.err")"; fi
	echo "$v"
}
# bad_line NAME LINE SPEC...: initialize, LINE, then a ping (id 2) that must still be answered.
bad_line() {
	local name=$1 line=$2
	shift 2
	{ init_line; echo "$INITIALIZED"; printf '%s\n' "$line"; ping_line 2; } >"$W/session"
	stdio_try "$name" 1:result "$@" 2:result
}

group_stdio() {
	local ok_ping='{"jsonrpc":"2.0","id":3,"method":"ping"}' i line
	bad_line clean-session "$ok_ping" 3:result
	bad_line not-json hello null:-32700
	bad_line bom "$(printf '\xef\xbb\xbf')$ok_ping" '3|null:-32700'
	bad_line jsonrpc-1.0 '{"jsonrpc":"1.0","id":3,"method":"ping"}' '3:-32600|null:-32600'
	bad_line jsonrpc-missing '{"id":3,"method":"ping"}' '3:-32600|null:-32600'
	bad_line id-object '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}' 'null:-32600'
	bad_line id-array '{"jsonrpc":"2.0","id":[3],"method":"ping"}' 'null:-32600'
	bad_line id-bool '{"jsonrpc":"2.0","id":true,"method":"ping"}' 'null:-32600'
	bad_line id-1e400 '{"jsonrpc":"2.0","id":1e400,"method":"ping"}' '1e400|null:-32600|null:-32700'
	bad_line trailing-garbage "$ok_ping xyz" 'null:-32700|3:-32700'
	bad_line two-on-one-line "$ok_ping"'{"jsonrpc":"2.0","id":4,"method":"ping"}' 'null:-32700|3:result&4:result'
	line=$(printf '{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":%s%s}}' "$(printf '%.0s[' $(seq 20000))" "$(printf '%.0s]' $(seq 20000))")
	bad_line nesting-20000 "$line" '3:err|null'
	line=$(printf '{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"%s"}}' "$(head -c 6291456 /dev/zero | tr '\0' a)")
	bad_line line-6MB "$line" '3|null'
	bad_line empty-batch '[]' 'null:-32600'
	bad_line batch-2025-06-18 '[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"}]' 'null:-32600|3:-32600&4:-32600'
	{ init_line 1 2025-03-26; echo "$INITIALIZED"; echo '[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"}]'; ping_line 2; } >"$W/session"
	stdio_try batch-2025-03-26 1:result 3:result 4:result 2:result
	for i in 123456789012345678901234567890 9223372036854775808 1.5 '"s-1"'; do
		bad_line "id-echo-$i" "$(ping_line "$i")" "$i:result"
	done
	{ init_line; echo "$INITIALIZED"; for i in $(seq 10 29); do search_line "$i"; done; echo hello; } >"$W/session"
	stdio_try pipelined-20-then-bad-line 1:result $(for i in $(seq 10 29); do echo "$i:result"; done) null:-32700
	bad_line duplicate-initialize "$(init_line 3)" 3:-32600
	{ echo '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'; init_line; echo "$INITIALIZED"; ping_line 2; } >"$W/session"
	stdio_try request-before-initialize 3:nz 1:result 2:result
	bad_line setlevel-boom '{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"boom"}}' 3:-32602
}

# ---------------------------------------------------------------------------------------------
# 3. http: serve --http on the snapshot.

HTTP_PID=
http_start() { # http_start DIR [FLAGS...]: starts a server; sets HTTP_PORT and HTTP_PID
	local d=$1
	shift
	HTTP_PORT=$(rpc port)
	"$BIN" serve --http "127.0.0.1:$HTTP_PORT" --index "$d" "$@" >"$W/http.$HTTP_PORT.out" 2>"$W/http.$HTTP_PORT.err" &
	HTTP_PID=$!
	BG_PIDS+=("$HTTP_PID")
	rpc healthz "$HTTP_PORT" || { record http "start server" wrong "no /healthz on port $HTTP_PORT: $(first_line "$W/http.$HTTP_PORT.err")"; return 1; }
}
# http_stop PID PORT GROUP NAME: SIGTERM, wait up to TRY_TIMEOUT, and record how the server ended.
http_stop() {
	local pid=$1 port=$2 i rc line
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq $((TRY_TIMEOUT * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		record "$3" "$4" hang "server still running ${TRY_TIMEOUT}s after SIGTERM"
		return
	fi
	wait "$pid"
	rc=$?
	if line=$(grep -m1 -E '^(panic: |fatal error: )' "$W/http.$port.err"); then
		record "$3" "$4" crash "$line"
	elif [ "$rc" -ne 0 ]; then
		record "$3" "$4" wrong "exit $rc after SIGTERM: $(first_line "$W/http.$port.err")"
	else
		record "$3" "$4" ok
	fi
}

# The trickled body runs in the background from the start, against its own server, while the
# other groups go on.
trickle_start() {
	copy_base "$W/trickle-snap"
	http_start "$W/trickle-snap" || return
	TRICKLE_PID=$HTTP_PID TRICKLE_PORT=$HTTP_PORT
	(
		ulimit -v 8388608 2>/dev/null
		exec timeout -k 3 $((TRICKLE_WAIT + 20)) python3 "$W/rpc.py" trickle "$HTTP_PORT" "$TRICKLE_WAIT"
	) >"$W/trickle.out" 2>"$W/trickle.err" &
	TRICKLE_CLIENT=$!
	BG_PIDS+=("$TRICKLE_CLIENT")
}
TRICKLE_PID= TRICKLE_CLIENT=

group_http() {
	local case v round
	copy_base "$W/http-snap"
	if http_start "$W/http-snap"; then
		for case in unknown-method notification-with-id id-null batch no-session-id ids-verbatim params-leak; do
			try http "$case" py_verdict /dev/null python3 "$W/rpc.py" http "$HTTP_PORT" "$case"
		done
		http_stop "$HTTP_PID" "$HTTP_PORT" http "server exit after the tries"
	fi
	if [ -n "$TRICKLE_CLIENT" ]; then
		wait "$TRICKLE_CLIENT"
		v=$(tail -n1 "$W/trickle.out")
		case $v in
		ok) record http body-1-byte-per-2s ok ;;
		hang:*) record http body-1-byte-per-2s hang "${v#hang: }" ;;
		*) record http body-1-byte-per-2s wrong "${v:-checker failed: $(tail -n1 "$W/trickle.err")}" ;;
		esac
		http_stop "$TRICKLE_PID" "$TRICKLE_PORT" http "server exit after the trickle"
	fi
	# Which requests meet the closing listener is a matter of timing: three rounds.
	copy_base "$W/sigterm-snap"
	for round in 1 2 3; do
		http_start "$W/sigterm-snap" --rate-limit 0 || break
		try http "sigterm-200-in-flight#$round" py_verdict /dev/null python3 "$W/rpc.py" inflight "$HTTP_PORT" 200 "$HTTP_PID"
		http_stop "$HTTP_PID" "$HTTP_PORT" http "server exit after SIGTERM in flight#$round"
	done
}

# ---------------------------------------------------------------------------------------------
# 4. crawl

# The packages of the fixture snapshot must all still be listed.
listed_all() { "$BIN" list --index "$1" 2>&1 | grep -q 'example.com/hello' && "$BIN" list --index "$1" 2>&1 | grep -q '@demo/greet'; }
check_prune() {
	if ! listed_all "$CRAWL_DIR"; then echo "wrong: the snapshot lost its other packages (crawl exit $RC); list now shows: $("$BIN" list --index "$CRAWL_DIR" 2>&1 | head -n1)"
	elif [ "$RC" -eq 0 ]; then echo "wrong: exit 0 although the spec failed"
	else echo ok; fi
}
check_fifo() { # finished (any exit), the regular package indexed
	if "$BIN" list --index "$CRAWL_DIR" 2>&1 | grep -q '@demo/greet'; then echo ok; else echo "wrong: exit $RC, @demo/greet not indexed: $(first_line "$1.err")"; fi
}
check_sigterm() { # stopped by SIGTERM (124) or finished before it; the previous snapshot serves
	if [ "$RC" -eq 137 ]; then echo "hang: crawl ignored SIGTERM"; return; fi
	if ! "$BIN" search --index "$CRAWL_DIR" greet someone by name >/dev/null 2>&1 || ! listed_all "$CRAWL_DIR"; then
		echo "wrong: the previous snapshot is not servable after SIGTERM: $("$BIN" search --index "$CRAWL_DIR" greet 2>&1 | head -n1)"
	else echo ok; fi
}
check_missing_modcache() {
	if [ "$RC" -ne 0 ] && grep -qE 'module cache|--go-modcache=' "$1.err"; then echo ok
	else echo "wrong: exit $RC: $(first_line "$1.err")"; fi
}
check_noop() {
	local now
	now=$(cat "$CRAWL_DIR/CURRENT")
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.err")"
	elif [ "$now" != "$GEN" ] || [ "$(find "$CRAWL_DIR" -maxdepth 1 -name 'gen-*' | wc -l)" -ne 1 ]; then echo "wrong: a crawl that changed nothing wrote generation $now"
	else echo ok; fi
}

# sigterm_try NAME CMD...: SIGTERM at 2 s (timeout forwards it), KILL 10 s later.
sigterm_try() {
	local name=$1 p f
	shift
	p=$W/try.crawl.$name
	{ (exec timeout -k 10 2 "$@") </dev/null >"$p.out" 2>"$p.err"; } 2>/dev/null
	RC=$?
	if [ "$RC" -eq 137 ]; then record crawl "$name" hang "still running 10s after SIGTERM"; return; fi
	f=$(RC=0 fault_of "$p")
	if [ -n "$f" ]; then record crawl "$name" "${f%% *}" "${f#* }"; return; fi
	f=$(check_sigterm "$p")
	case $f in ok) record crawl "$name" ok ;; hang:*) record crawl "$name" hang "${f#hang: }" ;; *) record crawl "$name" wrong "${f#wrong: }" ;; esac
}

group_crawl() {
	local nm=$W/fifo_node_modules hole_port hole_pid
	CRAWL_DIR=$W/crawl-prune
	copy_base "$CRAWL_DIR"
	try crawl prune-after-mistyped-spec check_prune /dev/null "$BIN" crawl --index "$CRAWL_DIR" --quiet --prune --offline --go-modcache "$MODCACHE" go:golang.org/x/synx@v0.24.0

	cp -a "$NODE_MODULES" "$nm"
	mkdir -p "$nm/fifo-pkg"
	mkfifo "$nm/fifo-pkg/package.json"
	CRAWL_DIR=$W/crawl-fifo
	try crawl fifo-package.json check_fifo /dev/null "$BIN" crawl --index "$CRAWL_DIR" --quiet --offline --node-modules "$nm"

	CRAWL_DIR=$W/crawl-sigterm-fifo
	copy_base "$CRAWL_DIR"
	sigterm_try sigterm-during-fifo-crawl "$BIN" crawl --index "$CRAWL_DIR" --quiet --offline --node-modules "$nm" --refresh

	# A registry that accepts connections and never answers: the crawl is mid-fetch at SIGTERM.
	hole_port=$(rpc port)
	python3 -c 'import socket,sys,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64); time.sleep(600)' "$hole_port" &
	hole_pid=$!
	BG_PIDS+=("$hole_pid")
	sleep 0.3
	CRAWL_DIR=$W/crawl-sigterm-fetch
	copy_base "$CRAWL_DIR"
	sigterm_try sigterm-during-fetch "$BIN" crawl --index "$CRAWL_DIR" --quiet --npm-registry "http://127.0.0.1:$hole_port/" npm:leftpad@1.3.0
	kill "$hole_pid" 2>/dev/null

	CRAWL_DIR=$W/crawl-missing
	try crawl go-modcache-space-missing check_missing_modcache /dev/null "$BIN" crawl --index "$CRAWL_DIR" --offline --go-modcache /missing

	CRAWL_DIR=$W/crawl-noop
	copy_base "$CRAWL_DIR"
	try crawl no-op-crawl check_noop /dev/null "$BIN" crawl --index "$CRAWL_DIR" --quiet --offline --go-modcache "$MODCACHE" --node-modules "$NODE_MODULES"
}

# ---------------------------------------------------------------------------------------------
# 5. leaks: what clients see names no Go types and no paths of this machine.

group_leaks() {
	local p=$W/try.leaks.session id name
	{
		init_line
		echo "$INITIALIZED"
		echo '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":[1]}'
		echo '{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{"uri":5}}'
		echo '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":5}}}'
		echo '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}'
		echo '{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":"docidx://golang/example.com/nope@v1.0.0/readme"}}'
		echo '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"describe_go_package","arguments":{"package":["x"]}}}'
		echo '{"jsonrpc":"2.0","id":16,"method":"resources/read","params":{"uri":"docidx://snapshot"}}'
	} >"$W/session"
	run_cmd "$p" "$W/session" "$BIN" serve --stdio --index "$BASE"
	local f
	f=$(fault_of "$p")
	for id in 10 11 12 13 14 15 16; do
		case $id in
		10) name=tools/call-params-array ;; 11) name=resources/read-uri-number ;; 12) name=tools/call-query-number ;;
		13) name=tools/call-unknown-tool ;; 14) name=resources/read-missing ;; 15) name=describe-package-array ;;
		16) name=snapshot-resource-paths ;;
		esac
		if [ -n "$f" ]; then record leaks "$name" "${f%% *}" "${f#* }"; continue; fi
		local v
		v=$(rpc leak "$p.out" "$id" "$REPO" "$W" "$MODCACHE" "$NODE_MODULES" "${HOME:+$HOME/}")
		case $v in ok) record leaks "$name" ok ;; lost*) record leaks "$name" lost "${v#lost: }" ;; *) record leaks "$name" wrong "${v#wrong: }" ;; esac
	done
}

# ---------------------------------------------------------------------------------------------

report() {
	awk -F'\t' -v order_list="$ALL_GROUPS" '
	$3 == "skip" { next }
	{ g[$1]; n[$1]++; c[$1, $3]++; N++; C[$3]++ }
	END {
		printf "%-9s %6s %6s %6s %6s %6s %6s\n", "group", "tries", "ok", "crash", "hang", "lost", "wrong"
		n_order = split(order_list, order, " ")
		for (i = 1; i <= n_order; i++) { k = order[i]; if (!(k in g)) continue
			printf "%-9s %6d %6d %6d %6d %6d %6d\n", k, n[k], c[k, "ok"], c[k, "crash"], c[k, "hang"], c[k, "lost"], c[k, "wrong"] }
		printf "%-9s %6d %6d %6d %6d %6d %6d\n", "total", N, C["ok"], C["crash"], C["hang"], C["lost"], C["wrong"]
		exit (N == C["ok"]) ? 0 : 1
	}' "$RESULTS"
}

ALL_GROUPS="snapshot stdio http crawl leaks"
for f in "$REPO"/scripts/faults.d/*.sh; do
	[ -e "$f" ] || continue
	# shellcheck source=/dev/null
	. "$f"
	ALL_GROUPS="$ALL_GROUPS $(basename "$f" .sh)"
done

echo "faults: $("$BIN" version 2>&1 | head -n1) (scratch $W, ${TRY_TIMEOUT}s per try)"
crawl_base
case " ${ONLY:-http} " in *" http "*) trickle_start ;; esac
for group in ${ONLY:-$ALL_GROUPS}; do
	echo "== $group"
	"group_$group"
done
echo
report
