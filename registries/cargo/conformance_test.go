package cargo

import (
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T) registrytest.Subject {
		srv := cargotest.NewServer(t, testCrates)
		return registrytest.Subject{
			Server: srv.Server,
			New: func(t *testing.T, c *fetch.Client) docidx.Registry {
				cfg, err := NewConfig(srv.Index())
				if err != nil {
					t.Fatal(err)
				}
				r, err := NewRegistry(RegistryConfig{Config: cfg, Client: c, Now: func() time.Time { return testNow }})
				if err != nil {
					t.Fatal(err)
				}
				return r
			},
			Name: "ferris-json", Version: "1.1.0", Missing: "no-such-crate",
			Metadata: "/index/fe/rr/ferris-json", Archive: "/ferris-json/1.1.0/download",
			Tamper: func() { srv.TamperChecksum("ferris-json", "1.1.0") },
		}
	})
}
