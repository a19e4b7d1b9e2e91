package npm

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T) registrytest.Subject {
		srv := npmtest.NewServer(t, filepath.Join("testdata", "registry"))
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
			Name: "widget", Version: "1.1.0", Missing: "no-such-package",
			Metadata: "/widget", Archive: "/widget/-/widget-1.1.0.tgz",
			Tamper: func() { srv.TamperIntegrity("widget", "1.1.0") },
		}
	})
}
