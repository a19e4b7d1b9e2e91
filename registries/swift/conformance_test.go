package swift

import (
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T) registrytest.Subject {
		srv := newFixtureServer(t)
		return registrytest.Subject{
			Server: srv.Server,
			New: func(t *testing.T, c *fetch.Client) docidx.Registry {
				cfg, err := NewConfig(srv.URL)
				if err != nil {
					t.Fatal(err)
				}
				r, err := NewRegistry(RegistryConfig{Config: cfg, Client: c, Now: func() time.Time { return testNow }})
				if err != nil {
					t.Fatal(err)
				}
				return r
			},
			Name: kitID, Version: "1.3.0", Missing: "example.no-such-package",
			Metadata: "/swift-argument-kit", Archive: "/swift-argument-kit/1.3.0.zip",
			Tamper: func() { srv.TamperChecksum(kitID, "1.3.0") },
		}
	})
}
