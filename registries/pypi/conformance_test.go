package pypi

import (
	"testing"

	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	const wheel = "Demo_Widgets-1.1.0-py3-none-any.whl"
	registrytest.Conformance(t, func(t *testing.T, c *fetch.Client) registrytest.Subject {
		r, srv := newTestRegistry(t, func(rc *RegistryConfig) { rc.Client = c })
		return registrytest.Subject{Registry: r, Server: srv.Server,
			Name: "demo-widgets", Version: "1.1.0", Missing: "no-such-project",
			Metadata: "/demo-widgets/", Archive: "/files/" + wheel,
			Tamper: func() { srv.TamperDigest(wheel) }}
	})
}

func TestCacheConformance(t *testing.T) {
	sp, err := NewSitePackages(layout(t), SitePackagesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	registrytest.CacheConformance(t, registrytest.CacheSubject{Cache: sp,
		Name: "demo-widgets", Version: "1.1.0", Missing: "no-such-project"})
}
