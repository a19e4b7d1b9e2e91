package gomod_test

import (
	"testing"

	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestConformance(t *testing.T) {
	registrytest.Conformance(t, func(t *testing.T, c *fetch.Client) registrytest.Subject {
		srv := gomodtest.NewServerFromDir(t, testdataMods)
		p := testutil.Must(t, gomod.NewProxy, gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: srv.URL}, Client: c})
		return registrytest.Subject{Registry: p, Server: srv.Server,
			Name: "example.com/hello", Version: "v1.1.0", Missing: "example.com/nope",
			Metadata: "/example.com/hello/@", Archive: "/example.com/hello/@v/v1.1.0.zip",
			NoChecksum: "gomod: the module proxy protocol serves no checksum, and gomod checks no go.sum or checksum database"}
	})
}

func TestCacheConformance(t *testing.T) {
	c, _ := newModCache(t)
	registrytest.CacheConformance(t, registrytest.CacheSubject{Cache: c,
		Name: "example.com/hello", Version: "v1.1.0", Missing: "example.com/nope"})
}
