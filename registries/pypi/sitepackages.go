package pypi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/installed"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
)

// SitePackagesConfig configures NewSitePackages. The zero value is ready to use.
type SitePackagesConfig struct {
	// Logger receives notes about skipped files and distributions; nil discards them.
	Logger *slog.Logger
	// Limits bounds what reading one distribution may cost; zero fields mean the defaults.
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
	// Environment is the marker environment of the interpreter the directory belongs to, used by
	// EvalMarker and Requires; nil means SitePackagesEnvironment(dir).
	Environment Environment
}

// SitePackages reads the distributions installed in one site-packages (or Debian dist-packages)
// directory, implementing docidx.Cache. It understands:
//
//   - *.dist-info directories (https://packaging.python.org/en/latest/specifications/recording-installed-packages/):
//     METADATA for metadata and the long description, RECORD for the distribution's files;
//   - *.egg-info directories (setuptools and Debian packages): PKG-INFO, with installed-files.txt,
//     top_level.txt or SOURCES.txt for the files;
//   - *.egg-info files (old distutils installs): the file is the metadata, and the files are the
//     module or package named like the distribution.
//
// When a distribution lists no files, its modules are found from top_level.txt, else the package
// directory or module named like the distribution. A distribution's API is read from the .pyi
// stubs and .py sources among its files (see Registry for what is public). Names are PEP 503
// normalized ("PyYAML" is listed and fetched as "pyyaml"); the same name and version installed
// twice (a dist-info and a leftover egg-info) is listed once, the dist-info preferred.
//
// An installed distribution has no docs/ or examples/ (a wheel carries none), so its documents
// are its README alone; the Registry reads those of the same version from its sdist.
//
// SitePackages never touches the network and is safe for concurrent use. The directory is scanned
// once, on first use.
type SitePackages struct {
	dir string
	cfg SitePackagesConfig
	lim Limits
	log *slog.Logger

	once    sync.Once
	dists   map[string][]*installedDist // normalized name -> versions, oldest first
	scanErr error
}

var _ docidx.Cache = (*SitePackages)(nil)

// distForm says how a distribution is recorded.
type distForm int

const (
	distInfo    distForm = iota // name-version.dist-info/
	eggInfoDir                  // name-version[-pyX.Y].egg-info/
	eggInfoFile                 // name-version[-pyX.Y].egg-info (a file)
)

// installedDist is one distribution found in the directory.
type installedDist struct {
	name     string // as its metadata spells it
	version  string
	form     distForm
	infoPath string   // the .dist-info or .egg-info entry, relative to the directory
	requires []string // Requires-Dist, or an egg-info's requires.txt as PEP 508 requirements
}

// NewSitePackages returns a SitePackages over dir. It returns an error when dir is not a directory.
func NewSitePackages(dir string, cfg SitePackagesConfig) (*SitePackages, error) {
	abs, err := installed.Dir(dir, "pypi: site-packages")
	if err != nil {
		return nil, err
	}
	cfg.Logger = defaults.Logger(cfg.Logger)
	cfg.Now = defaults.Now(cfg.Now)
	if cfg.Environment == nil {
		cfg.Environment = SitePackagesEnvironment(abs)
	}
	return &SitePackages{dir: abs, cfg: cfg, lim: cfg.Limits.withDefaults(), log: cfg.Logger}, nil
}

// Dir returns the directory read.
func (s *SitePackages) Dir() string { return s.dir }

// String names the cache for logs and the snapshot manifest: its directory.
func (s *SitePackages) String() string { return s.dir }

// Ecosystem returns docidx.PyPI.
func (s *SitePackages) Ecosystem() docidx.Ecosystem { return Ecosystem }

// load scans the directory once.
func (s *SitePackages) load() error {
	s.once.Do(func() {
		entries, err := os.ReadDir(s.dir)
		if err != nil {
			s.scanErr = fmt.Errorf("pypi: site-packages: %w", err)
			return
		}
		s.dists = map[string][]*installedDist{}
		seen := map[string]*installedDist{}
		var skipped []error
		for _, e := range entries {
			d, err := s.readEntry(e)
			if err != nil {
				skipped = append(skipped, err)
				continue
			}
			if d == nil {
				continue
			}
			key := Normalize(d.name) + "@" + d.version
			if prev, ok := seen[key]; ok && prev.form <= d.form {
				continue
			}
			seen[key] = d
		}
		for key, d := range seen {
			name, _, _ := strings.Cut(key, "@")
			s.dists[name] = append(s.dists[name], d)
		}
		for _, list := range s.dists {
			sort.Slice(list, func(i, j int) bool {
				return docidx.CompareVersions(docidx.PyPI, list[i].version, list[j].version) < 0
			})
		}
		skip.Errors(s.log, "pypi: site-packages entries skipped", skipped, "dir", s.dir)
	})
	return s.scanErr
}

// readEntry reads the metadata of one directory entry when it records a distribution.
func (s *SitePackages) readEntry(e fs.DirEntry) (*installedDist, error) {
	n := e.Name()
	var form distForm
	var meta string
	switch {
	case strings.HasSuffix(n, ".dist-info"):
		form, meta = distInfo, path.Join(n, "METADATA")
	case strings.HasSuffix(n, ".egg-info"):
		st, err := os.Stat(filepath.Join(s.dir, n)) // follows symlinks
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			form, meta = eggInfoDir, path.Join(n, "PKG-INFO")
		} else {
			form, meta = eggInfoFile, n
		}
	default:
		return nil, nil
	}
	b, err := readLimitedFile(filepath.Join(s.dir, filepath.FromSlash(meta)), MaxMetadata)
	if err != nil {
		return nil, err
	}
	m := ParseMetadata(b)
	name, version := strings.TrimSpace(m.Name), strings.TrimSpace(m.Version)
	dirName, dirVersion := splitInfoName(n)
	if name == "" {
		name = dirName
	}
	if version == "" {
		version = dirVersion
	}
	if name == "" || version == "" {
		return nil, fmt.Errorf("%s: no name or version", meta)
	}
	requires := m.RequiresDist
	if form == eggInfoDir && len(requires) == 0 {
		if b, err := readLimitedFile(filepath.Join(s.dir, n, "requires.txt"), MaxMetadata); err == nil {
			requires = parseRequiresTxt(b)
		}
	}
	return &installedDist{name: name, version: version, form: form, infoPath: n, requires: requires}, nil
}

// parseRequiresTxt turns setuptools' requires.txt (requirements, then sections "[extra]",
// "[:marker]" or "[extra:marker]" for the conditional ones) into PEP 508 requirements with
// markers, as importlib.metadata's requires() does.
func parseRequiresTxt(b []byte) []string {
	var out []string
	cond := ""
	for _, l := range lines(b) {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			extra, marker, _ := strings.Cut(l[1:len(l)-1], ":")
			extra, marker = strings.TrimSpace(extra), strings.TrimSpace(marker)
			var parts []string
			if marker != "" {
				parts = append(parts, "("+marker+")")
			}
			if extra != "" {
				parts = append(parts, fmt.Sprintf("extra == %q", extra))
			}
			cond = strings.Join(parts, " and ")
			continue
		}
		if cond != "" {
			l += "; " + cond
		}
		out = append(out, l)
	}
	return out
}

// EvalMarker evaluates a PEP 508 environment marker for the interpreter the directory belongs
// to, with extras asked for; see the package function EvalMarker.
func (s *SitePackages) EvalMarker(marker string, extras []string) (holds, known bool, err error) {
	return EvalMarker(marker, s.cfg.Environment, extras)
}

// Requires returns the requirements the installed distribution name@version declares, as PEP 508
// strings with their markers, in the order its metadata lists them: the Requires-Dist fields of
// its METADATA or PKG-INFO, or an egg-info's requires.txt (sections turned into markers). It does
// not evaluate the markers (EvalMarker does). Errors wrap docidx.ErrNotFound when the version is
// not installed.
func (s *SitePackages) Requires(ctx context.Context, name, version string) ([]string, error) {
	if err := s.load(); err != nil {
		return nil, err
	}
	d, _ := s.find(name, version)
	if d == nil {
		return nil, fmt.Errorf("pypi: %s %s is not installed in %s: %w", name, version, s.dir, docidx.ErrNotFound)
	}
	return slices.Clone(d.requires), ctx.Err()
}

// splitInfoName splits "name-version[-pyX.Y[-platform]].dist-info" or ".egg-info" into name and
// version (escaped as the directory spells them; version "" when absent).
func splitInfoName(n string) (name, version string) {
	n = strings.TrimSuffix(strings.TrimSuffix(n, ".dist-info"), ".egg-info")
	parts := strings.Split(n, "-")
	if len(parts) == 1 {
		return parts[0], ""
	}
	return parts[0], parts[1]
}

// readLimitedFile reads a regular file, failing with docidx.ErrTooLarge over limit bytes; a
// FIFO or device is never opened (memfs.ErrNotRegular).
func readLimitedFile(p string, limit int64) ([]byte, error) {
	return memfs.ReadFileLimited(p, limit)
}

// List returns every distribution version installed, sorted by normalized name then version
// (oldest first).
func (s *SitePackages) List(ctx context.Context) ([]docidx.Ref, error) {
	if err := s.load(); err != nil {
		return nil, err
	}
	return installed.Refs(Ecosystem, s.dists, func(d *installedDist) string { return d.version }), ctx.Err()
}

// Resolve returns the installed version of name (any spelling: it is normalized) that query
// selects, with the rules of the remote Registry: "" and "latest" select the newest installed
// release, an exact version ("2.32.3", "==2.32.3") must be installed, and a PEP 440 specifier set
// selects the newest installed version in it. Errors wrap docidx.ErrNotFound or, for a query that
// does not parse, docidx.ErrBadSpec.
func (s *SitePackages) Resolve(ctx context.Context, name, query string) (string, error) {
	if err := s.load(); err != nil {
		return "", err
	}
	list := s.dists[Normalize(name)]
	if len(list) == 0 {
		return "", fmt.Errorf("pypi: %s is not installed in %s: %w", name, s.dir, docidx.ErrNotFound)
	}
	cands := make([]candidate, len(list))
	for i, d := range list {
		cands[i] = candidate{version: d.version, files: true}
	}
	v, err := resolveVersion(name, cands, query)
	if err != nil {
		return "", fmt.Errorf("%w (in %s)", err, s.dir)
	}
	return v, nil
}

// find returns the installed distribution name@version, comparing versions as PEP 440 does when
// no spelling matches exactly.
func (s *SitePackages) find(name, version string) (*installedDist, []string) {
	list := s.dists[Normalize(name)]
	versions := make([]string, len(list))
	var found *installedDist
	for i, d := range list {
		versions[i] = d.version
		if d.version == version {
			found = d
		}
	}
	if found == nil {
		for _, d := range list {
			if cmp(d.version, version) == 0 {
				found = d
			}
		}
	}
	return found, versions
}

// Fetch reads name@version from the directory: metadata and the long description from METADATA
// or PKG-INFO (the README document, by Description-Content-Type), and the API from the .pyi and
// .py files the distribution installed. Package.Source is the .dist-info or .egg-info path.
// Errors wrap docidx.ErrNotFound when the version is not installed.
func (s *SitePackages) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if err := s.load(); err != nil {
		return nil, err
	}
	d, versions := s.find(name, version)
	if d == nil {
		return nil, fmt.Errorf("pypi: %s %s is not installed in %s: %w", name, version, s.dir, docidx.ErrNotFound)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return nil, fmt.Errorf("pypi: %s %s: %w", name, version, err)
	}
	defer root.Close()
	rootFS := root.FS()
	read := func(p string, limit int64) ([]byte, error) {
		return memfs.ReadLimited(rootFS, p, limit) // stats first: never opens a FIFO
	}
	metaPath := d.infoPath
	switch d.form {
	case distInfo:
		metaPath = path.Join(d.infoPath, "METADATA")
	case eggInfoDir:
		metaPath = path.Join(d.infoPath, "PKG-INFO")
	}
	b, err := read(metaPath, MaxMetadata)
	if err != nil {
		return nil, fmt.Errorf("pypi: %s %s: %w", name, version, err)
	}
	m := ParseMetadata(b)

	files := s.distFiles(root, d, m)
	chosen, vendored := chooseModules(files, "")
	if len(vendored) > 0 {
		s.log.Debug("pypi: vendored code is not the package's API; skipped", "package", name, "version", version, "dirs", vendored)
	}
	api := extractAPI(chosen, read, s.lim, newSiteModules(read, files, s.lim))
	for _, p := range api.problems {
		s.log.Debug("pypi: "+p, "package", name, "version", version)
	}
	pd := &docidx.PackageDocs{Symbols: api.symbols}
	if doc, ok := descriptionDocument(m); ok {
		pd.Documents = append(pd.Documents, doc)
	}
	pkg := packageFromMetadata(m, Normalize(name), d.version)
	if pkg.Description == "" && len(pd.Documents) > 0 {
		pkg.Description = pd.Documents[0].Summary
	}
	if d.form == distInfo || d.form == eggInfoDir {
		// A distribution without entry points installs no command; one that cannot be read
		// is said, and the rest of the distribution is still crawled.
		b, err := read(path.Join(d.infoPath, "entry_points.txt"), maxEntryPoints)
		switch {
		case err == nil:
			pkg.Commands = entryPointCommands(b)
		case !errors.Is(err, fs.ErrNotExist):
			skip.File(s.log, "pypi: file skipped", err, "dist", d.infoPath)
		}
	}
	pkg.Versions = versions
	pkg.Source = filepath.Join(s.dir, filepath.FromSlash(d.infoPath))
	pkg.CrawledAt = s.cfg.Now().UTC()
	pd.Package = pkg
	return pd, nil
}

// distFiles returns the slash paths (relative to the directory) of the Python modules, stubs and
// Cython sources (.py, .pyi, .pyx) a distribution installed: from RECORD, installed-files.txt,
// top_level.txt or SOURCES.txt, else the package or module named like the distribution. Only
// paths inside the directory are kept.
func (s *SitePackages) distFiles(root *os.Root, d *installedDist, m *Metadata) []string {
	readList := func(name string) []byte {
		if d.form == eggInfoFile {
			return nil
		}
		b, err := memfs.ReadLimited(root.FS(), path.Join(filepath.ToSlash(d.infoPath), name), maxRecord)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			skip.File(s.log, "pypi: file skipped", err, "dist", d.infoPath)
			return nil
		}
		return b
	}
	var files []string
	add := func(p string) {
		p = strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
		if p == "" || path.IsAbs(p) {
			return
		}
		p = path.Clean(p)
		if !fs.ValidPath(p) || strings.HasPrefix(p, d.infoPath+"/") || p == d.infoPath {
			return
		}
		if strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") || strings.HasSuffix(p, ".pyx") {
			files = append(files, p)
		}
	}
	switch d.form {
	case distInfo:
		if rec := readList("RECORD"); rec != nil {
			r := csv.NewReader(bytes.NewReader(rec))
			r.FieldsPerRecord = -1
			r.LazyQuotes = true
			r.ReuseRecord = true
			for {
				row, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					continue
				}
				if len(row) > 0 {
					add(row[0])
				}
			}
		}
	case eggInfoDir:
		if list := readList("installed-files.txt"); list != nil {
			for _, l := range lines(list) {
				add(path.Join(d.infoPath, l))
			}
		}
	}
	if len(files) > 0 {
		return files
	}
	var tops []string
	if list := readList("top_level.txt"); list != nil {
		namespaces := map[string]bool{}
		for _, l := range lines(readList("namespace_packages.txt")) {
			namespaces[l] = true
		}
		for _, l := range lines(list) {
			if namespaces[l] {
				// "lazr.uri" in the namespace package "lazr" owns lazr/uri only.
				if sub := strings.ReplaceAll(m.Name, ".", "/"); strings.HasPrefix(sub, l+"/") {
					l = sub
				}
			}
			tops = append(tops, l)
		}
	}
	if len(tops) == 0 && d.form == eggInfoDir {
		for _, l := range lines(readList("SOURCES.txt")) {
			for c := l; c != ""; {
				if st, err := root.Stat(filepath.FromSlash(c)); err == nil && st.Mode().IsRegular() {
					add(c)
					break
				}
				_, rest, ok := strings.Cut(c, "/")
				if !ok {
					break
				}
				c = rest
			}
		}
		if len(files) > 0 {
			return files
		}
	}
	if len(tops) == 0 {
		base := strings.ReplaceAll(Normalize(m.Name), "-", "_")
		tops = []string{base, m.Name, strings.ReplaceAll(m.Name, "-", "_")}
	}
	seen := map[string]bool{}
	visited := 0
	for _, top := range tops {
		top = path.Clean(strings.TrimSpace(top))
		if top == "" || seen[top] || !fs.ValidPath(top) {
			continue
		}
		seen[top] = true
		for _, ext := range []string{".py", ".pyi"} {
			if st, err := root.Stat(filepath.FromSlash(top + ext)); err == nil && st.Mode().IsRegular() {
				files = append(files, top+ext)
			}
		}
		_ = fs.WalkDir(root.FS(), top, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			visited++
			if visited > maxWalk {
				return fs.SkipAll
			}
			if e.IsDir() {
				if e.Name() == "__pycache__" || strings.HasPrefix(e.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			add(p)
			return nil
		})
	}
	return files
}

// lines splits a text file into its non-empty, trimmed lines.
func lines(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// pythonTimeout bounds DefaultSitePackagesDirs' Python run.
const pythonTimeout = 15 * time.Second

// DefaultSitePackagesDirs asks a Python interpreter where its distributions are installed
// (site.getsitepackages() and the user site directory) and returns the directories that exist.
// python is the interpreter to run; "" means "python3" from PATH. It returns an error when Python
// cannot be run or reports no directory.
func DefaultSitePackagesDirs(ctx context.Context, python string) ([]string, error) {
	if python == "" {
		python = "python3"
	}
	ctx, cancel := context.WithTimeout(ctx, pythonTimeout)
	defer cancel()
	const script = "import json, site\n" +
		"dirs = list(getattr(site, 'getsitepackages', lambda: [])())\n" +
		"u = getattr(site, 'getusersitepackages', lambda: None)()\n" +
		"if u: dirs.append(u)\n" +
		"print(json.dumps(dirs))\n"
	cmd := exec.CommandContext(ctx, python, "-I", "-c", script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("pypi: running %s to find site-packages: %w: %s", python, err, strings.TrimSpace(stderr.String()))
	}
	var dirs []string
	if err := json.Unmarshal(bytes.TrimSpace(out), &dirs); err != nil {
		return nil, fmt.Errorf("pypi: %s printed no site-packages list: %w", python, err)
	}
	var existing []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			existing = append(existing, d)
		}
	}
	if len(existing) == 0 {
		return nil, errors.New("pypi: " + python + " reports no existing site-packages directory; pass --site-packages DIR")
	}
	return existing, nil
}
