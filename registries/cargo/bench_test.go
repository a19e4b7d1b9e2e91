package cargo

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/time/rate"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// BenchmarkRegistryFetch fetches crate versions from the fake registry (download, checksum,
// unpacking, README, API) and reports crates and symbols per second. The index file and
// config.json are cached after the first fetch, as in a crawl of many versions.
func BenchmarkRegistryFetch(b *testing.B) {
	for _, tc := range []struct{ name, file, crate, version string }{
		{"ferris-json", "", "ferris-json", "1.1.0"},
		{"flatbuffers", "flatbuffers-25.2.10.crate", "flatbuffers", "25.2.10"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			srv := cargotest.NewServer(b, testCrates)
			if tc.file != "" {
				data, err := os.ReadFile(filepath.Join("testdata", "real", tc.file))
				if err != nil {
					b.Fatal(err)
				}
				srv.AddArchive(cargotest.Crate{Name: tc.crate, Version: tc.version}, data)
			}
			r := testutil.Must(b, NewRegistry, RegistryConfig{
				Config: testutil.Must(b, NewConfig, srv.Index()),
				Client: &fetch.Client{HTTP: srv.Client(), Rate: rate.Inf},
			})
			refs := []docidx.Ref{{Name: tc.crate, Version: tc.version}}
			benchFetch(b, func() (docidx.Registry, []docidx.Ref) { return r, refs })
		})
	}
}

// BenchmarkCacheFetch reads every crate version of a cargo home laid out from testdata and
// reports crates and symbols per second.
func BenchmarkCacheFetch(b *testing.B) {
	home := cargotest.CargoHomeFromDir(b, testCrates)
	benchFetch(b, func() (docidx.Registry, []docidx.Ref) {
		c, err := NewCache(home, CacheConfig{})
		return c, testutil.Listed(b, c, err)
	})
}

// benchFetch calls round in every b.Loop iteration for a registry and the crate versions to
// fetch from it, fetches them all and reports crates and symbols per second. round fails b when
// it cannot make them.
func benchFetch(b *testing.B, round func() (docidx.Registry, []docidx.Ref)) {
	symbols, n := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		r, refs := round()
		testutil.FetchEvery(b, r, refs, func(_ docidx.Ref, pd *docidx.PackageDocs) {
			symbols += len(pd.Symbols)
			n++
		})
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "crates/s")
	b.ReportMetric(float64(symbols)/b.Elapsed().Seconds(), "symbols/s")
}
