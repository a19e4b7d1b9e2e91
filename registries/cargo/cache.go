package cargo

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/internal/rustapi"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/installed"
	"github.com/docidx/docidx/registries/internal/skip"
)

// CacheConfig configures NewCache. The zero value is ready to use.
type CacheConfig struct {
	// Logger receives skipped directories and files at debug level; nil discards.
	Logger *slog.Logger
	// Limits bounds the extraction of each crate version.
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// Cache reads the crates cargo has extracted under $CARGO_HOME/registry/src/<index>/<name>-<version>/
// (https://doc.rust-lang.org/cargo/guide/cargo-home.html). The <index> directory is named after
// the registry's host and a hash ("index.crates.io-1949cf8c6b5b557f"; the hash changed in cargo
// 1.85 and git indexes give "github.com-1ecc6299db9ec823"), so every directory under
// registry/src is read and none is named in code. A crate version extracted under several of them
// is read from the most recently written. Directories without a Cargo.toml (an extraction cut
// short) are skipped.
//
// It implements docidx.Cache, never touches the network and never writes. The tree is scanned
// once, on first use; a Cache is safe for concurrent use.
type Cache struct {
	home string // CARGO_HOME, or "" when dir was registry/src itself
	src  string // registry/src
	cfg  CacheConfig
	log  *slog.Logger
	lim  Limits

	once    sync.Once
	crates  map[string][]localCrate // lowercased name -> versions, oldest first
	scanErr error

	apiMu sync.Mutex
	apis  map[apiKey]rustapi.ExternAPI // a dependency's public API (externAPI), by directory and depth
}

// Bounds of the dependencies read for re-exports (externAPI).
const (
	maxExternDepth = 3   // crates followed from the one fetched: clap -> clap_builder -> …
	maxExternAPIs  = 128 // dependency APIs a Cache keeps
)

// externAPI is rustapi.Options.Extern for a crate of the cache with manifest man: the public API
// of the dependency its Rust paths name crate, read from the version of it in the cache that
// man's requirement selects (else the newest there), each symbol's File under that crate's
// directory name ("clap_builder-4.6.7/src/builder/arg.rs"), its own re-exports of further
// crates inlined too up to maxExternDepth. A dependency not in the cache gives nil: its
// re-exports stay unlisted. Extracted APIs are kept for other crates that depend on them.
func (c *Cache) externAPI(man *manifest, depth int) func(string) rustapi.ExternAPI {
	return func(crate string) rustapi.ExternAPI {
		dep, ok := man.deps[crate]
		if !ok || depth >= maxExternDepth {
			return rustapi.ExternAPI{}
		}
		req := dep.req
		if req != "" && !strings.ContainsAny(req[:1], "=<>~^*") {
			req = "^" + req // a bare version in Cargo.toml is a caret requirement
		}
		lc, err := c.find(dep.pkg, req)
		if err != nil {
			if lc, err = c.find(dep.pkg, ""); err != nil {
				return rustapi.ExternAPI{}
			}
		}
		api := c.crateAPI(lc, depth+1)
		if len(api.Symbols) == 0 || api.Symbols[0].QualifiedName == crate {
			return api
		}
		// A renamed dependency (renamed = { package = "facade-core" }): its paths start with
		// the name this crate gives it.
		own := api.Symbols[0].QualifiedName // the crate root comes first
		out := rustapi.ExternAPI{Symbols: make([]docidx.Symbol, len(api.Symbols)), Aliases: map[string]string{}, Macros: api.Macros}
		for i, s := range api.Symbols {
			s.QualifiedName = renameCrate(s.QualifiedName, own, crate)
			s.Package = renameCrate(s.Package, own, crate)
			out.Symbols[i] = s
		}
		for a, q := range api.Aliases {
			out.Aliases[renameCrate(a, own, crate)] = renameCrate(q, own, crate)
		}
		return out
	}
}

// renameCrate replaces the crate name from that starts path p ("field@" kept) with to.
func renameCrate(p, from, to string) string {
	at := ""
	if i := strings.Index(p, "@"); i >= 0 && !strings.Contains(p[:i], ":") {
		at, p = p[:i+1], p[i+1:]
	}
	if p == from || strings.HasPrefix(p, from+"::") {
		p = to + p[len(from):]
	}
	return at + p
}

// crateDirFile matches a File under a crate's directory name, as crateAPI writes it.
var crateDirFile = regexp.MustCompile(`^[A-Za-z0-9_.-]+-[0-9]+\.[0-9]+\.[0-9]+[^/]*/`)

// apiKey is a dependency's directory and the depth at which it was extracted: a crate reached
// deeper lists fewer of its own dependencies' re-exports (maxExternDepth), so its API is kept
// apart from the same crate's reached nearer, and a crawl's results do not depend on its order.
type apiKey struct {
	dir   string
	depth int
}

// crateAPI extracts the public API of lc for externAPI, once per Cache and depth.
func (c *Cache) crateAPI(lc *localCrate, depth int) rustapi.ExternAPI {
	c.apiMu.Lock()
	api, ok := c.apis[apiKey{lc.dir, depth}]
	c.apiMu.Unlock()
	if ok {
		return api
	}
	root, err := os.OpenRoot(lc.dir)
	if err != nil {
		return rustapi.ExternAPI{}
	}
	defer root.Close()
	// The API alone: a dependency's README and docs are read when it is fetched for itself.
	man, err := readManifest(root.FS())
	if err != nil {
		return rustapi.ExternAPI{}
	}
	res, _, _ := libraryAPI(root.FS(), man, lc.name, c.lim, func(man *manifest) func(string) rustapi.ExternAPI {
		return c.externAPI(man, depth)
	})
	api = rustapi.ExternAPI{Symbols: res.Symbols, Aliases: res.Aliases, Macros: res.Macros}
	prefix := filepath.Base(lc.dir) + "/"
	for i := range api.Symbols {
		// Symbols inlined from the crate's own dependencies are already under theirs.
		if f := api.Symbols[i].File; f != "" && !crateDirFile.MatchString(f) {
			api.Symbols[i].File = prefix + f
		}
	}
	c.apiMu.Lock()
	if c.apis == nil {
		c.apis = map[apiKey]rustapi.ExternAPI{}
	}
	if len(c.apis) < maxExternAPIs {
		c.apis[apiKey{lc.dir, depth}] = api
	}
	c.apiMu.Unlock()
	return api
}

// localCrate is one extracted crate version.
type localCrate struct {
	name, version string
	dir           string
	mod           time.Time
}

// NewCache returns a Cache over dir: a cargo home ($CARGO_HOME, holding registry/src), its
// registry directory, or registry/src itself. It fails when dir is not a directory or holds no
// registry/src.
func NewCache(dir string, cfg CacheConfig) (*Cache, error) {
	abs, err := installed.Dir(dir, "cargo: cargo home")
	if err != nil {
		return nil, err
	}
	c := &Cache{cfg: cfg, log: cfg.Logger, lim: cfg.Limits.withDefaults()}
	switch {
	case isDir(filepath.Join(abs, "registry", "src")):
		c.home, c.src = abs, filepath.Join(abs, "registry", "src")
	case filepath.Base(abs) == "registry" && isDir(filepath.Join(abs, "src")):
		c.home, c.src = filepath.Dir(abs), filepath.Join(abs, "src")
	case filepath.Base(abs) == "src" && filepath.Base(filepath.Dir(abs)) == "registry":
		c.home, c.src = filepath.Dir(filepath.Dir(abs)), abs
	default:
		return nil, fmt.Errorf("cargo: %s holds no registry/src: pass cargo's home directory ($CARGO_HOME, usually ~/.cargo) after cargo has fetched crates", abs)
	}
	c.log = defaults.Logger(c.log)
	c.cfg.Now = defaults.Now(c.cfg.Now)
	return c, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Ecosystem returns docidx.Cargo.
func (c *Cache) Ecosystem() docidx.Ecosystem { return Ecosystem }

// Dir returns the registry/src directory read.
func (c *Cache) Dir() string { return c.src }

// String returns the directory read, for logs and snapshot manifests.
func (c *Cache) String() string { return c.src }

// SplitDirName splits an extracted crate directory's name, "<name>-<version>", into the crate
// name and version. Names may hold "-" and digits ("md-5-0.10.6" is md-5 0.10.6) and versions
// may hold "-" too ("foo-1.0.0-rc.1"), but names never hold "." while every version does: the
// version starts at the digits before the first "." and must be semantic versioning 2.0.0. ok is
// false for anything else.
func SplitDirName(dir string) (name, version string, ok bool) {
	dot := strings.IndexByte(dir, '.')
	if dot <= 0 {
		return "", "", false
	}
	i := dot
	for i > 0 && dir[i-1] >= '0' && dir[i-1] <= '9' {
		i--
	}
	if i == dot || i < 2 || dir[i-1] != '-' {
		return "", "", false
	}
	name, version = dir[:i-1], dir[i:]
	if !ValidName(name) {
		return "", "", false
	}
	if _, err := semver.StrictNewVersion(version); err != nil {
		return "", "", false
	}
	return name, version, true
}

// scan reads registry/src once.
func (c *Cache) scan() {
	c.once.Do(func() {
		c.crates = map[string][]localCrate{}
		indexes, err := os.ReadDir(c.src)
		if err != nil {
			c.scanErr = fmt.Errorf("cargo: %w", err)
			return
		}
		type key struct{ name, version string }
		best := map[key]localCrate{}
		for _, idx := range indexes {
			if !idx.IsDir() || strings.HasPrefix(idx.Name(), ".") {
				continue
			}
			idxDir := filepath.Join(c.src, idx.Name())
			entries, err := os.ReadDir(idxDir)
			if err != nil {
				c.log.Debug("cargo: skipping index directory", "dir", idxDir, "err", err)
				continue
			}
			for _, e := range entries {
				name, version, ok := SplitDirName(e.Name())
				if !ok || !e.IsDir() {
					continue
				}
				dir := filepath.Join(idxDir, e.Name())
				st, err := os.Stat(filepath.Join(dir, "Cargo.toml"))
				if err != nil || !st.Mode().IsRegular() {
					c.log.Debug("cargo: skipping crate directory without Cargo.toml", "dir", dir)
					continue
				}
				lc := localCrate{name: name, version: version, dir: dir, mod: st.ModTime()}
				if ok, err := os.Stat(filepath.Join(dir, ".cargo-ok")); err == nil {
					lc.mod = ok.ModTime()
				}
				k := key{strings.ToLower(name), version}
				if prev, dup := best[k]; !dup || lc.mod.After(prev.mod) || lc.mod.Equal(prev.mod) && lc.dir < prev.dir {
					best[k] = lc
				}
			}
		}
		for k, lc := range best {
			c.crates[k.name] = append(c.crates[k.name], lc)
		}
		for _, list := range c.crates {
			sort.Slice(list, func(i, j int) bool {
				return docidx.CompareVersions(Ecosystem, list[i].version, list[j].version) < 0
			})
		}
	})
}

// List returns every crate version extracted in the cache, sorted by name then version.
func (c *Cache) List(ctx context.Context) ([]docidx.Ref, error) {
	c.scan()
	if c.scanErr != nil {
		return nil, c.scanErr
	}
	var refs []docidx.Ref
	for _, list := range c.crates {
		for _, lc := range list {
			refs = append(refs, docidx.Ref{Ecosystem: Ecosystem, Name: lc.name, Version: lc.version})
		}
	}
	sort.Slice(refs, func(i, j int) bool {
		if refs[i].Name != refs[j].Name {
			return refs[i].Name < refs[j].Name
		}
		return docidx.CompareVersions(Ecosystem, refs[i].Version, refs[j].Version) < 0
	})
	return refs, ctx.Err()
}

// versions returns the extracted versions of name (case-insensitively; "-" and "_" swapped when
// nothing matches), oldest first.
func (c *Cache) versions(name string) []localCrate {
	c.scan()
	if list := c.crates[strings.ToLower(name)]; len(list) > 0 {
		return list
	}
	for _, alt := range []string{strings.ReplaceAll(name, "-", "_"), strings.ReplaceAll(name, "_", "-")} {
		if list := c.crates[strings.ToLower(alt)]; len(list) > 0 {
			return list
		}
	}
	return nil
}

// Resolve returns the extracted version of crate name that query selects, with the rules of
// Registry.Resolve over the versions present (nothing is known to be yanked offline). Errors wrap
// docidx.ErrNotFound or docidx.ErrBadSpec.
func (c *Cache) Resolve(ctx context.Context, name, query string) (string, error) {
	lc, err := c.find(name, query)
	if err != nil {
		return "", err
	}
	return lc.version, nil
}

func (c *Cache) find(name, query string) (*localCrate, error) {
	c.scan()
	if !ValidName(name) {
		return nil, fmt.Errorf("cargo: %w: %q is not a valid crate name", docidx.ErrBadSpec, name)
	}
	list := c.versions(name)
	if c.scanErr != nil {
		return nil, c.scanErr
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("cargo: crate %s is not in %s: %w", name, c.src, docidx.ErrNotFound)
	}
	vs := make([]string, len(list))
	for i, lc := range list {
		vs[i] = lc.version
	}
	v, err := resolveVersion(list[0].name, vs, func(string) bool { return false }, query)
	if err != nil {
		return nil, fmt.Errorf("cargo: %w (in %s)", err, c.src)
	}
	for i := range list {
		if list[i].version == v {
			return &list[i], nil
		}
	}
	return nil, fmt.Errorf("cargo: crate %s@%s is not in %s: %w", name, v, c.src, docidx.ErrNotFound)
}

// Fetch extracts crate name at version (exact, or resolved as by Resolve) from its directory
// under registry/src: metadata from its Cargo.toml, README, docs/, examples/ and public API.
// Versions lists the extracted versions and Source is the crate's directory; Published stays
// zero (the cache does not record it). Errors wrap docidx.ErrNotFound or docidx.ErrBadSpec.
func (c *Cache) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	lc, err := c.find(name, version)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// os.Root keeps every read inside the crate's directory, symlinks included.
	root, err := os.OpenRoot(lc.dir)
	if err != nil {
		return nil, fmt.Errorf("cargo: %s@%s: %w", lc.name, lc.version, err)
	}
	defer root.Close()
	cont, err := buildContents(root.FS(), lc.name, c.lim, func(man *manifest) func(string) rustapi.ExternAPI {
		return c.externAPI(man, 0)
	})
	if err != nil {
		return nil, fmt.Errorf("cargo: %s@%s (%s): %w", lc.name, lc.version, lc.dir, err)
	}
	for _, err := range cont.skipped {
		skip.File(c.log, "cargo: file skipped", err, "crate", lc.name, "version", lc.version)
	}
	for _, p := range cont.problems {
		c.log.Debug("cargo: "+p, "crate", lc.name, "version", lc.version)
	}
	pkg := docidx.Package{Ecosystem: Ecosystem, Name: lc.name, Version: lc.version, Source: lc.dir, CrawledAt: c.cfg.Now().UTC()}
	if cont.man.name != "" && strings.EqualFold(cont.man.name, lc.name) {
		pkg.Name = cont.man.name
	}
	cont.man.packageInfo(&pkg)
	for _, x := range c.versions(lc.name) {
		pkg.Versions = append(pkg.Versions, x.version)
	}
	return &docidx.PackageDocs{Package: pkg, Documents: cont.docs, Symbols: cont.symbols}, nil
}
