package pypi

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/pypi/pypitest"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	const wheel = "Demo_Widgets-1.1.0-py3-none-any.whl"
	registrytest.Conformance(t, func(t *testing.T) registrytest.Subject {
		srv := pypitest.NewServer(t, filepath.Join("testdata", "index"))
		return registrytest.Subject{
			Server: srv.Server,
			New: func(t *testing.T, c *fetch.Client) docidx.Registry {
				cfg, err := NewConfig(srv.SimpleURL())
				if err != nil {
					t.Fatal(err)
				}
				r, err := NewRegistry(RegistryConfig{Config: cfg, Client: c, Now: func() time.Time { return testNow }})
				if err != nil {
					t.Fatal(err)
				}
				return r
			},
			Name: "demo-widgets", Version: "1.1.0", Missing: "no-such-project",
			Metadata: "/demo-widgets/", Archive: "/files/" + wheel,
			Tamper: func() { srv.TamperDigest(wheel) },
		}
	})
}
