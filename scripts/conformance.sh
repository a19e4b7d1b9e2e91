#!/usr/bin/env bash
# conformance.sh runs the official MCP conformance suite (npm @modelcontextprotocol/conformance)
# against `docidx serve --http` on loopback, stateful and then --stateless, and the MCP
# Inspector's strict schema check against `docidx serve --stdio` (issue 4). Not part of
# `make test`: it installs Node 22 and the two npm packages into a scratch directory.
#
#   BIN=bin/docidx bash scripts/conformance.sh
#
# Environment:
#   BIN              the docidx binary (default bin/docidx; `make conformance` builds it)
#   INDEX            a snapshot to serve (default: one crawled here from go.mod and the Go module cache)
#   CONFORMANCE_DIR  where the npm packages go (default ${TMPDIR:-/tmp}/docidx-conformance)
#   CONFORMANCE_PKG, INSPECTOR_PKG   the npm packages (pinned below)
#   SCENARIOS        the server scenarios to run (default: those that apply to any server)
#
# Exit status 0 when every scenario passes in both modes (a stateless server has no session, so
# server-sse-multiple-streams may only warn there) and the Inspector's strict check passes.
set -euo pipefail

BIN=${BIN:-bin/docidx}
CONFORMANCE_DIR=${CONFORMANCE_DIR:-${TMPDIR:-/tmp}/docidx-conformance}
CONFORMANCE_PKG=${CONFORMANCE_PKG:-@modelcontextprotocol/conformance@0.1.16}
INSPECTOR_PKG=${INSPECTOR_PKG:-@modelcontextprotocol/inspector@2.12.0}
SCENARIOS=${SCENARIOS:-server-initialize ping logging-set-level tools-list resources-list prompts-list completion-complete dns-rebinding-protection server-sse-multiple-streams}

BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
[ -x "$BIN" ] || { echo "conformance: no docidx binary at $BIN (run make build)" >&2; exit 2; }

work=$(mktemp -d)
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# 1. Node 22 and the npm packages, once.
mkdir -p "$CONFORMANCE_DIR"
if [ ! -x "$CONFORMANCE_DIR/node_modules/.bin/conformance" ] || [ ! -x "$CONFORMANCE_DIR/node_modules/.bin/node" ] ||
	! grep -q "\"version\": \"${INSPECTOR_PKG##*@}\"" "$CONFORMANCE_DIR/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null; then
	echo "conformance: installing node@22, $CONFORMANCE_PKG and $INSPECTOR_PKG into $CONFORMANCE_DIR" >&2
	[ -f "$CONFORMANCE_DIR/package.json" ] || echo '{"private": true}' >"$CONFORMANCE_DIR/package.json"
	(cd "$CONFORMANCE_DIR" && npm install --no-audit --no-fund --loglevel=error node@22 "$CONFORMANCE_PKG" "$INSPECTOR_PKG" >&2)
fi
export PATH="$CONFORMANCE_DIR/node_modules/.bin:$PATH"
if ! node --version 2>/dev/null | grep -q '^v22\.'; then
	# npm may hold back node@22's install script, which fetches the platform's binary package.
	(cd "$CONFORMANCE_DIR" && npm install-scripts approve node >&2 && npm rebuild node >&2) || true
	node --version | grep -q '^v22\.' || { echo "conformance: Node 22 did not install" >&2; exit 1; }
fi
echo "conformance: node $(node --version), $(conformance --version 2>/dev/null || echo "$CONFORMANCE_PKG")" >&2

# 2. A snapshot: the given one, or this module's dependencies from the local module cache.
INDEX=${INDEX:-}
if [ -z "$INDEX" ]; then
	INDEX=$work/index
	"$BIN" crawl --index "$INDEX" --offline --quiet --from go.mod --go-modcache >&2
fi

# 3. The suite against a fresh server per mode.
failed=0
results=()
start_server() { # mode flags...
	local log=$work/server-$1.log
	shift
	"$BIN" serve --index "$INDEX" --http 127.0.0.1:0 "$@" 2>"$log" &
	server_pid=$!
	for _ in $(seq 100); do
		url=$(sed -n 's|.* on \(http://[^ ,]*/mcp\),.*|\1|p' "$log" | head -1)
		[ -n "$url" ] && curl -fsS "${url%/mcp}/healthz" >/dev/null 2>&1 && return 0
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "conformance: server did not start:" >&2
	cat "$log" >&2
	exit 1
}
stop_server() {
	kill -TERM "$server_pid"
	wait "$server_pid" || { echo "conformance: server exited with status $? on SIGTERM" >&2; failed=1; }
	server_pid=
}

for mode in stateful stateless; do
	flags=()
	[ "$mode" = stateless ] && flags=(--stateless)
	start_server "$mode" "${flags[@]}"
	echo "conformance: $mode server at $url" >&2
	for sc in $SCENARIOS; do
		out=$work/$mode-$sc.log
		status=pass
		if ! (cd "$work" && timeout 180 conformance server --url "$url" --scenario "$sc") >"$out" 2>&1; then
			status=FAIL
		fi
		summary=$(grep -a 'Passed:' "$out" | tail -1 || true)
		if [ "$status" = pass ] && ! grep -aq ', 0 failed' "$out"; then status=FAIL; fi
		if [ "$status" = pass ] && ! grep -aq ', 0 warnings' "$out"; then
			if [ "$mode" = stateless ] && [ "$sc" = server-sse-multiple-streams ]; then
				status="pass (warning: a stateless server has no session to stream on)"
			else
				status=FAIL
			fi
		fi
		[ "$status" = FAIL ] && { failed=1; sed 's/^/    /' "$out" >&2; }
		results+=("$(printf '%-10s %-28s %s  %s' "$mode" "$sc" "$status" "$summary")")
	done
	stop_server
done

# 4. The Inspector's strict schema check over stdio.
inspector=pass
if ! (cd "$work" && timeout 180 mcp-inspector --cli --method tools/list --strict \
	"$BIN" serve --stdio --index "$INDEX") >"$work/inspector.out" 2>"$work/inspector.err"; then
	inspector=FAIL
	failed=1
	cat "$work/inspector.err" >&2
fi
results+=("$(printf '%-10s %-28s %s' stdio "inspector tools/list --strict" "$inspector")")

printf '%s\n' "${results[@]}"
exit $failed
