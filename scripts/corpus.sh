#!/usr/bin/env bash
# scripts/corpus.sh — build docidx's real-input corpus (used by `make e2e` and
# `make bench`, never by `make test`).
#
# Usage:
#   scripts/corpus.sh [DIR]          # DIR defaults to ${DOCIDX_CORPUS:-/work/corpus}
#   CORPUS_FORCE=1 scripts/corpus.sh # redo every part even if it is marked done
#   CORPUS_GO_MODULES="a b" CORPUS_NPM_PACKAGES="c d" CORPUS_PY_DISTRIBUTIONS="e" \
#   CORPUS_CRATES="f" scripts/corpus.sh /tmp/x
#                                    # smaller lists (smoke test of the script)
#
# What it builds under DIR:
#   gomodcache/        a GOMODCACHE filled by `go mod download all` for the
#                      modules in GO_MODULES below and their whole build list
#                      (cache/download/**.zip plus the extracted module trees).
#   goproject/         go.mod + go.sum of the throwaway module that was used to
#                      resolve them (a real `--from go.mod` input).
#   npmproject/        package.json + package-lock.json + node_modules/ from
#                      `npm install --ignore-scripts` of NPM_PACKAGES below
#                      (a real `--from package-lock.json` input, 300+ packages
#                      with nested and scoped ones).
#   pyenv/             a virtualenv (python3 -m venv) with PY_DISTRIBUTIONS below and
#                      their dependencies installed by pip from the configured index
#                      (a real `--site-packages` input; requirements.txt holds the
#                      requested names, requirements.lock `pip freeze`'s pins).
#   cargoproject/      Cargo.toml + Cargo.lock of a throwaway crate depending on
#                      CRATES below (a real `--from Cargo.lock` input).
#   cargohome/         the cargo home `cargo fetch` filled for cargoproject
#                      (registry/cache/*/*.crate and registry/src/*/<name>-<version>/),
#                      plus the cargo test fixtures (registries/cargo/testdata) in
#                      registry/src/fixtures/, as cargo extracts crates.
#   swiftproject/      a SwiftPM project whose .build holds the Swift test fixtures
#                      (registries/swift/testdata/packages) as checkouts.
#   NOTES.txt          the requested top-level modules/packages with the exact
#                      versions that were installed (for relevance tests).
#   *.done             stamps: a part whose stamp matches its package list is
#                      skipped on the next run (the script is idempotent).
#
# Sources: the Go module proxy comes from the environment / `go env GOPROXY`,
# the npm registry from npm's own config, the Python index from pip's own
# configuration (pip.conf, PIP_INDEX_URL) and crates from cargo's (the user's
# $CARGO_HOME/config.toml is copied into the corpus's cargo home); this script
# sets none of them.
# It never touches the user's GOMODCACHE (it always points GOMODCACHE at DIR)
# nor global npm state (no -g; npm's own download cache is reused).
# A single package that fails to resolve is skipped and reported; more than
# one failure per ecosystem makes the script exit non-zero.
set -euo pipefail

DIR=${1:-${DOCIDX_CORPUS:-/work/corpus}}
FORCE=${CORPUS_FORCE:-0}

GO_MODULES=(
  github.com/spf13/cobra
  github.com/spf13/viper
  github.com/spf13/pflag
  github.com/go-chi/chi/v5
  go.uber.org/zap
  github.com/rs/zerolog
  golang.org/x/sync
  golang.org/x/time
  golang.org/x/crypto
  golang.org/x/text
  golang.org/x/net
  golang.org/x/sys
  github.com/jackc/pgx/v5
  github.com/redis/go-redis/v9
  go.etcd.io/bbolt
  github.com/yuin/goldmark
  github.com/google/uuid
  github.com/google/go-cmp
  github.com/stretchr/testify
  github.com/gin-gonic/gin
  github.com/labstack/echo/v4
  github.com/gorilla/mux
  github.com/gorilla/websocket
  github.com/sirupsen/logrus
  github.com/urfave/cli/v2
  github.com/prometheus/client_golang
  google.golang.org/grpc
  google.golang.org/protobuf
  github.com/golang-jwt/jwt/v5
  github.com/BurntSushi/toml
  gopkg.in/yaml.v3
  github.com/pkg/errors
  github.com/hashicorp/golang-lru/v2
  github.com/cenkalti/backoff/v4
  github.com/mattn/go-sqlite3
  github.com/lib/pq
  github.com/go-sql-driver/mysql
  github.com/jmoiron/sqlx
  github.com/go-playground/validator/v10
  github.com/gofiber/fiber/v2
  github.com/nats-io/nats.go
  github.com/fsnotify/fsnotify
  github.com/dgraph-io/badger/v4
  github.com/samber/lo
  github.com/charmbracelet/bubbletea
  github.com/tidwall/gjson
  github.com/klauspost/compress
  github.com/cespare/xxhash/v2
)

NPM_PACKAGES=(
  express zod axios fastify commander mongoose lodash react react-dom
  typescript chalk yargs dayjs date-fns uuid dotenv jsonwebtoken bcryptjs
  ws socket.io koa hono pino winston joi yup ajv rxjs immer zustand redux
  @reduxjs/toolkit vue svelte @types/node @types/express @types/react undici node-fetch
  cheerio marked semver glob minimist p-limit is-number debug body-parser
  cors @babel/core eslint prettier
)

# Python distributions, by kind: web frameworks and servers, HTTP clients, databases and ORMs,
# validation and models, CLI, testing, async, data, formats, and everyday utilities.
PY_DISTRIBUTIONS=(
  flask django fastapi starlette uvicorn gunicorn
  requests httpx aiohttp urllib3 websockets
  sqlalchemy alembic peewee pymongo redis psycopg
  pydantic attrs marshmallow jsonschema
  click typer rich tqdm
  pytest hypothesis pytest-asyncio freezegun
  trio anyio tenacity celery
  numpy pandas networkx
  pyyaml tomli msgpack orjson jinja2 beautifulsoup4 lxml
  python-dateutil arrow structlog loguru cryptography paramiko pillow
  more-itertools cachetools
)

# Crates, by kind: async runtime, serde and formats, CLI parsing, HTTP client and server, errors,
# logging and tracing, regex, time, rand, hashes, collections, and everyday utilities.
CRATES=(
  tokio futures async-trait bytes
  serde serde_json toml serde_yaml csv
  clap
  reqwest hyper axum url
  anyhow thiserror
  log env_logger tracing tracing-subscriber
  regex chrono time rand uuid
  sha2 md-5 blake3 base64
  indexmap hashbrown smallvec itertools once_cell rayon crossbeam-channel parking_lot
)

# Overrides (space-separated), e.g. for a quick smoke test of this script.
if [[ -n ${CORPUS_GO_MODULES:-} ]]; then read -r -a GO_MODULES <<<"$CORPUS_GO_MODULES"; fi
if [[ -n ${CORPUS_NPM_PACKAGES:-} ]]; then read -r -a NPM_PACKAGES <<<"$CORPUS_NPM_PACKAGES"; fi
if [[ -n ${CORPUS_PY_DISTRIBUTIONS:-} ]]; then read -r -a PY_DISTRIBUTIONS <<<"$CORPUS_PY_DISTRIBUTIONS"; fi
if [[ -n ${CORPUS_CRATES:-} ]]; then read -r -a CRATES <<<"$CORPUS_CRATES"; fi

log() { printf '[corpus %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

command -v go >/dev/null || die "go not found"
command -v npm >/dev/null || die "npm not found"
command -v node >/dev/null || die "node not found"
command -v python3 >/dev/null || die "python3 not found"
command -v cargo >/dev/null || die "cargo not found"

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

# stamp NAME LIST... — a part is done when DIR/NAME.done holds exactly LIST.
stamp_ok() {
  local name=$1; shift
  [[ $FORCE != 1 && -f $DIR/$name.done ]] &&
    [[ "$(cat "$DIR/$name.done")" == "$(printf '%s\n' "$@")" ]]
}
stamp_set() { local name=$1; shift; printf '%s\n' "$@" >"$DIR/$name.done"; }

SECONDS=0
declare -a GO_FAILED=() NPM_FAILED=() PY_FAILED=() CRATE_FAILED=()
work=""   # the throwaway Go module, removed on exit
trap '[[ -z $work ]] || rm -rf "$work"' EXIT

# ---------------------------------------------------------------- Go part
build_go() {
  local t0=$SECONDS
  export GOMODCACHE=$DIR/gomodcache
  # -mod=mod: go get/download may edit go.mod; -modcacherw: cache stays deletable.
  export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod -modcacherw"
  # Never fetch another toolchain into the corpus.
  export GOTOOLCHAIN=local
  export GOWORK=off
  mkdir -p "$GOMODCACHE"
  work=$(mktemp -d "${TMPDIR:-/tmp}/docidx-corpus-go.XXXXXX")
  (cd "$work" && go mod init docidx.test/corpus >/dev/null 2>&1)

  log "go: go get ${#GO_MODULES[@]} modules @latest (GOPROXY from go env)"
  local args=() m
  for m in "${GO_MODULES[@]}"; do args+=("$m@latest"); done
  if ! (cd "$work" && go get "${args[@]}") >"$work/get.log" 2>&1; then
    log "go: batch go get failed, retrying one module at a time:"
    sed 's/^/    /' "$work/get.log" | tail -20 >&2
    for m in "${GO_MODULES[@]}"; do
      if ! (cd "$work" && go get "$m@latest") >"$work/get1.log" 2>&1; then
        log "go: FAILED $m: $(tail -1 "$work/get1.log")"
        GO_FAILED+=("$m")
      fi
    done
  fi
  ((${#GO_FAILED[@]} <= 1)) || die "go: ${#GO_FAILED[@]} modules failed: ${GO_FAILED[*]}"

  log "go: go mod download all"
  (cd "$work" && go mod download all)
  mkdir -p "$DIR/goproject"
  cp "$work/go.mod" "$work/go.sum" "$DIR/goproject/"
  # Versions of the requested top-level modules, for NOTES.txt.
  (cd "$work" && for m in "${GO_MODULES[@]}"; do
     go list -m -f '{{.Path}} {{.Version}}' "$m" 2>/dev/null || echo "$m FAILED"
   done) >"$DIR/goproject/toplevel.txt"
  printf '%s\n' "${GO_FAILED[@]}" >"$DIR/goproject/failed.txt"
  stamp_set go "${GO_MODULES[@]}"
  log "go: done in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- npm part
build_npm() {
  local t0=$SECONDS proj=$DIR/npmproject p
  local flags=(--ignore-scripts --no-audit --no-fund --save-exact --loglevel=error)
  mkdir -p "$proj"
  if [[ ! -f $proj/package.json ]]; then
    cat >"$proj/package.json" <<'EOF'
{
  "name": "docidx-corpus",
  "version": "0.0.0",
  "private": true,
  "description": "docidx real-input corpus (generated by scripts/corpus.sh)"
}
EOF
  fi
  log "npm: npm install ${#NPM_PACKAGES[@]} packages (registry from npm config)"
  if ! (cd "$proj" && npm install "${flags[@]}" "${NPM_PACKAGES[@]}") >"$proj/.install.log" 2>&1; then
    log "npm: batch install failed, retrying one package at a time:"
    tail -20 "$proj/.install.log" | sed 's/^/    /' >&2
    for p in "${NPM_PACKAGES[@]}"; do
      if ! (cd "$proj" && npm install "${flags[@]}" "$p") >"$proj/.install1.log" 2>&1; then
        log "npm: FAILED $p: $(grep -m2 'npm error' "$proj/.install1.log" | tr '\n' ' ' || true)"
        NPM_FAILED+=("$p")
      fi
    done
  fi
  ((${#NPM_FAILED[@]} <= 1)) || die "npm: ${#NPM_FAILED[@]} packages failed: ${NPM_FAILED[*]}"
  printf '%s\n' "${NPM_FAILED[@]}" >"$proj/.failed.txt"
  stamp_set npm "${NPM_PACKAGES[@]}"
  log "npm: done in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- Python part
build_py() {
  local t0=$SECONDS env=$DIR/pyenv d
  rm -rf "$env"
  log "python: python3 -m venv pyenv; pip install ${#PY_DISTRIBUTIONS[@]} distributions (index from pip's config)"
  python3 -m venv "$env"
  printf '%s\n' "${PY_DISTRIBUTIONS[@]}" >"$env/requirements.txt"
  if ! "$env/bin/pip" install --quiet --disable-pip-version-check -r "$env/requirements.txt" >"$env/.install.log" 2>&1; then
    log "python: batch install failed, retrying one distribution at a time:"
    tail -20 "$env/.install.log" | sed 's/^/    /' >&2
    for d in "${PY_DISTRIBUTIONS[@]}"; do
      if ! "$env/bin/pip" install --quiet --disable-pip-version-check "$d" >"$env/.install1.log" 2>&1; then
        log "python: FAILED $d: $(tail -1 "$env/.install1.log")"
        PY_FAILED+=("$d")
      fi
    done
  fi
  ((${#PY_FAILED[@]} <= 1)) || die "python: ${#PY_FAILED[@]} distributions failed: ${PY_FAILED[*]}"
  "$env/bin/pip" freeze --disable-pip-version-check >"$env/requirements.lock"
  printf '%s\n' "${PY_FAILED[@]}" >"$env/.failed.txt"
  stamp_set py "${PY_DISTRIBUTIONS[@]}"
  log "python: done in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- Cargo part
build_cargo() {
  local t0=$SECONDS proj=$DIR/cargoproject c
  export CARGO_HOME=$DIR/cargohome
  mkdir -p "$CARGO_HOME"
  local user_home=${DOCIDX_USER_CARGO_HOME:-$HOME/.cargo}
  for c in config.toml config credentials.toml; do
    [[ ! -f $user_home/$c ]] || cp "$user_home/$c" "$CARGO_HOME/$c"
  done
  rm -rf "$proj"
  mkdir -p "$proj/src"
  printf '[package]\nname = "docidx-corpus"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n' >"$proj/Cargo.toml"
  : >"$proj/src/lib.rs"
  log "cargo: cargo add ${#CRATES[@]} crates; cargo fetch (registry from cargo's config)"
  if ! (cd "$proj" && cargo add --quiet "${CRATES[@]}") >"$proj/.add.log" 2>&1; then
    log "cargo: batch add failed, retrying one crate at a time:"
    tail -20 "$proj/.add.log" | sed 's/^/    /' >&2
    for c in "${CRATES[@]}"; do
      if ! (cd "$proj" && cargo add --quiet "$c") >"$proj/.add1.log" 2>&1; then
        log "cargo: FAILED $c: $(tail -1 "$proj/.add1.log")"
        CRATE_FAILED+=("$c")
      fi
    done
  fi
  ((${#CRATE_FAILED[@]} <= 1)) || die "cargo: ${#CRATE_FAILED[@]} crates failed: ${CRATE_FAILED[*]}"
  (cd "$proj" && cargo generate-lockfile --quiet && cargo fetch --quiet)
  printf '%s\n' "${CRATE_FAILED[@]}" >"$proj/.failed.txt"
  unset CARGO_HOME
  stamp_set cargo "${CRATES[@]}"
  log "cargo: done in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- fixtures part
# The corpus has no crates or Swift packages of its own yet: the held-out questions about
# cargo and Swift (testdata/heldout) are about the registries' test fixtures, laid out here the
# way cargo and SwiftPM leave them on disk, so that a crawl reads them with --cargo-home and
# --swift-checkouts like any other cache.
REPO=$(cd "$(dirname "$0")/.." && pwd)
CARGO_FIXTURES=(
  "$REPO/registries/cargo/testdata/real/flatbuffers-25.2.10.crate"
  "$REPO/registries/cargo/testdata/real/flexbuffers-25.2.10.crate"
  "$REPO/registries/cargo/testdata/crates/ferris-json/1.1.0"
)
SWIFT_FIXTURES=(swift-argument-kit swift-deque)
build_fixtures() {
  local t0=$SECONDS src=$DIR/cargohome/registry/src/fixtures build=$DIR/swiftproject/.build
  rm -rf "$src" "$DIR/swiftproject"
  mkdir -p "$src" "$build/checkouts"
  local f
  for f in "${CARGO_FIXTURES[@]}"; do
    if [[ $f == *.crate ]]; then
      tar -xzf "$f" -C "$src" # a .crate holds <name>-<version>/
    else
      cp -R "$f" "$src/$(basename "$(dirname "$f")")-$(basename "$f")"
    fi
  done
  # SwiftPM's .build: each package checked out at a tag, listed in workspace-state.json.
  local deps="" sep="" name
  for name in "${SWIFT_FIXTURES[@]}"; do
    cp -R "$REPO/registries/swift/testdata/packages/$name" "$build/checkouts/$name"
    deps+="$sep{\"basedOn\": null, \"subpath\": \"$name\",
      \"packageRef\": {\"identity\": \"$name\", \"kind\": \"remoteSourceControl\", \"location\": \"https://example.test/fixtures/$name.git\", \"name\": \"$name\"},
      \"state\": {\"name\": \"sourceControlCheckout\", \"checkoutState\": {\"version\": \"1.0.0\", \"revision\": \"0000000000000000000000000000000000000001\"}}}"
    sep=", "
  done
  printf '{"version": 6, "object": {"artifacts": [], "dependencies": [%s]}}\n' "$deps" >"$build/workspace-state.json"
  stamp_set fixtures "${CARGO_FIXTURES[@]##*/}" "${SWIFT_FIXTURES[@]}"
  log "fixtures: done in $((SECONDS - t0))s"
}

if stamp_ok go "${GO_MODULES[@]}"; then log "go: up to date, skipped"; else build_go; fi
if stamp_ok npm "${NPM_PACKAGES[@]}"; then log "npm: up to date, skipped"; else build_npm; fi
if stamp_ok py "${PY_DISTRIBUTIONS[@]}"; then log "python: up to date, skipped"; else build_py; fi
if stamp_ok cargo "${CRATES[@]}"; then log "cargo: up to date, skipped"; else build_cargo; fi
if stamp_ok fixtures "${CARGO_FIXTURES[@]##*/}" "${SWIFT_FIXTURES[@]}"; then
  log "fixtures: up to date, skipped"
else
  build_fixtures
fi

# ---------------------------------------------------------------- NOTES.txt
write_notes() {
  {
    echo "docidx corpus — generated by scripts/corpus.sh on $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "go: $(go version | awk '{print $3}')  node: $(node --version)  npm: $(npm --version 2>/dev/null)"
    echo
    echo "== Go modules requested (goproject/go.mod), exact versions =="
    cat "$DIR/goproject/toplevel.txt"
    echo
    echo "== npm packages requested (npmproject/package-lock.json), exact versions =="
    node -e '
      const lock = require(process.argv[1]);
      const deps = lock.packages[""].dependencies || {};
      for (const name of Object.keys(deps).sort()) {
        const p = lock.packages["node_modules/" + name];
        console.log(name + " " + (p ? p.version : "MISSING"));
      }' "$DIR/npmproject/package-lock.json"
    echo
    echo "== Python distributions requested (pyenv/requirements.txt), exact versions =="
    "$DIR/pyenv/bin/python" - "${PY_DISTRIBUTIONS[@]}" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for name in sys.argv[1:]:
    try:
        print(name, version(name))
    except PackageNotFoundError:
        print(name, "MISSING")
PY
    echo
    echo "== Crates requested (cargoproject/Cargo.lock), exact versions =="
    (cd "$DIR/cargoproject" && CARGO_HOME=$DIR/cargohome cargo metadata --format-version 1 --offline 2>/dev/null) |
      node -e '
        let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
          const m = JSON.parse(s), root = m.packages.find(p => p.id === m.resolve.root);
          const byId = new Map(m.packages.map(p => [p.id, p]));
          const node = m.resolve.nodes.find(n => n.id === m.resolve.root);
          for (const d of node.deps.map(d => byId.get(d.pkg)).sort((a, b) => a.name < b.name ? -1 : 1))
            console.log(d.name + " " + d.version);
        });'
  } >"$DIR/NOTES.txt"
}
write_notes

# ---------------------------------------------------------------- summary
# Failures of an earlier run whose part was skipped this time.
mapfile -t GO_FAILED < <(grep -v '^$' "$DIR/goproject/failed.txt" 2>/dev/null || true)
mapfile -t NPM_FAILED < <(grep -v '^$' "$DIR/npmproject/.failed.txt" 2>/dev/null || true)
mapfile -t PY_FAILED < <(grep -v '^$' "$DIR/pyenv/.failed.txt" 2>/dev/null || true)
mapfile -t CRATE_FAILED < <(grep -v '^$' "$DIR/cargoproject/.failed.txt" 2>/dev/null || true)
dl=$DIR/gomodcache/cache/download
nzip=$(find "$dl" -name '*.zip' -type f | wc -l)
nmodver=$(find "$dl" -name '*.mod' -type f | wc -l)
nextracted=$(find "$DIR/gomodcache" -path "$dl" -prune -o -path "$DIR/gomodcache/cache" -prune \
  -o -type d -name '*@v*' -print -prune | wc -l)
npkgjson=$(find "$DIR/npmproject/node_modules" -name package.json -type f | wc -l)
read -r npkgs nscoped nnested < <(node -e '
  const lock = require(process.argv[1]);
  const keys = Object.keys(lock.packages).filter(k => k.startsWith("node_modules/"));
  const scoped = keys.filter(k => k.split("node_modules/").pop().startsWith("@"));
  const nested = keys.filter(k => k.split("node_modules/").length > 2);
  console.log(keys.length, scoped.length, nested.length);' "$DIR/npmproject/package-lock.json")
sz() { du -sh "$1" 2>/dev/null | cut -f1; }

cat <<EOF
== docidx corpus summary: $DIR ==
go:  modules requested            ${#GO_MODULES[@]}${GO_FAILED:+ (failed: ${GO_FAILED[*]})}
go:  module versions with .zip    $nzip  (with .mod: $nmodver)
go:  extracted module dirs        $nextracted
go:  gomodcache size              $(sz "$DIR/gomodcache")  (zips: $(sz "$dl"))
npm: packages requested           ${#NPM_PACKAGES[@]}${NPM_FAILED:+ (failed: ${NPM_FAILED[*]})}
npm: packages in lockfile         $npkgs  (scoped: $nscoped, nested: $nnested)
npm: package.json files           $npkgjson
npm: node_modules size            $(sz "$DIR/npmproject/node_modules")
python: distributions requested   ${#PY_DISTRIBUTIONS[@]}${PY_FAILED:+ (failed: ${PY_FAILED[*]})}
python: distributions installed   $(grep -c '==' "$DIR/pyenv/requirements.lock")  (pyenv/)
python: site-packages size        $(sz "$DIR/pyenv/lib")
cargo: crates requested           ${#CRATES[@]}${CRATE_FAILED:+ (failed: ${CRATE_FAILED[*]})}
cargo: crates in Cargo.lock       $(grep -c '^name = ' "$DIR/cargoproject/Cargo.lock")
cargo: fetched crates             $(find "$DIR/cargohome/registry/cache" -name '*.crate' | wc -l)  (cargohome/, $(sz "$DIR/cargohome/registry"))
cargo: fixture crates             $(find "$DIR/cargohome/registry/src/fixtures" -mindepth 2 -maxdepth 2 -name Cargo.toml | wc -l)  (cargohome/registry/src/fixtures)
swift: fixture packages           ${#SWIFT_FIXTURES[@]}  (swiftproject/.build)
total size                        $(sz "$DIR")
elapsed                           ${SECONDS}s
EOF
