#!/usr/bin/env bash
# segbench.sh: issue 16 point 7's measurement. It drives one docidx binary through its CLI only, so
# the same script measures the previous main's binary and a new one side by side, and prints a
# Markdown table:
#
#   full crawl    an offline crawl, into an empty index, of N (the real corpus: the Go module cache
#                 and node_modules of scripts/corpus.sh plus this machine's Python site-packages),
#                 2N, 4N and 16N package versions: wall seconds, peak RSS, versions, hits (documents +
#                 sections + symbols of `docidx stats --json`), hits per second, snapshot bytes (du
#                 of the whole index directory, which after one crawl into an empty directory holds
#                 only the current generation) and bytes per hit;
#   add 1/10/100  wall seconds and peak RSS of a crawl that adds 1, 10 and 100 npm package versions
#                 the snapshot does not hold yet to a synced `cp -a` copy of each snapshot
#                 (the median of ADD_REPS runs), and the ratio of the largest to N;
#   search        p50 and p99 of search_package_docs round trips over `docidx serve --stdio`, and
#                 the server's own memory (RssAnon) after them, on the N snapshot and on the largest:
#                 BenchmarkStdioSearchVaried (cmd/docidx) with DOCIDX_BENCH_BIN=BIN, so it needs the
#                 go command and this repository. Its questions are distinct up to 3,000 round
#                 trips: BenchmarkStdioSearch repeats ten, which after the first pass the server
#                 answers from its cache of recent searches, the same at 16N as at N;
#   merge         the Go module cache crawled as --shard 1/2 and --shard 2/2 into two indexes, then
#                 the wall time and peak RSS of `docidx merge --index NEW half1 half2`, and whether
#                 the merged stats equal those of one crawl of it. Skipped ("n/a") for a binary
#                 without --shard or merge.
#
# The copies that make 2N, 4N and 16N (and the added versions) are the corpus under other names, made
# once in WORK/copies and shared by every binary; their files are hard links to the corpus (plain
# copies across file systems) and every file that is rewritten is replaced, never edited in place,
# so the corpus is never modified:
#   Go      each extracted module tree <path>@<version> again as copyK.docidx.test/<path>@<version>
#           (K = 2 to 16), with its cache/download .info file; its go.mod's module line is
#           rewritten to the copy's path (docidx, as the go command, refuses a module whose go.mod
#           declares another path). Go's --go-modcache takes
#           one directory, so gomod-2N, gomod-4N and gomod-16N hold the original trees and the copies.
#   npm     node_modules again with every package directory renamed <dir>-copyK (nested and scoped
#           ones too: @scope/name-copyK) and package.json's "name" rewritten to match.
#   Python  site-packages again with every *.dist-info / *.egg-info renamed <name>_copyK-... and the
#           Name field of METADATA / PKG-INFO rewritten to <name>-copyK; the modules are shared.
#   added   100 top-level npm packages (every third one by name, without their nested node_modules)
#           renamed <dir>-add, in add1/, add10/ and add100/ node_modules trees of 1, 10 and 100.
#
# The N, 2N, 4N and 16N snapshots and the shard halves are cached in WORK/bin-<sha256 of BIN>/, with
# their crawl's measurements (and the time of day they were taken), so a rerun only measures the
# adds, search and merge again; FRESH=1 rebuilds them. Runs are sequential (one docidx at a time).
# Nothing is written outside WORK (except the go command's own build cache by the benchmark):
# docidx gets TMPDIR and XDG_CACHE_HOME under WORK.
#
#   make segbench                                        # bin/docidx, built first
#   make segbench SEGBENCH_BIN=/work/ref/docidx-main     # another binary
#   scripts/segbench.sh [BIN [WORK]]
#
# Environment: BIN (default bin/docidx), CORPUS (default $DOCIDX_CORPUS, else /work/corpus; see
# scripts/corpus.sh), WORK (default $TMPDIR/docidx-segbench), SITE_PACKAGES (default what python3
# reports; "none" leaves Python out), SEARCH_BENCHTIME (go test -benchtime, default 1000x),
# FRESH=1, SKIP="2N 4N 16N adds search merge" (leave parts out), ADD_COUNTS (default "1 10 100":
# which adds to measure), ADD_REPS (default 5: each add is measured that many times, and the
# table gives the medians). Needs bash, coreutils, GNU time (/usr/bin/time; apt-get install time),
# python3 and, for search, the go command. With nothing cached, the previous main's binary takes
# about 45 minutes on 2 cores without 16N (each add rebuilds its whole snapshot), and its 16N crawl
# about 18 minutes more; the copies take seconds, and 16N's snapshots about 16 times N's disk.
set -euo pipefail
shopt -s inherit_errexit # a failure inside $(...) stops the script too

die() { echo "segbench: $*" >&2; exit 2; }
log() { echo "segbench: $(date -u +%H:%M:%S) $*" >&2; }

# abs PATH: PATH made absolute against the caller's directory (the script then works in the repo).
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
REPO=$(cd "$(dirname "$0")/.." && pwd -P)
BIN=$(abs "${1:-${BIN:-$REPO/bin/docidx}}")
WORK=$(abs "${2:-${WORK:-${TMPDIR:-/tmp}/docidx-segbench}}")
CORPUS=$(abs "${CORPUS:-${DOCIDX_CORPUS:-/work/corpus}}")
[ -z "${SITE_PACKAGES:-}" ] || [ "$SITE_PACKAGES" = none ] || SITE_PACKAGES=$(abs "$SITE_PACKAGES")
cd "$REPO"
SEARCH_BENCHTIME=${SEARCH_BENCHTIME:-1000x}
SKIP=" ${SKIP:-} "
ADD_COUNTS=${ADD_COUNTS:-1 10 100}
ADD_REPS=${ADD_REPS:-5}
case $ADD_REPS in '' | *[!0-9]* | 0) echo "segbench: ADD_REPS must be a positive number, not $ADD_REPS" >&2; exit 2 ;; esac
for n in $ADD_COUNTS; do
	case $n in 1 | 10 | 100) ;; *) echo "segbench: ADD_COUNTS may hold only 1, 10 and 100, not $n" >&2; exit 2 ;; esac
done
FRESH=${FRESH:-0}

[ -f "$BIN" ] && [ -x "$BIN" ] || die "no docidx binary at $BIN (run make build, or give BIN)"
BIN=$(cd "$(dirname "$BIN")" && pwd -P)/$(basename "$BIN")
[ -x /usr/bin/time ] || die "GNU time is needed at /usr/bin/time for wall time and peak RSS: apt-get install time"
command -v python3 >/dev/null || die "python3 is needed (copies of the corpus, JSON of docidx stats)"
GOMODCACHE_SRC=$CORPUS/gomodcache
NODE_MODULES_SRC=$CORPUS/npmproject/node_modules
[ -d "$GOMODCACHE_SRC" ] && [ -d "$NODE_MODULES_SRC" ] ||
	die "no corpus in $CORPUS (want gomodcache/ and npmproject/node_modules/): run scripts/corpus.sh, or set CORPUS"
CORPUS=$(cd "$CORPUS" && pwd -P)
GOMODCACHE_SRC=$CORPUS/gomodcache
NODE_MODULES_SRC=$CORPUS/npmproject/node_modules
if [ -z "${SITE_PACKAGES:-}" ]; then
	SITE_PACKAGES=$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null) ||
		die "python3 could not name its site-packages: set SITE_PACKAGES=DIR, or SITE_PACKAGES=none"
fi
if [ "$SITE_PACKAGES" != none ]; then
	[ -d "$SITE_PACKAGES" ] || die "site-packages $SITE_PACKAGES is not a directory: set SITE_PACKAGES=DIR or none"
	SITE_PACKAGES=$(cd "$SITE_PACKAGES" && pwd -P)
fi
case "$WORK" in
"$CORPUS" | "$CORPUS"/*) die "WORK $WORK is inside the corpus; pick another directory" ;;
esac
mkdir -p "$WORK" || die "cannot create the work directory $WORK"
WORK=$(cd "$WORK" && pwd -P)
if [ "$SITE_PACKAGES" != none ]; then
	case "$WORK/" in "$SITE_PACKAGES"/*) die "WORK $WORK is inside $SITE_PACKAGES; pick another directory" ;; esac
fi

# docidx reads DOCIDX_* variables as flags: none of the caller's may change what is measured.
for v in $(compgen -e | grep '^DOCIDX_' || true); do unset "$v"; done
SHA=$(sha256sum "$BIN" | cut -c1-64)
B=$WORK/bin-${SHA:0:16}
mkdir -p "$B" "$WORK/tmp/xdg-cache" "$WORK/copies"
# A copy of the binary, so a rebuild of BIN during the run does not change what is measured.
[ -x "$B/docidx" ] && [ "$(sha256sum "$B/docidx" | cut -c1-64)" = "$SHA" ] || { cp "$BIN" "$B/docidx.tmp" && mv "$B/docidx.tmp" "$B/docidx"; }
DOCIDX=$B/docidx
VERSION=$("$DOCIDX" version 2>&1 | head -1) || die "$BIN version failed: $VERSION"
export TMPDIR=$WORK/tmp XDG_CACHE_HOME=$WORK/tmp/xdg-cache
skipped() { case "$SKIP" in *" $1 "*) return 0 ;; esac; return 1; }

# copier MODE ARGS...: the corpus copies (see the header). Files are hard-linked (copied across
# file systems); a file that changes is written to a new name and renamed over the link.
copier() {
	python3 -B - "$@" <<'PY'
import errno, json, os, re, shutil, sys

def link_tree(src, dst, skip_dir=lambda rel: False):
    """Recreate src at dst: directories made anew (writable), files hard-linked, symlinks copied."""
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        dirs[:] = [d for d in dirs if not skip_dir(os.path.normpath(os.path.join(rel, d)))]
        out = os.path.normpath(os.path.join(dst, rel))
        os.makedirs(out, exist_ok=True)
        for d in dirs:
            p = os.path.join(root, d)
            if os.path.islink(p):  # os.walk lists symlinks to directories as directories
                os.symlink(os.readlink(p), os.path.join(out, d))
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for f in files:
            s, t = os.path.join(root, f), os.path.join(out, f)
            if os.path.islink(s):
                os.symlink(os.readlink(s), t)
                continue
            try:
                os.link(s, t)
            except OSError as e:
                if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
                    raise
                shutil.copyfile(s, t)

def replace(path, data):
    """Write data as path without touching the file path names now (a hard link to the corpus)."""
    tmp = path + ".segbench-tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)

def module_dirs(cache):
    """Yield the <escaped path>@<version> directories of a module cache, relative, as List does."""
    for root, dirs, _ in os.walk(cache):
        rel = os.path.relpath(root, cache)
        if rel == ".":
            dirs[:] = [d for d in dirs if d != "cache" and not d.startswith(".")]
        keep = []
        for d in sorted(dirs):
            if d.startswith("."):
                continue
            if "@" in d:
                yield os.path.normpath(os.path.join(rel, d))
            else:
                keep.append(d)
        dirs[:] = keep

MODULE = re.compile(rb"^(\s*module\s+)(\"?)([^\s\"/]+)", re.M)

def rename_module(gomod_file, prefix):
    """Rewrite the module line of gomod_file (if there is one) to the path under prefix."""
    try:
        with open(gomod_file, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return
    new, n = MODULE.subn(lambda m: m.group(1) + m.group(2) + prefix.encode() + b"/" + m.group(3), data, count=1)
    if n:
        replace(gomod_file, new)

def gomod(src, dst, copies):
    for mod in module_dirs(src):
        path, ver = mod.split("@", 1)
        info = os.path.join(src, "cache", "download", path, "@v", ver + ".info")
        for k in ["1"] + copies:
            prefix = "" if k == "1" else "copy%s.docidx.test" % k
            link_tree(os.path.join(src, mod), os.path.join(dst, prefix, mod))
            if prefix:
                rename_module(os.path.join(dst, prefix, mod, "go.mod"), prefix)
            if os.path.exists(info):
                d = os.path.join(dst, "cache", "download", prefix, path, "@v")
                os.makedirs(d, exist_ok=True)
                if not os.path.exists(os.path.join(d, ver + ".info")):
                    shutil.copyfile(info, os.path.join(d, ver + ".info"))

def rename_package(pkg, suffix):
    """Rewrite the "name" of pkg/package.json with suffix; False when it has none."""
    pj = os.path.join(pkg, "package.json")
    try:
        with open(pj, "rb") as f:
            m = json.loads(f.read().decode("utf-8-sig"))
    except (OSError, ValueError):
        return False
    if not isinstance(m, dict) or not isinstance(m.get("name"), str) or not m["name"]:
        return False
    m["name"] = m["name"].strip() + suffix
    replace(pj, json.dumps(m, ensure_ascii=False, indent=2).encode("utf-8"))
    return True

def npm_packages(nm):
    """The package directories directly in node_modules dir nm (scoped ones as @scope/name)."""
    out = []
    for e in sorted(os.listdir(nm)):
        p = os.path.join(nm, e)
        if e.startswith(".") or not os.path.isdir(p) or os.path.islink(p):
            continue
        if e.startswith("@"):
            out += [os.path.join(e, c) for c in sorted(os.listdir(p))
                    if os.path.isdir(os.path.join(p, c)) and not os.path.islink(os.path.join(p, c))]
        else:
            out.append(e)
    return out

def npm_rename_tree(nm, suffix):
    """Rename every package of node_modules nm, nested ones too, as <dir><suffix>."""
    for rel in npm_packages(nm):
        p = os.path.join(nm, rel)
        new = p + suffix
        os.rename(p, new)
        rename_package(new, suffix)
        inner = os.path.join(new, "node_modules")
        if os.path.isdir(inner) and not os.path.islink(inner):
            npm_rename_tree(inner, suffix)

def npm(src, dst, suffix):
    link_tree(src, dst)
    npm_rename_tree(dst, suffix)

def npm_add(src, dst_root, suffix, counts):
    pkgs = [p for p in npm_packages(src) if os.path.isfile(os.path.join(src, p, "package.json"))][::3]
    top = max(counts)
    if len(pkgs) < top:
        sys.exit("segbench: node_modules %s has %d top-level packages, fewer than 3*%d" % (src, len(pkgs), top))
    for n in counts:
        nm = os.path.join(dst_root, "add%d" % n, "node_modules")
        for rel in pkgs[:n]:
            out = os.path.join(nm, rel + suffix)
            link_tree(os.path.join(src, rel), out,
                      skip_dir=lambda r: r == "node_modules" or r.startswith("node_modules" + os.sep))
            if not rename_package(out, suffix):
                sys.exit("segbench: %s has no package.json name" % os.path.join(src, rel))

NAME = re.compile(rb"^Name:[ \t]*(.*?)[ \t]*$", re.M)

def rename_metadata(path, suffix):
    with open(path, "rb") as f:
        data = f.read()
    head, sep, body = data.partition(b"\n\n")  # the name is a header field, never in the body
    new, n = NAME.subn(lambda m: b"Name: " + m.group(1) + suffix.encode(), head, count=1)
    if n:
        replace(path, new + sep + body)

def python(src, dst, suffix):
    dst_abs = os.path.abspath(dst)
    link_tree(src, dst, skip_dir=lambda rel: os.path.abspath(os.path.join(src, rel)) == dst_abs)
    for e in sorted(os.listdir(dst)):
        if not (e.endswith(".dist-info") or e.endswith(".egg-info")):
            continue
        p = os.path.join(dst, e)
        name, dash, rest = e.partition("-")
        if not dash:  # name.egg-info: no version in the name
            name, rest = e[: -len(".egg-info")], ".egg-info" if e.endswith(".egg-info") else ".dist-info"
            new = os.path.join(dst, name + suffix.replace("-", "_") + rest)
        else:
            new = os.path.join(dst, name + suffix.replace("-", "_") + "-" + rest)
        os.rename(p, new)
        if os.path.isdir(new):
            for meta in ("METADATA", "PKG-INFO"):
                if os.path.isfile(os.path.join(new, meta)):
                    rename_metadata(os.path.join(new, meta), suffix)
        else:
            rename_metadata(new, suffix)

mode, args = sys.argv[1], sys.argv[2:]
if mode == "gomod":
    gomod(args[0], args[1], args[2:])
elif mode == "npm":
    npm(args[0], args[1], args[2])
elif mode == "npm-add":
    npm_add(args[0], args[1], args[2], [int(a) for a in args[3:]])
elif mode == "python":
    python(args[0], args[1], args[2])
else:
    sys.exit("segbench: unknown copier mode " + mode)
PY
}

# copy_once NAME STAMP CMD...: run CMD to build WORK/copies/NAME unless its stamp says it was built
# from the same sources; a half-built copy from an interrupted run is removed first.
copy_once() {
	local name=$1 stamp=$2
	shift 2
	local dir=$WORK/copies/$name
	if [ -f "$dir.done" ] && [ "$(cat "$dir.done")" = "$stamp" ]; then return 0; fi
	log "copying $name"
	rm -rf "$dir" "$dir.done"
	"$@" || die "copying $name failed"
	echo "$stamp" >"$dir.done"
}
COPY_STAMP="copies v2 go=$GOMODCACHE_SRC npm=$NODE_MODULES_SRC py=$SITE_PACKAGES"
C=$WORK/copies
copy_once gomod-2N "$COPY_STAMP" copier gomod "$GOMODCACHE_SRC" "$C/gomod-2N" 2
copy_once gomod-4N "$COPY_STAMP" copier gomod "$GOMODCACHE_SRC" "$C/gomod-4N" 2 3 4
skipped 16N || copy_once gomod-16N "$COPY_STAMP" copier gomod "$GOMODCACHE_SRC" "$C/gomod-16N" $(seq 2 16)
COPIES=$(seq 2 4)
skipped 16N || COPIES=$(seq 2 16)
for k in $COPIES; do
	copy_once "npm-copy$k" "$COPY_STAMP" copier npm "$NODE_MODULES_SRC" "$C/npm-copy$k" "-copy$k"
	if [ "$SITE_PACKAGES" != none ]; then
		copy_once "py-copy$k" "$COPY_STAMP" copier python "$SITE_PACKAGES" "$C/py-copy$k" "-copy$k"
	fi
done
copy_once npm-add "$COPY_STAMP" copier npm-add "$NODE_MODULES_SRC" "$C/npm-add" -add 1 10 100

# crawl_args SIZE: sets ARGS to the crawl flags of the N, 2N, 4N or 16N corpus.
crawl_args() {
	local k n=${1%N}
	n=${n:-1}
	ARGS=(--node-modules "$NODE_MODULES_SRC")
	if [ "$n" = 1 ]; then ARGS+=(--go-modcache "$GOMODCACHE_SRC"); else ARGS+=(--go-modcache "$C/gomod-${n}N"); fi
	for ((k = 2; k <= n; k++)); do ARGS+=(--node-modules "$C/npm-copy$k"); done
	if [ "$SITE_PACKAGES" != none ]; then
		ARGS+=(--site-packages "$SITE_PACKAGES")
		for ((k = 2; k <= n; k++)); do ARGS+=(--site-packages "$C/py-copy$k"); done
	fi
}

# measure OUT LOG CMD...: run CMD under GNU time; OUT gets "wall-seconds peak-RSS-KB". A failure
# stops the script with the end of LOG.
measure() {
	local out=$1 logf=$2
	shift 2
	if ! /usr/bin/time -f '%e %M' -o "$out.time" "$@" >"$logf" 2>&1; then
		echo "segbench: failed: $*" >&2
		tail -n 20 "$logf" >&2
		exit 1
	fi
	tail -n 1 "$out.time" >"$out" && rm -f "$out.time"
}

# stats INDEX: "versions hits" of the snapshot, from docidx stats --json.
stats() {
	"$DOCIDX" stats --json --index "$1" | python3 -B -c '
import json, sys
t = json.load(sys.stdin)["total"]
print(t["versions"], t.get("documents", 0) + t.get("sections", 0) + t.get("symbols", 0))'
}

# build_snapshot SIZE: crawl the SIZE corpus into $B/snap-SIZE (cached) and record
# "wall rss versions hits bytes measured-at" in $B/snap-SIZE.result.
build_snapshot() {
	local size=$1 dir=$B/snap-$1
	if [ "$FRESH" != 1 ] && [ -f "$dir.result" ] && [ -d "$dir" ]; then
		log "snapshot $size: cached ($dir)"
		return 0
	fi
	rm -rf "$dir" "$dir.result"
	log "crawling the $size corpus"
	crawl_args "$size"
	local at
	at=$(date -u +%H:%M)
	measure "$dir.measure" "$dir.log" "$DOCIDX" crawl --offline --quiet --index "$dir" "${ARGS[@]}"
	local vh bytes
	vh=$(stats "$dir")
	bytes=$(du -sb "$dir" | cut -f1)
	echo "$(cat "$dir.measure") $vh $bytes $at" >"$dir.result"
	rm -f "$dir.measure"
}

# add_run SIZE COUNT: time adding COUNT new npm versions to a copy of the SIZE snapshot; prints
# "wall rss" (seconds to the millisecond, KB); checks that exactly COUNT versions were added. The
# copy is synced before the crawl: its gigabyte of dirty pages would otherwise be written out by
# the crawl's fsyncs, and charged to it in proportion to the snapshot.
add_run() {
	local size=$1 count=$2 run=$WORK/run
	rm -rf "$run"
	mkdir -p "$run"
	cp -a "$B/snap-$size" "$run/snap"
	sync
	local t0 t1
	t0=$(date +%s%N)
	measure "$run/m" "$run/log" "$DOCIDX" crawl --offline --quiet --index "$run/snap" --node-modules "$C/npm-add/add$count/node_modules"
	t1=$(date +%s%N)
	local before after
	before=$(cut -d' ' -f3 "$B/snap-$size.result")
	after=$(stats "$run/snap" | cut -d' ' -f1)
	[ "$after" = $((before + count)) ] ||
		die "adding $count versions to $size: the snapshot went from $before to $after versions, not $((before + count))"
	echo "$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", ns / 1e9 }') $(cut -d' ' -f2 "$run/m")"
	rm -rf "$run"
}

# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

START=$(date -u +'%Y-%m-%d %H:%M')
SIZES=()
for s in N 2N 4N 16N; do [ "$s" = N ] || ! skipped "$s" && SIZES+=("$s"); done
for s in "${SIZES[@]}"; do build_snapshot "$s"; done
LARGEST=${SIZES[-1]}

# search_bench SIZE: BenchmarkStdioSearchVaried's p50 and p99 on the SIZE snapshot, and the server's
# RssAnon after them, or why not.
search_bench() {
	command -v go >/dev/null || { echo "n/a (no go command)"; return 0; }
	log "BenchmarkStdioSearchVaried on the $1 snapshot ($SEARCH_BENCHTIME)"
	local at out line p50 p99 anon
	at=$(date -u +%H:%M)
	if ! out=$(DOCIDX_BENCH_BIN=$DOCIDX DOCIDX_CORPUS_INDEX=$B/snap-$1 go test -count=1 -run '^$' \
		-bench '^BenchmarkStdioSearchVaried$' -benchtime "$SEARCH_BENCHTIME" ./cmd/docidx 2>&1); then
		echo "$out" >&2
		echo "failed: BenchmarkStdioSearchVaried (its output is above in the log)"
		return 0
	fi
	line=$(echo "$out" | grep '^BenchmarkStdioSearchVaried' | tail -1)
	metric() { echo "$line" | awk -v u="$1" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1)}'; }
	p50=$(metric p50-ms)
	p99=$(metric p99-ms)
	anon=$(metric anon-MB)
	if [ -z "$p50" ] || [ -z "$p99" ]; then
		echo "$out" >&2
		echo "failed: BenchmarkStdioSearchVaried reported no p50-ms or p99-ms"
		return 0
	fi
	echo "p50 $p50 ms, p99 $p99 ms, server RssAnon ${anon:-?} MB after them ($SEARCH_BENCHTIME round trips, at $at)"
}

# merge_bench: crawl the Go module cache as --shard 1/2, 2/2 and whole (cached), time the merge of
# the halves and compare its stats with the whole; prints the result, or why not.
merge_bench() {
	# The help text is read whole first: grep -q would stop reading, and with pipefail the SIGPIPE
	# of docidx would read as "no --shard".
	local help
	help=$("$DOCIDX" crawl --help 2>&1 || true)
	if ! grep -q -- '--shard' <<<"$help" || ! "$DOCIDX" merge --help >/dev/null 2>&1; then
		echo "n/a (this docidx has no crawl --shard or merge)"
		return 0
	fi
	local part dir at mw mr same=no
	for part in 1 2 all; do
		dir=$B/go-$part
		[ "$FRESH" != 1 ] && [ -f "$dir.done" ] && continue
		rm -rf "$dir" "$dir.done"
		log "crawling the Go module cache, part $part"
		local shard=()
		[ "$part" = all ] || shard=(--shard "$part/2")
		measure "$dir.m" "$dir.log" "$DOCIDX" crawl --offline --quiet --index "$dir" --go-modcache "$GOMODCACHE_SRC" "${shard[@]}"
		touch "$dir.done"
	done
	rm -rf "$WORK/merged"
	log "merging the two halves"
	at=$(date -u +%H:%M)
	measure "$WORK/merged.m" "$WORK/merged.log" "$DOCIDX" merge --quiet --index "$WORK/merged" "$B/go-1" "$B/go-2"
	read -r mw mr <"$WORK/merged.m"
	local eco='import json, sys; print(json.load(sys.stdin)["ecosystems"])'
	[ "$("$DOCIDX" stats --json --index "$WORK/merged" | python3 -B -c "$eco")" = \
		"$("$DOCIDX" stats --json --index "$B/go-all" | python3 -B -c "$eco")" ] && same=yes
	echo "$mw s, $((mr / 1024)) MB peak RSS ($(stats "$WORK/merged" | cut -d' ' -f1) Go versions; stats equal one crawl's: $same; at $at)"
	rm -rf "$WORK/merged" "$WORK/merged.m"
}

# Search and merge before the adds, which take longest: a failure there shows early, and is
# reported in the table rather than stopping the run.
SEARCH=("N: n/a")
SEARCH_SIZES=(N)
[ "$LARGEST" = N ] || SEARCH_SIZES+=("$LARGEST")
if ! skipped search; then
	SEARCH=()
	for s in "${SEARCH_SIZES[@]}"; do SEARCH+=("$s: $(search_bench "$s" || echo "failed (see the log above)")"); done
fi
SEARCH=$(IFS=';'; echo "${SEARCH[*]}")
MERGE="n/a"
skipped merge || MERGE=$(merge_bench) || MERGE="failed (see the log above)"

# Each add is measured ADD_REPS times, the sizes taken in turn within each round, so that the
# machine's drift over the minutes falls on every size alike; the table gives the medians.
declare -A ADD ADDW ADDR
ADD_AT=$(date -u +%H:%M)
skipped adds && ADD_COUNTS=""
for ((rep = 1; rep <= ADD_REPS; rep++)); do
	for n in $ADD_COUNTS; do
		for s in "${SIZES[@]}"; do
			m=$(add_run "$s" "$n")
			log "round $rep: added $n versions to the $s snapshot: $m (wall s, peak RSS KB)"
			ADDW[$s.$n]+="${m% *}"$'\n'
			ADDR[$s.$n]+="${m#* }"$'\n'
		done
	done
done
for s in "${SIZES[@]}"; do
	for n in $ADD_COUNTS; do
		ADD[$s.$n]="$(printf '%s' "${ADDW[$s.$n]}" | median) $(printf '%s' "${ADDR[$s.$n]}" | median)"
	done
done

# The table.
ADDS=()
for s in "${SIZES[@]}"; do for n in $ADD_COUNTS; do ADDS+=("$s $n ${ADD[$s.$n]}"); done; done
python3 -B - "$B" "$VERSION" "$SHA" "$START" "$ADD_AT" "$ADD_REPS" "$SEARCH" "$MERGE" "${SIZES[*]}" "${ADDS[@]}" <<'PY'
import sys
b_dir, version, sha, start, add_at, add_reps, search, merge, sizes, *adds = sys.argv[1:]
sizes = sizes.split()
add = {}
for a in adds:
    s, n, w, rss = a.split()
    add[(s, int(n))] = (float(w), int(rss))
counts = sorted({k[1] for k in add})
res = {}
for s in sizes:
    w, rss, v, h, b, at = open("%s/snap-%s.result" % (b_dir, s)).read().split()
    res[s] = dict(w=float(w), rss=int(rss) / 1024, v=int(v), h=int(h), b=int(b), at=at)
big = sizes[-1] if len(sizes) > 1 else None
cols = sizes + (["%s/N" % big] if big else [])
def row(name, f, ratio=True, fmt="{:,.1f}"):
    vals = [fmt.format(f(s)) for s in sizes]
    if big:
        vals.append("{:.2f}x".format(f(big) / f("N")) if ratio and f("N") else "")
    print("| " + name + " | " + " | ".join(vals) + " |")
print("## segbench: %s (sha256 %s), %s UTC" % (version, sha[:12], start))
print()
print("| measure | " + " | ".join(cols) + " |")
print("| --- |" + " --- |" * len(cols))
row("package versions", lambda s: res[s]["v"], fmt="{:,}")
row("hits (documents + sections + symbols)", lambda s: res[s]["h"], fmt="{:,}")
row("full crawl: wall s", lambda s: res[s]["w"], fmt="{:.1f}")
print("| full crawl: measured at (UTC) | " + " | ".join(res[s]["at"] for s in sizes) + (" |  |" if big else " |"))
row("full crawl: hits/s", lambda s: res[s]["h"] / res[s]["w"], fmt="{:,.0f}")
row("full crawl: peak RSS MB", lambda s: res[s]["rss"], fmt="{:,.0f}")
row("snapshot MB", lambda s: res[s]["b"] / 1e6, fmt="{:,.1f}")
row("snapshot bytes per hit", lambda s: res[s]["b"] / res[s]["h"], fmt="{:,.0f}")
for n in counts:
    row("add %d: wall s" % n, lambda s: add[(s, n)][0], fmt="{:.3f}")
    row("add %d: peak RSS MB" % n, lambda s: add[(s, n)][1] / 1024, fmt="{:,.0f}")
if 1 in counts:
    row("add 1: share of the full crawl's wall time", lambda s: 100 * add[(s, 1)][0] / res[s]["w"], ratio=False, fmt="{:.1f}%")
if counts:
    print()
    print("Adds measured from %s UTC on synced cp -a copies of the snapshots: the median of %s runs." % (add_at, add_reps))
print()
print("| other | value |")
print("| --- | --- |")
for part in search.split(";"):
    size, _, result = part.partition(": ")
    print("| search_package_docs over serve --stdio, %s snapshot (BenchmarkStdioSearchVaried) | %s |" % (size, result or size))
print("| merge of the Go module cache's --shard 1/2 and 2/2 | %s |" % merge)
PY
log "done; snapshots cached in $B"
