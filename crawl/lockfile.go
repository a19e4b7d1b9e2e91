package crawl

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
)

// MaxLockfile is the largest manifest or lockfile ParseLockfile reads, in bytes; a requirements
// file's includes are each held to it too. Larger files give an error wrapping docidx.ErrTooLarge.
const MaxLockfile = 64 << 20

// MaxIncludeDepth is how deeply requirements files may include one another ("-r other.txt" in a
// file that was itself included, and so on); the file given counts as depth 0.
const MaxIncludeDepth = 16

// MaxIncludes is how many files one requirements file may pull in through "-r", directly or not.
const MaxIncludes = 256

// ErrUnknownLockfile is returned by ParseLockfile for a file name it does not know.
var ErrUnknownLockfile = errors.New("unknown lockfile")

// ErrIncludeLimit is returned when requirements files nest deeper than MaxIncludeDepth or include
// more than MaxIncludes files.
var ErrIncludeLimit = errors.New("too many requirements includes")

// LockfileNames lists the file names ParseLockfile understands. An entry with a "*" is a pattern
// in the syntax of path.Match, matched case-insensitively; every other entry is matched exactly.
// Besides these, any *.txt file in a directory named "requirements" is read as a requirements file.
var LockfileNames = []string{
	"go.mod",
	"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock",
	"requirements*.txt", "*requirements.txt", "requirements*.lock", "pyproject.toml", "poetry.lock", "uv.lock",
	"Cargo.lock", "Cargo.toml",
	"Package.resolved",
}

// Lockfile formats, as reported in Lockfile.Format.
const (
	FormatGoMod           = "go.mod"
	FormatPackageLock     = "package-lock.json"
	FormatPnpmLock        = "pnpm-lock.yaml"
	FormatYarnLock        = "yarn.lock"
	FormatRequirements    = "requirements.txt"
	FormatPoetryLock      = "poetry.lock"
	FormatUVLock          = "uv.lock"
	FormatCargoLock       = "Cargo.lock"
	FormatPyproject       = "pyproject.toml"
	FormatCargoManifest   = "Cargo.toml"
	FormatPackageResolved = "Package.resolved"
)

// Lockfile is what one manifest or lockfile names: the package versions a project uses (exact in
// a lockfile, requirements in a requirements file, pyproject.toml or Cargo.toml), and the entries
// that name no registry version and so cannot be crawled.
type Lockfile struct {
	// Format is one of the Format* constants.
	Format string
	// Version is the format's own version when the file states one: "9.0" for pnpm-lock.yaml,
	// "4" for Cargo.lock, "1" or the berry metadata version ("8") for yarn.lock, "3" for
	// Package.resolved; empty otherwise.
	Version string
	// Specs are the package versions, sorted by ecosystem, name and version without duplicates,
	// each with Origin set to the base name of the file that lists it (and the line, when
	// known, for requirements). A lockfile's specs have Exact set. A requirements file's and a
	// pyproject.toml's are Requirement specs, exact only when pinned with "=="; a Cargo.toml's
	// are version requirements (Query "1.0" meaning "^1.0").
	Specs []Spec
	// Skipped lists, in file order, the entries that were not turned into specs: local paths,
	// workspace members, git and URL dependencies, editable installs, unpinned requirements.
	Skipped []Skipped
	// Files lists the files read: the lockfile first, then the requirements files it includes.
	Files []string
}

// Skipped is one lockfile entry that is not crawled, and why.
type Skipped struct {
	File   string // the file that holds it, as given or as resolved from an include
	Line   int    // its 1-based line, or 0 when the format gives none (JSON, TOML arrays)
	Entry  string // the entry as the file names it: a requirement line, a key, "name version"
	Reason string // why it is skipped, e.g. "git dependency", "not pinned with =="
}

// String returns "file:line: entry: reason".
func (s Skipped) String() string {
	where := s.File
	if s.Line > 0 {
		where = fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s: %s: %s", where, s.Entry, s.Reason)
}

// LockfileError is a lockfile that cannot be read as its format: a syntax error, or an entry
// lacking what the format requires. Line is 0 when the position is unknown.
type LockfileError struct {
	File string
	Line int
	Err  error
}

// Error returns "file:line: what is wrong".
func (e *LockfileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the underlying error.
func (e *LockfileError) Unwrap() error { return e.Err }

func lockErr(file string, line int, format string, args ...any) error {
	return &LockfileError{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}

// ParseLockfile reads the exact package versions a project uses from one manifest or lockfile held
// in memory, chosen by its base name (see LockfileNames). Specs come back sorted and without
// duplicates, each with Exact set; entries that are not registry versions are left out (use
// ParseLockfileFS or ReadLockfile to learn which). A requirements file's "-r" includes cannot be
// followed from memory and give an error; ReadLockfile and ParseLockfileFS follow them.
//
// It returns an error wrapping ErrUnknownLockfile for other names, one wrapping docidx.ErrTooLarge
// for data over MaxLockfile, and a *LockfileError naming the file and line for malformed content.
func ParseLockfile(name string, data []byte) ([]Spec, error) {
	lf, err := parseLockfile(name, data, nil)
	if err != nil {
		return nil, err
	}
	return lf.Specs, nil
}

// ReadLockfile reads a manifest or lockfile from the operating system's file system, like
// ParseLockfile, following a requirements file's "-r"/"--requirement" includes relative to the
// including file (".." and absolute paths allowed, as pip allows them). It reports what it skipped.
func ReadLockfile(name string) (*Lockfile, error) {
	return readLockfile(name, osSource{})
}

// ParseLockfileFS reads a manifest or lockfile at name (a slash-separated path valid for
// fs.ValidPath) from fsys, like ParseLockfile, following a requirements file's includes within
// fsys: an include that would leave fsys's root is an error. It reports what it skipped.
func ParseLockfileFS(fsys fs.FS, name string) (*Lockfile, error) {
	return readLockfile(name, fsSource{fsys})
}

// lockSource reads a lockfile and the files it includes.
type lockSource interface {
	// read returns the file's content, at most MaxLockfile bytes.
	read(name string) ([]byte, error)
	// join resolves target, an include written in the file from, to a name read accepts.
	join(from, target string) (string, error)
	// key identifies the file name names, so that each file is read once.
	key(name string) string
}

type osSource struct{}

func (osSource) read(name string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(name, st); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readMax(name, f)
}

// checkRegular fails for a file that is not regular: opening a FIFO for reading blocks until a
// writer comes, and a device may never end; and for one over MaxLockfile bytes. It is called
// with a Stat before the file is opened.
func checkRegular(name string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s); give a lockfile", name, st.Mode().Type())
	}
	if st.Size() > MaxLockfile {
		return fmt.Errorf("%s: %w: %d bytes (limit %d)", name, docidx.ErrTooLarge, st.Size(), MaxLockfile)
	}
	return nil
}

func (osSource) join(from, target string) (string, error) {
	name := filepath.FromSlash(target)
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(from), name)
	}
	return name, nil
}

func (osSource) key(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

type fsSource struct{ fsys fs.FS }

func (s fsSource) read(name string) ([]byte, error) {
	st, err := fs.Stat(s.fsys, name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(name, st); err != nil {
		return nil, err
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, checkRegular(name, st)
	}
	return readMax(name, f)
}

func (fsSource) join(from, target string) (string, error) {
	t := strings.ReplaceAll(target, `\`, "/")
	if path.IsAbs(t) || filepath.IsAbs(target) {
		return "", fmt.Errorf("absolute path %s is outside the file system read", target)
	}
	name := path.Join(path.Dir(from), t)
	if !fs.ValidPath(name) {
		return "", fmt.Errorf("%s is outside the file system read", target)
	}
	return name, nil
}

func (fsSource) key(name string) string { return path.Clean(name) }

func readMax(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxLockfile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxLockfile {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", name, docidx.ErrTooLarge, MaxLockfile)
	}
	return data, nil
}

func readLockfile(name string, src lockSource) (*Lockfile, error) {
	if _, err := lockfileFormat(name); err != nil {
		return nil, err // before opening: an unknown name is a usage error
	}
	data, err := src.read(name)
	if err != nil {
		return nil, err
	}
	return parseLockfile(name, data, src)
}

// lockfileFormat tells a lockfile's format by its base name. Where one name covers several formats
// (yarn.lock classic and berry; the versions of pnpm-lock.yaml, Package.resolved, Cargo.lock) the
// format's parser looks at the content.
func lockfileFormat(name string) (string, error) {
	slashed := strings.ReplaceAll(name, `\`, "/")
	base := path.Base(slashed)
	switch base {
	case "go.mod":
		return FormatGoMod, nil
	case "package-lock.json", "npm-shrinkwrap.json":
		return FormatPackageLock, nil
	case "pnpm-lock.yaml":
		return FormatPnpmLock, nil
	case "yarn.lock":
		return FormatYarnLock, nil
	case "poetry.lock":
		return FormatPoetryLock, nil
	case "uv.lock":
		return FormatUVLock, nil
	case "Cargo.lock":
		return FormatCargoLock, nil
	case "pyproject.toml":
		return FormatPyproject, nil
	case "Cargo.toml":
		return FormatCargoManifest, nil
	case "Package.resolved":
		return FormatPackageResolved, nil
	}
	lower := strings.ToLower(base)
	for _, pat := range LockfileNames {
		if ok, _ := path.Match(strings.ToLower(pat), lower); ok && strings.Contains(pat, "*") {
			return FormatRequirements, nil
		}
	}
	if strings.HasSuffix(lower, ".txt") && strings.EqualFold(path.Base(path.Dir(slashed)), "requirements") {
		return FormatRequirements, nil
	}
	return "", fmt.Errorf("%w %q: docidx reads %s", ErrUnknownLockfile, name, strings.Join(LockfileNames, ", "))
}

// lockState collects one lockfile's specs and skipped entries.
type lockState struct {
	lf  *Lockfile
	src lockSource // nil when parsing from memory

	seen map[string]bool // requirements files read, by key
}

func (st *lockState) add(file string, eco docidx.Ecosystem, name, version string) {
	if eco == docidx.Swift {
		name = swiftName(name)
	}
	st.lf.Specs = append(st.lf.Specs, Spec{
		Ecosystem: eco, Name: name, Query: version, Exact: true,
		Origin: originAt(file, 0),
	})
}

// originAt returns a Spec's Origin for line of file: its base name, with ":line" when line is
// known (above 0).
func originAt(file string, line int) string {
	o := path.Base(strings.ReplaceAll(file, `\`, "/"))
	if line > 0 {
		o += ":" + strconv.Itoa(line)
	}
	return o
}

// addRequirement adds a Python requirement: an exact spec when a clause pins one version, else a
// range spec with the specifier set as its query. line is its 1-based line, 0 when unknown.
func (st *lockState) addRequirement(file string, line int, r pyRequirement) {
	st.lf.Specs = append(st.lf.Specs, r.spec(originAt(file, line)))
}

// spec returns the Spec of requirement r, from origin: exact when a clause pins one version,
// else a range with the specifier set as its query.
func (r pyRequirement) spec(origin string) Spec {
	s := Spec{
		Ecosystem: docidx.PyPI, Name: r.name, Query: r.specifier, Origin: origin,
		Requirement: true, Extras: joinExtras(r.extras), Marker: r.marker,
	}
	if r.pinned != "" {
		s.Query, s.Exact = r.pinned, true
	}
	return s
}

func (st *lockState) skip(file string, line int, entry, reason string) {
	// Entries and reasons quote URLs from the file (git+https://user:token@host/…): the skips are
	// printed and logged, so their credentials are dropped here.
	entry, reason = redact.Text(entry), redact.Text(reason)
	st.lf.Skipped = append(st.lf.Skipped, Skipped{File: file, Line: line, Entry: entry, Reason: reason})
}

func parseLockfile(name string, data []byte, src lockSource) (*Lockfile, error) {
	format, err := lockfileFormat(name)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxLockfile {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", name, docidx.ErrTooLarge, MaxLockfile)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	st := &lockState{lf: &Lockfile{Format: format, Files: []string{name}}, src: src}
	switch format {
	case FormatGoMod:
		err = parseGoMod(st, name, data)
	case FormatPackageLock:
		err = parsePackageLock(st, name, data)
	case FormatPnpmLock:
		err = parsePnpmLock(st, name, data)
	case FormatYarnLock:
		err = parseYarnLock(st, name, data)
	case FormatRequirements:
		err = parseRequirementsRoot(st, name, data)
	case FormatPoetryLock:
		err = parsePoetryLock(st, name, data)
	case FormatUVLock:
		err = parseUVLock(st, name, data)
	case FormatCargoLock:
		err = parseCargoLock(st, name, data)
	case FormatPyproject:
		err = parsePyproject(st, name, data)
	case FormatCargoManifest:
		err = parseCargoManifest(st, name, data)
	case FormatPackageResolved:
		err = parsePackageResolved(st, name, data)
	}
	if err != nil {
		return nil, err
	}
	st.lf.Specs = dedupe(st.lf.Specs)
	return st.lf, nil
}

// parseGoMod returns the go.mod's requirements with replace directives applied: a module replaced
// by another module version is crawled as the replacement; one replaced by a local directory is
// skipped (it is not in any registry). Go 1.17+ go.mod files list the whole build list, indirect
// requirements included.
func parseGoMod(st *lockState, name string, data []byte) error {
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return err
	}
	repl := make(map[module.Version]module.Version)
	for _, r := range f.Replace {
		repl[r.Old] = r.New
	}
	for _, r := range f.Require {
		m := r.Mod
		if n, ok := repl[m]; ok {
			m = n
		} else if n, ok := repl[module.Version{Path: m.Path}]; ok {
			m = n
		}
		if m.Version == "" || modfile.IsDirectoryPath(m.Path) {
			line := 0
			if r.Syntax != nil {
				line = r.Syntax.Start.Line
			}
			st.skip(name, line, r.Mod.Path+" "+r.Mod.Version, "replaced by local directory "+m.Path)
			continue
		}
		st.add(name, docidx.Go, m.Path, m.Version)
	}
	return nil
}

// packageLock is the part of package-lock.json (lockfileVersion 1, 2 and 3) that names versions.
// See https://docs.npmjs.com/cli/configuring-npm/package-lock-json.
type packageLock struct {
	LockfileVersion int                    `json:"lockfileVersion"`
	Packages        map[string]lockPackage `json:"packages"`     // v2, v3
	Dependencies    map[string]lockDepV1   `json:"dependencies"` // v1 (and v2's copy)
}

type lockPackage struct {
	Name    string `json:"name"` // set for aliases ("npm:real@1")
	Version string `json:"version"`
	Link    bool   `json:"link"`
}

type lockDepV1 struct {
	Version      string               `json:"version"`
	Dependencies map[string]lockDepV1 `json:"dependencies"`
}

func parsePackageLock(st *lockState, name string, data []byte) error {
	var lock packageLock
	if err := json.Unmarshal(data, &lock); err != nil {
		return jsonErr(name, data, err)
	}
	if len(lock.Packages) > 0 {
		st.lf.Version = fmt.Sprint(lock.LockfileVersion)
		for _, key := range slices.Sorted(maps.Keys(lock.Packages)) {
			p := lock.Packages[key]
			i := strings.LastIndex(key, "node_modules/")
			if i < 0 {
				continue // the root project or a workspace folder (its link is reported)
			}
			if p.Link {
				st.skip(name, 0, key, "link to a workspace package or local folder")
				continue
			}
			pkgName := key[i+len("node_modules/"):]
			if p.Name != "" {
				pkgName = p.Name
			}
			if pkgName == "" {
				st.skip(name, 0, key, "no package name")
				continue
			}
			if !validNPMVersion(p.Version) {
				st.skip(name, 0, key, "not a registry version: "+p.Version)
				continue // a git, file or tarball URL dependency
			}
			st.add(name, docidx.NPM, pkgName, p.Version)
		}
		return nil
	}
	var walk func(map[string]lockDepV1, int)
	walk = func(deps map[string]lockDepV1, depth int) {
		if depth > 64 {
			return
		}
		for n, d := range deps {
			if v, ok := strings.CutPrefix(d.Version, "npm:"); ok { // alias: "npm:real@1.2.3"
				if j := strings.LastIndexByte(v, '@'); j > 0 {
					n, d.Version = v[:j], v[j+1:]
				}
			}
			switch {
			case n == "":
				st.skip(name, 0, `""`, "no package name")
			case validNPMVersion(d.Version):
				st.add(name, docidx.NPM, n, d.Version)
			default:
				st.skip(name, 0, n, "not a registry version: "+d.Version)
			}
			walk(d.Dependencies, depth+1)
		}
	}
	walk(lock.Dependencies, 0)
	if len(st.lf.Specs) == 0 && lock.LockfileVersion == 0 {
		return lockErr(name, 0, "no \"packages\" or \"dependencies\": not a package-lock.json")
	}
	if lock.LockfileVersion > 0 {
		st.lf.Version = fmt.Sprint(lock.LockfileVersion)
	}
	slices.SortStableFunc(st.lf.Skipped, func(a, b Skipped) int { return strings.Compare(a.Entry, b.Entry) })
	return nil
}

// jsonErr turns a encoding/json error into a LockfileError with the line it happened on.
func jsonErr(name string, data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	line := 0
	if off >= 0 && off <= int64(len(data)) {
		line = 1 + bytes.Count(data[:off], []byte("\n"))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || (se != nil && strings.Contains(se.Error(), "unexpected end")) {
		return lockErr(name, line, "truncated JSON: %v", err)
	}
	return &LockfileError{File: name, Line: line, Err: err}
}

// validNPMVersion reports whether v looks like a registry version rather than a URL or path.
func validNPMVersion(v string) bool {
	return v != "" && v[0] >= '0' && v[0] <= '9' && !strings.ContainsAny(v, ":/ ")
}

// dedupe sorts specs by ecosystem, name, version, extras and marker, keeping the first of equal
// ones (the sort is stable, so that is the first listed): "uvicorn" and "uvicorn[standard]", or
// one requirement under two markers, are different requirements.
func dedupe(specs []Spec) []Spec {
	slices.SortStableFunc(specs, func(a, b Spec) int {
		return cmp.Or(
			strings.Compare(string(a.Ecosystem), string(b.Ecosystem)),
			strings.Compare(a.Name, b.Name),
			strings.Compare(a.Query, b.Query),
			strings.Compare(a.Extras, b.Extras),
			strings.Compare(a.Marker, b.Marker),
		)
	})
	return slices.CompactFunc(specs, func(a, b Spec) bool {
		return a.Ecosystem == b.Ecosystem && a.Name == b.Name && a.Query == b.Query && a.Extras == b.Extras && a.Marker == b.Marker
	})
}
