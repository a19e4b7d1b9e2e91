package crawl

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docidx/docidx"
)

func TestCacheLabel(t *testing.T) {
	wd := filepath.FromSlash("/home/alice/work/proj")
	for _, tc := range []struct {
		eco  docidx.Ecosystem
		dir  string
		want string
	}{
		{docidx.Go, "/home/alice/go/pkg/mod", "go module cache"},
		{docidx.NPM, "/home/alice/work/proj/node_modules", "node_modules of ."},
		{docidx.NPM, "/home/alice/work/proj/web/app/node_modules", "node_modules of web/app"},
		{docidx.NPM, "/srv/other/node_modules", "node_modules of other"},
		{docidx.PyPI, "/home/alice/.venv/lib/python3.11/site-packages", "site-packages (python3.11)"},
		{docidx.PyPI, "/opt/site-packages", "site-packages"},
		{docidx.Cargo, "/home/alice/.cargo/registry/src", "cargo registry sources"},
		{docidx.Swift, "/home/alice/work/proj/.build", "swift checkouts of ."},
	} {
		c := &fakeSource{eco: tc.eco, name: filepath.FromSlash(tc.dir), list: true}
		got := CacheLabel(c, wd)
		if got != tc.want {
			t.Errorf("CacheLabel(%s %s) = %q, want %q", tc.eco, tc.dir, got, tc.want)
		}
		if strings.Contains(got, "alice") {
			t.Errorf("CacheLabel(%s %s) = %q names the user", tc.eco, tc.dir, got)
		}
	}
}

// sourceSink records the Source of each package stored.
type sourceSink struct {
	fakeSink
	mu      sync.Mutex
	pkgSrcs []string
}

func (s *sourceSink) Put(ctx context.Context, d *docidx.PackageDocs) error {
	s.mu.Lock()
	s.pkgSrcs = append(s.pkgSrcs, d.Package.Source)
	s.mu.Unlock()
	return s.fakeSink.Put(ctx, d)
}

// The snapshot records local caches by label and never by their path on the crawling machine,
// in its sources and in each package's Source.
func TestRunRecordsNoLocalPaths(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "home", "alice", "go", "pkg", "mod")
	cache := &fakeSource{eco: docidx.Go, name: secret, list: true, setSrc: true, versions: map[string][]string{"example.com/a": {"v1.0.0"}}}
	reg := &fakeSource{eco: docidx.NPM, name: "npm registry https://registry.example/", versions: map[string][]string{"zod": {"3.23.8"}}}
	sink := &sourceSink{}
	sum, err := Run(context.Background(), sink, Options{
		Specs:      mustSpecs(t, "go:example.com/a@v1.0.0", "npm:zod"),
		Caches:     []docidx.Cache{cache},
		Registries: []docidx.Registry{reg},
	})
	if err != nil || sum.Err() != nil {
		t.Fatal(err, sum.Err())
	}
	slices.Sort(sink.sources)
	if want := []string{"go module cache", "npm registry https://registry.example/"}; !slices.Equal(sink.sources, want) {
		t.Errorf("sources %q, want %q", sink.sources, want)
	}
	if len(sink.pkgSrcs) != 2 {
		t.Fatalf("stored %d packages, want 2", len(sink.pkgSrcs))
	}
	for _, s := range append(sink.pkgSrcs, sink.sources...) {
		if strings.Contains(s, "alice") {
			t.Errorf("source %q holds the crawling machine's path", s)
		}
	}
}
