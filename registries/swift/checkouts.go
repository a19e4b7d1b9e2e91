package swift

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/installed"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/swift/internal/swiftsrc"
)

// CheckoutsConfig configures NewCheckouts. The zero value is ready to use.
type CheckoutsConfig struct {
	// Logger receives skipped entries and files at debug level and dropped content at warn
	// level; nil discards.
	Logger *slog.Logger
	// Limits bounds the extraction of each package version.
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// Checkouts is a docidx.Cache over the dependencies SwiftPM resolved for one project: the
// working copies in .build/checkouts/<name> and the registry downloads in
// .build/registry/downloads/<scope>/<name>/<version>, with identities, repository locations and
// versions from .build/workspace-state.json. Xcode's DerivedData/<project>/SourcePackages
// directory has the same layout and works too. Checkout directories that workspace-state.json
// does not list are read with the commit their git HEAD names as version.
//
// A package's Name is its SwiftPM identity, lowercased: the last path element of its repository
// URL without ".git" ("swift-argument-parser"), or "scope.name" for registry packages. Resolve
// and Fetch also accept the name in its Package.swift, the checkout directory's name and the
// repository location (any URL form, or "owner/repo"), case-insensitively.
//
// It never touches the network and never writes; the directory is scanned once, on first use.
// A Checkouts is safe for concurrent use.
type Checkouts struct {
	dir string
	cfg CheckoutsConfig
	log *slog.Logger

	once    sync.Once
	deps    map[string][]*dependency // identity -> versions, oldest first
	aliases map[string]string        // lowercased alias -> identity
	scanErr error
}

// NewCheckouts returns a Checkouts over dir: a project directory holding .build, a .build
// directory, Xcode's SourcePackages directory, or a checkouts directory (whose parent is used).
// It fails when dir holds neither workspace-state.json nor a checkouts or registry/downloads
// directory.
func NewCheckouts(dir string, cfg CheckoutsConfig) (*Checkouts, error) {
	abs, err := installed.Dir(dir, "swift: checkouts")
	if err != nil {
		return nil, err
	}
	isBuild := func(d string) bool {
		for _, p := range []string{"workspace-state.json", "checkouts", filepath.Join("registry", "downloads")} {
			if _, err := os.Stat(filepath.Join(d, p)); err == nil {
				return true
			}
		}
		return false
	}
	switch {
	case isBuild(filepath.Join(abs, ".build")):
		abs = filepath.Join(abs, ".build")
	case isBuild(abs):
	case filepath.Base(abs) == "checkouts" && isBuild(filepath.Dir(abs)):
		abs = filepath.Dir(abs)
	default:
		return nil, fmt.Errorf("swift: %s holds no SwiftPM build directory (.build with workspace-state.json or checkouts/); run `swift package resolve` there first", abs)
	}
	cfg.Logger = defaults.Logger(cfg.Logger)
	cfg.Now = defaults.Now(cfg.Now)
	return &Checkouts{dir: abs, cfg: cfg, log: cfg.Logger}, nil
}

// Dir returns the build directory read (absolute).
func (c *Checkouts) Dir() string { return c.dir }

// Ecosystem returns docidx.Swift.
func (c *Checkouts) Ecosystem() docidx.Ecosystem { return Ecosystem }

// String returns the build directory, for logs and snapshot manifests.
func (c *Checkouts) String() string { return c.dir }

// load scans the build directory once.
func (c *Checkouts) load() error {
	c.once.Do(func() {
		var deps []dependency
		data, err := readSmallFile(filepath.Join(c.dir, "workspace-state.json"), MaxWorkspaceState)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			c.scanErr = fmt.Errorf("swift: %w", err)
			return
		default:
			deps, err = parseWorkspaceState(data, c.dir)
			if err != nil {
				c.scanErr = fmt.Errorf("swift: %s: %w", filepath.Join(c.dir, "workspace-state.json"), err)
				return
			}
		}
		claimed := map[string]bool{}
		c.deps = map[string][]*dependency{}
		c.aliases = map[string]string{}
		add := func(d dependency) {
			if st, err := os.Stat(d.dir); err != nil || !st.IsDir() {
				c.log.Debug("swift: dependency not on disk", "identity", d.identity, "dir", d.dir)
				return
			}
			key := d.identity + "@" + d.version
			if claimed[key] {
				return
			}
			claimed[key], claimed[d.dir] = true, true
			c.deps[d.identity] = append(c.deps[d.identity], &d)
		}
		for _, d := range deps {
			add(d)
		}
		// Checkouts that the state file does not list, named by their HEAD commit.
		if entries, err := os.ReadDir(filepath.Join(c.dir, "checkouts")); err == nil {
			for _, e := range entries {
				dir := filepath.Join(c.dir, "checkouts", e.Name())
				if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || claimed[dir] {
					continue
				}
				rev, branch := gitHead(dir)
				v := shortRev(rev)
				if v == "" {
					v = branch
				}
				if v == "" {
					c.log.Debug("swift: checkout without version skipped", "dir", dir)
					continue
				}
				add(dependency{identity: strings.ToLower(e.Name()), version: v, revision: rev, branch: branch, dir: dir})
			}
		}
		// Registry downloads that the state file does not list: <scope>/<name>/<version>.
		downloads := filepath.Join(c.dir, "registry", "downloads")
		if scopes, err := os.ReadDir(downloads); err == nil {
			for _, s := range scopes {
				names, _ := os.ReadDir(filepath.Join(downloads, s.Name()))
				for _, n := range names {
					versions, _ := os.ReadDir(filepath.Join(downloads, s.Name(), n.Name()))
					for _, v := range versions {
						dir := filepath.Join(downloads, s.Name(), n.Name(), v.Name())
						id := strings.ToLower(s.Name() + "." + n.Name())
						if _, _, err := ParseIdentity(id); err != nil || !v.IsDir() || claimed[dir] {
							continue
						}
						add(dependency{identity: id, registry: true, version: v.Name(), dir: dir})
					}
				}
			}
		}
		for id, list := range c.deps {
			sort.Slice(list, func(i, j int) bool {
				return docidx.CompareVersions(docidx.Swift, list[i].version, list[j].version) < 0
			})
			c.alias(id, id)
			for _, d := range list {
				c.alias(d.name, id)
				if !d.registry {
					c.alias(filepath.Base(d.dir), id) // the checkout directory
				}
				if loc := normalizeLocation(d.location); loc != "" {
					c.alias(loc, id)
					if parts := strings.Split(loc, "/"); len(parts) >= 3 {
						c.alias(strings.Join(parts[len(parts)-2:], "/"), id)
					}
				}
				if src, err := memfs.ReadLimited(os.DirFS(d.dir), "Package.swift", maxManifest); err == nil {
					c.alias(swiftsrc.ReadManifest(src).Name, id)
				}
			}
		}
	})
	return c.scanErr
}

// alias records a lowercased alias of identity; an alias already taken keeps its first owner,
// and an identity always names itself.
func (c *Checkouts) alias(a, identity string) {
	a = strings.ToLower(strings.TrimSpace(a))
	if a == "" {
		return
	}
	if _, taken := c.aliases[a]; !taken || a == identity {
		c.aliases[a] = identity
	}
}

// lookup returns the identity that name means.
func (c *Checkouts) lookup(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if id, ok := c.aliases[n]; ok {
		return id, true
	}
	id, ok := c.aliases[normalizeLocation(n)]
	return id, ok
}

// List returns every package version in the build directory, sorted by identity then version.
func (c *Checkouts) List(ctx context.Context) ([]docidx.Ref, error) {
	if err := c.load(); err != nil {
		return nil, err
	}
	return installed.Refs(Ecosystem, c.deps, func(d *dependency) string { return d.version }), ctx.Err()
}

// Resolve returns the version of package name in the build directory that query selects: ""
// or "latest" for the highest version, an exact version, a commit (12 or more hex digits, or the
// full revision) or a branch name of a checkout, or a version range as in Registry.Resolve.
// Errors wrap docidx.ErrNotFound when the package or a matching version is not there, or
// docidx.ErrBadSpec for a malformed range.
func (c *Checkouts) Resolve(ctx context.Context, name, query string) (string, error) {
	if err := c.load(); err != nil {
		return "", err
	}
	id, ok := c.lookup(name)
	if !ok {
		return "", fmt.Errorf("swift: resolve %s@%s: not among the dependencies in %s: %w", name, orLatest(query), c.dir, docidx.ErrNotFound)
	}
	d, err := c.pick(id, query)
	if err != nil {
		return "", fmt.Errorf("swift: resolve %s@%s in %s: %w", name, orLatest(query), c.dir, err)
	}
	return d.version, nil
}

// pick returns identity's dependency that query selects.
func (c *Checkouts) pick(id, query string) (*dependency, error) {
	list := c.deps[id]
	q := strings.TrimSpace(query)
	versions := make([]string, len(list))
	for i, d := range list {
		versions[i] = d.version
		if q != "" && (d.version == q || d.branch == q || len(q) >= 7 && isHex(q) && strings.HasPrefix(strings.ToLower(d.revision), strings.ToLower(q))) {
			return d, nil
		}
	}
	v, err := selectVersion(versions, q)
	if errors.Is(err, docidx.ErrBadSpec) && !strings.ContainsAny(q, "<>=^~*, ") && !strings.Contains(q, "..") {
		// A word that is not a version: a branch or commit this build does not have.
		return nil, fmt.Errorf("no version, commit or branch %q (have %s): %w", q, summarize(versions), docidx.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	for _, d := range list {
		if d.version == v {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no version %q: %w", q, docidx.ErrNotFound)
}

// Fetch reads package name at version (as Resolve selects it) from its directory: metadata,
// README, DocC articles, docs/, examples/ and the public API of every module. Package.Repository
// is the dependency's repository location made browsable, Versions lists the versions in the
// build directory and Source is the package's directory. Errors wrap docidx.ErrNotFound when the
// package version is not there.
func (c *Checkouts) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if err := c.load(); err != nil {
		return nil, err
	}
	id, ok := c.lookup(name)
	if !ok {
		return nil, fmt.Errorf("swift: fetch %s@%s: not among the dependencies in %s: %w", name, orLatest(version), c.dir, docidx.ErrNotFound)
	}
	d, err := c.pick(id, version)
	if err != nil {
		return nil, fmt.Errorf("swift: fetch %s@%s in %s: %w", name, orLatest(version), c.dir, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pc, err := extractPackage(ctx, os.DirFS(d.dir), id, c.cfg.Limits, c.log)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w: %w", err, docidx.ErrNotFound)
		}
		return nil, fmt.Errorf("swift: fetch %s@%s: %w", id, d.version, err)
	}
	var versions []string
	for _, o := range c.deps[id] {
		versions = append(versions, o.version)
	}
	p := docidx.Package{
		Ecosystem:   Ecosystem,
		Name:        id,
		Version:     d.version,
		Versions:    versions,
		Description: pc.summary,
		License:     pc.license,
		Repository:  browsable(d.location),
		Source:      d.dir,
		CrawledAt:   c.cfg.Now().UTC(),
		Requires:    pc.requires(),
		Commands:    pc.commands(),
	}
	return &docidx.PackageDocs{Package: p, Documents: pc.documents, Symbols: pc.symbols}, nil
}
