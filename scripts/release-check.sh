#!/usr/bin/env bash
# release-check.sh is the smoke test of `make release`'s output in dist/ (issue 17), run by
# `make release-check` and not by `make test`. Offline except for installing Node 22 and the MCP
# Inspector from npm once (as scripts/conformance.sh does).
#
#   1. every archive (six: linux, darwin, windows on amd64 and arm64) holds THIRD_PARTY_LICENSES
#      with a license text under the name of each module its binary links, and LICENSE and NOTICE as
#      the repository has them, and has its SBOM beside it, ARCHIVE.sbom.json in SPDX JSON, which
#      lists every Go module (path and version) that `go list -deps` says the binary for that
#      platform is built from;
#   2. the linux/amd64 archive unpacks, and its binary's `version` names the release and commit;
#   3. that binary crawls a local fixture (a node_modules directory made here) with --offline;
#   4. the packed MCPB bundle holds LICENSE and NOTICE and its manifest names the license; it
#      unpacks, and its Linux entry point, started as the manifest says
#      (serve --stdio --index <user_config.index>), answers the MCP Inspector CLI's tools/list;
#   5. the OCI image's config has the registry label, the license label and annotation, and the
#      serve --http --stateless entrypoint, and its layer holds /usr/share/doc/docidx/LICENSE and
#      NOTICE;
#   6. dist/server.json names the license and validates against the MCP Registry's schema, and
#      LICENSE is the Apache License 2.0 text (go test ./packaging).
#
# Environment: DIST (default dist), CHECK_DIR where the npm packages go (default
# ${TMPDIR:-/tmp}/docidx-release-check), INSPECTOR_PKG (pinned below).
set -euo pipefail

DIST=${DIST:-dist}
CHECK_DIR=${CHECK_DIR:-${TMPDIR:-/tmp}/docidx-release-check}
INSPECTOR_PKG=${INSPECTOR_PKG:-@modelcontextprotocol/inspector@2.12.0}
GO=${GO:-go}
# LICENSE (license, an SPDX identifier) is docidx's license, as the manifests must name it.
LICENSE=Apache-2.0
root=$(cd "$(dirname "$0")/.." && pwd)

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

# 1. Every archive: LICENSE, NOTICE and its SBOM.
mapfile -t archives < <(cd "$DIST" && { compgen -G "docidx_${version}_*.tar.gz"; compgen -G "docidx_${version}_*.zip"; })
[ "${#archives[@]}" = 6 ] || bad "want 6 archives docidx_${version}_{linux,darwin,windows}_{amd64,arm64}, found ${#archives[@]}: ${archives[*]}"
for a in "${archives[@]}"; do
	for f in LICENSE NOTICE; do
		case $a in
		*.zip) unzip -p "$DIST/$a" "$f" >"$work/$f.got" 2>/dev/null || bad "$a lacks $f" ;;
		*) tar -xzOf "$DIST/$a" "$f" >"$work/$f.got" 2>/dev/null || bad "$a lacks $f" ;;
		esac
		cmp -s "$work/$f.got" "$root/$f" || bad "$a: $f differs from the repository's $f"
	done
	sbom=$DIST/$a.sbom.json
	[ -s "$sbom" ] || bad "$a has no SBOM ($a.sbom.json)"
	platform=${a#docidx_"${version}"_}
	platform=${platform%%.*}
	# The modules the binary for this platform is built from, as "path version" lines.
	(cd "$root" && GOOS=${platform%_*} GOARCH=${platform#*_} CGO_ENABLED=0 $GO list -deps \
		-f '{{with .Module}}{{if .Version}}{{.Path}} {{.Version}}{{end}}{{end}}' ./cmd/docidx | sort -u) >"$work/mods"
	[ -s "$work/mods" ] || bad "go list -deps ./cmd/docidx for $platform listed no modules"
	case $a in
	*.zip) unzip -p "$DIST/$a" THIRD_PARTY_LICENSES >"$work/third" 2>/dev/null || bad "$a lacks THIRD_PARTY_LICENSES" ;;
	*) tar -xzOf "$DIST/$a" THIRD_PARTY_LICENSES >"$work/third" 2>/dev/null || bad "$a lacks THIRD_PARTY_LICENSES" ;;
	esac
	while read -r m; do
		grep -qxF "$m" "$work/third" || bad "$a: THIRD_PARTY_LICENSES lacks the license of $m, which its binary links"
	done <"$work/mods"
	node -e '
		const fs = require("fs");
		const doc = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
		if (!String(doc.spdxVersion).startsWith("SPDX-")) throw new Error("not an SPDX document (spdxVersion " + doc.spdxVersion + ")");
		const have = new Set((doc.packages || []).map((p) => p.name + " " + p.versionInfo));
		const want = fs.readFileSync(process.argv[2], "utf8").trim().split("\n");
		const missing = want.filter((m) => !have.has(m));
		if (missing.length) throw new Error("lists " + have.size + " packages but not: " + missing.join(", "));
	' "$sbom" "$work/mods" || bad "$a.sbom.json does not list the modules of $platform's binary"
done
bbolt=$(cd "$root" && $GO list -m -f '{{.Version}}' go.etcd.io/bbolt)
ok "${#archives[@]} archives hold LICENSE, NOTICE and THIRD_PARTY_LICENSES (the license of each module linked in); each SBOM lists its binary's $(wc -l <"$work/mods") modules (go.etcd.io/bbolt $bbolt among them)"

# 2. The linux archive and the version it prints.
tar -xzf "$DIST/docidx_${version}_linux_amd64.tar.gz" -C "$work"
for f in docidx README.md LICENSE NOTICE man/docidx.1 completions/docidx.bash completions/_docidx completions/docidx.fish completions/docidx.ps1; do
	[ -e "$work/$f" ] || bad "linux archive lacks $f"
done
out=$("$work/docidx" version)
[[ "$out" == "docidx v$version "* ]] || bad "docidx version printed '$out', want v$version"
[[ "$out" == *", commit $commit)" ]] || bad "docidx version printed '$out', want commit $commit"
ok "archive: $out"
(cd "$DIST" && sha256sum --quiet -c checksums.txt) || bad "checksums.txt does not match dist/"
ok "checksums.txt matches $(wc -l <"$DIST/checksums.txt") files"

# 3. A crawl of a local fixture, offline.
mkdir -p "$work/node_modules/tiny-pad"
cat >"$work/node_modules/tiny-pad/package.json" <<'JSON'
{"name": "tiny-pad", "version": "1.0.0", "description": "Pad a string on the left", "main": "index.js"}
JSON
printf '# tiny-pad\n\nPad a string on the left to a given width.\n\n## pad(str, width)\n\nReturns str padded with spaces.\n' \
	>"$work/node_modules/tiny-pad/README.md"
"$work/docidx" crawl --index "$work/index" --offline --quiet --node-modules "$work/node_modules"
"$work/docidx" search --index "$work/index" pad a string | grep -q tiny-pad || bad "search after the crawl did not find tiny-pad"
ok "crawl --offline of a node_modules fixture, then search"

# 4. The bundle: LICENSE, NOTICE, the manifest's license, and its entry point under the MCP Inspector.
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
for f in LICENSE NOTICE; do
	cmp -s "$work/bundle/$f" "$root/$f" || bad "the bundle lacks $f, or its $f differs from the repository's"
done
cmp -s "$work/bundle/THIRD_PARTY_LICENSES" "$work/third" || bad "the bundle lacks THIRD_PARTY_LICENSES, or it differs from the archives'"
got=$(node -p 'require(process.argv[1]).license' "$manifest")
[ "$got" = "$LICENSE" ] || bad "the bundle's manifest names license '$got', want $LICENSE"
ok "bundle: LICENSE, NOTICE, THIRD_PARTY_LICENSES, manifest license $got"
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

# 5. The OCI image's config and license.
(cd "$(dirname "$0")/../tools/release" && $GO run ./ociimage inspect "$DIST/docidx_${version}_oci.tar") >"$work/oci.json"
name=$(node -p 'require(process.argv[1]).name' "$DIST/server.json")
[ "$(wc -l <"$work/oci.json")" = 2 ] || bad "the OCI image has $(wc -l <"$work/oci.json") platforms, want linux/amd64 and linux/arm64"
while read -r line; do
	node -e '
		const c = JSON.parse(process.argv[1]), name = process.argv[2], license = process.argv[3];
		const fs = require("fs"), crypto = require("crypto");
		if (c.labels["org.opencontainers.image.licenses"] !== license) throw new Error(`${c.platform}: label org.opencontainers.image.licenses ${c.labels["org.opencontainers.image.licenses"]}, want ${license}`);
		if (c.annotations["org.opencontainers.image.licenses"] !== license) throw new Error(`${c.platform}: annotation org.opencontainers.image.licenses ${c.annotations["org.opencontainers.image.licenses"]}, want ${license}`);
		for (const f of ["LICENSE", "NOTICE"]) {
			const want = crypto.createHash("sha256").update(fs.readFileSync(process.argv[4] + "/" + f)).digest("hex");
			if (c.files["usr/share/doc/docidx/" + f] !== want) throw new Error(`${c.platform}: /usr/share/doc/docidx/${f} is missing or differs from the one in the repository`);
		}
		const want = ["/usr/bin/docidx", "serve", "--http", "0.0.0.0:8080", "--stateless"];
		if (c.labels["io.modelcontextprotocol.server.name"] !== name) throw new Error(`${c.platform}: label ${c.labels["io.modelcontextprotocol.server.name"]}, want ${name}`);
		if (JSON.stringify(c.entrypoint) !== JSON.stringify(want)) throw new Error(`${c.platform}: entrypoint ${c.entrypoint}`);
		if (c.user.startsWith("0") || c.user === "" || c.user === "root") throw new Error(`${c.platform}: runs as root`);
	' "$line" "$name" "$LICENSE" "$root" || bad "OCI image config"
done <"$work/oci.json"
ok "OCI image: label io.modelcontextprotocol.server.name=$name, licenses $LICENSE (label, annotation, /usr/share/doc/docidx/LICENSE, NOTICE), entrypoint serve --http 0.0.0.0:8080 --stateless, non-root"

# 6. server.json: the license, and the registry's schema. Its schema has no license field; the
# license is in the publisher-provided metadata, the one _meta key the registry keeps.
got=$(node -p 'const m = require(process.argv[1])._meta; m && m["io.modelcontextprotocol.registry/publisher-provided"].license' "$DIST/server.json")
[ "$got" = "$LICENSE" ] || bad "dist/server.json names license '$got' (_meta[io.modelcontextprotocol.registry/publisher-provided].license), want $LICENSE"
(cd "$root" && DOCIDX_SERVER_JSON="$DIST/server.json" $GO test -count=1 -run 'TestServerJSON|TestLicense' ./packaging >/dev/null) ||
	bad "dist/server.json does not validate, or LICENSE is not the Apache License 2.0 text (go test ./packaging)"
ok "server.json names license $got and validates against the MCP Registry schema 2025-12-11"
