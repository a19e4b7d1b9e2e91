#!/usr/bin/env bash
# make e2e: docidx on real input. Not part of `make test` (it needs the network and a corpus).
#
#   1. remote: crawl a Go module and an npm package through the registries that `go env GOPROXY`
#      and npm's configuration name, then a real project's go.mod and package-lock.json;
#   2. local: crawl the real-input corpus (scripts/corpus.sh) with --offline, check counts and that
#      a plain-words query finds the right package;
#   3. serve: answer an MCP session over stdio with no network at all (unshare -n), if available.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/docidx}
CORPUS=${DOCIDX_CORPUS:-/work/corpus}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "e2e: FAIL: $*" >&2; exit 1; }

echo "== remote: go:github.com/google/uuid@v1.6.0 npm:is-number@7.0.0"
"$BIN" crawl --index "$WORK/remote" go:github.com/google/uuid@v1.6.0 npm:is-number@7.0.0
"$BIN" show --index "$WORK/remote" go:github.com/google/uuid NewString | grep -q 'func NewString() string' || fail "uuid.NewString not found"
"$BIN" show --index "$WORK/remote" npm:is-number | grep -qi 'number' || fail "is-number not described"

if [ -f "$CORPUS/goproject/go.mod" ] && [ -f "$CORPUS/npmproject/package-lock.json" ]; then
  echo "== remote: --from go.mod --from package-lock.json of a real project"
  time "$BIN" crawl --index "$WORK/project" --from "$CORPUS/goproject/go.mod" --from "$CORPUS/npmproject/package-lock.json" || echo "(some packages failed; see above)"
  "$BIN" stats --index "$WORK/project"
fi

if [ -d "$CORPUS/gomodcache" ] && [ -d "$CORPUS/npmproject/node_modules" ]; then
  echo "== local: --offline --go-modcache --node-modules over the corpus"
  time "$BIN" crawl --index "$WORK/local" --offline --go-modcache "$CORPUS/gomodcache" --node-modules "$CORPUS/npmproject/node_modules"
  "$BIN" stats --index "$WORK/local" --json | tee "$WORK/stats.json"
  "$BIN" search --index "$WORK/local" --limit 3 --json "define a subcommand with persistent flags" > "$WORK/search.json"
  grep -q '"purl": "pkg:golang/github.com/spf13/cobra@' "$WORK/search.json" || fail "cobra not in the top 3 for 'define a subcommand with persistent flags'"
  "$BIN" show --index "$WORK/local" go:golang.org/x/sync/errgroup Group.Go | grep -q 'func (g \*Group) Go(f func() error)' || fail "errgroup Group.Go"

  echo "== serve --stdio with no network (unshare -n)"
  run=("$BIN")
  if unshare -n true 2>/dev/null; then run=(unshare -n "$BIN"); else echo "(unshare -n not permitted here; serving with the network present)"; fi
  "${run[@]}" serve --stdio --index "$WORK/local" > "$WORK/mcp.out" <<'JSON'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"describe_npm_package","arguments":{"package":"zod"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"describe_go_package","arguments":{"package":"golang.org/x/sync/errgroup","symbol":"Group.Go"}}}
JSON
  [ "$(grep -c '"id":' "$WORK/mcp.out")" -ge 4 ] || fail "not every MCP request was answered"
  grep -q 'func (g \*Group) Go(f func() error)' "$WORK/mcp.out" || fail "describe_go_package over MCP"
  if command -v npm >/dev/null; then
    echo "== MCP clients: the Inspector CLI and the official TypeScript SDK client"
    clients="$CORPUS/mcpclients"
    mkdir -p "$clients"
    [ -f "$clients/package.json" ] || (cd "$clients" && npm init -y >/dev/null)
    (cd "$clients" && npm install --no-audit --no-fund --silent @modelcontextprotocol/inspector @modelcontextprotocol/sdk)
    absbin=$(realpath "$BIN")
    (cd "$clients" && npx --no-install mcp-inspector --cli "$absbin" serve --stdio --index "$WORK/local" --method tools/list) > "$WORK/inspector.json"
    grep -q '"name": "search_package_docs"' "$WORK/inspector.json" || fail "Inspector CLI tools/list"
    NODE_PATH="$clients/node_modules" node scripts/ts-client.mjs "$BIN" "$WORK/local"
  fi
fi
echo "e2e: ok"
