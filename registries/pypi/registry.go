package pypi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/loadcache"
)

// projectCacheSize is how many projects a Registry keeps between Resolve and Fetch.
const projectCacheSize = 16

// Media types of the simple API (PEP 691).
const (
	simpleJSONType = "application/vnd.pypi.simple.v1+json"
	simpleHTMLType = "application/vnd.pypi.simple.v1+html"
	// simpleAccept asks for JSON, accepting the HTML forms of mirrors that only speak PEP 503.
	simpleAccept = simpleJSONType + ", " + simpleHTMLType + ";q=0.2, text/html;q=0.01"
)

// errNoJSONAPI is returned when the index answers the JSON API with something that is not JSON.
var errNoJSONAPI = errors.New("the index does not serve the JSON API")

// RegistryConfig configures NewRegistry. Only Config is required.
type RegistryConfig struct {
	// Config gives the index URLs (see LoadConfig).
	Config *Config
	// Client makes every request (rate limit, retries, status mapping); nil means fetch.New(nil).
	Client *fetch.Client
	// Logger receives warnings (a file without digest, files skipped); nil discards them.
	// Credentials are never logged.
	Logger *slog.Logger
	// Limits bounds downloads, archives and extraction; zero fields mean the defaults.
	Limits Limits
	// MetadataOnly skips downloading wheels and sdists: metadata and the README come from the
	// JSON API or PEP 658 metadata files, and no API symbols are extracted.
	MetadataOnly bool
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// Registry reads Python distributions from a package index. It implements docidx.Registry and is
// safe for concurrent use.
//
// Projects are looked up in the index's JSON API (https://docs.pypi.org/api/json/:
// /pypi/NAME/json for releases and files, /pypi/NAME/VERSION/json for a release's metadata) and,
// when the index has none (a mirror), in its simple API as PEP 691 JSON
// (https://peps.python.org/pep-0691/, Accept: application/vnd.pypi.simple.v1+json) or PEP 503
// HTML, with PEP 658/714 metadata files (the file URL + ".metadata") read instead of a
// distribution where that suffices. Names are PEP 503 normalized in every request.
//
// Fetch downloads one distribution file of the version: a pure-Python wheel when there is one,
// else the smallest wheel or sdist, checks its sha256 (or sha512, sha384, md5) against the index,
// reads it in memory under Limits, and extracts:
//
//   - metadata from the file's METADATA or PKG-INFO (else the index's), the long description as
//     the README document by its content type (markdown through readme, reStructuredText split by
//     its own heading rules, plain text as one section);
//   - the API: public module-level functions, classes and constants and the methods,
//     properties, fields and constants of those classes, from .pyi stubs when present else from
//     .py sources, each with its signature (a constant's or field's with its value) and its
//     whole docstring, parameter sections parsed into Symbol.Params (names starting with "_",
//     private packages, tests and code vendored from other projects are not API; a literal
//     __all__ is honoured; what a public module re-exports from a private module of the
//     distribution is documented under the public module's name);
//   - from the release's sdist, its documentation and examples (see readDocs): the pages of
//     docs/ or doc/ (Sphinx reStructuredText or markdown; MkDocs' docs_dir), and markdown,
//     reStructuredText and Python files under examples/. When the API comes from a wheel, the
//     sdist is downloaded too, for its documents alone, when it is no larger than
//     Limits.MaxDocsSdist (see Registry.sdistDocs).
type Registry struct {
	cfg    RegistryConfig
	lim    Limits
	client *fetch.Client
	log    *slog.Logger

	// noJSON is set once the index answered the JSON API with "not found" or not-JSON for a project
	// that its simple API has: it serves the simple API only.
	noJSON atomic.Bool

	cache loadcache.Cache[*project] // key: normalized name
}

var _ docidx.Registry = (*Registry)(nil)

// NewRegistry returns a Registry over cfg. It returns an error when cfg.Config is nil.
func NewRegistry(cfg RegistryConfig) (*Registry, error) {
	if cfg.Config == nil || cfg.Config.SimpleURL == "" {
		return nil, errors.New("pypi: NewRegistry needs a Config with an index URL (see LoadConfig)")
	}
	cfg.Client = defaults.Client(cfg.Client)
	cfg.Logger = defaults.Logger(cfg.Logger)
	cfg.Now = defaults.Now(cfg.Now)
	return &Registry{cfg: cfg, lim: cfg.Limits.withDefaults(), client: cfg.Client, log: cfg.Logger, cache: loadcache.Cache[*project]{Size: projectCacheSize}}, nil
}

// Ecosystem returns docidx.PyPI.
func (r *Registry) Ecosystem() docidx.Ecosystem { return Ecosystem }

// String names the registry for logs and the snapshot manifest: "pypi index URL", without
// credentials.
func (r *Registry) String() string { return "pypi index " + redact.URL(r.cfg.Config.IndexURL) }

// Retries returns how many HTTP attempts the registry client has retried so far, for the crawl
// summary.
func (r *Registry) Retries() int64 { return r.client.Stats().Retries }

// project fetches (or returns the cached) project of name.
func (r *Registry) project(ctx context.Context, name string) (*project, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("pypi: %w: %q is not a valid project name (PEP 508: letters, digits, and . _ - inside)", docidx.ErrBadSpec, name)
	}
	norm := Normalize(name)
	// Failures are not cached: the next call retries.
	return r.cache.Get(ctx, norm, func() (*project, error) { return r.loadProject(ctx, name, norm) })
}

// loadProject reads a project from the JSON API, falling back to the simple API.
func (r *Registry) loadProject(ctx context.Context, name, norm string) (*project, error) {
	if r.cfg.Config.JSONURL == "" || r.noJSON.Load() {
		return r.loadSimple(ctx, name, norm)
	}
	p, err := r.loadJSON(ctx, name, norm, r.cfg.Config.JSONURL+url.PathEscape(norm)+"/json")
	if err == nil && !p.partial {
		return p, nil
	}
	if err != nil && !errors.Is(err, docidx.ErrNotFound) && !errors.Is(err, errNoJSONAPI) {
		return nil, err
	}
	// Not in the JSON API (a mirror without one), or a document without the release list: the
	// simple API lists every release.
	sp, serr := r.loadSimple(ctx, name, norm)
	switch {
	case serr == nil && err != nil:
		r.noJSON.Store(true)
		r.log.Debug("pypi: the index has no JSON API for this project; using its simple API", "project", norm)
		return sp, nil
	case serr == nil:
		sp.info, sp.viaJSON = p.info, true
		return sp, nil
	case err == nil:
		return p, nil
	}
	return nil, serr
}

// get fetches u and maps failures to messages that say what to do.
func (r *Registry) get(ctx context.Context, name, version, u, accept string, limit int64) (*fetch.Response, error) {
	h := http.Header{}
	if accept != "" {
		h.Set("Accept", accept)
	}
	resp, err := r.client.Get(ctx, fetch.Request{URL: u, Header: h, MaxBody: limit})
	if err != nil {
		return nil, r.httpError(name, version, err)
	}
	return resp, nil
}

// httpError turns a fetch error into one that says what to do.
func (r *Registry) httpError(name, version string, err error) error {
	what := name
	if version != "" {
		what += " " + version
	}
	index := redact.URL(r.cfg.Config.IndexURL)
	switch {
	case errors.Is(err, docidx.ErrNotFound):
		return fmt.Errorf("pypi: %s not found in %s: %w", what, index, err)
	case fetch.Refused(err):
		return fmt.Errorf("pypi: %s: %s refused access (put credentials in the index URL, https://user:token@host/simple/, or pip.conf): %w", what, index, err)
	}
	return fmt.Errorf("pypi: %s: %w", what, err)
}

func mediaType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

func (r *Registry) loadJSON(ctx context.Context, name, norm, u string) (*project, error) {
	resp, err := r.get(ctx, name, "", u, "application/json", r.lim.MaxProject)
	if err != nil {
		return nil, err
	}
	body := bytes.TrimSpace(resp.Body)
	if mt := mediaType(resp.Header); mt == "text/html" || len(body) == 0 || body[0] != '{' {
		return nil, errNoJSONAPI
	}
	base, _ := url.Parse(resp.URL)
	p, err := parseJSONProject(body, base, norm)
	if err != nil {
		return nil, fmt.Errorf("pypi: %s: the JSON API document %s is not valid JSON: %w", name, redact.URL(u), err)
	}
	p.source = redact.URL(u)
	return p, nil
}

func (r *Registry) loadSimple(ctx context.Context, name, norm string) (*project, error) {
	u := r.cfg.Config.SimpleURL + url.PathEscape(norm) + "/"
	resp, err := r.get(ctx, name, "", u, simpleAccept, r.lim.MaxProject)
	if err != nil {
		return nil, err
	}
	base, _ := url.Parse(resp.URL)
	body := bytes.TrimSpace(resp.Body)
	var p *project
	switch mt := mediaType(resp.Header); {
	case mt == simpleJSONType || mt == "application/json" || mt == "" && len(body) > 0 && body[0] == '{':
		if p, err = parseSimpleJSON(body, base, norm); err != nil {
			return nil, fmt.Errorf("pypi: %s: the simple API page %s is not valid JSON: %w", name, redact.URL(u), err)
		}
	default:
		p = parseSimpleHTML(body, base, norm)
	}
	if len(p.releases) == 0 {
		return nil, fmt.Errorf("pypi: %s has no releases in %s: %w", name, redact.URL(r.cfg.Config.IndexURL), docidx.ErrNotFound)
	}
	p.source = redact.URL(u)
	return p, nil
}

// Resolve returns the version of name that query selects: "" or "latest" for the highest release
// that is neither yanked nor a pre-release, an exact version ("2.32.3", "==2.32.3") that must
// exist (yanked or not, PEP 592), or a PEP 440 specifier set (">=2,<3", "~=1.4", "!=1.3.*") for
// the highest non-yanked version in it (pre-releases only when the set names one or nothing else
// matches). Versions are ordered by docidx.CompareVersions.
//
// Errors wrap docidx.ErrNotFound (no such project or matching version), docidx.ErrBadSpec (an
// invalid name or query), or the index's failure.
func (r *Registry) Resolve(ctx context.Context, name, query string) (string, error) {
	p, err := r.project(ctx, name)
	if err != nil {
		return "", err
	}
	return resolveVersion(name, p.candidates(), query)
}

// findRelease returns the release key matching version exactly, else one equal to it under
// PEP 440 ("1.0" and "1.0.0").
func (p *project) findRelease(version string) (string, bool) {
	if _, ok := p.releases[version]; ok {
		return version, true
	}
	for v := range p.releases {
		if cmp(v, version) == 0 && parsePEP440(v).epoch == parsePEP440(version).epoch {
			return v, true
		}
	}
	return "", false
}

// chooseFile picks the file to read: among non-yanked files (all files when every one is
// yanked), a pure-Python wheel (py3 preferred), else the smallest wheel or sdist.
func chooseFile(files []*distFile) *distFile {
	var usable []*distFile
	for _, f := range files {
		if f.kind() != "" && !f.yanked {
			usable = append(usable, f)
		}
	}
	if len(usable) == 0 {
		for _, f := range files {
			if f.kind() != "" {
				usable = append(usable, f)
			}
		}
	}
	sort.SliceStable(usable, func(i, j int) bool {
		a, b := usable[i], usable[j]
		ra, rb := fileRank(a), fileRank(b)
		if ra != rb {
			return ra < rb
		}
		sa, sb := a.size, b.size
		if sa < 0 {
			sa = 1 << 62
		}
		if sb < 0 {
			sb = 1 << 62
		}
		if sa != sb {
			return sa < sb
		}
		return a.filename < b.filename
	})
	if len(usable) == 0 {
		return nil
	}
	return usable[0]
}

// fileRank orders files: pure py3 wheels, other pure wheels, then the rest by size.
func fileRank(f *distFile) int {
	if f.kind() == "wheel" && f.pure() {
		if strings.Contains(f.filename, "py3") {
			return 0
		}
		return 1
	}
	return 2
}

// Fetch downloads name's release version and extracts its metadata, README, API and (from an
// sdist) docs/ and examples/ documents; see Registry. Package.Published is the earliest upload
// time of the release's files and Package.Deprecated says when the release is yanked.
//
// Errors wrap docidx.ErrNotFound (unknown project or version), docidx.ErrIntegrity (the file does
// not match the index's digest), docidx.ErrTooLarge (a Limits bound), docidx.ErrUnsafePath (an
// archive entry that is absolute or climbs out with ".."), docidx.ErrOffline, or the index's
// failure.
func (r *Registry) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	p, err := r.project(ctx, name)
	if err != nil {
		return nil, err
	}
	v, ok := p.findRelease(version)
	if !ok {
		return nil, fmt.Errorf("pypi: %s has no release %s in %s (resolve a specifier first): %w", name, version, redact.URL(r.cfg.Config.IndexURL), docidx.ErrNotFound)
	}
	files := p.releases[v]

	var meta *Metadata
	if p.viaJSON && r.cfg.Config.JSONURL != "" {
		u := r.cfg.Config.JSONURL + url.PathEscape(p.name) + "/" + url.PathEscape(v) + "/json"
		rp, err := r.loadJSON(ctx, name, p.name, u)
		switch {
		case err == nil:
			meta = rp.info.metadata()
			if rel := rp.releases[v]; len(rel) > 0 {
				files = rel
			}
		case errors.Is(err, docidx.ErrNotFound) || errors.Is(err, errNoJSONAPI):
			if p.info != nil && p.info.Version == v {
				meta = p.info.metadata()
			}
		default:
			return nil, err
		}
	}

	pd := &docidx.PackageDocs{}
	var arch *archive
	if !r.cfg.MetadataOnly {
		if f := chooseFile(files); f != nil {
			data, err := r.download(ctx, name, v, f, r.lim.MaxDownload)
			if err != nil {
				return nil, err
			}
			if arch, err = readArchive(f.filename, data, r.lim); err != nil {
				return nil, fmt.Errorf("pypi: %s %s: %s: %w", name, v, f.filename, err)
			}
			for _, s := range arch.skipped {
				r.log.Debug("pypi: archive file skipped (size limit)", "project", name, "version", v, "file", s)
			}
			if arch.metadata != nil {
				am := ParseMetadata(arch.metadata)
				if strings.TrimSpace(am.Description) == "" && meta != nil {
					am.Description, am.DescriptionContentType = meta.Description, meta.DescriptionContentType
				}
				meta = am
			}
		}
	}
	if meta == nil {
		meta, err = r.coreMetadata(ctx, name, v, files)
		if err != nil {
			return nil, err
		}
	}
	if meta == nil {
		meta = &Metadata{Name: p.display, Version: v}
	}

	if doc, ok := descriptionDocument(meta); ok {
		pd.Documents = append(pd.Documents, doc)
	}
	if arch != nil {
		r.extractArchive(pd, arch, name, v, len(pd.Documents) == 0)
		if arch.kind == "wheel" {
			if err := r.sdistDocs(ctx, pd, files, name, v); err != nil {
				return nil, err
			}
		}
	}

	pkg := packageFromMetadata(meta, p.name, v)
	if pkg.Description == "" && len(pd.Documents) > 0 {
		pkg.Description = pd.Documents[0].Summary
	}
	if arch != nil {
		pkg.Commands = arch.commands()
	}
	pkg.Versions = p.versions()
	for _, f := range files {
		if !f.uploadTime.IsZero() && (pkg.Published.IsZero() || f.uploadTime.Before(pkg.Published)) {
			pkg.Published = f.uploadTime.UTC()
		}
	}
	if reason, yanked := releaseYanked(p, v, files); yanked {
		pkg.Deprecated = "yanked"
		if reason != "" {
			pkg.Deprecated += ": " + reason
		}
	}
	pkg.Source = p.source
	pkg.CrawledAt = r.cfg.Now().UTC()
	pd.Package = pkg
	return pd, nil
}

// releaseYanked reports whether every file of a release is yanked (PEP 592), with the first
// reason given.
func releaseYanked(p *project, v string, files []*distFile) (string, bool) {
	if len(files) == 0 {
		if p.yanked[v] && p.info != nil && p.info.Version == v {
			return string(p.info.YankedReason), true
		}
		return "", p.yanked[v]
	}
	reason := ""
	for _, f := range files {
		if !f.yanked {
			return "", false
		}
		if reason == "" {
			reason = f.yankedReason
		}
	}
	return reason, true
}

// extractArchive adds an archive's API and, for an sdist, its documents (and its README when
// the metadata has no description) to pd.
func (r *Registry) extractArchive(pd *docidx.PackageDocs, arch *archive, name, version string, needReadme bool) {
	paths, read := arch.paths(), arch.read
	var files []apiFile
	var vendored []string
	if arch.kind == "wheel" {
		files, vendored = chooseModules(paths, "")
	} else {
		rel, prefix := sdistModules(paths)
		files, vendored = chooseModules(rel, prefix)
	}
	if len(vendored) > 0 {
		r.log.Debug("pypi: vendored code is not the package's API; skipped", "project", name, "version", version, "dirs", vendored)
	}
	api := extractAPI(files, read, r.lim, nil) // no other distribution is on disk
	pd.Symbols = api.symbols
	for _, pr := range api.problems {
		r.log.Debug("pypi: "+pr, "project", name, "version", version)
	}
	if arch.kind != "sdist" {
		return
	}
	if needReadme {
		for _, p := range paths {
			if strings.Contains(p, "/") || !strings.HasPrefix(strings.ToLower(p), "readme") {
				continue
			}
			if d, ok := documentFile(p, docidx.DocReadme, arch.files[p]); ok {
				pd.Documents = append(pd.Documents, d)
				break
			}
			if strings.EqualFold(p, "readme") || strings.EqualFold(p, "readme.txt") {
				pd.Documents = append(pd.Documents, readme.Plain(p, docidx.DocReadme, string(arch.files[p])))
				break
			}
		}
	}
	r.addDocs(pd, arch, name, version)
}

// addDocs adds the documents of sdist arch (see readDocs) to pd.
func (r *Registry) addDocs(pd *docidx.PackageDocs, arch *archive, name, version string) {
	docs := readDocs(arch.paths(), arch.read, r.lim)
	pd.Documents = append(pd.Documents, docs.docs...)
	for _, pr := range docs.problems {
		r.log.Debug("pypi: "+pr, "project", name, "version", version)
	}
}

// docsSdist returns the sdist of a release to read documents from: a non-yanked one (any
// when all are yanked), .tar.gz before other formats, then the smallest; nil when the release
// has none.
func docsSdist(files []*distFile) *distFile {
	var best *distFile
	rank := func(f *distFile) (int, int64) {
		r := 0
		if f.yanked {
			r += 2
		}
		if !strings.HasSuffix(strings.ToLower(f.filename), ".tar.gz") {
			r++
		}
		size := f.size
		if size < 0 {
			size = 1 << 62
		}
		return r, size
	}
	for _, f := range files {
		if f.kind() != "sdist" {
			continue
		}
		if best == nil {
			best = f
			continue
		}
		r, s := rank(f)
		br, bs := rank(best)
		if r < br || r == br && (s < bs || s == bs && f.filename < best.filename) {
			best = f
		}
	}
	return best
}

// sdistDocs adds to pd the documents of the release's sdist (see readDocs) when the API came
// from a wheel, which holds none: the sdist is downloaded when the index advertises it at no
// more than Limits.MaxDocsSdist bytes (or does not give its size and it turns out no larger),
// checked against the index's digest and read for its documentation files only. A failure to
// download or read it is logged and costs the release its docs only, unless ctx is done.
func (r *Registry) sdistDocs(ctx context.Context, pd *docidx.PackageDocs, files []*distFile, name, version string) error {
	limit := r.lim.MaxDocsSdist
	f := docsSdist(files)
	if f == nil || limit < 0 {
		return nil
	}
	if f.size > limit {
		r.log.Info("pypi: sdist larger than the limit for docs; its docs/ not read", "project", name, "version", version,
			"file", f.filename, "bytes", f.size, "limit", limit)
		return nil
	}
	data, err := r.download(ctx, name, version, f, limit)
	if err == nil {
		var arch *archive
		if arch, err = readSdistDocs(f.filename, data, r.lim); err == nil {
			r.addDocs(pd, arch, name, version)
			return nil
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("pypi: %s %s: %s: %w", name, version, f.filename, ctx.Err())
	}
	r.log.Warn("pypi: no docs from the sdist", "project", name, "version", version, "file", f.filename, "err", err)
	return nil
}

// download fetches a distribution file and checks its digest.
func (r *Registry) download(ctx context.Context, name, version string, f *distFile, limit int64) ([]byte, error) {
	if f.size > limit {
		return nil, fmt.Errorf("pypi: %s %s: %s is %s: %w (limit %d bytes)", name, version, f.filename, formatSize(f.size), docidx.ErrTooLarge, limit)
	}
	resp, err := r.get(ctx, name, version, f.url, "", limit)
	if err != nil {
		return nil, err
	}
	if err := verifyDigest(resp.Body, f.hashes); err != nil {
		if !errors.Is(err, errNoDigest) {
			return nil, fmt.Errorf("pypi: %s %s: %s: %w", name, version, f.filename, err)
		}
		r.log.Warn("pypi: the index gives no digest for a file; not verified", "project", name, "version", version, "file", f.filename)
	}
	return resp.Body, nil
}

// coreMetadata reads the PEP 658 metadata file of the release's best file that has one, checking
// its digest; nil when no file has one.
func (r *Registry) coreMetadata(ctx context.Context, name, version string, files []*distFile) (*Metadata, error) {
	var with []*distFile
	for _, f := range files {
		if f.coreMetadata && f.kind() == "wheel" {
			with = append(with, f)
		}
	}
	f := chooseFile(with)
	if f == nil {
		return nil, nil
	}
	mf := &distFile{filename: f.filename + ".metadata", url: f.url + ".metadata", hashes: f.metadataHashes, size: -1}
	data, err := r.download(ctx, name, version, mf, MaxMetadata)
	if err != nil {
		return nil, err
	}
	return ParseMetadata(data), nil
}
