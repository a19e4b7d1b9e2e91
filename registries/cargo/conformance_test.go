package cargo

import (
	"testing"

	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T, c *fetch.Client) registrytest.Subject {
		r, srv := newTestRegistry(t, func(rc *RegistryConfig) { rc.Client = c })
		return registrytest.Subject{Registry: r, Server: srv.Server,
			Name: "ferris-json", Version: "1.1.0", Missing: "no-such-crate",
			Metadata: "/index/fe/rr/ferris-json", Archive: "/ferris-json/1.1.0/download",
			Tamper: func() { srv.TamperChecksum("ferris-json", "1.1.0") }}
	})
}

func TestCacheConformance(t *testing.T) {
	c := openCache(t, cargotest.CargoHomeFromDir(t, testCrates), CacheConfig{})
	registrytest.CacheConformance(t, registrytest.CacheSubject{Cache: c,
		Name: "ferris-json", Version: "1.1.0", Missing: "no-such-crate"})
}
