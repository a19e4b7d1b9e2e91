package crawl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
)

// Sink receives crawled package versions. index.Writer satisfies it; crawl declares it so that it
// never depends on the snapshot's implementation.
type Sink interface {
	// Has reports whether the package version is already stored (versions are immutable).
	Has(ref docidx.Ref) bool
	// Put stores one package version. It must be safe for concurrent use.
	Put(ctx context.Context, docs *docidx.PackageDocs) error
	// AddSource records a registry or local path the crawl read, for the snapshot's manifest.
	AddSource(source string)
}

// DefaultConcurrency is the number of package versions of one ecosystem fetched and extracted at
// once.
const DefaultConcurrency = 8

// DefaultPackageTimeout bounds what one package version does over the network: resolving its
// version, and fetching it with every retry and wait the registry asks for.
const DefaultPackageTimeout = 2 * time.Minute

// Options configures Run.
type Options struct {
	// Specs lists the packages to crawl. When empty, every package version in Caches is crawled.
	//
	// Requirement specs (from a requirements file or pyproject.toml) of an ecosystem for which a
	// cache implements Installed resolve against those caches only, to the installed version,
	// and bring the installed versions they require, transitively, with markers evaluated for
	// the caches' interpreter and extras followed as asked. A requirement that no installed
	// version satisfies fails, with an error saying what is installed and what to do; it never
	// falls back to a registry, whose newest release may not be what the project runs.
	Specs []Spec
	// Caches are local sources (module cache, node_modules …). A spec is taken from a cache
	// when one holds a matching version, before any registry is asked.
	Caches []docidx.Cache
	// Registries are remote sources, at most one per ecosystem is used. Empty with --offline.
	Registries []docidx.Registry
	// Concurrency bounds the package versions in flight per ecosystem; 0 means
	// DefaultConcurrency. Each ecosystem's packages are crawled in their own lane, so that one
	// whose registry stalls does not hold up the others'.
	Concurrency int
	// PackageTimeout bounds resolving and fetching one package version; 0 means
	// DefaultPackageTimeout. A package that runs out of time fails, naming its registry, and
	// the crawl goes on.
	PackageTimeout time.Duration
	// Refresh fetches package versions again even when the sink already has them.
	Refresh bool
	// MaxMemory is the crawl's memory budget in bytes; 0 means DefaultMaxMemory. Half of it is
	// shared by the package versions in flight: each reserves the bytes it is about to hold
	// (a tarball, a zip, a decode buffer) and waits while the others hold the rest, and one
	// larger than that half runs alone. The other half is left to the garbage collector's
	// headroom and to the sink; the caller may also give the Go runtime most of the budget as
	// its memory limit (runtime/debug.SetMemoryLimit), as docidx crawl does (all but what
	// mapped files hold).
	MaxMemory int64
	// Shard, when set, keeps only the package versions of one part of the package set (see
	// Shard.Has): a cached version or an exact spec is kept or left out before anything is
	// fetched, a range spec once it is resolved. A range spec that does not resolve is reported
	// by the one shard its package name (without version) falls in, so that an N-way crawl
	// reports it once. The versions left out are counted in Summary.OtherShards.
	Shard Shard
	// Logger receives one line per package, failed or not, at debug level; nil discards.
	// Failures are the caller's to report, from Summary.Results.
	Logger *slog.Logger
	// OnStart, if set, is called once with the number of packages about to be crawled.
	OnStart func(total int)
	// OnResult, if set, is called after each package, from the crawling goroutines.
	OnResult func(Result)
}

// Status is the outcome of one package.
type Status string

// Outcomes.
const (
	Indexed   Status = "indexed"
	Unchanged Status = "unchanged" // already in the snapshot, not fetched again
	Failed    Status = "failed"
)

// Result is what happened to one package.
type Result struct {
	Spec      string        `json:"spec"`             // what was asked, e.g. "npm:express@^4"
	Ref       docidx.Ref    `json:"ref"`              // the resolved package version (no version when resolving failed)
	Status    Status        `json:"status"`           // indexed, unchanged or failed
	Error     string        `json:"error,omitempty"`  // why it failed
	Source    string        `json:"source,omitempty"` // where it came from
	Documents int           `json:"documents"`        // documents kept
	Sections  int           `json:"sections"`         // sections over those documents
	Symbols   int           `json:"symbols"`          // API symbols extracted
	Elapsed   time.Duration `json:"elapsedNs"`        // resolve + fetch + extract + store
	Err       error         `json:"-"`
}

// Summary is the outcome of a crawl.
type Summary struct {
	Results   []Result      `json:"results"`
	Indexed   int           `json:"indexed"`
	Unchanged int           `json:"unchanged"`
	Failed    int           `json:"failed"`
	Documents int           `json:"documents"`
	Sections  int           `json:"sections"`
	Symbols   int           `json:"symbols"`
	Elapsed   time.Duration `json:"elapsedNs"`
	// OtherShards counts the package versions (and unresolved specs) left to the other parts of
	// a sharded crawl (Options.Shard); they are not in Results.
	OtherShards int `json:"otherShards,omitempty"`
	// Skipped counts the input files the sources skipped, by reason ("not a regular file",
	// "too large", "malformed", "unreadable"), when Options.Logger's handler is a SkipCounter.
	Skipped map[string]int `json:"skipped,omitempty"`
}

// ErrSomeFailed is returned by Summary.Err when at least one package failed.
var ErrSomeFailed = errors.New("some packages failed")

// Err returns nil when every package was indexed or unchanged, else an error wrapping
// ErrSomeFailed that counts the failures.
func (s *Summary) Err() error {
	if s.Failed == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d of %d", ErrSomeFailed, s.Failed, len(s.Results))
}

// job is one package to crawl: a spec to resolve, or a ref already known to be in src.
type job struct {
	spec Spec
	ref  docidx.Ref
	src  docidx.Registry // set for refs listed from a cache
	err  error           // set when planning already failed the spec: it is reported as is
}

// Run crawls the packages opts names into sink: it resolves each spec (local caches first, then
// the registry of its ecosystem), skips versions the sink already has unless opts.Refresh, fetches
// and extracts the rest concurrently, and stores them. One failing package is recorded in the
// Summary and the others go on. Run returns an error only when the crawl as a whole cannot run
// (a cache cannot be listed, ctx is done); per-package failures are in Summary.Err.
//
// When ctx is done, Run returns ctx's error at once with the results so far, even if a source
// is stuck in a read that does not watch ctx (a file system that never answers): such a
// package's goroutine is left behind, and from then on nothing more reaches sink, so the caller
// can drop what it was writing.
func Run(ctx context.Context, sink Sink, opts Options) (*Summary, error) {
	start := time.Now()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	wd, _ := os.Getwd()
	opts.Caches = labelCaches(opts.Caches, wd)
	guard := &guardedSink{sink: sink}

	var (
		mu        sync.Mutex
		sum       Summary
		abandoned bool // Run has returned: results are dropped
	)
	snapshot := func() *Summary {
		mu.Lock()
		defer mu.Unlock()
		out := sum
		out.Results = slices.Clone(sum.Results)
		out.Elapsed = time.Since(start)
		if sc, ok := log.Handler().(*SkipCounter); ok {
			if n := sc.Counts(); len(n) > 0 {
				out.Skipped = n
			}
		}
		return &out
	}
	planned := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		jobs, others, err := plan(ctx, opts, log)
		planned <- err
		if err != nil {
			return
		}
		mu.Lock()
		sum.OtherShards = others
		mu.Unlock()
		for _, src := range append(cachesAsRegistries(opts.Caches), opts.Registries...) {
			if s, ok := src.(fmt.Stringer); ok {
				guard.AddSource(s.String())
			}
		}
		if opts.OnStart != nil {
			opts.OnStart(len(jobs))
		}
		n := opts.Concurrency
		if n <= 0 {
			n = DefaultConcurrency
		}
		claimed := make(map[docidx.Ref]bool) // versions already taken by another job
		claim := func(ref docidx.Ref) bool {
			mu.Lock()
			defer mu.Unlock()
			if claimed[ref] {
				return false
			}
			claimed[ref] = true
			return true
		}
		mu.Lock()
		sum.Results = make([]Result, 0, len(jobs))
		mu.Unlock()
		mem := memoryBudget(opts)
		pool := &lanes{limit: n}
		for _, j := range jobs {
			pool.add(j.spec.Ecosystem, func() error {
				work := mem.Start()
				r, skip := crawlOne(budget.NewContext(ctx, work), guard, opts, j, claim)
				work.Done()
				if skip == skipOtherShard {
					mu.Lock()
					sum.OtherShards++
					mu.Unlock()
				}
				if skip != keep {
					return nil
				}
				if r.Err != nil {
					r.Error = r.Err.Error()
					// At debug level only: the caller reports each failure from the Summary,
					// and a failure printed twice doubles the output of a crawl with many.
					log.Debug("crawl failed", "spec", r.Spec, "err", r.Err)
				} else {
					log.Debug("crawled", "package", r.Ref.String(), "status", r.Status, "elapsed", r.Elapsed)
				}
				mu.Lock()
				if abandoned {
					mu.Unlock()
					return nil
				}
				sum.Results = append(sum.Results, r)
				switch r.Status {
				case Indexed:
					sum.Indexed++
					sum.Documents += r.Documents
					sum.Sections += r.Sections
					sum.Symbols += r.Symbols
				case Unchanged:
					sum.Unchanged++
				case Failed:
					sum.Failed++
				}
				mu.Unlock()
				if opts.OnResult != nil {
					opts.OnResult(r)
				}
				return nil
			})
		}
		pool.run(ctx)
	}()

	abandon := func() (*Summary, error) {
		mu.Lock()
		abandoned = true
		mu.Unlock()
		guard.close() // waits for a Put in progress; none starts afterwards
		return snapshot(), ctx.Err()
	}
	select {
	case err := <-planned:
		if err != nil {
			return nil, err
		}
	case <-ctx.Done():
		return abandon()
	}
	select {
	case <-done:
	case <-ctx.Done():
		return abandon()
	}
	if err := ctx.Err(); err != nil {
		return snapshot(), err
	}
	return snapshot(), nil
}

// errAbandoned is what a Put or Has sees after Run returned early because its context ended.
var errAbandoned = errors.New("crawl: interrupted")

// guardedSink passes calls to sink until close; after close nothing reaches sink. It lets Run
// return while a goroutine is still stuck in a source: the caller may then abort its writer
// without that goroutine writing into it later.
type guardedSink struct {
	sink   Sink
	mu     sync.RWMutex
	closed bool
}

func (g *guardedSink) Has(ref docidx.Ref) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return !g.closed && g.sink.Has(ref)
}

func (g *guardedSink) Put(ctx context.Context, docs *docidx.PackageDocs) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return errAbandoned
	}
	return g.sink.Put(ctx, docs)
}

func (g *guardedSink) AddSource(source string) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if !g.closed {
		g.sink.AddSource(source)
	}
}

func (g *guardedSink) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// plan turns the options into jobs: one per spec, or one per cached package version. With
// opts.Shard it leaves out the cached versions and exact specs of other shards, and returns
// how many it left out. Requirement specs of an ecosystem with an Installed cache become the
// jobs of their closure over the installed versions (see closure).
func plan(ctx context.Context, opts Options, log *slog.Logger) ([]job, int, error) {
	var jobs []job
	others := 0
	if len(opts.Specs) > 0 {
		installed := installedCaches(opts.Caches)
		reqs := map[docidx.Ecosystem][]Spec{}
		var ecos []docidx.Ecosystem
		for _, s := range opts.Specs {
			if s.Requirement && len(installed[s.Ecosystem]) > 0 {
				if len(reqs[s.Ecosystem]) == 0 {
					ecos = append(ecos, s.Ecosystem)
				}
				reqs[s.Ecosystem] = append(reqs[s.Ecosystem], s)
				continue
			}
			if s.Exact && !opts.Shard.Has(docidx.Ref{Ecosystem: s.Ecosystem, Name: s.Name, Version: s.Query}) {
				others++
				continue
			}
			jobs = append(jobs, job{spec: s})
		}
		for _, eco := range ecos {
			js, n, err := closure(ctx, opts, log, installed[eco], reqs[eco])
			if err != nil {
				return nil, 0, err
			}
			jobs, others = append(jobs, js...), others+n
		}
		return jobs, others, nil
	}
	seen := make(map[docidx.Ref]bool)
	for _, c := range opts.Caches {
		refs, err := c.List(ctx)
		if err != nil {
			return nil, 0, fmt.Errorf("listing %s: %w", describe(c), err)
		}
		for _, ref := range refs {
			if seen[ref] {
				continue
			}
			seen[ref] = true
			if !opts.Shard.Has(ref) {
				others++
				continue
			}
			jobs = append(jobs, job{ref: ref, src: c, spec: Spec{Ecosystem: ref.Ecosystem, Name: ref.Name, Query: ref.Version, Exact: true}})
		}
	}
	return jobs, others, nil
}

// lanes runs jobs in one lane per ecosystem, at most limit at once in each. The ecosystems read
// different registries, each with its own rate limit: in one shared pool a registry that stalls
// would soon fill every worker with packages waiting out their PackageTimeout, and the other
// ecosystems' packages would wait behind them. Lanes also keep every registry busy whatever the
// order of the specs (go.mod's, then package-lock.json's), which the shared pool needed the
// specs interleaved by ecosystem for.
type lanes struct {
	limit int
	order []docidx.Ecosystem
	jobs  map[docidx.Ecosystem][]func() error
}

// add queues f in eco's lane.
func (l *lanes) add(eco docidx.Ecosystem, f func() error) {
	if l.jobs == nil {
		l.jobs = make(map[docidx.Ecosystem][]func() error)
	}
	if _, ok := l.jobs[eco]; !ok {
		l.order = append(l.order, eco)
	}
	l.jobs[eco] = append(l.jobs[eco], f)
}

// run runs every lane's jobs, each lane in the order they were added, and returns when all have
// returned. Once ctx is done no more jobs start.
func (l *lanes) run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, eco := range l.order {
		wg.Go(func() {
			g := new(errgroup.Group)
			g.SetLimit(l.limit)
			for _, f := range l.jobs[eco] {
				if ctx.Err() != nil {
					break
				}
				g.Go(f)
			}
			g.Wait()
		})
	}
	wg.Wait()
}

// skipped says why crawlOne left a job out of the summary, if it did.
type skipped int

const (
	keep           skipped = iota // a result for the summary
	skipDuplicate                 // another job took the same version
	skipOtherShard                // the version, or the unresolved spec, belongs to another shard
)

func crawlOne(ctx context.Context, sink Sink, opts Options, j job, claim func(docidx.Ref) bool) (r Result, skip skipped) {
	start := time.Now()
	r = Result{Spec: j.spec.String(), Ref: docidx.Ref{Ecosystem: j.spec.Ecosystem, Name: j.spec.Name}}
	defer func() { r.Elapsed = time.Since(start) }()
	fail := func(err error) (Result, skipped) {
		r.Status, r.Err = Failed, err
		return r, keep
	}
	if j.err != nil {
		return fail(j.err)
	}
	// A range spec learns its version only here; plan has already sorted the others.
	ranged := j.src == nil && !j.spec.Exact
	// fetchCtx bounds what this package version does over the network. Storing it is local and
	// gets ctx: a package fetched in time is not lost to the deadline while it is written.
	fetchCtx, cancel := context.WithTimeoutCause(ctx, opts.packageTimeout(), packageDeadline{})
	defer cancel()

	ref, src := j.ref, j.src
	// A pinned version the snapshot already has needs no lookup at all, not even a local one.
	if src == nil && j.spec.Exact && !opts.Refresh {
		exact := docidx.Ref{Ecosystem: j.spec.Ecosystem, Name: j.spec.Name, Version: j.spec.Query}
		if sink.Has(exact) {
			ref = exact
		}
	}
	if ref.Version == "" {
		var err error
		ref, src, err = resolve(fetchCtx, opts, j.spec)
		if err != nil {
			if ranged && !opts.Shard.Has(r.Ref) { // r.Ref has no version yet
				return r, skipOtherShard
			}
			return fail(err)
		}
	}
	if ranged && !opts.Shard.Has(ref) {
		return r, skipOtherShard
	}
	r.Ref = ref
	if !claim(ref) {
		return r, skipDuplicate
	}
	if !opts.Refresh && sink.Has(ref) {
		r.Status = Unchanged
		return r, keep
	}
	if src == nil { // resolved to a version the sink had, but Refresh asks again
		var err error
		if ref, src, err = resolve(fetchCtx, opts, Spec{Ecosystem: ref.Ecosystem, Name: ref.Name, Query: ref.Version, Exact: true}); err != nil {
			return fail(err)
		}
	}
	docs, err := src.Fetch(fetchCtx, ref.Name, ref.Version)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", ref, timedOut(fetchCtx, src, opts.packageTimeout(), err)))
	}
	if docs.Package.CrawledAt.IsZero() {
		docs.Package.CrawledAt = time.Now().UTC()
	}
	if _, local := src.(*labelledCache); local || docs.Package.Source == "" {
		// A cache's own Source is a path on this machine; see CacheLabel.
		docs.Package.Source = describe(src)
	}
	r.Source = docs.Package.Source
	if err := sink.Put(ctx, docs); err != nil {
		return fail(fmt.Errorf("%s: storing: %w", ref, err))
	}
	r.Status = Indexed
	r.Documents = len(docs.Documents)
	for _, d := range docs.Documents {
		r.Sections += len(d.Sections)
	}
	r.Symbols = len(docs.Symbols)
	return r, keep
}

// resolve finds the exact version a spec names and the source to fetch it from: the first local
// cache that holds a matching version, else the ecosystem's registry.
func resolve(ctx context.Context, opts Options, s Spec) (docidx.Ref, docidx.Registry, error) {
	ref := docidx.Ref{Ecosystem: s.Ecosystem, Name: s.Name}
	var errs []error
	for _, c := range opts.Caches {
		if c.Ecosystem() != s.Ecosystem {
			continue
		}
		v, err := c.Resolve(ctx, s.Name, s.Query)
		if err == nil {
			ref.Version = v
			return ref, c, nil
		}
		if !errors.Is(err, docidx.ErrNotFound) {
			errs = append(errs, err)
		}
	}
	for _, reg := range opts.Registries {
		if reg.Ecosystem() != s.Ecosystem {
			continue
		}
		v, err := reg.Resolve(ctx, s.Name, s.Query)
		if err != nil {
			return ref, nil, fmt.Errorf("%s: %w", s, timedOut(ctx, reg, opts.packageTimeout(), err))
		}
		ref.Version = v
		return ref, reg, nil
	}
	if len(errs) > 0 {
		return ref, nil, fmt.Errorf("%s: %w", s, errors.Join(errs...))
	}
	if len(opts.Registries) == 0 {
		return ref, nil, fmt.Errorf("%s: %w in the local caches given, and registries are off (--offline)", s, docidx.ErrNotFound)
	}
	return ref, nil, fmt.Errorf("%s: no %s registry or local cache configured", s, s.Ecosystem)
}

// packageDeadline is the cause of a package's network context when Options.PackageTimeout ends
// it, telling it apart from the crawl's own context ending. It is a context.DeadlineExceeded.
// net/http reports a request's context's cause, so its text ends the errors of such requests.
type packageDeadline struct{}

func (packageDeadline) Error() string { return "package deadline exceeded" }
func (packageDeadline) Unwrap() error { return context.DeadlineExceeded }

func (o Options) packageTimeout() time.Duration {
	if o.PackageTimeout > 0 {
		return o.PackageTimeout
	}
	return DefaultPackageTimeout
}

// timedOut returns err as it is, unless the package's deadline ended it (ctx is the package's
// network context, made with packageDeadline as its cause): then an error that names src,
// says how long it had and what to do, and wraps err.
func timedOut(ctx context.Context, src docidx.Registry, timeout time.Duration, err error) error {
	if !errors.Is(context.Cause(ctx), packageDeadline{}) {
		return err
	}
	if errors.As(err, new(*budget.WaitError)) {
		return fmt.Errorf("the package's deadline of %v passed while it waited for memory held by the packages in flight; raise --package-timeout or --max-memory: %w", timeout, err)
	}
	// describe names src without credentials: each registry's String redacts its URL.
	return fmt.Errorf("%s did not answer within %v; raise --package-timeout or check the registry: %w", describe(src), timeout, err)
}

func cachesAsRegistries(cs []docidx.Cache) []docidx.Registry {
	out := make([]docidx.Registry, len(cs))
	for i, c := range cs {
		out[i] = c
	}
	return out
}

func describe(src docidx.Registry) string {
	if s, ok := src.(fmt.Stringer); ok {
		return s.String()
	}
	return string(src.Ecosystem()) + " source"
}
