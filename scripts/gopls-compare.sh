#!/usr/bin/env bash
# scripts/gopls-compare.sh — compare docidx with gopls's MCP mode on Go API docs, offline:
# answer size and latency for the same packages, plus both servers' peak memory.
#
# Usage:
#   bash scripts/gopls-compare.sh [SNAPSHOT]      # SNAPSHOT defaults to /tmp/snap
#
# Environment (all optional):
#   GOPLS            gopls binary      (default /tmp/docidx-gopls/bin/gopls, else gopls on PATH)
#   DOCIDX_BIN       docidx binary     (default: built from this repo into /tmp/docidx-gopls/docidx)
#   DOCIDX_CORPUS    corpus directory  (default /work/corpus; needs goproject/go.mod and gomodcache/)
#   PACKAGES         space-separated Go import paths to describe (default: the six below)
#   QUERY            the question-style search (default "run goroutines and return the first error")
#   WARM             warm calls per package, of which the median is shown (default 5)
#
# What it does:
#   gopls's go_package_api only describes packages in the workspace's import graph: run in the
#   corpus goproject as it is (a go.mod without .go files) it answers with nothing. So the script
#   copies goproject's go.mod and go.sum into a scratch module, adds one file that blank-imports
#   PACKAGES, and starts `gopls mcp` (stdio, newline-delimited JSON-RPC) there, fully offline:
#   GOMODCACHE is the corpus's, GOPROXY=off, GOFLAGS=-mod=mod, and GOPLSCACHE is a fresh
#   directory so that "cold" means cold. The first go_package_api call (with an empty list) waits
#   for gopls's initial workspace load and is reported on its own; the script then waits until
#   gopls stops its background work (type-checking the workspace: otherwise it competes with the
#   calls on a small machine), and each package gets one cold call and WARM warm calls. The same is done with
#   `docidx serve --stdio --index SNAPSHOT` and describe_go_package, and the QUERY is asked to
#   docidx's search_package_docs and to gopls's go_search (its only search: fuzzy symbol names).
#
# Sizes are the bytes of the text content of the tool result (what a model reads), ~tokens is
# bytes/4; "wire" sizes are whole JSON-RPC response lines (docidx also sends structuredContent).
# docidx answers page at its default token budget: "pages" follows nextCursor to the end.
# Memory is VmHWM (peak RSS) of each server process after its calls; gopls's `go list`
# children are not counted.
#
# Getting what it needs:
#   gopls:   GOBIN=/tmp/docidx-gopls/bin go install golang.org/x/tools/gopls@v0.23.0
#   corpus:  bash scripts/corpus.sh          (fills /work/corpus; needs the module proxy once)
#   snapshot: docidx crawl --index /tmp/snap --offline --go-modcache /work/corpus/gomodcache
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SNAPSHOT=${1:-/tmp/snap}
CORPUS=${DOCIDX_CORPUS:-/work/corpus}
PACKAGES=${PACKAGES:-"golang.org/x/sync/errgroup github.com/spf13/cobra github.com/google/uuid go.uber.org/zap github.com/gorilla/mux golang.org/x/time/rate"}
QUERY=${QUERY:-"run goroutines and return the first error"}
WARM=${WARM:-5}

die() { echo "gopls-compare: $*" >&2; exit 1; }

GOPLS=${GOPLS:-}
if [[ -z $GOPLS ]]; then
  if [[ -x /tmp/docidx-gopls/bin/gopls ]]; then GOPLS=/tmp/docidx-gopls/bin/gopls
  else GOPLS=$(command -v gopls || true); fi
fi
[[ -n $GOPLS && -x $GOPLS ]] || die "gopls not found. Install it with:
  GOBIN=/tmp/docidx-gopls/bin go install golang.org/x/tools/gopls@v0.23.0
or point GOPLS at a gopls binary (v0.20+ has the 'mcp' subcommand)."
"$GOPLS" mcp -h >/dev/null 2>&1 || die "$GOPLS has no 'mcp' subcommand; install gopls v0.20 or later (see above)."

[[ -f $CORPUS/goproject/go.mod && -f $CORPUS/goproject/go.sum && -d $CORPUS/gomodcache ]] || die "corpus missing: need $CORPUS/goproject/go.mod, go.sum and $CORPUS/gomodcache.
Build it with: bash scripts/corpus.sh $CORPUS   (or set DOCIDX_CORPUS)"
[[ -e $SNAPSHOT ]] || die "snapshot $SNAPSHOT missing. Build one with:
  docidx crawl --index $SNAPSHOT --offline --go-modcache $CORPUS/gomodcache"
command -v python3 >/dev/null || die "python3 not found"

DOCIDX_BIN=${DOCIDX_BIN:-}
if [[ -z $DOCIDX_BIN ]]; then
  DOCIDX_BIN=/tmp/docidx-gopls/docidx
  mkdir -p "$(dirname "$DOCIDX_BIN")"
  (cd "$ROOT" && CGO_ENABLED=0 go build -o "$DOCIDX_BIN" ./cmd/docidx) || die "building docidx failed"
fi

WORK=$(mktemp -d /tmp/gopls-compare.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# The offline Go environment both gopls and the pre-check use.
export GOMODCACHE=$CORPUS/gomodcache GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOWORK=off GOTOOLCHAIN=local
export GOPLSCACHE=$WORK/goplscache GOTELEMETRY=off

# Keep only packages whose module the corpus go.mod resolves.
(cd "$CORPUS/goproject" && go list -m all) >"$WORK/modules" 2>"$WORK/modules.err" ||
  die "go list -m all failed in $CORPUS/goproject (is $CORPUS/gomodcache complete?):
$(tail -5 "$WORK/modules.err")"
KEPT=()
for p in $PACKAGES; do
  if awk -v p="$p" '{ m=$1; if (p == m || index(p, m "/") == 1) found=1 } END { exit !found }' "$WORK/modules"; then
    KEPT+=("$p")
  else
    echo "gopls-compare: skipping $p: no module of $CORPUS/goproject/go.mod provides it" >&2
  fi
done
((${#KEPT[@]})) || die "none of the packages resolves in $CORPUS/goproject"

# Scratch workspace: the corpus go.mod plus one file importing the packages.
mkdir -p "$WORK/ws"
cp "$CORPUS/goproject/go.mod" "$CORPUS/goproject/go.sum" "$WORK/ws/"
{
  echo "package main"
  echo
  echo "import ("
  for p in "${KEPT[@]}"; do echo "	_ \"$p\""; done
  echo ")"
  echo
  echo "func main() {}"
} >"$WORK/ws/imports.go"

python3 - "$GOPLS" "$DOCIDX_BIN" "$SNAPSHOT" "$WORK" "$QUERY" "$WARM" "$("$GOPLS" version 2>/dev/null | head -1)" "${KEPT[@]}" <<'PY'
import json, os, queue, statistics, subprocess, sys, threading, time

gopls, docidx, snapshot, work, query, warm, gopls_version = sys.argv[1:8]
warm = int(warm)
packages = sys.argv[8:]
TIMEOUT = 300


class Server:
    def __init__(self, name, cmd, cwd):
        self.name = name
        self.log = open(os.path.join(work, name + ".stderr"), "w")
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.q = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line)
        self.q.put(None)

    def rpc(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n").encode())
        self.p.stdin.flush()
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                line = self.q.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise RuntimeError(f"{self.name}: no answer to {method} in {TIMEOUT}s")
            if line is None:
                raise RuntimeError(f"{self.name} exited (code {self.p.poll()}); see {self.log.name}:\n" + tail(self.log.name))
            msg = json.loads(line)
            if msg.get("id") == rid:
                if "error" in msg:
                    raise RuntimeError(f"{self.name}: {method}: {msg['error']}")
                return msg["result"], len(line)

    def initialize(self):
        res, _ = self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                         "clientInfo": {"name": "gopls-compare", "version": "0"}})
        self.init_ms = (time.monotonic() - self.t0) * 1000
        self.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.p.stdin.flush()
        return res

    def call(self, tool, args):
        t = time.monotonic()
        res, wire = self.rpc("tools/call", {"name": tool, "arguments": args})
        ms = (time.monotonic() - t) * 1000
        text = "".join(c.get("text", "") for c in res.get("content", []) if c.get("type") == "text")
        if res.get("isError"):
            raise RuntimeError(f"{self.name}: {tool} {args}: {text[:300]}")
        return ms, len(text.encode()), wire, text, res

    def hwm_kb(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def cpu_ticks(self):
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    def settle(self, limit=120):
        """Waits until the process has used under 5% of a core over half a second; returns ms waited."""
        t, hz = time.monotonic(), os.sysconf("SC_CLK_TCK")
        while time.monotonic() - t < limit:
            a = self.cpu_ticks()
            time.sleep(0.5)
            if (self.cpu_ticks() - a) / hz < 0.025:
                break
        return (time.monotonic() - t) * 1000

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=30)
        except Exception:
            self.p.kill()
            self.p.wait()


def tail(path, n=8):
    try:
        with open(path) as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def measure(srv, tool, args):
    cold = srv.call(tool, args)
    runs = [srv.call(tool, args)[0] for _ in range(warm)]
    return {"cold": cold[0], "warm": statistics.median(runs) if runs else cold[0],
            "bytes": cold[1], "wire": cold[2], "text": cold[3], "res": cold[4]}


# ---- gopls ----
g = Server("gopls", [gopls, "mcp"], os.path.join(work, "ws"))
g.initialize()
tools = g.rpc("tools/list", {})[0]["tools"]
if "go_package_api" not in {t["name"] for t in tools}:
    sys.exit("gopls-compare: this gopls has no go_package_api tool")
t = time.monotonic()
g.call("go_package_api", {"packagePaths": []})  # waits for the initial workspace load
g_load = (time.monotonic() - t) * 1000
g_settle = g.settle()  # gopls type-checks the workspace in the background after loading it
gres = {p: measure(g, "go_package_api", {"packagePaths": [p]}) for p in packages}
g_search = measure(g, "go_search", {"query": query})
g_hwm = g.hwm_kb()
g.close()
empty = [p for p in packages if gres[p]["bytes"] == 0]
if empty:
    print(f"warning: gopls answered nothing for {', '.join(empty)} (not in its workspace load?); "
          f"see {work}/gopls.stderr", file=sys.stderr)


# ---- docidx ----
def start_docidx():
    # The snapshot may be replaced while we run: retry opening it a few times.
    for attempt in range(5):
        d = Server("docidx", [docidx, "serve", "--stdio", "--index", snapshot], work)
        try:
            d.initialize()
            d.call("list_packages", {"limit": 1})
            return d
        except Exception as e:
            d.close()
            err = e
            time.sleep(2)
    sys.exit(f"gopls-compare: docidx could not open {snapshot}: {err}")


d = start_docidx()
d.settle()
dres = {}
for p in packages:
    r = measure(d, "describe_go_package", {"package": p})
    pages, total, cur = 1, r["bytes"], r["res"].get("structuredContent", {}).get("nextCursor")
    while cur and pages < 50:
        _, b, _, _, res = d.call("describe_go_package", {"package": p, "cursor": cur})
        pages, total, cur = pages + 1, total + b, res.get("structuredContent", {}).get("nextCursor")
    r["pages"], r["total"] = pages, total
    dres[p] = r
d_search = measure(d, "search_package_docs", {"query": query})
d_hwm = d.hwm_kb()
d_init = d.init_ms
d.close()

# ---- report ----
f = lambda ms: f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"
print(f"gopls {gopls_version} (MCP go_package_api) vs docidx (describe_go_package), snapshot {snapshot}")
print(f"latency: one cold call, then median of {warm} warm calls; bytes: text content of the first answer\n")
print("| package | gopls bytes | gopls cold ms | gopls warm ms | docidx bytes | docidx warm ms |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for p in packages:
    a, b = gres[p], dres[p]
    print(f"| {p} | {a['bytes']} | {f(a['cold'])} | {f(a['warm'])} | {b['bytes']} | {f(b['warm'])} |")
print(f"| _query: \"{query}\"_ (gopls go_search / docidx search_package_docs) | {g_search['bytes']} | "
      f"{f(g_search['cold'])} | {f(g_search['warm'])} | {d_search['bytes']} | {f(d_search['warm'])} |")

print("\nDetails (~tokens = bytes/4; wire = whole JSON-RPC response line):\n")
print("| package | gopls ~tokens | docidx ~tokens | docidx cold ms | docidx pages (all pages' bytes) | gopls wire | docidx wire |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for p in packages:
    a, b = gres[p], dres[p]
    print(f"| {p} | {a['bytes'] // 4} | {b['bytes'] // 4} | {f(b['cold'])} | {b['pages']} ({b['total']}) | {a['wire']} | {b['wire']} |")
print(f"| _query_ | {g_search['bytes'] // 4} | {d_search['bytes'] // 4} | {f(d_search['cold'])} | 1 | {g_search['wire']} | {d_search['wire']} |")

first = lambda s, n=1: " / ".join(l.strip() for l in s.strip().splitlines()[:n]) or "(empty)"
print(f"\nquery top answer, gopls go_search: {first(g_search['text'], 2)[:160]}")
hits = d_search["res"].get("structuredContent", {}).get("results", [])
print("query top answers, docidx: " + "; ".join(f"{h.get('package')} {h.get('title')}" for h in hits[:3]))

print(f"\nstart→initialize: gopls {f(g.init_ms)} ms, docidx {f(d_init)} ms; gopls first tool call "
      f"(awaits the initial package load): {f(g_load)} ms, then busy in the background for {f(g_settle)} ms "
      f"(both servers were measured idle)")
print(f"peak RSS (VmHWM) after the calls: gopls {g_hwm / 1024:.0f} MiB, docidx {d_hwm / 1024:.0f} MiB")
PY
