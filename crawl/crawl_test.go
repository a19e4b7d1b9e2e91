package crawl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/docidx/docidx"
)

// fakeSource is a registry (or, with list set, a cache) over a fixed set of versions.
type fakeSource struct {
	eco      docidx.Ecosystem
	name     string
	versions map[string][]string // package -> versions, oldest first
	failOn   map[string]error    // "name@version" -> error from Fetch
	list     bool
	setSrc   bool // Fetch sets Package.Source to name, as local caches set it to their path
	fetches  atomic.Int32
	resolves atomic.Int32
}

func (f *fakeSource) Ecosystem() docidx.Ecosystem { return f.eco }
func (f *fakeSource) String() string              { return f.name }

func (f *fakeSource) Resolve(ctx context.Context, name, query string) (string, error) {
	f.resolves.Add(1)
	vs := f.versions[name]
	if len(vs) == 0 {
		return "", fmt.Errorf("%s: %w", name, docidx.ErrNotFound)
	}
	if query == "" {
		return vs[len(vs)-1], nil
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i] == query || strings.HasPrefix(vs[i], strings.TrimPrefix(query, "^")) {
			return vs[i], nil
		}
	}
	return "", fmt.Errorf("%s@%s: %w", name, query, docidx.ErrNotFound)
}

func (f *fakeSource) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	f.fetches.Add(1)
	if err := f.failOn[name+"@"+version]; err != nil {
		return nil, err
	}
	src := ""
	if f.setSrc {
		src = f.name
	}
	return &docidx.PackageDocs{
		Package:   docidx.Package{Ecosystem: f.eco, Name: name, Version: version, Source: src},
		Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Sections: make([]docidx.Section, 2)}},
		Symbols:   make([]docidx.Symbol, 3),
	}, nil
}

func (f *fakeSource) List(ctx context.Context) ([]docidx.Ref, error) {
	if !f.list {
		return nil, errors.New("not a cache")
	}
	var refs []docidx.Ref
	for n, vs := range f.versions {
		for _, v := range vs {
			refs = append(refs, docidx.Ref{Ecosystem: f.eco, Name: n, Version: v})
		}
	}
	docidx.SortRefs(refs)
	return refs, nil
}

type fakeSink struct {
	mu      sync.Mutex
	have    map[docidx.Ref]bool
	put     []docidx.Ref
	sources []string
}

func (s *fakeSink) Has(ref docidx.Ref) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.have[ref]
}

func (s *fakeSink) Put(ctx context.Context, d *docidx.PackageDocs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.Package.Source == "" || d.Package.CrawledAt.IsZero() {
		return errors.New("crawl did not fill Source and CrawledAt")
	}
	s.put = append(s.put, d.Package.Ref())
	return nil
}

func (s *fakeSink) AddSource(src string) { s.sources = append(s.sources, src) }

func (s *fakeSink) putStrings() []string {
	var out []string
	for _, r := range s.put {
		out = append(out, r.String())
	}
	sort.Strings(out)
	return out
}

func mustSpecs(t *testing.T, ss ...string) []Spec {
	t.Helper()
	var out []Spec
	for _, s := range ss {
		spec, err := ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, spec)
	}
	return out
}

func TestRunSpecsFromRegistry(t *testing.T) {
	reg := &fakeSource{eco: docidx.NPM, name: "npm registry", versions: map[string][]string{
		"express": {"4.18.0", "4.19.2", "5.0.0"},
		"zod":     {"3.23.8"},
		"broken":  {"1.0.0"},
	}, failOn: map[string]error{"broken@1.0.0": fmt.Errorf("tarball: %w", docidx.ErrIntegrity)}}
	sink := &fakeSink{}
	var started, results atomic.Int32
	sum, err := Run(context.Background(), sink, Options{
		Specs:      mustSpecs(t, "npm:express@^4", "npm:zod", "npm:broken", "npm:missing", "go:github.com/x/y"),
		Registries: []docidx.Registry{reg},
		OnStart:    func(n int) { started.Store(int32(n)) },
		OnResult:   func(Result) { results.Add(1) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sink.putStrings(), []string{"npm:express@4.19.2", "npm:zod@3.23.8"}; !slices.Equal(got, want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	if sum.Indexed != 2 || sum.Failed != 3 || sum.Unchanged != 0 {
		t.Errorf("summary indexed=%d failed=%d unchanged=%d, want 2, 3, 0", sum.Indexed, sum.Failed, sum.Unchanged)
	}
	if !errors.Is(sum.Err(), ErrSomeFailed) {
		t.Errorf("Summary.Err() = %v, want ErrSomeFailed", sum.Err())
	}
	if started.Load() != 5 || results.Load() != 5 {
		t.Errorf("OnStart(%d), OnResult x%d; want 5 and 5", started.Load(), results.Load())
	}
	if sum.Sections != 4 || sum.Symbols != 6 || sum.Documents != 2 {
		t.Errorf("counts sections=%d symbols=%d documents=%d", sum.Sections, sum.Symbols, sum.Documents)
	}
	byName := map[string]Result{}
	for _, r := range sum.Results {
		byName[r.Ref.Name] = r
	}
	if !errors.Is(byName["broken"].Err, docidx.ErrIntegrity) {
		t.Errorf("broken: %v, want ErrIntegrity", byName["broken"].Err)
	}
	if !errors.Is(byName["missing"].Err, docidx.ErrNotFound) {
		t.Errorf("missing: %v, want ErrNotFound", byName["missing"].Err)
	}
	if !strings.Contains(byName["github.com/x/y"].Error, "no golang registry") {
		t.Errorf("go spec without a registry: %q", byName["github.com/x/y"].Error)
	}
	if !slices.Contains(sink.sources, "npm registry") {
		t.Errorf("sources = %v", sink.sources)
	}
}

func TestRunCachesFirstAndUnchanged(t *testing.T) {
	cache := &fakeSource{eco: docidx.Go, name: "modcache", list: true, versions: map[string][]string{
		"golang.org/x/sync": {"v0.7.0"},
	}}
	reg := &fakeSource{eco: docidx.Go, name: "proxy", versions: map[string][]string{
		"golang.org/x/sync":      {"v0.7.0", "v0.8.0"},
		"github.com/spf13/cobra": {"v1.8.0"},
	}}
	sink := &fakeSink{have: map[docidx.Ref]bool{{Ecosystem: docidx.Go, Name: "github.com/spf13/cobra", Version: "v1.8.0"}: true}}
	specs := mustSpecs(t, "go:golang.org/x/sync@v0.7.0", "go:github.com/spf13/cobra@v1.8.0")
	for i := range specs {
		specs[i].Exact = true // as from go.mod
	}
	sum, err := Run(context.Background(), sink, Options{Specs: specs, Caches: []docidx.Cache{cache}, Registries: []docidx.Registry{reg}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 1 || sum.Unchanged != 1 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if reg.fetches.Load() != 0 || cache.fetches.Load() != 1 {
		t.Errorf("fetches: registry %d, cache %d; want 0 and 1", reg.fetches.Load(), cache.fetches.Load())
	}
	if reg.resolves.Load() != 0 {
		t.Errorf("registry asked %d times for a pinned version the snapshot has or a cache holds", reg.resolves.Load())
	}

	// --refresh fetches the pinned version again.
	sink.put = nil
	sum, err = Run(context.Background(), sink, Options{Specs: specs, Caches: []docidx.Cache{cache}, Registries: []docidx.Registry{reg}, Refresh: true})
	if err != nil || sum.Indexed != 2 {
		t.Fatalf("refresh: %v %+v", err, sum)
	}
}

func TestRunWholeCachesOffline(t *testing.T) {
	a := &fakeSource{eco: docidx.NPM, name: "node_modules a", list: true, versions: map[string][]string{
		"debug": {"2.6.9", "4.3.4"}, "ms": {"2.1.3"},
	}}
	b := &fakeSource{eco: docidx.NPM, name: "node_modules b", list: true, versions: map[string][]string{
		"debug": {"4.3.4"}, // also in a: crawled once
	}}
	sink := &fakeSink{}
	sum, err := Run(context.Background(), sink, Options{Caches: []docidx.Cache{a, b}, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sink.putStrings(), []string{"npm:debug@2.6.9", "npm:debug@4.3.4", "npm:ms@2.1.3"}; !slices.Equal(got, want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	if sum.Err() != nil {
		t.Error(sum.Err())
	}

	// A spec that no cache holds, with registries off, fails with a clear message.
	sum, err = Run(context.Background(), &fakeSink{}, Options{Specs: mustSpecs(t, "npm:left-pad"), Caches: []docidx.Cache{a}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 1 || !strings.Contains(sum.Results[0].Error, "--offline") {
		t.Errorf("offline miss: %+v", sum.Results)
	}
}

func TestRunDuplicateSpecsCrawledOnce(t *testing.T) {
	reg := &fakeSource{eco: docidx.NPM, name: "r", versions: map[string][]string{"zod": {"3.23.8"}}}
	sink := &fakeSink{}
	sum, err := Run(context.Background(), sink, Options{Specs: mustSpecs(t, "npm:zod", "npm:zod@3.23.8", "npm:zod@^3"), Registries: []docidx.Registry{reg}})
	if err != nil {
		t.Fatal(err)
	}
	if reg.fetches.Load() != 1 || len(sum.Results) != 1 {
		t.Errorf("fetches %d, results %d; want 1 and 1", reg.fetches.Load(), len(sum.Results))
	}
}

func TestRunCanceled(t *testing.T) {
	reg := &fakeSource{eco: docidx.NPM, name: "r", versions: map[string][]string{"zod": {"3.23.8"}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, &fakeSink{}, Options{Specs: mustSpecs(t, "npm:zod"), Registries: []docidx.Registry{reg}}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
