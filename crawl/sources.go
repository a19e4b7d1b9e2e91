package crawl

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/docidx/docidx"
)

// A snapshot is shipped to other machines and every client of it can read its manifest
// (docidx://snapshot), so the sources a crawl records there, and the Source of each package
// read from a local cache, must not carry the crawling machine's paths: its user's home
// directory, module cache or Python install. Local caches are named by what they are, with a
// directory only when it lies inside the working directory (and then relative to it);
// registries by their own String, which each registry package keeps free of credentials.

// labelledCache is a local cache with the name the snapshot records for it.
type labelledCache struct {
	docidx.Cache
	label string
}

func (c *labelledCache) String() string { return c.label }

// labelCaches wraps each cache with its label (see CacheLabel), relative to the working
// directory wd.
func labelCaches(cs []docidx.Cache, wd string) []docidx.Cache {
	out := make([]docidx.Cache, len(cs))
	for i, c := range cs {
		if lc, ok := c.(*labelledCache); ok {
			out[i] = lc
			continue
		}
		out[i] = &labelledCache{Cache: c, label: CacheLabel(c, wd)}
	}
	return out
}

var pythonDir = regexp.MustCompile(`^python\d+(\.\d+)*t?$`)

// CacheLabel names the local cache c for a snapshot's manifest and its packages' Source without
// the crawling machine's paths: "go module cache", "node_modules of web/app", "site-packages
// (python3.11)", "cargo registry sources", "swift checkouts of ." (directories relative to wd,
// the working directory, when they lie inside it; else only their last element). c's String
// must return its directory, as the caches of docidx's registries do.
func CacheLabel(c docidx.Cache, wd string) string {
	dir := ""
	if s, ok := c.(fmt.Stringer); ok {
		dir = filepath.Clean(s.String())
	}
	switch c.Ecosystem() {
	case docidx.Go:
		return "go module cache"
	case docidx.NPM:
		if filepath.Base(dir) == "node_modules" {
			dir = filepath.Dir(dir)
		}
		return "node_modules of " + shortDir(dir, wd)
	case docidx.PyPI:
		for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
			if pythonDir.MatchString(filepath.Base(d)) {
				return "site-packages (" + filepath.Base(d) + ")"
			}
		}
		return "site-packages"
	case docidx.Cargo:
		return "cargo registry sources"
	case docidx.Swift:
		if filepath.Base(dir) == ".build" {
			dir = filepath.Dir(dir)
		}
		return "swift checkouts of " + shortDir(dir, wd)
	}
	return string(c.Ecosystem()) + " local cache"
}

// shortDir returns dir relative to wd in slash form when it lies inside wd, else its last
// element ("~" for the user's home directory itself, which would name the user).
func shortDir(dir, wd string) string {
	if dir == "" {
		return "?"
	}
	if wd != "" {
		if rel, err := filepath.Rel(wd, dir); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return filepath.ToSlash(rel)
		}
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(home) == dir {
		return "~"
	}
	if b := filepath.Base(dir); b != string(filepath.Separator) && !strings.HasSuffix(b, ":") {
		return b
	}
	return "?"
}
