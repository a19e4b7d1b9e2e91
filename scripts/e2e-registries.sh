#!/usr/bin/env bash
# make e2e-registries: docidx against the real registries, as this machine configures them. Not
# part of `make test`: it needs the network. An ecosystem whose registry does not answer a short
# probe is skipped, and says so; a lockfile tool that cannot be installed is skipped alone.
#
#   1. registries: crawl a few packages from PyPI through the JSON API and through the PEP 691
#      simple API (wheels and sdists), from crates.io through the sparse index, from the Go module
#      proxy and from the npm registry; a search must find each one;
#   2. lockfiles: make a small project per tool (uv lock, poetry lock, pip-compile, cargo
#      generate-lockfile, npm install, pnpm install, yarn install, go mod tidy), crawl it with
#      --from, and check that the package versions docidx read are exactly those the tool resolved
#      (the tool's own view: uv export, poetry show, the pins, cargo metadata, npm/pnpm ls --json,
#      yarn list, go list -m all) and that a search finds one of them.
#
# No registry host is written here. Endpoints come from each tool's configuration: docidx reads
# GOPROXY, .npmrc, PIP_INDEX_URL/pip.conf and cargo's config itself, falling back to PyPI's and
# crates.io's public defaults (docs/ARCHITECTURE.md §5); the tools do the same. The simple API run goes
# through a local relay (scripts/e2e-registries.d/relay.py) that forwards only the simple API of
# pip's index, so docidx sees what a mirror without the JSON API serves.
#
# E2E_TOOLS=DIR keeps the installed tools (uv, poetry, pip-tools, pnpm, yarn) between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${BIN:-bin/docidx}")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/docidx-e2e-registries.XXXXXX")
TOOLS=${E2E_TOOLS:-$WORK/tools}
PROBE_TIMEOUT=${E2E_PROBE_TIMEOUT:-20}
relay_pid=
cleanup() {
  if [ -n "$relay_pid" ]; then kill "$relay_pid" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
start=$(date +%s)
failures=()
skipped=()
passed=()
fail() { echo "e2e-registries: FAIL: $*" >&2; failures+=("$*"); }
skip() { echo "e2e-registries: SKIP: $*" >&2; skipped+=("$*"); }
ok() { echo "e2e-registries: ok: $*"; passed+=("$*"); }
have() { command -v "$1" >/dev/null 2>&1; }
for t in jq python3; do have "$t" || { echo "e2e-registries: needs $t on PATH" >&2; exit 1; }; done

# norm prints eco:name@version lines in one form, sorted and unique: PyPI names PEP 503
# normalized (docidx names PyPI projects so; the tools print them as published).
norm() {
  awk '{ if (sub(/^pypi:/, "")) { i = index($0, "@"); n = tolower(substr($0, 1, i - 1)); gsub(/[-_.]+/, "-", n); print "pypi:" n substr($0, i) } else print }' | sort -u
}

# crawl DIR ARGS... crawls into DIR with --json; the summary goes to DIR.json, stderr to DIR.log.
# It never fails the script: the checks read the summary.
crawl() {
  local dir=$1
  shift
  "$BIN" crawl --index "$dir" --json "$@" >"$dir.json" 2>"$dir.log" || true
  if ! jq -e . "$dir.json" >/dev/null 2>&1; then
    sed 's/^/    /' "$dir.log" >&2
    echo '{"results":[]}' >"$dir.json"
  fi
}
# failed DIR lists the crawl's failed results.
failed() { jq -r '.results[] | select(.status == "failed") | "\(.spec): \(.error)"' "$1.json"; }
# crawled DIR prints the versions the crawl read, as eco:name@version.
crawled() { jq -r '.results[] | "\(.ref.ecosystem):\(.ref.package)@\(.ref.version // "")"' "$1.json"; }
# symbols DIR ECO NAME prints how many symbols the crawl extracted from the package.
symbols() { jq -r --arg e "$2" --arg n "$3" '[.results[] | select(.ref.ecosystem == $e and .ref.package == $n) | .symbols] | add // 0' "$1.json"; }
# hit DIR ECO PACKAGE QUERY checks that a search of the ecosystem returns a hit from the package
# (named by its URI, docidx://ECOSYSTEM/PACKAGE@VERSION/PAGE).
hit() {
  local got
  got=$("$BIN" search --index "$1" --ecosystem "$2" --limit 5 --json "$4" | jq -r '.results[].uri | capture("^docidx://[^/]+/(?<n>.[^@]*)@").n' | sort -u)
  if grep -qxF "$3" <<<"$got"; then ok "search '$4' finds $2:$3"; else fail "search '$4' in $2 found no hit from $3 (got: ${got//$'\n'/ })"; fi
}
# probe NAME CMD... runs a tool's own registry lookup under the probe timeout.
probe() {
  local name=$1 rc=0 why
  shift
  timeout "$PROBE_TIMEOUT" "$@" >"$WORK/probe-$name.log" 2>&1 || rc=$?
  [ $rc = 0 ] && return 0
  why="no answer within ${PROBE_TIMEOUT}s"
  [ $rc = 124 ] || why=$(grep -v '^[[:space:]]*$' "$WORK/probe-$name.log" | tail -n 1)
  skip "$name: the registry is unreachable, so everything that needs it is skipped ('$*': $why)"
  return 1
}

echo "== probing the configured registries (timeout ${PROBE_TIMEOUT}s each)"
reach_go=0 reach_npm=0 reach_pypi=0 reach_cargo=0
if have go && probe go go list -m -versions github.com/google/uuid; then reach_go=1; fi
if have npm && probe npm npm view is-number@7.0.0 version; then reach_npm=1; fi
# pip's index: PIP_INDEX_URL, else index-url from pip's configuration files, else pip's default.
pip_index=${PIP_INDEX_URL:-$(python3 -m pip config list 2>/dev/null | sed -nE "s/^[a-z:]+\.index-url='?([^']*)'?$/\1/p" | tail -n 1)}
pip_index_configured=0
if [ -n "$pip_index" ]; then pip_index_configured=1; elif have python3; then
  pip_index=$(python3 -c 'from pip._internal.models.index import PyPI; print(PyPI.simple_url)' 2>/dev/null || true)
fi
if [ -n "$pip_index" ] && probe pypi env PIP_FIND_LINKS= python3 -m pip index versions six; then reach_pypi=1; fi
if have cargo && probe cargo cargo info --quiet itoa@1.0.11; then reach_cargo=1; fi

echo "== installing the lockfile tools into $TOOLS"
mkdir -p "$TOOLS"
py_tools=0 pnpm_ok=0 yarn_ok=0
if [ $reach_pypi = 1 ]; then
  if [ -x "$TOOLS/venv/bin/pip-compile" ] || { python3 -m venv "$TOOLS/venv" && "$TOOLS/venv/bin/pip" install -q uv poetry pip-tools; } >"$WORK/pip-install.log" 2>&1; then
    py_tools=1
  else
    tail -n 3 "$WORK/pip-install.log" >&2
  fi
fi
pytool() { [ $py_tools = 1 ] && [ -x "$TOOLS/venv/bin/$1" ]; }
if [ $reach_npm = 1 ]; then
  for t in pnpm yarn; do
    if [ -x "$TOOLS/npm/bin/$t" ] || npm install -g --prefix "$TOOLS/npm" --no-audit --no-fund --silent "$t" >"$WORK/npm-$t.log" 2>&1; then
      eval "${t}_ok=1"
    else
      skip "$t: npm could not install it: $(tail -n 1 "$WORK/npm-$t.log")"
    fi
  done
fi
export PATH="$TOOLS/venv/bin:$TOOLS/npm/bin:$PATH"

# ---------------------------------------------------------------------------------------------
echo "== registries: a few packages from each"
R=$WORK/remote
if [ $reach_pypi = 1 ]; then
  # requests: a pure-Python wheel; docopt: an sdist only; pyyaml: platform wheels and a smaller
  # sdist with its modules under lib/.
  pyspecs=(pypi:requests==2.32.3 pypi:docopt==0.6.2 pypi:pyyaml==6.0.2)
  echo "-- PyPI, JSON API (docidx's own index configuration)"
  crawl "$R-pypi-json" "${pyspecs[@]}"
  echo "-- PyPI, PEP 691 simple API only (pip's index through a relay that serves nothing else)"
  python3 scripts/e2e-registries.d/relay.py "$pip_index" >"$WORK/relay.port" 2>"$WORK/relay.log" &
  relay_pid=$!
  for _ in $(seq 50); do [ -s "$WORK/relay.port" ] && break; sleep 0.1; done
  crawl "$R-pypi-simple" --pypi-index "http://127.0.0.1:$(cat "$WORK/relay.port")/+simple/" "${pyspecs[@]}"
  kill "$relay_pid" 2>/dev/null || true
  relay_pid=
  for api in json simple; do
    d=$R-pypi-$api
    if [ -n "$(failed "$d")" ]; then fail "PyPI $api API: $(failed "$d")"; continue; fi
    for p in requests docopt pyyaml; do
      n=$(symbols "$d" pypi "$p")
      if [ "$n" -gt 0 ]; then ok "PyPI $api API: $p: $n symbols"; else fail "PyPI $api API: $p: no API symbols extracted"; fi
    done
    want='/json$'
    [ $api = simple ] && want='/[+]simple/[^/]+/$'
    bad=$(jq -r --arg re "$want" '.results[] | select(.source | test($re) | not) | "\(.ref.package) from \(.source)"' "$d.json")
    if [ -n "$bad" ]; then fail "PyPI $api API: read through another API: $bad"; fi
    hit "$d" pypi requests "send an HTTP request with a session"
    hit "$d" pypi pyyaml "safe_load a YAML document"
  done
  if [ -s "$R-pypi-json.json" ] && [ -s "$R-pypi-simple.json" ]; then
    a=$(jq -c '[.results[] | {p: .ref.package, v: .ref.version, s: .symbols, d: .documents}] | sort_by(.p)' "$R-pypi-json.json")
    b=$(jq -c '[.results[] | {p: .ref.package, v: .ref.version, s: .symbols, d: .documents}] | sort_by(.p)' "$R-pypi-simple.json")
    if [ "$a" = "$b" ]; then ok "PyPI: the JSON and simple APIs give the same versions, documents and symbols"; else fail "PyPI: JSON API $a, simple API $b"; fi
  fi
  "$BIN" show --index "$R-pypi-json" pypi:pyyaml safe_load | grep -q 'def safe_load' || fail "PyPI: pyyaml safe_load not shown"
fi
if [ $reach_cargo = 1 ]; then
  echo "-- crates.io, sparse index (docidx's own cargo configuration)"
  crawl "$R-cargo" crates:itoa@1.0.11 crates:semver
  if [ -n "$(failed "$R-cargo")" ]; then fail "crates: $(failed "$R-cargo")"; else
    for p in itoa semver; do
      n=$(symbols "$R-cargo" cargo "$p")
      if [ "$n" -gt 0 ]; then ok "crates: $p: $n symbols"; else fail "crates: $p: no API symbols extracted"; fi
    done
    "$BIN" show --index "$R-cargo" cargo:itoa Buffer | grep -q 'pub struct Buffer' || fail "crates: itoa::Buffer not shown"
    hit "$R-cargo" cargo semver "parse a version requirement"
  fi
fi
if [ $reach_go = 1 ]; then
  echo "-- Go module proxy (go env GOPROXY)"
  crawl "$R-go" go:github.com/google/uuid@v1.6.0
  if [ -n "$(failed "$R-go")" ]; then fail "go: $(failed "$R-go")"; else
    "$BIN" show --index "$R-go" go:github.com/google/uuid NewString | grep -q 'func NewString() string' || fail "go: uuid.NewString not shown"
    hit "$R-go" golang github.com/google/uuid "generate a random UUID"
  fi
fi
if [ $reach_npm = 1 ]; then
  echo "-- npm registry (npm's configuration)"
  crawl "$R-npm" npm:is-number@7.0.0
  if [ -n "$(failed "$R-npm")" ]; then fail "npm: $(failed "$R-npm")"; else
    hit "$R-npm" npm is-number "check whether a value is a number"
  fi
fi

# ---------------------------------------------------------------------------------------------
echo "== lockfiles made by the real tools"
P=$WORK/projects
mkdir -p "$P"
# lockfile NAME FILE EXPECTED ECO QUERY PACKAGE: crawl FILE with --from and compare the versions
# docidx read with EXPECTED (the tool's own view, eco:name@version lines), then search.
lockfile() {
  local name=$1 file=$2 expected=$3 eco=$4 query=$5 pkg=$6 d=$WORK/lock-$1
  if [ ! -s "$file" ]; then fail "$name: the tool wrote no $(basename "$file")"; return; fi
  crawl "$d" --from "$file"
  crawled "$d" | norm >"$d.got"
  norm <"$expected" >"$d.want"
  if [ ! -s "$d.want" ]; then fail "$name: the tool reported no packages"; return; fi
  if diff -u "$d.want" "$d.got" >"$d.diff"; then
    ok "$name: $(basename "$file") parses to the $(wc -l <"$d.want") versions the tool resolved: $(tr '\n' ' ' <"$d.want")"
  else
    fail "$name: $(basename "$file") does not parse to what the tool resolved (- tool, + docidx):"
    sed 's/^/    /' "$d.diff" >&2
  fi
  if [ -n "$(failed "$d")" ]; then fail "$name: crawl failed: $(failed "$d")"; return; fi
  hit "$d" "$eco" "$pkg" "$query"
}
pyproject() { # NAME DEPS...: a minimal pyproject.toml
  local name=$1 deps=
  shift
  for x in "$@"; do deps+="\"$x\", "; done
  printf '[project]\nname = "%s"\nversion = "0.1.0"\nrequires-python = ">=3.9"\ndependencies = [%s]\n' "$name" "${deps%, }"
}

if pytool uv; then
  echo "-- uv lock"
  mkdir -p "$P/uv" && pyproject e2e-uv "requests==2.32.3" "attrs" >"$P/uv/pyproject.toml"
  uv_env=() # uv reads no pip configuration: give it pip's index when one is configured
  if [ $pip_index_configured = 1 ]; then uv_env=(UV_DEFAULT_INDEX="$pip_index"); fi
  if (cd "$P/uv" && env "${uv_env[@]}" uv lock -q) 2>"$WORK/uv.log"; then
    (cd "$P/uv" && uv export --frozen --no-hashes --no-emit-project --no-header --no-annotate) |
      sed -nE 's/^([A-Za-z0-9._-]+)==([^ ;]+).*/\1@\2/p' | sed 's/^/pypi:/' >"$P/uv.want"
    lockfile uv "$P/uv/uv.lock" "$P/uv.want" pypi "define classes without boilerplate" attrs
  else
    fail "uv lock: $(tail -n 1 "$WORK/uv.log")"
  fi
elif [ $reach_pypi = 1 ]; then skip "uv: not installed (see above)"; fi

if pytool poetry; then
  echo "-- poetry lock"
  mkdir -p "$P/poetry"
  # pip's index as poetry's primary source: poetry then reads it through the simple API, as pip
  # does (its default source also asks the JSON API for each release's document).
  { pyproject e2e-poetry "idna" "six"; printf '[tool.poetry]\npackage-mode = false\n[[tool.poetry.source]]\nname = "pip-index"\nurl = "%s"\npriority = "primary"\n' "$pip_index"; } >"$P/poetry/pyproject.toml"
  if (cd "$P/poetry" && poetry lock -q --no-interaction) 2>"$WORK/poetry.log"; then
    (cd "$P/poetry" && poetry show --no-ansi --no-interaction) |
      awk '{v = ($2 == "(!)") ? $3 : $2; print $1 "@" v}' | sed 's/^/pypi:/' >"$P/poetry.want"
    lockfile poetry "$P/poetry/poetry.lock" "$P/poetry.want" pypi "internationalized domain names" idna
  else
    fail "poetry lock: $(tail -n 1 "$WORK/poetry.log")"
  fi
elif [ $reach_pypi = 1 ]; then skip "poetry: not installed (see above)"; fi

if pytool pip-compile; then
  echo "-- pip-compile"
  mkdir -p "$P/pip-compile" && printf 'certifi\nsix\n' >"$P/pip-compile/requirements.in"
  if (cd "$P/pip-compile" && PIP_FIND_LINKS= pip-compile -q --strip-extras requirements.in) 2>"$WORK/pip-compile.log"; then
    sed -nE 's/^([A-Za-z0-9._-]+)==([^ ;\\]+).*/\1@\2/p' "$P/pip-compile/requirements.txt" | sed 's/^/pypi:/' >"$P/pip-compile.want"
    lockfile pip-compile "$P/pip-compile/requirements.txt" "$P/pip-compile.want" pypi "python 2 and 3 compatibility" six
  else
    fail "pip-compile: $(tail -n 1 "$WORK/pip-compile.log")"
  fi
elif [ $reach_pypi = 1 ]; then skip "pip-compile: not installed (see above)"; fi

if [ $reach_cargo = 1 ]; then
  echo "-- cargo generate-lockfile"
  mkdir -p "$P/cargo/src" && : >"$P/cargo/src/lib.rs"
  printf '[package]\nname = "e2e-cargo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nitoa = "1"\nsemver = "1"\n' >"$P/cargo/Cargo.toml"
  if (cd "$P/cargo" && cargo generate-lockfile -q) 2>"$WORK/cargo.log"; then
    (cd "$P/cargo" && cargo metadata --format-version 1 --locked) |
      jq -r '.packages[] | select(.source != null) | "cargo:\(.name)@\(.version)"' >"$P/cargo.want"
    lockfile cargo "$P/cargo/Cargo.lock" "$P/cargo.want" cargo "parse a version requirement" semver
  else
    fail "cargo generate-lockfile: $(tail -n 1 "$WORK/cargo.log")"
  fi
fi

if [ $reach_npm = 1 ]; then
  npm_deps='{"is-number": "7.0.0", "ms": "^2"}'
  # npm_tree prints name@version for every dependency of npm's or pnpm's JSON tree.
  npm_tree() { jq -r '.. | objects | .dependencies? // empty | to_entries[] | "npm:\(.key)@\(.value.version)"'; }
  echo "-- npm install"
  mkdir -p "$P/npm" && printf '{"name": "e2e-npm", "version": "1.0.0", "private": true, "dependencies": %s}\n' "$npm_deps" >"$P/npm/package.json"
  if (cd "$P/npm" && npm install --no-audit --no-fund --ignore-scripts --silent) 2>"$WORK/npm.log"; then
    (cd "$P/npm" && npm ls --all --json) | npm_tree >"$P/npm.want"
    lockfile npm "$P/npm/package-lock.json" "$P/npm.want" npm "convert a time string to milliseconds" ms
  else
    fail "npm install: $(tail -n 1 "$WORK/npm.log")"
  fi
  if [ $pnpm_ok = 1 ]; then
    echo "-- pnpm install"
    mkdir -p "$P/pnpm" && printf '{"name": "e2e-pnpm", "version": "1.0.0", "private": true, "dependencies": %s}\n' "$npm_deps" >"$P/pnpm/package.json"
    if (cd "$P/pnpm" && pnpm install --ignore-scripts --silent) 2>"$WORK/pnpm.log"; then
      (cd "$P/pnpm" && pnpm list --json --depth Infinity) | jq '.[0]' | npm_tree >"$P/pnpm.want"
      lockfile pnpm "$P/pnpm/pnpm-lock.yaml" "$P/pnpm.want" npm "convert a time string to milliseconds" ms
    else
      fail "pnpm install: $(tail -n 1 "$WORK/pnpm.log")"
    fi
  fi
  if [ $yarn_ok = 1 ]; then
    echo "-- yarn install"
    mkdir -p "$P/yarn" && printf '{"name": "e2e-yarn", "version": "1.0.0", "private": true, "dependencies": %s}\n' "$npm_deps" >"$P/yarn/package.json"
    if (cd "$P/yarn" && yarn install --ignore-scripts --non-interactive --silent) 2>"$WORK/yarn.log"; then
      # yarn list names every package "name@version" (a scope's too: "@s/n@1.0.0").
      (cd "$P/yarn" && yarn list --json --non-interactive 2>/dev/null) |
        jq -r '.data.trees | .. | objects | .name? // empty' | sed 's/^/npm:/' >"$P/yarn.want"
      lockfile yarn "$P/yarn/yarn.lock" "$P/yarn.want" npm "convert a time string to milliseconds" ms
    else
      fail "yarn install: $(tail -n 1 "$WORK/yarn.log")"
    fi
  fi
fi

if [ $reach_go = 1 ]; then
  echo "-- go mod tidy"
  mkdir -p "$P/go"
  printf 'module example.test/e2e\n\ngo 1.22\n' >"$P/go/go.mod"
  printf 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/google/uuid"\n\t"golang.org/x/sync/errgroup"\n)\n\nfunc main() {\n\tvar g errgroup.Group\n\tg.Go(func() error { fmt.Println(uuid.NewString()); return nil })\n\t_ = g.Wait()\n}\n' >"$P/go/main.go"
  if (cd "$P/go" && go mod tidy) 2>"$WORK/go.log"; then
    (cd "$P/go" && go list -m -f '{{if not .Main}}golang:{{.Path}}@{{.Version}}{{end}}' all) | sed '/^$/d' >"$P/go.want"
    lockfile go "$P/go/go.mod" "$P/go.want" golang "wait for a group of goroutines and return the first error" golang.org/x/sync
  else
    fail "go mod tidy: $(tail -n 1 "$WORK/go.log")"
  fi
fi

# ---------------------------------------------------------------------------------------------
echo
echo "e2e-registries: ${#passed[@]} checks passed, ${#skipped[@]} skipped, ${#failures[@]} failed in $(($(date +%s) - start))s"
for s in "${skipped[@]}"; do echo "  skipped: $s"; done
for f in "${failures[@]}"; do echo "  FAILED: $f"; done
[ ${#failures[@]} -eq 0 ]
