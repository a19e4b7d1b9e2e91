package cargo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/time/rate"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/fetch"
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
			cfg, _ := NewConfig(srv.Index())
			r, err := NewRegistry(RegistryConfig{Config: cfg, Client: &fetch.Client{HTTP: srv.Client(), Rate: rate.Inf}})
			if err != nil {
				b.Fatal(err)
			}
			refs := []docidx.Ref{{Name: tc.crate, Version: tc.version}}
			benchFetch(b, func(context.Context) (docidx.Registry, []docidx.Ref, error) { return r, refs, nil })
		})
	}
}

// BenchmarkCacheFetch reads every crate version of a cargo home laid out from testdata and
// reports crates and symbols per second.
func BenchmarkCacheFetch(b *testing.B) {
	home := cargotest.CargoHomeFromDir(b, testCrates)
	benchFetch(b, func(ctx context.Context) (docidx.Registry, []docidx.Ref, error) {
		c, err := NewCache(home, CacheConfig{})
		if err != nil {
			return nil, nil, err
		}
		refs, err := c.List(ctx)
		return c, refs, err
	})
}

// benchFetch calls round in every b.Loop iteration for a registry and the crate versions to
// fetch from it, fetches them all and reports crates and symbols per second.
func benchFetch(b *testing.B, round func(context.Context) (docidx.Registry, []docidx.Ref, error)) {
	ctx := context.Background()
	symbols, n := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		r, refs, err := round(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, ref := range refs {
			pd, err := r.Fetch(ctx, ref.Name, ref.Version)
			if err != nil {
				b.Fatal(err)
			}
			symbols += len(pd.Symbols)
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "crates/s")
	b.ReportMetric(float64(symbols)/b.Elapsed().Seconds(), "symbols/s")
}
