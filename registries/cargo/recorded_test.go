package cargo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestRecordedSparseIndex reads itoa from a real sparse index's recorded answers
// (testdata/real/index, see its README.md) served by the fake: a config.json whose dl has no
// markers and sits under a path of its own, an index file of 38 versions whose lines carry
// pubtime and rust_version, and the real .crate of 1.0.19, its checksum checked against the
// index's.
func TestRecordedSparseIndex(t *testing.T) {
	srv := cargotest.NewServer(t, "")
	for path, f := range map[string]struct{ file, contentType string }{
		"/index/config.json": {"index/config.json", "application/json"},
		"/index/it/oa/itoa":  {"index/itoa", "text/plain"},
		"/artifactory/api/cargo/crates-io/v1/crates/itoa/1.0.19/download": {"itoa-1.0.19.crate", "application/gzip"},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "real", f.file))
		if err != nil {
			t.Fatal(err)
		}
		srv.Record(path, f.contentType, b)
	}
	r := registryFor(t, srv, nil)
	ctx := context.Background()
	resolve := func(query string) (string, error) { return r.Resolve(ctx, "itoa", query) }
	checkEachOK(t, "Resolve(itoa)", resolve, map[string]string{"": "1.0.19", "1.0.11": "1.0.11", "~0.4": "0.4.8"})
	pd := testutil.Fetched(t, r, "itoa", "1.0.19")
	syms := map[string]docidx.Symbol{}
	for _, s := range pd.Symbols {
		syms[s.QualifiedName] = s
	}
	for _, q := range []string{"itoa::Buffer", "itoa::Buffer::format", "itoa::Integer"} {
		if _, ok := syms[q]; !ok {
			t.Errorf("symbol %s missing from %d", q, len(syms))
		}
	}
	if want := time.Date(2026, 11, 9, 1, 42, 29, 0, time.UTC); !pd.Package.Published.Equal(want) {
		t.Errorf("Published %v, want the index's pubtime %v", pd.Package.Published, want)
	}
	if len(pd.Package.Versions) != 38 {
		t.Errorf("%d versions, want the index's 38", len(pd.Package.Versions))
	}
}
