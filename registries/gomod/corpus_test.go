package gomod_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// corpusModCache returns the real module cache of the corpus (testutil.CorpusDir's gomodcache)
// and the module versions it lists, or skips tb without one.
func corpusModCache(tb testing.TB) (*gomod.ModCache, []docidx.Ref) {
	tb.Helper()
	return listModCache(tb, testutil.CorpusDir(tb, "gomodcache"))
}

// listModCache returns a ModCache over dir with the default configuration and the module
// versions it lists, failing tb on an error.
func listModCache(tb testing.TB, dir string) (*gomod.ModCache, []docidx.Ref) {
	tb.Helper()
	c, err := gomod.NewModCache(dir, gomod.ModCacheConfig{})
	return c, testutil.Listed(tb, c, err)
}

// TestCorpusModCache extracts every module version of the corpus (only when DOCIDX_CORPUS is set,
// since it reads real modules) and checks a few well-known symbols.
func TestCorpusModCache(t *testing.T) {
	c, refs := corpusModCache(t)
	start := time.Now()
	symbols := 0
	testutil.FetchEvery(t, c, refs, func(r docidx.Ref, docs *docidx.PackageDocs) {
		symbols += len(docs.Symbols)
		if r.Name == "golang.org/x/sync" {
			checkErrgroupGo(t, docs)
		}
		if r.Name == "github.com/redis/go-redis/v9" {
			checkRedisOptions(t, docs)
		}
		if r.Name == "github.com/go-chi/chi/v5" {
			checkReadmeTitle(t, docs, "chi") // its level-1 heading is its logo, alt="chi"
		}
	})
	t.Logf("%d module versions, %d symbols in %v", len(refs), symbols, time.Since(start))
}

// checkReadmeTitle checks that a module's README is titled want, not by a section heading.
func checkReadmeTitle(t *testing.T, docs *docidx.PackageDocs, want string) {
	t.Helper()
	for _, d := range docs.Documents {
		if d.Kind == docidx.DocReadme {
			if d.Title != want {
				t.Errorf("%s: README title %q, want %q", docs.Package.Name, d.Title, want)
			}
			return
		}
	}
	t.Errorf("%s: no README", docs.Package.Name)
}

func checkErrgroupGo(t *testing.T, docs *docidx.PackageDocs) {
	t.Helper()
	for _, s := range docs.Symbols {
		if s.QualifiedName != "errgroup.Group.Go" {
			continue
		}
		if s.Signature != "func (g *Group) Go(f func() error)" || s.Kind != docidx.KindMethod || s.Parent != "Group" ||
			!strings.HasPrefix(s.Doc, "Go calls the given function in a new goroutine.") || s.File != "errgroup/errgroup.go" {
			t.Errorf("errgroup.Group.Go = %+v", s)
		}
		return
	}
	t.Errorf("golang.org/x/sync@%s: no errgroup.Group.Go", docs.Package.Version)
}

// checkRedisOptions checks issue 14's example: redis.Options.PoolSize is a field of its own with
// its doc comment, and redis.Options keeps a compact signature (main printed 23 KB of it).
func checkRedisOptions(t *testing.T, docs *docidx.PackageDocs) {
	t.Helper()
	var field, typ *docidx.Symbol
	for i, s := range docs.Symbols {
		switch s.QualifiedName {
		case "redis.Options.PoolSize":
			field = &docs.Symbols[i]
		case "redis.Options":
			typ = &docs.Symbols[i]
		}
	}
	if field == nil || typ == nil {
		t.Fatalf("github.com/redis/go-redis/v9@%s: redis.Options.PoolSize %v, redis.Options %v", docs.Package.Version, field != nil, typ != nil)
	}
	if field.Kind != docidx.KindField || field.Parent != "Options" || field.Signature != "PoolSize int" ||
		!strings.HasPrefix(field.Doc, "PoolSize is") || field.Key() != "Options.PoolSize" {
		t.Errorf("redis.Options.PoolSize = %+v", *field)
	}
	if len(typ.Signature) > 5000 || strings.Contains(typ.Signature, "// PoolSize") {
		t.Errorf("redis.Options signature is %d bytes:\n%s", len(typ.Signature), typ.Signature)
	}
}

// BenchmarkModCacheFetch extracts every module version of the corpus module cache, one after the
// other, and reports symbols per second and time per module version.
func BenchmarkModCacheFetch(b *testing.B) {
	c, refs := corpusModCache(b)
	benchFetch(b, c, refs, 1)
}

// BenchmarkModCacheFetchParallel does the same with GOMAXPROCS module versions at once, as a
// crawl with --concurrency would.
func BenchmarkModCacheFetchParallel(b *testing.B) {
	c, refs := corpusModCache(b)
	benchFetch(b, c, refs, runtime.GOMAXPROCS(0))
}

// BenchmarkModCacheFetchTestdata is the hermetic variant over the testdata modules.
func BenchmarkModCacheFetchTestdata(b *testing.B) {
	c, refs := listModCache(b, gomodtest.WriteModCacheFromDir(b, testdataMods))
	benchFetch(b, c, refs, 1)
}

func benchFetch(b *testing.B, c *gomod.ModCache, refs []docidx.Ref, workers int) {
	var symbols atomic.Int64
	b.ResetTimer()
	for range b.N {
		next := make(chan docidx.Ref)
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for r := range next {
					docs, err := c.Fetch(context.Background(), r.Name, r.Version)
					if err != nil {
						b.Errorf("%s: %v", r, err)
						continue
					}
					symbols.Add(int64(len(docs.Symbols)))
				}
			})
		}
		for _, r := range refs {
			next <- r
		}
		close(next)
		wg.Wait()
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(symbols.Load())/secs, "symbols/s")
	b.ReportMetric(float64(symbols.Load())/float64(b.N), "symbols/op")
	b.ReportMetric(float64(len(refs)), "versions/op")
	b.ReportMetric(secs*1e3/float64(b.N*len(refs)), "ms/version")
}
