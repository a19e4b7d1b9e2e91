# term.sh: the faults group of issue 25, point 3 (terminal injection). A package whose
# package.json (description, version, license), README and type declarations (doc comments,
# symbol names) carry terminal controls — ED, OSC 52 (clipboard), OSC 8 (link), OSC 0 (title),
# DSR, BEL, BS, a lone CR, C1 CSI, DEL — and bidi overrides, isolates, zero-width and tag
# characters is crawled offline; then search, show, read and list (text, on a pipe and on a
# real pty; and --json), an error quoting the package, the HTML pages and MCP over stdio must
# show none of those characters to people (text shows them as escapes, JSON as \u escapes that
# decode to the package's own text) and send an AI client no C0/C1 control but tab and newline.
# Sourced by scripts/faults.sh, whose helpers it uses.

cat >"$W/term.py" <<'PY'
import json, os, pty, select, subprocess, sys, time, urllib.request

HOSTILE = ("label ED\x1b[2J OSC52\x1b]52;c;cHduZWQ=\x07 OSC8\x1b]8;;http://127.0.0.1:9/\x1b\\link\x1b]8;;\x1b\\ "
           "OSC0\x1b]0;pwned\x07 DSR\x1b[6n BEL\x07 BS\x08 CR\rover C1CSI\u009b2J DEL\x7f "
           "RLO\u202eevil\u202c LRI\u2066x\u2069 ZW\u200b\u200c\u200d\u2060\ufeff TAG\U000E0041\U000E007F end")
NAME = "Wid\u202eget\u200b\u2066"

def control(c):
    o = ord(c)
    return (o < 0x20 and c not in "\t\n") or 0x7f <= o <= 0x9f

def invisible(c):
    o = ord(c)
    return (o == 0x61c or 0x200b <= o <= 0x200f or 0x2028 <= o <= 0x202e or 0x2060 <= o <= 0x2064
            or 0x2066 <= o <= 0x2069 or o == 0xfeff or 0xe0000 <= o <= 0xe007f)

def bad_for_people(text):
    """The first character a person must not be shown as it is, with some context, or None."""
    text = text.replace("\r\n", "\n")
    for i, c in enumerate(text):
        if control(c) or invisible(c) or 0xdc80 <= ord(c) <= 0xdcff:  # surrogateescape: not UTF-8
            return "%r at %d in ...%r..." % (c, i, text[max(0, i - 30):i + 30])
    return None

def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")

def fixture(nm):
    d = os.path.join(nm, "hostile")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "package.json"), "w") as f:
        json.dump({"name": "hostile", "version": "1.0.0-\u202e\x1b[2J", "description": "hostile description " + HOSTILE,
                   "license": "MIT\x1b]0;pwned\x07", "types": "index.d.ts"}, f)
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("# hostile " + HOSTILE + "\n\nThe README says " + HOSTILE + "\n\n## Usage " + HOSTILE + "\n\n```js\ncode(" + HOSTILE + ")\n```\n")
    with open(os.path.join(d, "index.d.ts"), "w") as f:
        f.write("/** Greets with " + HOSTILE + " */\nexport declare function greet" + NAME + "(name: string): string;\n"
                "/** The class " + HOSTILE + " */\nexport declare class " + NAME + " {\n  /** run " + HOSTILE + " */\n  run(): void;\n}\n")

def check_text(out, err, want_code, code):
    """CLI text: stdout and stderr safe for people, the words there, the controls as escapes."""
    if code != want_code:
        return "wrong: exit %d, want %d: %s" % (code, want_code, read(err)[:120])
    for path in (out, err):
        b = bad_for_people(read(path))
        if b: return "wrong: %s shows %s" % (os.path.basename(path).rsplit(".", 1)[-1], b)
    both = read(out) + read(err)
    if "\\x1b" not in both and "\\u202e" not in both:
        return "wrong: the hostile characters are not shown as escapes: " + both[:120]
    return "ok"

def check_json(out):
    """--json: safe for people as written, and decodes to the package's own characters."""
    text = read(out)
    b = bad_for_people(text)
    if b: return "wrong: the JSON shows " + b
    try: v = json.loads(text)
    except ValueError as e: return "wrong: not JSON: %s" % e
    if "\u202e" not in json.dumps(v, ensure_ascii=False):
        return "wrong: the JSON lost the package's own characters"
    return "ok"

def strings(v):
    if isinstance(v, str): yield v
    elif isinstance(v, list):
        for e in v: yield from strings(e)
    elif isinstance(v, dict):
        for k, e in v.items():
            yield k
            yield from strings(e)

def check_mcp(out, ident):
    """The reply to ident: no string with a C0/C1 control but tab and newline."""
    for line in read(out).split("\n"):
        if not line.strip(): continue
        m = json.loads(line)
        if m.get("id") != int(ident): continue
        if "error" in m and "result" not in m and "did you mean" not in json.dumps(m):
            return "wrong: error %s" % json.dumps(m["error"])[:120]
        for s in strings(m):
            for i, c in enumerate(s):
                if control(c):
                    return "wrong: %r at %d in ...%r..." % (c, i, s[max(0, i - 30):i + 30])
        return "ok"
    return "lost: no reply for id " + ident

def run_pty(argv, timeout):
    """Runs argv with a pty as its stdin, stdout and stderr; prints what the terminal received."""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    data, end = b"", time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try: chunk = os.read(master, 65536)
            except OSError: break  # EIO: the child closed the pty
            if not chunk: break
            data += chunk
        elif p.poll() is not None:
            break
    p.wait(timeout=max(1, end - time.time()))
    sys.stdout.buffer.write(data)
    return p.returncode

def check_page(port, path):
    """A page of serve --http: 200, safe for people, the escapes shown."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path), timeout=10) as r:
            body = r.read().decode("utf-8", "surrogateescape")
    except urllib.error.HTTPError as e:
        body = e.read().decode("utf-8", "surrogateescape")
        if e.code != 404: return "wrong: status %d" % e.code
    b = bad_for_people(body)
    if b: return "wrong: the page shows " + b
    if "\\x1b" not in body and "\\u202e" not in body:
        return "wrong: the hostile characters are not shown as escapes"
    return "ok"

if __name__ == "__main__":
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "fixture": fixture(a[0])
    elif cmd == "text": print(check_text(a[0], a[1], int(a[2]), int(a[3])))
    elif cmd == "json": print(check_json(a[0]))
    elif cmd == "mcp": print(check_mcp(a[0], a[1]))
    elif cmd == "pty": sys.exit(run_pty(a[1:], float(a[0])))
    elif cmd == "page": print(check_page(a[0], a[1]))
PY

TERM_IDX=$W/term-index
TERM_V='1.0.0-%E2%80%AE%1B%5B2J'
TERM_WANT=0 # the exit status the next text try expects

check_term_text() { python3 "$W/term.py" text "$1.out" "$1.err" "$TERM_WANT" "$RC"; }
check_term_json() {
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.err")"; return; fi
	python3 "$W/term.py" json "$1.out"
}
check_term_pty() { # the pty's output is in PREFIX.out, stderr included
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.out")"; return; fi
	python3 "$W/term.py" text "$1.out" /dev/null 0 0
}

group_term() {
	local nm=$W/term_node_modules p id name
	python3 "$W/term.py" fixture "$nm"
	if ! "$BIN" crawl --index "$TERM_IDX" --offline --quiet --node-modules "$nm" 2>"$W/term-crawl.err"; then
		record term crawl-hostile-package wrong "$(first_line "$W/term-crawl.err")"
		return
	fi

	# Text on a pipe, and --json.
	local -a runs=(
		"search label"
		"show npm:hostile"
		"show npm:hostile Wid\u202eget\u200b\u2066"
		"read docidx://npm/hostile@$TERM_V/readme"
		"read docidx://npm/hostile@$TERM_V/api"
		"list"
	)
	local run tag
	for run in "${runs[@]}"; do
		tag=$(printf '%s' "$run" | sed 's|docidx://npm/hostile@[^/]*/||; s|\\u.*||' | tr -c 'A-Za-z0-9:' '-')
		# shellcheck disable=SC2086 # the words of a run are its arguments
		set -- $(printf '%b' "$run")
		TERM_WANT=0
		try term "text-$tag" check_term_text /dev/null "$BIN" "$1" --index "$TERM_IDX" "${@:2}"
		try term "json-$tag" check_term_json /dev/null "$BIN" "$1" --index "$TERM_IDX" --json "${@:2}"
	done
	# Errors that quote the package: a did-you-mean of its symbols, of its anchors.
	TERM_WANT=1
	try term error-did-you-mean-symbol check_term_text /dev/null "$BIN" show --index "$TERM_IDX" npm:hostile Wid
	try term error-did-you-mean-anchor check_term_text /dev/null "$BIN" read --index "$TERM_IDX" "docidx://npm/hostile@$TERM_V/readme#nosuch"
	TERM_WANT=0

	# A real terminal: the commands run on a pty, as a person runs them.
	try term pty-show check_term_pty /dev/null python3 "$W/term.py" pty "$TRY_TIMEOUT" "$BIN" show --index "$TERM_IDX" npm:hostile
	try term pty-search check_term_pty /dev/null python3 "$W/term.py" pty "$TRY_TIMEOUT" "$BIN" search --index "$TERM_IDX" greets
	try term pty-read check_term_pty /dev/null python3 "$W/term.py" pty "$TRY_TIMEOUT" "$BIN" read --index "$TERM_IDX" "docidx://npm/hostile@$TERM_V/readme"

	# MCP over stdio: no C0/C1 control but tab and newline in any string of a reply.
	p=$W/try.term.mcp
	{
		init_line
		echo "$INITIALIZED"
		echo '{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"label"}}}'
		echo '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"describe_npm_package","arguments":{"package":"hostile"}}}'
		echo '{"jsonrpc":"2.0","id":22,"method":"resources/read","params":{"uri":"docidx://npm/hostile@'"$TERM_V"'/readme"}}'
		echo '{"jsonrpc":"2.0","id":23,"method":"resources/list","params":{}}'
		echo '{"jsonrpc":"2.0","id":24,"method":"prompts/get","params":{"name":"use_package","arguments":{"ecosystem":"npm","package":"hostile","task":"greet"}}}'
		echo '{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"describe_npm_package","arguments":{"package":"hostile","symbol":"Wid"}}}'
	} >"$W/term-session"
	run_cmd "$p" "$W/term-session" "$BIN" serve --stdio --index "$TERM_IDX"
	local f v
	f=$(fault_of "$p")
	for id in 20 21 22 23 24 25; do
		case $id in
		20) name=mcp-search ;; 21) name=mcp-describe ;; 22) name=mcp-resources-read ;; 23) name=mcp-resources-list ;;
		24) name=mcp-prompts-get ;; 25) name=mcp-error-did-you-mean ;;
		esac
		if [ -n "$f" ]; then record term "$name" "${f%% *}" "${f#* }"; continue; fi
		v=$(python3 "$W/term.py" mcp "$p.out" "$id")
		case $v in ok) record term "$name" ok ;; lost*) record term "$name" lost "${v#lost: }" ;; *) record term "$name" wrong "${v#wrong: }" ;; esac
	done

	# The HTML pages.
	http_start "$TERM_IDX" || return
	local page
	for page in "/" "/?q=label" "/npm/hostile@$TERM_V" "/npm/hostile@$TERM_V/readme" "/npm/hostile@$TERM_V/api" \
		"/npm/hostile@$TERM_V/symbol/Wid%E2%80%AEget%E2%80%8B%E2%81%A6" "/snapshot" "/npm/hostile@9.9.9"; do
		v=$(timeout "$TRY_TIMEOUT" python3 "$W/term.py" page "$HTTP_PORT" "$page" 2>&1 | tail -n1)
		case $v in ok) record term "page $page" ok ;; "") record term "page $page" hang "no answer within ${TRY_TIMEOUT}s" ;; *) record term "page $page" wrong "${v#wrong: }" ;; esac
	done
	http_stop "$HTTP_PID" "$HTTP_PORT" term serve-http-stops
}
