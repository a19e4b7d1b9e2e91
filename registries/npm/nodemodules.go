package npm

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/installed"
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
)

// DefaultMaxNesting is how many node_modules levels below the top NodeModules descends.
const DefaultMaxNesting = 8

// maxPackageJSON is the largest package.json NodeModules reads, in bytes.
const maxPackageJSON = 4 << 20

// NodeModulesConfig configures NewNodeModules. The zero value is ready to use.
type NodeModulesConfig struct {
	// Logger receives notes about skipped files; nil discards them.
	Logger *slog.Logger
	// MaxNesting bounds nested node_modules levels; 0 means DefaultMaxNesting.
	MaxNesting int
	// Limits bounds what is read from each package's files (its fields about packuments and
	// tarballs do not apply).
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// NodeModules reads packages installed in a node_modules directory. It understands npm's and
// yarn's hoisted layout (node_modules/name, node_modules/@scope/name), nested copies
// (node_modules/a/node_modules/b, to MaxNesting levels) and pnpm's store
// (node_modules/.pnpm/<name with "/" as "+">@<version>[_peers]/node_modules/<name>); symlinks are
// resolved and each real directory is read once. Package names and versions come from each
// package.json; directories without both, and .bin, .cache and other dot entries, are skipped.
//
// It implements docidx.Cache, never touches the network, and is safe for concurrent use. The tree
// is scanned once, on first use.
type NodeModules struct {
	dir string
	cfg NodeModulesConfig
	log *slog.Logger

	once    sync.Once
	pkgs    map[string][]nmPackage // name -> versions, oldest first
	scanErr error
}

// nmPackage is one package version found on disk.
type nmPackage struct {
	name, version string
	dir           string // real path
	// root tells the version the tree's top level holds (node_modules/name, or pnpm's symlink
	// there): the one the project resolves by name, whatever copies are nested below.
	root bool
}

var _ docidx.Cache = (*NodeModules)(nil)

// NewNodeModules returns a NodeModules over dir, a node_modules directory or a project directory
// that holds one. It returns an error when dir is not a directory.
func NewNodeModules(dir string, cfg NodeModulesConfig) (*NodeModules, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("npm: node_modules %s: %w", dir, err)
	}
	if filepath.Base(abs) != "node_modules" {
		if st, err := os.Stat(filepath.Join(abs, "node_modules")); err == nil && st.IsDir() {
			abs = filepath.Join(abs, "node_modules")
		}
	}
	abs, err = installed.Dir(abs, "npm: node_modules")
	if err != nil {
		return nil, err
	}
	cfg.Logger = defaults.Logger(cfg.Logger)
	limit.Default(&cfg.MaxNesting, DefaultMaxNesting)
	cfg.Now = defaults.Now(cfg.Now)
	return &NodeModules{dir: abs, cfg: cfg, log: cfg.Logger}, nil
}

// Dir returns the node_modules directory read.
func (n *NodeModules) Dir() string { return n.dir }

// String returns the node_modules directory, for logs and the snapshot manifest's sources.
func (n *NodeModules) String() string { return n.dir }

// Ecosystem returns docidx.NPM.
func (n *NodeModules) Ecosystem() docidx.Ecosystem { return Ecosystem }

// load scans the tree once.
func (n *NodeModules) load() error {
	n.once.Do(func() {
		s := &nmScanner{max: n.cfg.MaxNesting, seenPkg: map[string]bool{}, seenNM: map[string]bool{}, byRef: map[string]nmPackage{}, keyOf: map[string]string{}}
		if _, err := os.ReadDir(n.dir); err != nil {
			n.scanErr = fmt.Errorf("npm: node_modules: %w", err)
			return
		}
		s.walkNodeModules(n.dir, 0)
		roots := s.roots(n.dir)
		n.pkgs = map[string][]nmPackage{}
		for key, in := range s.byRef {
			in.root = roots[key]
			n.pkgs[in.name] = append(n.pkgs[in.name], in)
		}
		for _, list := range n.pkgs {
			sort.Slice(list, func(i, j int) bool {
				return docidx.CompareVersions(docidx.NPM, list[i].version, list[j].version) < 0
			})
		}
		skip.Errors(n.log, "npm: node_modules entries skipped", s.errs, "dir", n.dir)
	})
	return n.scanErr
}

type nmScanner struct {
	max     int
	seenPkg map[string]bool      // real package directories
	seenNM  map[string]bool      // real node_modules directories
	byRef   map[string]nmPackage // name@version -> the copy with the shortest path
	keyOf   map[string]string    // real package directory -> its name@version
	errs    []error              // package.json files skipped
}

// roots returns the name@version of each package the top level of node_modules directory top
// holds (top/name, top/@scope/name), through links: what the project resolves by name.
func (s *nmScanner) roots(top string) map[string]bool {
	out := map[string]bool{}
	add := func(p string) {
		if real, err := filepath.EvalSymlinks(p); err == nil && s.keyOf[real] != "" {
			out[s.keyOf[real]] = true
		}
	}
	entries, _ := os.ReadDir(top)
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case strings.HasPrefix(name, "@"):
			scoped, _ := os.ReadDir(filepath.Join(top, name))
			for _, c := range scoped {
				add(filepath.Join(top, name, c.Name()))
			}
		default:
			add(filepath.Join(top, name))
		}
	}
	return out
}

// firstVisit resolves the links in path and marks the real path in seen. It returns the real
// path and whether this is its first visit; a path that does not resolve is no first visit.
func firstVisit(seen map[string]bool, path string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || seen[real] {
		return "", false
	}
	seen[real] = true
	return real, true
}

func (s *nmScanner) walkNodeModules(nm string, depth int) {
	if _, first := firstVisit(s.seenNM, nm); !first {
		return
	}
	entries, err := os.ReadDir(nm)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == ".pnpm":
			s.walkPnpmStore(filepath.Join(nm, name), depth)
		case strings.HasPrefix(name, "."):
			// .bin, .cache, .package-lock.json, .modules.yaml …
		case strings.HasPrefix(name, "@"):
			scoped, err := os.ReadDir(filepath.Join(nm, name))
			if err != nil {
				continue
			}
			for _, c := range scoped {
				if !strings.HasPrefix(c.Name(), ".") {
					s.visitPackage(filepath.Join(nm, name, c.Name()), depth)
				}
			}
		default:
			s.visitPackage(filepath.Join(nm, name), depth)
		}
	}
}

// walkPnpmStore reads node_modules/.pnpm/<entry>/node_modules/<name> for every store entry.
func (s *nmScanner) walkPnpmStore(store string, depth int) {
	entries, err := os.ReadDir(store)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "node_modules" || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		inner := filepath.Join(store, e.Name(), "node_modules")
		if name := pnpmStoreName(e.Name()); name != "" {
			dir := filepath.Join(inner, filepath.FromSlash(name))
			if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
				s.visitPackage(dir, depth)
				continue
			}
		}
		// Long entry names are hashed: the package is the one real directory; its dependencies
		// beside it are symlinks.
		children, err := os.ReadDir(inner)
		if err != nil {
			continue
		}
		for _, c := range children {
			p := filepath.Join(inner, c.Name())
			if c.Type()&os.ModeSymlink != 0 || !c.IsDir() {
				continue
			}
			if strings.HasPrefix(c.Name(), "@") {
				scoped, _ := os.ReadDir(p)
				for _, sc := range scoped {
					if sc.Type()&os.ModeSymlink == 0 && sc.IsDir() {
						s.visitPackage(filepath.Join(p, sc.Name()), depth)
					}
				}
				continue
			}
			s.visitPackage(p, depth)
		}
	}
}

// pnpmStoreName returns the package name encoded in a pnpm store entry name
// ("@babel+core@7.24.0" -> "@babel/core", "react-dom@18.2.0_react@18.2.0" -> "react-dom").
func pnpmStoreName(entry string) string {
	from := 0
	if strings.HasPrefix(entry, "@") {
		from = 1
	}
	i := strings.IndexByte(entry[from:], '@')
	if i <= 0 {
		return ""
	}
	name := entry[:from+i]
	if from == 1 {
		name = strings.Replace(name, "+", "/", 1)
	}
	return name
}

func (s *nmScanner) visitPackage(dir string, depth int) {
	real, first := firstVisit(s.seenPkg, dir)
	if !first {
		return
	}
	st, err := os.Stat(real)
	if err != nil || !st.IsDir() {
		return
	}
	if m, err := readManifestFile(filepath.Join(real, "package.json")); err == nil {
		name, version := strings.TrimSpace(string(m.Name)), strings.TrimSpace(string(m.Version))
		if name != "" && version != "" && ValidName(name) {
			key := name + "@" + version
			s.keyOf[real] = key
			if prev, ok := s.byRef[key]; !ok || len(real) < len(prev.dir) {
				s.byRef[key] = nmPackage{name: name, version: version, dir: real}
			}
		}
	} else if !os.IsNotExist(err) {
		s.errs = append(s.errs, err)
	}
	if depth < s.max {
		s.walkNodeModules(filepath.Join(real, "node_modules"), depth+1)
	}
}

func readManifestFile(p string) (*manifest, error) {
	b, err := memfs.ReadLimited(os.DirFS(filepath.Dir(p)), filepath.Base(p), maxPackageJSON)
	if err != nil {
		return nil, err
	}
	m, err := parseManifest(trimBOM(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

// List returns every package version installed, sorted by name then version (oldest first).
func (n *NodeModules) List(ctx context.Context) ([]docidx.Ref, error) {
	if err := n.load(); err != nil {
		return nil, err
	}
	return installed.Refs(docidx.NPM, n.pkgs, func(p nmPackage) string { return p.version }), ctx.Err()
}

// Resolve returns the installed version of name that query selects: "" and "latest" select the
// newest installed release; an exact version must be installed; a semver range selects the newest
// installed version in it. Dist-tags other than latest are unknown offline. Errors wrap
// docidx.ErrNotFound or, for an unparsable range, docidx.ErrBadSpec.
func (n *NodeModules) Resolve(ctx context.Context, name, query string) (string, error) {
	if err := n.load(); err != nil {
		return "", err
	}
	list := n.pkgs[name]
	if len(list) == 0 {
		return "", fmt.Errorf("npm: package %s is not installed in %s: %w", name, n.dir, docidx.ErrNotFound)
	}
	versions := make([]string, len(list))
	for i, in := range list {
		versions[i] = in.version
	}
	query = strings.TrimSpace(query)
	if query == "" || query == "latest" {
		return highest(versions, func(string) bool { return true }, true), nil
	}
	for _, v := range versions {
		if v == query || "v"+v == query || "="+v == query {
			return v, nil
		}
	}
	if _, err := semver.StrictNewVersion(strings.TrimPrefix(strings.TrimPrefix(query, "="), "v")); err == nil {
		return "", fmt.Errorf("npm: %s@%s is not installed in %s (installed: %s): %w", name, query, n.dir, strings.Join(versions, ", "), docidx.ErrNotFound)
	}
	c, err := semver.NewConstraint(query)
	if err != nil {
		return "", fmt.Errorf("npm: %s: %q is not a version or range (node_modules has no dist-tags but latest): %w", name, query, docidx.ErrNotFound)
	}
	if v := highest(versions, func(v string) bool {
		sv, err := semver.NewVersion(v)
		return err == nil && c.Check(sv)
	}, false); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("npm: no installed version of %s matches %q (installed: %s): %w", name, query, strings.Join(versions, ", "), docidx.ErrNotFound)
}

// Fetch reads name@version from its installed directory: package.json metadata, README (or the
// readme field older npm versions stored in package.json), docs/, examples/ and the API declared
// in its .d.ts files. Package.Source is the directory; Package.Root is set when several versions
// are installed and this one is the tree's top-level copy. Errors wrap docidx.ErrNotFound when
// the version is not installed.
func (n *NodeModules) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if err := n.load(); err != nil {
		return nil, err
	}
	var in *nmPackage
	var versions []string
	for i := range n.pkgs[name] {
		versions = append(versions, n.pkgs[name][i].version)
		if n.pkgs[name][i].version == version {
			in = &n.pkgs[name][i]
		}
	}
	if in == nil {
		return nil, fmt.Errorf("npm: %s@%s is not installed in %s: %w", name, version, n.dir, docidx.ErrNotFound)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := readManifestFile(filepath.Join(in.dir, "package.json"))
	if err != nil {
		return nil, fmt.Errorf("npm: %s@%s: %w", name, version, err)
	}
	fsys := os.DirFS(in.dir)
	lim := n.cfg.Limits
	c := buildContents(fsys, name, version, m.readme(), string(m.ReadmeFilename), lim)
	a := packageAPI(ctx, fsys, m, name, version, lim, &nmFinder{n: n, dirs: map[string]string{name: in.dir}})
	logExtraction(n.log, name, version, &c, &a)
	pkg := packageFromManifest(m, m, name, version)
	pkg.Versions = versions
	pkg.Source = in.dir
	pkg.Root = in.root && len(versions) > 1
	pkg.CrawledAt = n.cfg.Now().UTC()
	return &docidx.PackageDocs{Package: pkg, Documents: c.docs, Symbols: a.symbols}, nil
}

// maxResolveLevels bounds the parent directories resolveFrom climbs from a package's directory.
const maxResolveLevels = 64

// nmFinder finds the other packages of one extraction in a node_modules tree as Node.js's
// require.resolve does (https://nodejs.org/api/modules.html#loading-from-node_modules-folders):
// in the node_modules directory of the requiring package's directory and of each of its parents,
// nearest first, and finally in the top node_modules NodeModules reads.
type nmFinder struct {
	n    *NodeModules
	dirs map[string]string // package name -> real directory, for the packages found so far
}

func (f *nmFinder) typesFor(ctx context.Context, name, version string) (*otherPackage, error) {
	return f.dependency(ctx, name, typesPackageName(name)), nil
}

func (f *nmFinder) dependency(ctx context.Context, from, pkgName string) *otherPackage {
	start, ok := f.dirs[from]
	if !ok || ctx.Err() != nil {
		return nil
	}
	dir, ok := f.n.resolveFrom(start, pkgName)
	if !ok {
		return nil
	}
	m, err := readManifestFile(filepath.Join(dir, "package.json"))
	if err != nil || strings.TrimSpace(string(m.Name)) != pkgName {
		return nil
	}
	if _, dup := f.dirs[pkgName]; !dup {
		f.dirs[pkgName] = dir
	}
	return &otherPackage{name: pkgName, version: strings.TrimSpace(string(m.Version)), fsys: os.DirFS(dir), m: m}
}

// resolveFrom returns the real directory of package pkgName as Node.js finds it from directory
// dir: dir/node_modules/pkgName, then the same in each parent of dir (skipping directories named
// node_modules) up to the directory that holds the top node_modules, then in the top
// node_modules. ok is false when it is installed nowhere there.
func (n *NodeModules) resolveFrom(dir, pkgName string) (string, bool) {
	if !ValidName(pkgName) {
		return "", false
	}
	rel := filepath.FromSlash(pkgName)
	try := func(nm string) (string, bool) {
		cand := filepath.Join(nm, rel)
		if st, err := os.Stat(filepath.Join(cand, "package.json")); err != nil || !st.Mode().IsRegular() {
			return "", false
		}
		real, err := filepath.EvalSymlinks(cand)
		return real, err == nil
	}
	// Climb within the project that holds the top node_modules; from a package stored outside it
	// (a pnpm store elsewhere), only a few levels, to the store entry's node_modules.
	top := n.dir
	if real, err := filepath.EvalSymlinks(n.dir); err == nil {
		top = real
	}
	project := filepath.Dir(top)
	levels := maxResolveLevels
	if !strings.HasPrefix(dir, project+string(filepath.Separator)) {
		levels = 4
	}
	for i := 0; i < levels; i++ {
		if filepath.Base(dir) != "node_modules" {
			if p, ok := try(filepath.Join(dir, "node_modules")); ok {
				return p, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir || dir == project {
			break
		}
		dir = parent
	}
	return try(n.dir)
}
