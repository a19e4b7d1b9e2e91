package gomod_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"

	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/internal/fetch"
)

// A crawl takes GOPROXY from the flag when given, else from the environment or go env.
func ExampleLoadConfig() {
	ctx := context.Background()
	cfg, err := gomod.LoadConfig(gomod.ConfigOptions{
		GOPROXY: "", // --goproxy; empty means $GOPROXY, then `go env GOPROXY`
	})
	if err != nil {
		log.Fatal(err)
	}
	p, err := gomod.NewProxy(gomod.ProxyConfig{Config: cfg, Client: fetch.New(nil), Logger: slog.Default()})
	if err != nil {
		log.Fatal(err)
	}
	v, err := p.Resolve(ctx, "golang.org/x/sync", "latest")
	if err != nil {
		log.Fatal(err)
	}
	docs, err := p.Fetch(ctx, "golang.org/x/sync", v)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(docs.Package.Name, docs.Package.Version, len(docs.Symbols))
}

// The module cache needs no network: List enumerates what it holds.
func ExampleModCache() {
	ctx := context.Background()
	dir, err := gomod.DefaultModCacheDir(ctx)
	if err != nil {
		log.Fatal(err)
	}
	c, err := gomod.NewModCache(dir, gomod.ModCacheConfig{})
	if err != nil {
		log.Fatal(err)
	}
	refs, err := c.List(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range refs {
		docs, err := c.Fetch(ctx, r.Name, r.Version)
		if err != nil {
			log.Print(err)
			continue
		}
		fmt.Println(r, len(docs.Symbols))
	}
}
