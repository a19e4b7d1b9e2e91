package npm

import (
	"testing"

	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T, c *fetch.Client) registrytest.Subject {
		r, srv := newTestRegistry(t, func(rc *RegistryConfig) { rc.Client = c })
		return registrytest.Subject{Registry: r, Server: srv.Server,
			Name: "widget", Version: "1.1.0", Missing: "no-such-package",
			Metadata: "/widget", Archive: "/widget/-/widget-1.1.0.tgz",
			Tamper: func() { srv.TamperIntegrity("widget", "1.1.0") }}
	})
}

func TestCacheConformance(t *testing.T) {
	nm, err := NewNodeModules(npmtest.Hoisted(t, t.TempDir(), installedTree(t)...), NodeModulesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	registrytest.CacheConformance(t, registrytest.CacheSubject{Cache: nm,
		Name: "widget", Version: "1.1.0", Missing: "no-such-package"})
}
