package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/index"
)

// maxListed is how many items of one kind (skipped lockfile entries, skipped files) a crawl
// lists at warning level before it only counts them.
const maxListed = 10

// modcacheAuto is the --go-modcache value that means "the module cache `go env GOMODCACHE` names".
const modcacheAuto = "auto"

func crawlCommand() *cli.Command {
	return &cli.Command{
		Name:      "crawl",
		Usage:     "pull package docs from registries and local caches into the snapshot",
		ArgsUsage: "[SPEC...]\n\n   SPEC is go:MODULE[@VERSION], npm:NAME[@RANGE], pypi:NAME[==VERSION], cargo:CRATE[@REQ],\n   swift:SCOPE.NAME[@VERSION] (or swift:REPOSITORY-URL[@VERSION]), or a purl such as pkg:npm/zod@3.23.8",
		Description: `Each SPEC names one package; without a version the latest release is crawled.
--from reads the versions a project uses from its lockfile (go.mod, package-lock.json,
Cargo.lock …). A requirements file or pyproject.toml names requirements instead: with
--site-packages each resolves to the version installed there and brings the installed
distributions it requires (markers evaluated for that interpreter), and one not
installed or not satisfied fails; without it, a range resolves to the index's newest
matching release. A Cargo.toml's requirements resolve to the newest semver-compatible
version. With local caches and no SPEC or --from, every package version in those
caches is crawled. A package version
already in the snapshot is not fetched again unless --refresh. With --prune the
snapshot ends up holding exactly what this crawl named: other versions are dropped.
--prune acts only after a crawl in which nothing failed (a mistyped spec must not empty
the snapshot); --prune-on-failure prunes anyway, keeping the versions of packages that
failed.

--shard K/N crawls only the K-th of N parts of the package set (every SPEC, --from
entry and cached version), split by a hash of each version's purl: N machines crawl
one part each, and 'docidx merge' combines their snapshots into one.

Registries come from each ecosystem's own configuration: GOPROXY (environment or
'go env'), npm's .npmrc files and npm_config_* variables, pip's PIP_INDEX_URL and
pip.conf, cargo's configuration, SwiftPM's registries.json; --goproxy, --npm-registry,
--pypi-index, --cargo-index and --swift-registry override them.

--max-memory bounds the crawl's resident memory (default 700MiB): packages wait for
room before they hold a large download, so their number in flight shrinks as their
size grows, and one larger than the budget runs alone; the Go runtime collects
garbage harder as its heap nears the budget less 128MiB, left to mapped files. The
pages of the segment files a commit merges, mapped while it reads them, come on top
as page cache the kernel reclaims (up to about 1 GB for the largest segments).

On a terminal one line on stderr shows the crawl's progress through its phases:
fetch+extract (package versions done), the index write (search documents indexed,
time left, then each segment's merging and ranking index), publishing. It shows
nothing with --quiet or --json or when stderr is not a terminal; --progress bar
draws it anyway, --progress json writes the same events as JSON lines on stderr.`,
		Flags: []cli.Flag{
			indexFlag, logLevelFlag, jsonFlag,
			&cli.StringSliceFlag{Name: "from", Usage: "read the versions a project uses from `FILE`, a lockfile or manifest: " + lockfileNames() + "; repeatable", EnvVars: []string{"DOCIDX_FROM"}},
			&cli.StringFlag{Name: "go-modcache", Usage: "read Go modules from the module cache `DIR` (alone: go env GOMODCACHE)", EnvVars: []string{"DOCIDX_GO_MODCACHE"}},
			&cli.StringSliceFlag{Name: "node-modules", Usage: "read npm packages from node_modules `DIR`; repeatable", EnvVars: []string{"DOCIDX_NODE_MODULES"}},
			&cli.BoolFlag{Name: "offline", Usage: "local caches only: any network access is an error", EnvVars: []string{"DOCIDX_OFFLINE"}},
			&cli.BoolFlag{Name: "refresh", Usage: "fetch package versions again even if already indexed", EnvVars: []string{"DOCIDX_REFRESH"}},
			&cli.IntFlag{Name: "concurrency", Aliases: []string{"j"}, Value: crawl.DefaultConcurrency, Usage: "package versions fetched at once, per ecosystem", EnvVars: []string{"DOCIDX_CONCURRENCY"}},
			&cli.DurationFlag{Name: "package-timeout", Value: crawl.DefaultPackageTimeout, Usage: "give up on a package version whose registry has not answered in `DURATION` (resolve and fetch, retries included); the others go on", EnvVars: []string{"DOCIDX_PACKAGE_TIMEOUT"}},
			&cli.StringFlag{Name: "goproxy", Usage: "Go module proxy `LIST` (default: GOPROXY from the environment or go env)", EnvVars: []string{"DOCIDX_GOPROXY"}},
			&cli.StringFlag{Name: "npm-registry", Usage: "npm registry `URL` (default: from .npmrc / npm config)", EnvVars: []string{"DOCIDX_NPM_REGISTRY"}},
			&cli.StringSliceFlag{Name: "site-packages", Usage: "read Python distributions from site-packages `DIR` (dist-info, egg-info); repeatable", EnvVars: []string{"DOCIDX_SITE_PACKAGES"}},
			&cli.StringSliceFlag{Name: "cargo-home", Usage: "read crates from the cargo home `DIR` (its registry/src); repeatable", EnvVars: []string{"DOCIDX_CARGO_HOME"}},
			&cli.StringSliceFlag{Name: "swift-checkouts", Usage: "read Swift packages from a SwiftPM project or .build `DIR`; repeatable", EnvVars: []string{"DOCIDX_SWIFT_CHECKOUTS"}},
			&cli.StringFlag{Name: "pypi-index", Usage: "Python package index `URL` (default: PIP_INDEX_URL / pip.conf, else PyPI)", EnvVars: []string{"DOCIDX_PYPI_INDEX"}},
			&cli.StringFlag{Name: "cargo-index", Usage: "crates index `URL` (default: cargo's configuration, else crates.io)", EnvVars: []string{"DOCIDX_CARGO_INDEX"}},
			&cli.StringFlag{Name: "swift-registry", Usage: "Swift package registry `URL` (default: SwiftPM's registries.json)", EnvVars: []string{"DOCIDX_SWIFT_REGISTRY"}},
			&cli.StringFlag{Name: "max-memory", Value: "700MiB", Usage: "memory budget of the crawl (`SIZE` in bytes, or with KiB, MiB, GiB)", EnvVars: []string{"DOCIDX_MAX_MEMORY"}},
			&cli.BoolFlag{Name: "prune", Usage: "afterwards, if nothing failed, drop every package version this crawl did not name", EnvVars: []string{"DOCIDX_PRUNE"}},
			&cli.BoolFlag{Name: "prune-on-failure", Usage: "with --prune, prune even when some packages failed (kept: versions of the packages that failed)", EnvVars: []string{"DOCIDX_PRUNE_ON_FAILURE"}},
			&cli.StringFlag{Name: "shard", Usage: "crawl only the K-th of N parts of the package set, split by purl (`K/N`, 1 ≤ K ≤ N); merge the parts with docidx merge", EnvVars: []string{"DOCIDX_SHARD"}},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors", EnvVars: []string{"DOCIDX_QUIET"}},
			progressFlag,
		},
		Action: runCrawl,
	}
}

// lockfileNames lists the files --from reads, from crawl's own list (crawl.LockfileNames), so the
// help cannot drift from what crawl reads.
func lockfileNames() string {
	return strings.Join(crawl.LockfileNames, ", ") + ", or any .txt file in a directory named requirements"
}

func runCrawl(c *cli.Context) error {
	quiet, asJSON := c.Bool("quiet"), c.Bool("json")
	prog, err := newCrawlProgress(c.String("progress"), c.App.ErrWriter, quiet, asJSON)
	if err != nil {
		return err
	}
	defer prog.finish()
	// The log goes through the progress display, which writes a line above its bar.
	log, err := newLoggerTo(c, prog)
	if err != nil {
		return err
	}
	// The registries log each file they skip at debug level; the counter turns them into
	// one count per reason for the summary (crawl.Summary.Skipped).
	log = slog.New(crawl.NewSkipCounter(log.Handler()))
	if n := c.Int("concurrency"); n < 1 || n > 256 {
		return usagef("--concurrency %d: want 1 to 256", n)
	}
	if d := c.Duration("package-timeout"); d <= 0 {
		return usagef("--package-timeout %v: want a duration above 0, such as 30s or 5m", d)
	}
	var shard crawl.Shard
	if c.String("shard") != "" { // empty, as an unset DOCIDX_SHARD in a job template: no shard
		if shard, err = crawl.ParseShard(c.String("shard")); err != nil {
			return usagef("%v", err)
		}
	}
	maxMemory, err := parseByteSize(c.String("max-memory"))
	if err != nil || maxMemory < minMaxMemory {
		return usagef("--max-memory %q: want a size of at least 64MiB, such as 512MiB or 2GiB", c.String("max-memory"))
	}
	// The Go runtime collects harder as the heap nears its memory limit; a lower GOMEMLIMIT stays.
	debug.SetMemoryLimit(min(debug.SetMemoryLimit(-1), runtimeMemoryLimit(maxMemory)))
	// With the limit bounding the heap, the collector need not also run each time the heap has
	// doubled (GOGC=100): it runs as the heap nears the limit, as "A Guide to the Go Garbage
	// Collector" (go.dev/doc/gc-guide, "Memory limit") describes for a program given a memory
	// budget. On the corpus (Go, npm and Python caches, offline; four runs each, alternated) a
	// crawl took 30.8-31.8 s against 33.4-33.8 s, at a peak of 644-661 MB against 637-644 MB. A
	// GOGC the user set stays, and the setting is restored when the crawl returns.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	var specs []crawl.Spec
	for _, arg := range c.Args().Slice() {
		s, err := crawl.ParseSpec(arg)
		if err != nil {
			return usagef("%v", err)
		}
		specs = append(specs, s)
	}
	projectDir := ""
	for _, f := range c.StringSlice("from") {
		lf, err := crawl.ReadLockfile(f)
		if errors.Is(err, crawl.ErrUnknownLockfile) {
			return usagef("--from: %v", err)
		}
		if err != nil {
			return failf("--from: %v", err) // errors start with "file:line:"
		}
		for i, s := range lf.Skipped {
			// A few at warning level, all at info: a lockfile full of git or path entries
			// must not flood the terminal.
			level := slog.LevelWarn
			if i >= maxListed {
				level = slog.LevelInfo
			}
			log.Log(c.Context, level, "--from: not crawled", "file", f, "entry", s.String())
		}
		if n := len(lf.Skipped); n > maxListed {
			log.Warn(fmt.Sprintf("--from: %s more not crawled (--log-level info lists them)", count(n-maxListed, "entry", "entries")), "file", f)
		}
		specs = append(specs, lf.Specs...)
		if projectDir == "" {
			projectDir = filepath.Dir(f)
		}
	}
	if len(specs) == 0 && len(c.StringSlice("from")) > 0 {
		// Without specs a crawl reads every version in the local caches: a --from whose every
		// entry was skipped must not turn into a crawl of the whole site-packages.
		return failf("--from: no entry of %s names a registry package; nothing crawled (the entries not crawled are listed above)", strings.Join(c.StringSlice("from"), ", "))
	}
	srcs, err := buildSources(c, log, projectDir, specs)
	if err != nil {
		return err
	}
	if len(specs) == 0 && len(srcs.caches) == 0 {
		return usagef("crawl: nothing to crawl: give SPECs, --from FILE, or a local cache (--go-modcache, --node-modules, --site-packages, --cargo-home, --swift-checkouts)")
	}

	prog.opening()
	dir := c.String("index")
	w, err := index.Create(dir)
	if err != nil {
		prog.finish()
		return failf("%v", err)
	}
	defer w.Abort() // no-op after Commit

	sum, err := crawl.Run(c.Context, w, crawl.Options{
		Specs:          specs,
		Caches:         srcs.caches,
		Registries:     srcs.registries,
		Concurrency:    c.Int("concurrency"),
		PackageTimeout: c.Duration("package-timeout"),
		MaxMemory:      maxMemory,
		Refresh:        c.Bool("refresh"),
		Shard:          shard,
		Logger:         log,
		OnStart:        prog.listed,
		OnResult:       prog.fetched,
	})
	prog.crawled()
	warnSkipped(log, sum)
	if err != nil {
		return failf("crawl interrupted (%v); the previous snapshot is unchanged", err)
	}
	var pruned []docidx.Ref
	if c.Bool("prune-on-failure") && !c.Bool("prune") {
		log.Warn("--prune-on-failure has no effect without --prune")
	}
	if c.Bool("prune") && sum.Failed > 0 && !c.Bool("prune-on-failure") {
		// A failed spec names nothing, so pruning now would drop what it was meant to keep:
		// a mistyped module path would empty the snapshot.
		log.Warn(fmt.Sprintf("--prune: nothing pruned because %d of %s failed; fix them, or add --prune-on-failure to prune anyway", sum.Failed, count(len(sum.Results), "package", "packages")))
	} else if c.Bool("prune") {
		if pruned, err = pruneUnnamed(w, sum); err != nil {
			return failf("--prune: %v; the previous snapshot is unchanged", err)
		}
	}
	// A snapshot of an older format is rewritten in the current one even when every package is
	// unchanged: Open refuses the oldest ones with an error that says to crawl again.
	outdated := w.Base() != nil && w.Base().Format < index.FormatVersion
	if sum.Indexed == 0 && len(pruned) == 0 && !emptyShard(w, shard, sum) && !outdated {
		// Nothing to publish: a new generation would copy the old one, make every server
		// reload and, for a first crawl, publish an empty snapshot.
		w.Abort()
		prog.finish()
		return finishNoop(c, dir, sum, srcs.retries(), quiet, asJSON)
	}
	commitStart := time.Now()
	prog.writing()
	w.SetProgress(prog.write)
	m, err := w.Commit(c.Context)
	prog.finish()
	if err != nil {
		return failf("writing snapshot: %v; the previous snapshot is unchanged", err)
	}
	if asJSON {
		if err := writeJSON(c.App.Writer, crawlJSON{SchemaVersion: docidx.SchemaVersion, Summary: sum, Snapshot: dir, Changed: true, Counts: m.Counts, Retries: srcs.retries(), Pruned: pruned}); err != nil {
			return err
		}
	} else {
		printFailures(c.App.ErrWriter, sum)
		if !quiet {
			for _, ref := range pruned {
				writeText(c.App.ErrWriter, fmt.Sprintf("pruned     %s\n", ref))
			}
			printSummary(c.App.ErrWriter, sum, srcs.retries())
			if outdated {
				fmt.Fprintf(c.App.ErrWriter, "; snapshot of format %d rewritten in format %d", w.Base().Format, m.Format)
			}
			fmt.Fprintf(c.App.ErrWriter, "; snapshot written in %s\n", time.Since(commitStart).Round(time.Millisecond))
			printHolds(c.App.ErrWriter, m.Counts)
		}
	}
	if err := sum.Err(); err != nil {
		return failf("%v (the others were indexed)", err)
	}
	return nil
}

// emptyShard reports whether a sharded crawl found nothing in its part, into an index without a
// snapshot: it writes an empty snapshot all the same, so that the pack and merge steps after
// every shard's crawl find one (with more shards than package versions, some parts are empty).
func emptyShard(w *index.Writer, shard crawl.Shard, sum *crawl.Summary) bool {
	if shard.All() || sum.Failed > 0 {
		return false
	}
	refs, err := w.Refs()
	return err == nil && len(refs) == 0
}

// crawlJSON is crawl --json's output: the crawl's summary and what the snapshot holds after it.
type crawlJSON struct {
	SchemaVersion int `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	*crawl.Summary
	Snapshot string                  `json:"snapshot"`
	Changed  bool                    `json:"changed"` // false: nothing indexed or pruned, no generation written
	Counts   []index.EcosystemCounts `json:"counts"`
	Retries  int64                   `json:"retries"`
	Pruned   []docidx.Ref            `json:"pruned,omitempty"`
}

// finishNoop reports a crawl that indexed and pruned nothing, after which no generation was
// written: the current snapshot, if any, stays as it was.
func finishNoop(c *cli.Context, dir string, sum *crawl.Summary, retries int64, quiet, asJSON bool) error {
	var counts []index.EcosystemCounts
	if r, err := index.Open(dir); err == nil {
		counts = r.Counts()
		r.Close()
	}
	if asJSON {
		if err := writeJSON(c.App.Writer, crawlJSON{SchemaVersion: docidx.SchemaVersion, Summary: sum, Snapshot: dir, Counts: counts, Retries: retries}); err != nil {
			return err
		}
	} else {
		printFailures(c.App.ErrWriter, sum)
		if !quiet {
			printSummary(c.App.ErrWriter, sum, retries)
			if counts == nil {
				fmt.Fprintf(c.App.ErrWriter, "; nothing changed: no snapshot written\n")
			} else {
				fmt.Fprintf(c.App.ErrWriter, "; nothing changed: no new generation written\n")
				printHolds(c.App.ErrWriter, counts)
			}
		}
	}
	if err := sum.Err(); err != nil {
		if sum.Failed == len(sum.Results) {
			return failf("%v", err)
		}
		return failf("%v (the others were unchanged)", err)
	}
	return nil
}

// printFailures prints each failed package once, with its error (which starts with the spec).
func printFailures(w io.Writer, sum *crawl.Summary) {
	for _, r := range sum.Results {
		if r.Status == crawl.Failed {
			writeText(w, fmt.Sprintf("failed     %s\n", r.Error)) // a registry's words
		}
	}
}

// printSummary prints the crawl's summary line, without its end: the caller says what became of
// the snapshot.
func printSummary(w io.Writer, sum *crawl.Summary, retries int64) {
	fmt.Fprintf(w, "crawled %s in %s: %d indexed, %d unchanged, %d failed; %s, %s, %s; %s",
		count(len(sum.Results), "package", "packages"), sum.Elapsed.Round(time.Millisecond), sum.Indexed, sum.Unchanged, sum.Failed,
		count(sum.Documents, "document", "documents"), count(sum.Sections, "section", "sections"), count(sum.Symbols, "symbol", "symbols"),
		count(retries, "retry", "retries"))
	if sum.OtherShards > 0 {
		fmt.Fprintf(w, "; %d left to other shards", sum.OtherShards)
	}
	if len(sum.Skipped) > 0 {
		total, parts := 0, []string{}
		for _, reason := range slices.Sorted(maps.Keys(sum.Skipped)) {
			total += sum.Skipped[reason]
			parts = append(parts, fmt.Sprintf("%d %s", sum.Skipped[reason], reason))
		}
		fmt.Fprintf(w, "; %s skipped (%s)", count(total, "file", "files"), strings.Join(parts, ", "))
	}
}

// count is n with the noun that fits it: count(1, "package", "packages") is "1 package", any
// other n takes many ("0 packages", "2 packages"). Every count the CLI prints in words goes
// through it.
func count[N int | int64 | uint64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// skipHints says, per skip reason, what was skipped and why.
var skipHints = map[string]string{
	"not a regular file": "FIFOs, sockets or devices where a file belongs; never opened",
	"too large":          "over the size limit",
	"malformed":          "did not parse",
	"unreadable":         "could not be read",
}

// warnSkipped logs one warning per reason files were skipped for, with the count: a cache with
// thousands of bad files costs a few lines at the default level, and --log-level debug lists
// every file.
func warnSkipped(log *slog.Logger, sum *crawl.Summary) {
	if sum == nil {
		return
	}
	for _, reason := range slices.Sorted(maps.Keys(sum.Skipped)) {
		msg := fmt.Sprintf("crawl: %s skipped: %s", count(sum.Skipped[reason], "file", "files"), reason)
		if h := skipHints[reason]; h != "" {
			msg += " (" + h + ")"
		}
		log.Warn(msg + "; --log-level debug lists them")
	}
}

func printHolds(w io.Writer, counts []index.EcosystemCounts) {
	var parts []string
	for _, e := range counts {
		parts = append(parts, fmt.Sprintf("%s %s/%s", e.Ecosystem, count(e.Packages, "package", "packages"), count(e.Versions, "version", "versions")))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "snapshot now holds: %s\n", strings.Join(parts, ", "))
	}
}

// unmanagedReserve is the part of a crawl's memory budget, in bytes, left to the memory the Go
// runtime does not count toward its limit (runtime/debug.SetMemoryLimit): the file pages the
// process maps (the bbolt stores, the segments' files) and its executable's. On the real corpus
// (scripts/corpus.sh) they were 60-130 MB of the crawl's resident memory.
const unmanagedReserve = 128 << 20

// runtimeMemoryLimit returns the Go runtime's memory limit for a crawl whose whole resident
// memory the budget bounds, in bytes: the budget less unmanagedReserve, and at least half of it.
func runtimeMemoryLimit(budget int64) int64 { return max(budget-unmanagedReserve, budget/2) }

// minMaxMemory is the smallest --max-memory accepted, in bytes.
const minMaxMemory = 64 << 20

// parseByteSize reads a size such as "1073741824", "512MiB" or "2GiB" (also "K", "KB", "M",
// "MB", "G", "GB": every unit is a power of 1024), in bytes.
func parseByteSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	num := strings.TrimRightFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' })
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30}
	sh, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>sh {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n << sh, nil
}
