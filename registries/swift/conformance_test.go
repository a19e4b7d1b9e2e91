package swift

import (
	"testing"

	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T, c *fetch.Client) registrytest.Subject {
		r, srv := newTestRegistry(t, func(rc *RegistryConfig) { rc.Client = c })
		return registrytest.Subject{Registry: r, Server: srv.Server,
			Name: kitID, Version: "1.3.0", Missing: "example.no-such-package",
			Metadata: "/swift-argument-kit", Archive: "/swift-argument-kit/1.3.0.zip",
			Tamper: func() { srv.TamperChecksum(kitID, "1.3.0") }}
	})
}

func TestCacheConformance(t *testing.T) {
	_, build := writeTestBuild(t)
	c, err := NewCheckouts(build, CheckoutsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	registrytest.CacheConformance(t, registrytest.CacheSubject{Cache: c,
		Name: "swift-argument-kit", Version: "1.3.0", Missing: "no-such-package"})
}
