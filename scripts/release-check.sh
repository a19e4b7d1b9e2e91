#!/usr/bin/env bash
# release-check.sh is the smoke test of `make release`'s output in dist/ (issue 17), run by
# `make release-check` and not by `make test`. Offline except for installing Node 22 and the MCP
# Inspector from npm once (as scripts/conformance.sh does).
#
#   1. the linux/amd64 archive unpacks, and its binary's `version` names the release and commit;
#   2. that binary crawls a local fixture (a node_modules directory made here) with --offline;
#   3. the packed MCPB bundle unpacks, and its Linux entry point, started as the manifest says
#      (serve --stdio --index <user_config.index>), answers the MCP Inspector CLI's tools/list;
#   4. the OCI image's config has the registry label and the serve --http --stateless entrypoint;
#   5. dist/server.json validates against the MCP Registry's schema (go test ./packaging).
#
# Environment: DIST (default dist), CHECK_DIR where the npm packages go (default
# ${TMPDIR:-/tmp}/docidx-release-check), INSPECTOR_PKG (pinned below).
set -euo pipefail

DIST=${DIST:-dist}
CHECK_DIR=${CHECK_DIR:-${TMPDIR:-/tmp}/docidx-release-check}
INSPECTOR_PKG=${INSPECTOR_PKG:-@modelcontextprotocol/inspector@2.12.0}
GO=${GO:-go}

[ -f "$DIST/metadata.json" ] || { echo "release-check: no $DIST/metadata.json; run make release first" >&2; exit 2; }
DIST=$(cd "$DIST" && pwd)
meta=$(cat "$DIST/metadata.json")
version=$(node -p "JSON.parse(process.argv[1]).version" "$meta")
commit=$(node -p "JSON.parse(process.argv[1]).commit" "$meta")

case $commit in
"" | none) echo "release-check: FAIL goreleaser recorded no git commit (is this a clone with a remote?)" >&2; exit 1 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ok() { echo "release-check: ok   $*"; }
bad() { echo "release-check: FAIL $*" >&2; exit 1; }

# 1. The archive and the version it prints.
tar -xzf "$DIST/docidx_${version}_linux_amd64.tar.gz" -C "$work"
for f in docidx README.md man/docidx.1 completions/docidx.bash completions/_docidx completions/docidx.fish completions/docidx.ps1; do
	[ -e "$work/$f" ] || bad "linux archive lacks $f"
done
out=$("$work/docidx" version)
[[ "$out" == "docidx v$version "* ]] || bad "docidx version printed '$out', want v$version"
[[ "$out" == *", commit $commit)" ]] || bad "docidx version printed '$out', want commit $commit"
ok "archive: $out"
(cd "$DIST" && sha256sum --quiet -c checksums.txt) || bad "checksums.txt does not match dist/"
ok "checksums.txt matches $(wc -l <"$DIST/checksums.txt") files"

# 2. A crawl of a local fixture, offline.
mkdir -p "$work/node_modules/tiny-pad"
cat >"$work/node_modules/tiny-pad/package.json" <<'JSON'
{"name": "tiny-pad", "version": "1.0.0", "description": "Pad a string on the left", "main": "index.js"}
JSON
printf '# tiny-pad\n\nPad a string on the left to a given width.\n\n## pad(str, width)\n\nReturns str padded with spaces.\n' \
	>"$work/node_modules/tiny-pad/README.md"
"$work/docidx" crawl --index "$work/index" --offline --quiet --node-modules "$work/node_modules"
"$work/docidx" search --index "$work/index" pad a string | grep -q tiny-pad || bad "search after the crawl did not find tiny-pad"
ok "crawl --offline of a node_modules fixture, then search"

# 3. The bundle's entry point under the MCP Inspector.
mkdir -p "$CHECK_DIR"
if [ ! -x "$CHECK_DIR/node_modules/.bin/mcp-inspector" ] || [ ! -x "$CHECK_DIR/node_modules/.bin/node" ] ||
	! grep -q "\"version\": \"${INSPECTOR_PKG##*@}\"" "$CHECK_DIR/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null; then
	echo "release-check: installing node@22 and $INSPECTOR_PKG into $CHECK_DIR" >&2
	[ -f "$CHECK_DIR/package.json" ] || echo '{"private": true}' >"$CHECK_DIR/package.json"
	(cd "$CHECK_DIR" && npm install --no-audit --no-fund --loglevel=error node@22 "$INSPECTOR_PKG" >&2)
fi
export PATH="$CHECK_DIR/node_modules/.bin:$PATH"
if ! node --version 2>/dev/null | grep -q '^v22\.'; then
	(cd "$CHECK_DIR" && npm install-scripts approve node >&2 && npm rebuild node >&2) || true
	node --version | grep -q '^v22\.' || bad "Node 22 did not install into $CHECK_DIR"
fi
mkdir -p "$work/bundle"
(cd "$work/bundle" && unzip -q "$DIST/docidx_${version}.mcpb")
manifest=$work/bundle/manifest.json
# The command and args exactly as the manifest gives them, with the bundle's directory and the
# user's index put in, as Claude Desktop does.
mapfile -t cmd < <(BUNDLE="$work/bundle" INDEX="$work/index" node -e '
	const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
	const sub = (s) => s.replaceAll("${__dirname}", process.env.BUNDLE).replaceAll("${user_config.index}", process.env.INDEX);
	for (const a of [m.server.mcp_config.command, ...m.server.mcp_config.args]) console.log(sub(a));
' "$manifest")
[ -x "${cmd[0]}" ] || bad "the bundle's Linux entry point ${cmd[0]} is missing or not executable"
(cd "$work" && timeout 180 mcp-inspector --cli "${cmd[@]}" --method tools/list) >"$work/tools.json" 2>"$work/inspector.err" ||
	{ cat "$work/inspector.err" >&2; bad "MCP Inspector tools/list over the bundle's entry point"; }
grep -q '"search_package_docs"' "$work/tools.json" || bad "tools/list did not list search_package_docs"
ok "bundle: ${cmd[*]#$work/} answers tools/list ($(grep -c '"name"' "$work/tools.json") names)"

# 4. The OCI image's config.
(cd "$(dirname "$0")/../tools/release" && $GO run ./ociimage inspect "$DIST/docidx_${version}_oci.tar") >"$work/oci.json"
name=$(node -p 'require(process.argv[1]).name' "$DIST/server.json")
[ "$(wc -l <"$work/oci.json")" = 2 ] || bad "the OCI image has $(wc -l <"$work/oci.json") platforms, want linux/amd64 and linux/arm64"
while read -r line; do
	node -e '
		const c = JSON.parse(process.argv[1]), name = process.argv[2];
		const want = ["/usr/bin/docidx", "serve", "--http", "0.0.0.0:8080", "--stateless"];
		if (c.labels["io.modelcontextprotocol.server.name"] !== name) throw new Error(`${c.platform}: label ${c.labels["io.modelcontextprotocol.server.name"]}, want ${name}`);
		if (JSON.stringify(c.entrypoint) !== JSON.stringify(want)) throw new Error(`${c.platform}: entrypoint ${c.entrypoint}`);
		if (c.user.startsWith("0") || c.user === "" || c.user === "root") throw new Error(`${c.platform}: runs as root`);
	' "$line" "$name" || bad "OCI image config"
done <"$work/oci.json"
ok "OCI image: label io.modelcontextprotocol.server.name=$name, entrypoint serve --http 0.0.0.0:8080 --stateless, non-root"

# 5. server.json against the registry's schema.
(cd "$(dirname "$0")/.." && DOCIDX_SERVER_JSON="$DIST/server.json" $GO test -count=1 -run TestServerJSON ./packaging >/dev/null) ||
	bad "dist/server.json does not validate (go test ./packaging)"
ok "server.json validates against the MCP Registry schema 2025-12-11"
