# memory.sh: issue 25 point 4, a crawl's peak memory stays under its budget whatever the registry
# sends. A fake npm registry on 127.0.0.1 serves eight generated packuments of about 129 MB
# (100,000 versions each), packages whose README, .d.ts, .js or package.json field is one 1.9 MB
# line, and one whose entry point re-exports eight such .js files. `docidx crawl` fetches them at
# the default concurrency while a python parent reads the crawl's peak RSS
# (getrusage(RUSAGE_CHILDREN).ru_maxrss). A try passes when the crawl indexes its packages with
# a peak RSS under its bar: the default budget of 700 MiB for the eight packuments (MEM_BUDGET_MB),
# 256 MiB for them with --max-memory 256MiB, and MEM_LINE_MB (default 200 MB) for one package.
# Generating the packuments takes about 10 s and 1 GB of the scratch directory.

cat >"$W/npmfake.py" <<'PY'
"""A fake npm registry: `gen DIR PORT N VERSIONS` writes N packuments mem-0..mem-N-1 of VERSIONS
versions each (about 1.3 KB per version) plus the line-* packages, then `serve DIR PORT` serves
DIR/NAME.json at /NAME and DIR/NAME.tgz at /NAME/-/NAME-VERSION.tgz."""
import base64, gzip, hashlib, http.server, io, json, os, sys, tarfile

def tarball(files):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tf:
        for name, data in files.items():
            ti = tarfile.TarInfo("package/" + name); ti.size = len(data); ti.mode = 0o644
            tf.addfile(ti, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)

def write_package(d, port, name, nversions, files, filler):
    tgz = tarball(files)
    with open(os.path.join(d, name + ".tgz"), "wb") as f: f.write(tgz)
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()
    shasum = hashlib.sha1(tgz).hexdigest()
    latest = "1.0.%d" % (nversions - 1)
    with open(os.path.join(d, name + ".json"), "w") as f:
        f.write('{"_id":%s,"name":%s,"description":"a generated package","dist-tags":{"latest":"%s"},"versions":{' % (json.dumps(name), json.dumps(name), latest))
        for i in range(nversions):
            v = "1.0.%d" % i
            if v == latest: dist = {"integrity": integrity, "shasum": shasum}
            else: dist = {"integrity": "sha512-" + "A" * 86 + "==", "shasum": "0" * 40}
            dist["tarball"] = "http://127.0.0.1:%d/%s/-/%s-%s.tgz" % (port, name, name, v)
            obj = {"name": name, "version": v, "description": filler, "main": "index.js", "types": "index.d.ts", "license": "MIT",
                   "keywords": ["memory", "budget"], "dependencies": {"dep-%d" % k: "^1.%d.0" % k for k in range(4)}, "dist": dist}
            f.write(("," if i else "") + json.dumps(v) + ":" + json.dumps(obj, separators=(",", ":")))
        f.write('},"time":{')
        f.write(",".join('"1.0.%d":"2024-01-01T00:00:00.000Z"' % i for i in range(nversions)))
        f.write('},"readme":"# %s\\n\\nGenerated."}' % name)

def gen(d, port, n, nversions):
    filler = "memory budget filler text " * 30  # 780 bytes: 1.29 KB per version in all
    for k in range(n):
        name = "mem-%d" % k
        write_package(d, port, name, nversions, {
            "package.json": json.dumps({"name": name, "version": "1.0.%d" % (nversions - 1), "types": "index.d.ts"}).encode(),
            "README.md": b"# " + name.encode() + b"\n\nA package with a large packument.\n",
            "index.d.ts": b"export declare function greet(name: string): string;\n"}, filler)
    line = b"word " * (1900 * 1024 // 5)
    cases = {
        "line-readme": {"README.md": b"# Line\n\n" + line + b"\n"},
        "line-dts": {"index.d.ts": b"export declare const a: string; " * (1900 * 1024 // 32) + b"\n", "README.md": b"# dts\n"},
        "line-js": {"index.js": b"var a=1;" * (1900 * 1024 // 8) + b"\n", "README.md": b"# js\n"},
        "line-json": {"README.md": b"# json\n"},
    }
    files = {"index.js": b"".join(b'export * from "./f%d.js";\n' % k for k in range(8)), "README.md": b"# js\n"}
    for k in range(8):
        files["f%d.js" % k] = b"export const a%d = 1;\n" % k + b"var a=1;" * (1900 * 1024 // 8) + b"\n"
    cases["lines-js-8"] = files
    for name, files in cases.items():
        pj = {"name": name, "version": "1.0.0", "types": "index.d.ts", "main": "index.js"}
        if name == "line-json": pj["description"] = "x" * (1900 * 1024)
        files["package.json"] = json.dumps(pj).encode()
        write_package(d, port, name, 1, files, "a package with one long line")

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        parts = self.path.strip("/").split("/")
        path = os.path.join(DIR, parts[0] + (".json" if len(parts) == 1 else ".tgz"))
        if "/" in parts[0] or parts[0].startswith(".") or not os.path.isfile(path):
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if len(parts) == 1 else "application/octet-stream")
        self.send_header("Content-Length", str(os.path.getsize(path)))
        self.end_headers()
        try:
            with open(path, "rb") as f:
                while True:
                    b = f.read(1 << 20)
                    if not b: break
                    self.wfile.write(b)
        except (BrokenPipeError, ConnectionResetError): pass

if __name__ == "__main__":
    cmd, DIR, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if cmd == "gen": gen(DIR, port, int(sys.argv[4]), int(sys.argv[5]))
    else:
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        srv.daemon_threads = True
        srv.serve_forever()
PY

# maxrss.py CMD...: runs CMD and prints its peak resident set size on stderr as "maxrss_mb=N".
cat >"$W/maxrss.py" <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
print("maxrss_mb=%d" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024), file=sys.stderr)
sys.exit(rc)
PY

MEM_BUDGET_MB=${MEM_BUDGET_MB:-700}
MEM_LINE_MB=${MEM_LINE_MB:-200}

# check_memory PREFIX: the crawl exited 0 and its peak RSS was under MEM_BAR MB.
check_memory() {
	local rss
	rss=$(sed -n 's/^maxrss_mb=//p' "$1.err" | tail -n1)
	if [ -z "$rss" ]; then echo "wrong: no peak RSS measured: $(first_line "$1.err")"
	elif [ "$RC" -ne 0 ]; then echo "wrong: exit $RC (peak RSS ${rss} MB): $(grep -v '^maxrss_mb=' "$1.err" | first_line /dev/stdin)"
	elif [ "$rss" -ge "$MEM_BAR" ]; then echo "wrong: peak RSS ${rss} MB, over the ${MEM_BAR} MB bar"
	else echo ok; fi
	printf 'memory: %-40s peak RSS %5s MB (bar %s MB), exit %s\n' "${1##*/try.memory.}" "${rss:-?}" "$MEM_BAR" "$RC" >>"$W/memory.log"
}

group_memory() {
	local dir=$W/npmfake port pid i specs=() old_timeout=$TRY_TIMEOUT
	mkdir -p "$dir"
	port=$(rpc port)
	echo "  generating 8 packuments of 100,000 versions ..."
	python3 "$W/npmfake.py" gen "$dir" "$port" 8 100000 || { record memory generate wrong "npmfake.py gen failed"; return; }
	python3 "$W/npmfake.py" serve "$dir" "$port" &
	pid=$!
	BG_PIDS+=("$pid")
	sleep 0.5
	for i in 0 1 2 3 4 5 6 7; do specs+=("npm:mem-$i"); done
	TRY_TIMEOUT=${MEM_TRY_TIMEOUT:-300}
	MEM_BAR=$MEM_BUDGET_MB
	try memory eight-129MB-packuments check_memory /dev/null python3 "$W/maxrss.py" "$BIN" crawl --index "$W/mem-eight" --quiet --npm-registry "http://127.0.0.1:$port/" "${specs[@]}"
	MEM_BAR=256
	try memory eight-129MB-packuments-max-memory-256MiB check_memory /dev/null python3 "$W/maxrss.py" "$BIN" crawl --index "$W/mem-eight-256" --quiet --max-memory 256MiB --npm-registry "http://127.0.0.1:$port/" "${specs[@]}"
	MEM_BAR=$MEM_LINE_MB
	for i in readme dts js json; do
		try memory "one-1.9MB-line-$i" check_memory /dev/null python3 "$W/maxrss.py" "$BIN" crawl --index "$W/mem-line-$i" --quiet --npm-registry "http://127.0.0.1:$port/" "npm:line-$i"
	done
	try memory "eight-1.9MB-js-files" check_memory /dev/null python3 "$W/maxrss.py" "$BIN" crawl --index "$W/mem-lines-js-8" --quiet --npm-registry "http://127.0.0.1:$port/" "npm:lines-js-8"
	TRY_TIMEOUT=$old_timeout
	kill "$pid" 2>/dev/null
	sed 's/^/  /' "$W/memory.log"
}
