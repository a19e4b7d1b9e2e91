#!/usr/bin/env bash
# The README's quick start: index the Go modules this repository depends on, straight from the
# local module cache (no registry is asked), then query the snapshot from the command line and
# through the MCP server over stdio, the way an editor would.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/docidx}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
# The index docidx uses by default, under the user's data directory (the same rule as
# defaultIndexDir in cmd/docidx), so the editor configuration printed at the end still works after
# a reboot; a temporary directory would not. DOCIDX_INDEX overrides it.
case "$(uname -s)" in
Darwin) default_index="$HOME/Library/Application Support/docidx" ;;
MINGW* | MSYS* | CYGWIN*) default_index="${LOCALAPPDATA:-$HOME/AppData/Local}/docidx" ;;
*) default_index="${XDG_DATA_HOME:-$HOME/.local/share}/docidx" ;;
esac
export DOCIDX_INDEX=${DOCIDX_INDEX:-$default_index}

echo "== go mod download: make sure every module in go.mod is in the module cache"
go mod download

echo "== docidx crawl --offline --from go.mod --go-modcache  (index: $DOCIDX_INDEX)"
"$BIN" crawl --offline --from go.mod --go-modcache

echo "== docidx stats"
"$BIN" stats

echo "== docidx search wait for goroutines and cancel on the first error"
"$BIN" search --limit 3 wait for goroutines and cancel on the first error

echo "== docidx show go:golang.org/x/sync/errgroup Group.Go"
"$BIN" show go:golang.org/x/sync/errgroup Group.Go

echo "== docidx serve --stdio: initialize, then tools/call search_package_docs and describe_go_package"
"$BIN" serve --stdio <<'JSON'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"parse markdown into an AST","limit":3}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"describe_go_package","arguments":{"package":"golang.org/x/sync/errgroup","symbol":"Group.Go"}}}
JSON
echo
cat <<EOF
== done. The index is in $DOCIDX_INDEX and stays there. To use it from an editor, add this
   server to its MCP configuration (Claude Desktop: claude_desktop_config.json; Cursor:
   ~/.cursor/mcp.json; VS Code: .vscode/mcp.json, under "servers" instead of "mcpServers"):

{
  "mcpServers": {
    "docidx": {
      "command": "$BIN",
      "args": ["serve", "--stdio", "--index", "$DOCIDX_INDEX"]
    }
  }
}

   or for Claude Code: claude mcp add docidx -- "$BIN" serve --stdio --index "$DOCIDX_INDEX"
   ($BIN is this checkout's build; a release binary or 'go install' on your PATH works the same.)
EOF
