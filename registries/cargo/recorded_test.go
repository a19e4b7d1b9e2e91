package cargo

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

// TestRecordedSparseIndex reads itoa from a real sparse index's recorded answers
// (testdata/real/index, see its README.md) served by the fake: a config.json whose dl has no
// markers and sits under a path of its own, an index file of 38 versions whose lines carry
// pubtime and rust_version, and the real .crate of 1.0.19, its checksum checked against the
// index's.
func TestRecordedSparseIndex(t *testing.T) {
	srv := cargotest.NewServer(t, "")
	srv.RecordFiles(t, filepath.Join("testdata", "real"), map[string]registrytest.RecordedFile{
		"/index/config.json": {File: "index/config.json", ContentType: "application/json"},
		"/index/it/oa/itoa":  {File: "index/itoa", ContentType: "text/plain"},
		"/artifactory/api/cargo/crates-io/v1/crates/itoa/1.0.19/download": {File: "itoa-1.0.19.crate", ContentType: "application/gzip"},
	})
	r := registryFor(t, srv, nil)
	ctx := context.Background()
	resolve := func(query string) (string, error) { return r.Resolve(ctx, "itoa", query) }
	checkEachOK(t, "Resolve(itoa)", resolve, map[string]string{"": "1.0.19", "1.0.11": "1.0.11", "~0.4": "0.4.8"})
	pd := testutil.Fetched(t, r, "itoa", "1.0.19")
	syms := testutil.ByName(pd.Symbols)
	testutil.Present(t, syms, "", "itoa::Buffer", "itoa::Buffer::format", "itoa::Integer")
	if want := time.Date(2026, 11, 9, 1, 42, 29, 0, time.UTC); !pd.Package.Published.Equal(want) {
		t.Errorf("Published %v, want the index's pubtime %v", pd.Package.Published, want)
	}
	if len(pd.Package.Versions) != 38 {
		t.Errorf("%d versions, want the index's 38", len(pd.Package.Versions))
	}
}
