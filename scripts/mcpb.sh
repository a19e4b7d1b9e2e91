#!/usr/bin/env bash
# mcpb.sh packs the Claude Desktop bundle (MCPB) from the binaries goreleaser built in dist/, and
# writes dist/server.json, the MCP Registry entry, for the same version (issue 17). `make release`
# runs it after goreleaser; it needs Node and the npm registry once, for the official
# @anthropic-ai/mcpb CLI, which validates the manifest and packs the bundle.
#
#   bash scripts/mcpb.sh
#
# Environment:
#   DIST      goreleaser's output directory (default dist)
#   MCPB_PKG  the npm package (pinned below)
#   MCPB_DIR  where it is installed (default ${TMPDIR:-/tmp}/docidx-mcpb)
#
# The bundle holds one binary per operating system, which is all its manifest can choose between:
# macOS gets the universal (amd64+arm64) binary, Windows the amd64 one (Windows on arm64 runs it
# emulated), Linux the amd64 one.
set -euo pipefail

DIST=${DIST:-dist}
MCPB_PKG=${MCPB_PKG:-@anthropic-ai/mcpb@2.1.2}
MCPB_DIR=${MCPB_DIR:-${TMPDIR:-/tmp}/docidx-mcpb}

[ -f "$DIST/metadata.json" ] || { echo "mcpb: no $DIST/metadata.json; run goreleaser first (make release)" >&2; exit 2; }
version=$(node -p "require('./$DIST/metadata.json').version")

one() { # one GLOB: the single file the glob names, or an error
	local f
	f=$(compgen -G "$1" || true)
	[ -n "$f" ] && [ "$(wc -l <<<"$f")" = 1 ] || { echo "mcpb: want one file for $1, found: ${f:-none}" >&2; exit 1; }
	echo "$f"
}

# 1. The bundle's directory: manifest with this version, binaries, README, LICENSE, NOTICE and
#    THIRD_PARTY_LICENSES (make release writes it into build/).
stage=build/mcpb
rm -rf "$stage"
mkdir -p "$stage/server/linux" "$stage/server/darwin" "$stage/server/win32"
cp "$(one "$DIST/docidx_linux_amd64*/docidx")" "$stage/server/linux/docidx"
cp "$(one "$DIST/*_darwin_all/docidx")" "$stage/server/darwin/docidx"
cp "$(one "$DIST/docidx_windows_amd64*/docidx.exe")" "$stage/server/win32/docidx.exe"
cp README.md LICENSE NOTICE build/THIRD_PARTY_LICENSES "$stage/"
VERSION=$version node -e '
	const m = JSON.parse(require("fs").readFileSync("packaging/mcpb/manifest.json", "utf8"));
	m.version = process.env.VERSION;
	process.stdout.write(JSON.stringify(m, null, 2) + "\n");
' >"$stage/manifest.json"

# 2. The official CLI, once.
if ! grep -q "\"version\": \"${MCPB_PKG##*@}\"" "$MCPB_DIR/node_modules/@anthropic-ai/mcpb/package.json" 2>/dev/null; then
	echo "mcpb: installing $MCPB_PKG into $MCPB_DIR" >&2
	mkdir -p "$MCPB_DIR"
	[ -f "$MCPB_DIR/package.json" ] || echo '{"private": true}' >"$MCPB_DIR/package.json"
	(cd "$MCPB_DIR" && npm install --no-audit --no-fund --loglevel=error "$MCPB_PKG" >&2)
fi
mcpb=$MCPB_DIR/node_modules/.bin/mcpb

# 3. Validate, pack, and add the bundle to the checksums.
"$mcpb" validate "$stage/manifest.json"
bundle=docidx_${version}.mcpb
rm -f "$DIST/$bundle"
"$mcpb" pack "$stage" "$DIST/$bundle"
sha=$(cd "$DIST" && sha256sum "$bundle")
grep -qF "  $bundle" "$DIST/checksums.txt" 2>/dev/null || echo "$sha" >>"$DIST/checksums.txt"

# 4. server.json for the MCP Registry: this version, the bundle's release URL and hash, the image's tag.
VERSION=$version SHA=${sha%% *} BUNDLE=$bundle node -e '
	const s = JSON.parse(require("fs").readFileSync("packaging/server.json", "utf8"));
	const v = process.env.VERSION;
	s.version = v;
	for (const p of s.packages) {
		if (p.registryType === "mcpb") {
			p.version = v;
			p.identifier = `https://github.com/docidx/docidx/releases/download/v${v}/${process.env.BUNDLE}`;
			p.fileSha256 = process.env.SHA;
		} else if (p.registryType === "oci") {
			p.identifier = p.identifier.replace(/:[^:/]*$/, ":" + v);
		}
	}
	process.stdout.write(JSON.stringify(s, null, 2) + "\n");
' >"$DIST/server.json"
echo "mcpb: wrote $DIST/$bundle and $DIST/server.json" >&2
