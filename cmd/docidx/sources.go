package main

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/npm"
)

// sources are the local caches and remote registries one crawl reads.
type sources struct {
	caches     []docidx.Cache
	registries []docidx.Registry
	retries    func() int64
}

// buildSources opens the local caches the flags name and, unless --offline, the registries of
// the ecosystems that specs ask for, configured the way each ecosystem's own tools are (GOPROXY
// from the environment or `go env`; npm's .npmrc files in projectDir, the user's home and the
// environment). Flags override that configuration.
func buildSources(c *cli.Context, log *slog.Logger, projectDir string, specs []crawl.Spec) (*sources, error) {
	s := &sources{}
	s.retries = func() int64 {
		var n int64
		for _, r := range s.registries {
			if r, ok := r.(interface{ Retries() int64 }); ok {
				n += r.Retries()
			}
		}
		return n
	}
	if dir := c.String("go-modcache"); dir != "" {
		if dir == modcacheAuto {
			d, err := gomod.DefaultModCacheDir(c.Context)
			if err != nil {
				return nil, failf("--go-modcache: %v; name the directory: --go-modcache DIR", err)
			}
			dir = d
		}
		mc, err := gomod.NewModCache(dir)
		if err != nil {
			return nil, failf("--go-modcache %s: %v", dir, err)
		}
		s.caches = append(s.caches, mc)
	}
	for _, dir := range c.StringSlice("node-modules") {
		nm, err := npm.NewNodeModules(dir, npm.NodeModulesConfig{Logger: log})
		if err != nil {
			return nil, failf("--node-modules %s: %v", dir, err)
		}
		s.caches = append(s.caches, nm)
	}
	if c.Bool("offline") {
		return s, nil
	}

	wants := map[docidx.Ecosystem]bool{}
	for _, sp := range specs {
		wants[sp.Ecosystem] = true
	}
	if wants[docidx.Go] {
		p, err := gomod.ProxyFromEnv(c.Context, gomod.ProxyConfig{GOPROXY: c.String("goproxy"), Logger: log})
		if err != nil {
			return nil, failf("Go module proxy: %v", err)
		}
		s.registries = append(s.registries, p)
	}
	if wants[docidx.NPM] {
		dir := projectDir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		cfg, err := npm.LoadConfigOptions(npm.ConfigOptions{ProjectDir: absOrSelf(dir), Registry: c.String("npm-registry")})
		if err != nil {
			return nil, failf("npm registry: %v", err)
		}
		r, err := npm.NewRegistry(npm.RegistryConfig{Config: cfg, Logger: log})
		if err != nil {
			return nil, failf("npm registry: %v", err)
		}
		s.registries = append(s.registries, r)
	}
	for eco := range wants {
		if eco != docidx.Go && eco != docidx.NPM {
			return nil, usagef("crawl: %s packages are not supported yet (golang and npm are)", eco)
		}
	}
	return s, nil
}

func absOrSelf(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
