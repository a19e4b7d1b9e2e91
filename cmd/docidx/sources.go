package main

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/registries/cargo"
	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/npm"
	"github.com/docidx/docidx/registries/pypi"
	"github.com/docidx/docidx/registries/swift"
)

// A site-packages knows what its distributions require: requirement specs walk it.
var _ crawl.Installed = (*pypi.SitePackages)(nil)

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
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return nil, failf("--go-modcache: no Go module cache at %s; name an existing directory, or give --go-modcache alone for the one 'go env GOMODCACHE' names", dir)
		}
		mc, err := gomod.NewModCache(dir, gomod.ModCacheConfig{Logger: log})
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
	for _, dir := range c.StringSlice("site-packages") {
		sp, err := pypi.NewSitePackages(dir, pypi.SitePackagesConfig{Logger: log})
		if err != nil {
			return nil, failf("--site-packages %s: %v", dir, err)
		}
		s.caches = append(s.caches, sp)
	}
	for _, dir := range c.StringSlice("cargo-home") {
		cc, err := cargo.NewCache(dir, cargo.CacheConfig{Logger: log})
		if err != nil {
			return nil, failf("--cargo-home %s: %v", dir, err)
		}
		s.caches = append(s.caches, cc)
	}
	for _, dir := range c.StringSlice("swift-checkouts") {
		sc, err := swift.NewCheckouts(dir, swift.CheckoutsConfig{Logger: log})
		if err != nil {
			return nil, failf("--swift-checkouts %s: %v", dir, err)
		}
		s.caches = append(s.caches, sc)
	}
	if c.Bool("offline") {
		return s, nil
	}
	dir := projectDir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir = absOrSelf(dir)

	wants := map[docidx.Ecosystem]bool{}
	for _, sp := range specs {
		wants[sp.Ecosystem] = true
	}
	if wants[docidx.Go] {
		cfg, err := gomod.LoadConfig(gomod.ConfigOptions{GOPROXY: c.String("goproxy")})
		if err != nil {
			return nil, failf("Go module proxy: %v", err)
		}
		p, err := gomod.NewProxy(gomod.ProxyConfig{Config: cfg, Logger: log})
		if err != nil {
			return nil, failf("Go module proxy: %v", err)
		}
		s.registries = append(s.registries, p)
	}
	if wants[docidx.NPM] {
		cfg, err := npm.LoadConfig(npm.ConfigOptions{ProjectDir: dir, Registry: c.String("npm-registry")})
		if err != nil {
			return nil, failf("npm registry: %v", err)
		}
		r, err := npm.NewRegistry(npm.RegistryConfig{Config: cfg, Logger: log})
		if err != nil {
			return nil, failf("npm registry: %v", err)
		}
		s.registries = append(s.registries, r)
	}
	if wants[docidx.PyPI] {
		cfg, err := pypi.LoadConfig(pypi.ConfigOptions{IndexURL: c.String("pypi-index")})
		if err != nil {
			return nil, failf("Python package index: %v", err)
		}
		r, err := pypi.NewRegistry(pypi.RegistryConfig{Config: cfg, Logger: log})
		if err != nil {
			return nil, failf("Python package index: %v", err)
		}
		s.registries = append(s.registries, r)
	}
	if wants[docidx.Cargo] {
		cfg, err := cargo.LoadConfig(cargo.ConfigOptions{ProjectDir: dir, Index: c.String("cargo-index")})
		if err != nil {
			return nil, failf("cargo registry: %v", err)
		}
		r, err := cargo.NewRegistry(cargo.RegistryConfig{Config: cfg, Logger: log})
		if err != nil {
			return nil, failf("cargo registry: %v", err)
		}
		s.registries = append(s.registries, r)
	}
	if wants[docidx.Swift] {
		cfg, err := swift.LoadConfig(swift.ConfigOptions{ProjectDir: dir, Registry: c.String("swift-registry")})
		if err != nil {
			return nil, failf("Swift package registry: %v", err)
		}
		r, err := swift.NewRegistry(swift.RegistryConfig{Config: cfg, Logger: log})
		if err != nil {
			return nil, failf("Swift package registry: %v", err)
		}
		s.registries = append(s.registries, r)
	}
	return s, nil
}

func absOrSelf(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
