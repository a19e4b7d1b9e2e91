package npm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/loadcache"
	"github.com/docidx/docidx/registries/internal/memfs"
	untarpkg "github.com/docidx/docidx/registries/internal/untar"
)

// Ecosystem is the purl type this package serves.
const Ecosystem = docidx.NPM

// Bounds on the packuments a Registry keeps between Resolve and Fetch: how many, and their
// footprints in all (a packument of 100,000 versions holds about 7 MB), but for the newest.
const (
	packumentCacheSize   = 16
	packumentCacheWeight = 64 << 20
)

// RegistryConfig configures NewRegistry. Only Config is required.
type RegistryConfig struct {
	// Config gives the registry URL of each package and the credentials of each request URL.
	Config *Config
	// Client makes every request (rate limit, retries, status mapping); nil means fetch.New(nil).
	Client *fetch.Client
	// Logger receives warnings (a tarball without digest, files skipped); nil discards them.
	// Credentials are never logged.
	Logger *slog.Logger
	// Limits bounds each package version: its packument, tarball and files.
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// Registry reads packages from an npm registry over the registry API
// (https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md): the full packument for
// metadata and version resolution, then the version's tarball, verified against its
// dist.integrity (or dist.shasum) and read in memory. It implements docidx.Registry and is safe
// for concurrent use.
type Registry struct {
	cfg    RegistryConfig
	client *fetch.Client
	log    *slog.Logger

	cache loadcache.Cache[*packument] // key: packument URL
}

var _ docidx.Registry = (*Registry)(nil)

// NewRegistry returns a Registry over cfg. It returns an error when cfg.Config is nil.
func NewRegistry(cfg RegistryConfig) (*Registry, error) {
	if cfg.Config == nil || cfg.Config.Registry == "" {
		return nil, errors.New("npm: NewRegistry needs a Config with a registry URL (see LoadConfig)")
	}
	cfg.Client = defaults.Client(cfg.Client)
	cfg.Logger = defaults.Logger(cfg.Logger)
	cfg.Now = defaults.Now(cfg.Now)
	cfg.Limits = cfg.Limits.withDefaults()
	return &Registry{cfg: cfg, client: cfg.Client, log: cfg.Logger, cache: loadcache.Cache[*packument]{
		Size: packumentCacheSize, Weight: (*packument).footprint, MaxWeight: packumentCacheWeight,
	}}, nil
}

// Ecosystem returns docidx.NPM.
func (r *Registry) Ecosystem() docidx.Ecosystem { return Ecosystem }

// ValidName reports whether name is an npm package name docidx can request: "name" or
// "@scope/name", at most 214 bytes, without whitespace, control characters, "..", or a leading
// "." or "_" (https://github.com/npm/validate-npm-package-name; old mixed-case names allowed).
func ValidName(name string) bool {
	if name == "" || len(name) > 214 || strings.Contains(name, "..") {
		return false
	}
	for _, r := range name {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\\' || r == '%' || r == '?' || r == '#' {
			return false
		}
	}
	scope, rest, scoped := strings.Cut(name, "/")
	if scoped {
		if !strings.HasPrefix(scope, "@") || len(scope) < 2 || rest == "" || strings.Contains(rest, "/") {
			return false
		}
		name = rest
	} else if strings.HasPrefix(name, "@") {
		return false
	}
	return !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// packumentURL returns the URL of name's packument: the registry URL, then the name with a
// scope's slash escaped as "%2f" the way the npm CLI sends it ("@scope%2fname").
func (r *Registry) packumentURL(name string) string {
	reg := r.cfg.Config.RegistryFor(name)
	if scope, rest, ok := strings.Cut(name, "/"); ok {
		return reg + "@" + url.PathEscape(strings.TrimPrefix(scope, "@")) + "%2f" + url.PathEscape(rest)
	}
	return reg + url.PathEscape(name)
}

// packument fetches (or returns the cached) full packument of name, keeping the version objects
// sel names (a cached packument keeps what its first caller's selection named).
func (r *Registry) packument(ctx context.Context, name string, sel selection) (*packument, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("npm: %w: %q is not a valid npm package name", docidx.ErrBadSpec, name)
	}
	u := r.packumentURL(name)
	// Failures are not cached: the next call retries.
	return r.cache.Get(ctx, u, func() (*packument, error) { return r.loadPackument(ctx, name, u, sel) })
}

// manifest returns the version object of version in p, fetching the packument again when p did
// not keep it. Errors are Fetch's.
func (r *Registry) manifest(ctx context.Context, p *packument, name, version string) (*manifest, error) {
	m, ok := p.Versions[version]
	if !ok {
		return nil, fmt.Errorf("npm: %s has no version %s in %s (resolve a range or tag first): %w",
			name, version, redact.URL(r.cfg.Config.RegistryFor(name)), docidx.ErrNotFound)
	}
	if m != nil {
		return m, nil
	}
	again, err := r.loadPackument(ctx, name, r.packumentURL(name), selection{versions: []string{version}})
	if err != nil {
		return nil, err
	}
	if m = again.Versions[version]; m == nil {
		return nil, fmt.Errorf("npm: %s: version %s vanished from %s between two reads of its packument: %w",
			name, version, redact.URL(r.cfg.Config.RegistryFor(name)), docidx.ErrNotFound)
	}
	return m, nil
}

// loadPackument streams the packument at u, keeping the version objects sel names. While it
// decodes, it reserves in ctx's memory budget what the decoder may hold: twice the largest
// value allowed, or the whole document when that is smaller.
func (r *Registry) loadPackument(ctx context.Context, name, u string, sel selection) (*packument, error) {
	h := http.Header{}
	// The full document: the abbreviated one lacks readme, description, repository and time.
	h.Set("Accept", "application/json")
	if auth := r.cfg.Config.AuthFor(u); auth != "" {
		h.Set("Authorization", auth)
	}
	var (
		p         *packument
		decodeErr error
	)
	err := r.client.Stream(ctx, fetch.Request{URL: u, Header: h, MaxBody: r.cfg.Limits.MaxPackument}, func(body io.Reader, header http.Header) error {
		cost := 2 * r.cfg.Limits.MaxPackumentValue
		if n, err := strconv.ParseInt(header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
			cost = min(cost, n)
		}
		work := budget.FromContext(ctx)
		if err := work.Reserve(ctx, cost); err != nil {
			return err
		}
		defer work.Release(cost)
		p, decodeErr = decodePackument(body, sel, r.cfg.Limits.MaxPackumentValue, func(n int64) error { return work.Reserve(ctx, n) })
		return decodeErr
	})
	switch {
	case err == nil:
	case decodeErr != nil && errors.Is(err, decodeErr) && ctx.Err() == nil: // not the body's failure but its content's
		what := "is not valid JSON"
		if errors.Is(decodeErr, docidx.ErrTooLarge) {
			what = "is too large to read"
		}
		return nil, fmt.Errorf("npm: packument of %s from %s %s: %w", name, redact.URL(u), what, decodeErr)
	default:
		return nil, r.httpError(name, "", err)
	}
	if len(p.Versions) == 0 {
		// An unpublished package keeps a packument with time.unpublished and no versions.
		return nil, fmt.Errorf("npm: package %s has no published versions in %s: %w", name, redact.URL(r.cfg.Config.RegistryFor(name)), docidx.ErrNotFound)
	}
	p.url = redact.URL(u)
	return p, nil
}

// httpError turns a fetch error into one that says what to do.
func (r *Registry) httpError(name, version string, err error) error {
	reg := redact.URL(r.cfg.Config.RegistryFor(name))
	what := name
	if version != "" {
		what += "@" + version
	}
	switch {
	case errors.Is(err, docidx.ErrNotFound):
		return fmt.Errorf("npm: package %s not found in %s: %w", what, reg, err)
	case fetch.Refused(err):
		return fmt.Errorf("npm: %s: %s refused access (set an _authToken for it in .npmrc): %w", what, reg, err)
	}
	return fmt.Errorf("npm: %s: %w", what, err)
}

// Resolve returns the exact version of name that query selects, as the npm CLI picks it
// (npm-pick-manifest): "" and "latest" select dist-tags.latest; another dist-tag selects its
// version; an exact version ("1.2.3", "v1.2.3", "=1.2.3") must exist; anything else is a semver
// range (^ ~ x * || hyphen ranges, >= < …) that selects dist-tags.latest when it satisfies the
// range, else the highest satisfying version, preferring versions that are not deprecated.
// Prereleases match only ranges that name a prerelease.
//
// Errors wrap docidx.ErrNotFound (no such package, tag or matching version), docidx.ErrBadSpec
// (an invalid name or range), or the registry's failure.
func (r *Registry) Resolve(ctx context.Context, name, query string) (string, error) {
	p, err := r.packument(ctx, name, querySelection(query))
	if err != nil {
		return "", err
	}
	return p.resolve(name, query)
}

func (p *packument) resolve(name, query string) (string, error) {
	query = strings.TrimSpace(query)
	latest := string(p.DistTags["latest"])
	if _, ok := p.Versions[latest]; !ok {
		latest = ""
	}
	if query == "" || query == "latest" {
		if latest != "" {
			return latest, nil
		}
		if v := highest(p.versionList(), func(string) bool { return true }, true); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("npm: %s has no latest version: %w", name, docidx.ErrNotFound)
	}
	if v, ok := p.DistTags[query]; ok {
		if _, ok := p.Versions[string(v)]; ok {
			return string(v), nil
		}
		return "", fmt.Errorf("npm: dist-tag %s of %s points at missing version %s: %w", query, name, v, docidx.ErrNotFound)
	}
	if _, ok := p.Versions[query]; ok {
		return query, nil
	}
	if exact, err := semver.StrictNewVersion(strings.TrimPrefix(strings.TrimPrefix(query, "="), "v")); err == nil {
		for v := range p.Versions {
			if sv, err := semver.NewVersion(v); err == nil && sv.Equal(exact) && sv.Metadata() == exact.Metadata() {
				return v, nil
			}
		}
		return "", fmt.Errorf("npm: %s has no version %s (latest is %s): %w", name, query, latest, docidx.ErrNotFound)
	}
	c, err := semver.NewConstraint(query)
	if err != nil {
		if looksLikeTag(query) {
			return "", fmt.Errorf("npm: %s has no dist-tag %q (tags: %s): %w", name, query, p.tagList(), docidx.ErrNotFound)
		}
		return "", fmt.Errorf("npm: %w: %q is not a version, semver range or dist-tag of %s", docidx.ErrBadSpec, query, name)
	}
	match := func(v string) bool {
		sv, err := semver.NewVersion(v)
		return err == nil && c.Check(sv)
	}
	if latest != "" && match(latest) {
		return latest, nil
	}
	versions := p.versionList()
	if v := highest(versions, func(v string) bool { return match(v) && !p.Deprecated[v] }, false); v != "" {
		return v, nil
	}
	if v := highest(versions, match, false); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("npm: no version of %s matches %q (latest is %s): %w", name, query, latest, docidx.ErrNotFound)
}

// looksLikeTag reports whether s could be a dist-tag name: a letter, then letters, digits and
// "-_.", as npm allows for tags that are not valid semver ranges.
func looksLikeTag(s string) bool {
	if s == "" || !unicode.IsLetter(rune(s[0])) {
		return false
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// tagList returns the dist-tag names, sorted and comma-separated.
func (p *packument) tagList() string {
	return strings.Join(slices.Sorted(maps.Keys(p.DistTags)), ", ")
}

// versionList returns the version keys, oldest first, in a slice of the caller's own.
func (p *packument) versionList() []string { return slices.Clone(p.sorted) }

// highest returns the newest of versions (sorted oldest first) for which ok holds; with
// stableFirst, a release beats any prerelease.
func highest(versions []string, ok func(string) bool, stableFirst bool) string {
	if stableFirst {
		for i := len(versions) - 1; i >= 0; i-- {
			if !docidx.IsPrerelease(docidx.NPM, versions[i]) && ok(versions[i]) {
				return versions[i]
			}
		}
	}
	for i := len(versions) - 1; i >= 0; i-- {
		if ok(versions[i]) {
			return versions[i]
		}
	}
	return ""
}

// Fetch downloads name@version and extracts its metadata, README (the tarball's, else the
// packument's), docs/, examples/ and the API declared in its .d.ts files.
//
// Errors wrap docidx.ErrNotFound (unknown package or version), docidx.ErrIntegrity (the tarball
// does not match dist.integrity / dist.shasum), docidx.ErrTooLarge (a limit of RegistryConfig),
// docidx.ErrUnsafePath (a tarball entry that is absolute or climbs out with ".."),
// docidx.ErrOffline, or the registry's failure.
func (r *Registry) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	p, err := r.packument(ctx, name, selection{versions: []string{version}})
	if err != nil {
		return nil, err
	}
	m, err := r.manifest(ctx, p, name, version)
	if err != nil {
		return nil, err
	}
	files, err := r.tarball(ctx, name, version, m)
	if err != nil {
		return nil, err
	}
	fsys := memfs.New(files)

	// The tarball's package.json is what was published; the packument's copy can lack fields on
	// some mirrors. Keep the packument's for dist and readme.
	pm := m
	if b, ok := files["package.json"]; ok {
		if tm, err := parseManifest(trimBOM(b)); err == nil {
			pm = tm
		}
	}
	fallback, fallbackName := m.readme(), string(m.ReadmeFilename)
	if fallback == "" && version == string(p.DistTags["latest"]) {
		// The top-level readme belongs to the latest version (and is cut at 64 KiB).
		fallback, fallbackName = (&manifest{Readme: p.Readme}).readme(), string(p.ReadmeFilename)
	}
	lim := r.cfg.Limits
	c := buildContents(fsys, name, version, fallback, fallbackName, lim)
	a := packageAPI(ctx, fsys, pm, name, version, lim, registryFinder{r})
	logExtraction(r.log, name, version, &c, &a)

	pkg := packageFromManifest(m, pm, name, version)
	pkg.Versions = p.versionList()
	if pkg.Description == "" && version == string(p.DistTags["latest"]) {
		pkg.Description = string(p.Description)
	}
	if t, err := time.Parse(time.RFC3339, string(p.Time[version])); err == nil {
		pkg.Published = t.UTC()
	}
	pkg.Source = p.url
	pkg.CrawledAt = r.cfg.Now().UTC()
	return &docidx.PackageDocs{Package: pkg, Documents: c.docs, Symbols: a.symbols}, nil
}

// tarball downloads the tarball of name@version, whose version object is m, verifies it against
// dist.integrity (or dist.shasum) and returns the entries keepTarballFile keeps, by slash path
// without the top directory. Errors are Fetch's.
func (r *Registry) tarball(ctx context.Context, name, version string, m *manifest) (map[string][]byte, error) {
	d := m.dist()
	tarURL := strings.TrimSpace(string(d.Tarball))
	if tarURL == "" {
		return nil, fmt.Errorf("npm: %s@%s: the packument gives no dist.tarball", name, version)
	}
	h := http.Header{}
	if auth := r.cfg.Config.AuthFor(tarURL); auth != "" {
		h.Set("Authorization", auth)
	}
	resp, err := r.client.Get(ctx, fetch.Request{URL: tarURL, Header: h, MaxBody: r.cfg.Limits.MaxTarball})
	if err != nil {
		return nil, r.httpError(name, version, err)
	}
	if err := verifyIntegrity(resp.Body, string(d.Integrity), string(d.Shasum)); err != nil {
		if !errors.Is(err, errNoDigest) {
			return nil, fmt.Errorf("npm: %s@%s: tarball %s: %w", name, version, redact.URL(tarURL), err)
		}
		r.log.Warn("npm: tarball has no integrity or shasum; not verified", "package", name, "version", version)
	}
	files, skipped, err := untar(resp.Body, func(p string) bool { return keepTarballFile(p) || keepTarballScript(p) }, untarpkg.Limits{
		Unpacked: r.cfg.Limits.MaxUnpacked, Entry: r.cfg.Limits.MaxEntry, File: r.cfg.Limits.MaxFile, Kept: maxKept,
	})
	if err != nil {
		return nil, fmt.Errorf("npm: %s@%s: %w", name, version, err)
	}
	for _, s := range skipped {
		r.log.Debug("npm: tarball file skipped (size limit)", "package", name, "version", version, "file", s)
	}
	// In the crawl's budget, the files kept take the place of the tarball they came from: they
	// stay in memory while they are extracted, the tarball does not.
	work := budget.FromContext(ctx)
	var kept int64
	for _, b := range files {
		kept += int64(len(b))
	}
	if err := work.Reserve(ctx, kept); err != nil {
		return nil, err
	}
	work.Release(int64(len(resp.Body)))
	return files, nil
}

// packageFromManifest fills a Package from the registry's version object m and the package.json
// pm (the same object for node_modules), preferring m's non-empty fields.
func packageFromManifest(m, pm *manifest, name, version string) docidx.Package {
	first := func(a, b string) string {
		if a = strings.TrimSpace(a); a != "" {
			return a
		}
		return strings.TrimSpace(b)
	}
	pkg := docidx.Package{
		Ecosystem:   docidx.NPM,
		Name:        name,
		Version:     version,
		Description: first(string(m.Description), string(pm.Description)),
		License:     first(m.license(), pm.license()),
		Homepage:    first(string(m.Homepage), string(pm.Homepage)),
		Repository:  first(m.repository(), pm.repository()),
		Deprecated:  first(m.deprecated(), pm.deprecated()),
		Keywords:    m.keywords(),
		Requires:    m.engines(),
	}
	if pkg.Requires == nil {
		pkg.Requires = pm.engines()
	}
	if len(pkg.Keywords) == 0 {
		pkg.Keywords = pm.keywords()
	}
	if pkg.Commands = m.commands(name); pkg.Commands == nil {
		pkg.Commands = pm.commands(name)
	}
	pkg.Keywords = uniqueStrings(pkg.Keywords)
	return pkg
}

// uniqueStrings drops repeated strings, keeping the first of each in order.
func uniqueStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Retries returns how many HTTP attempts the registry client has retried so far (429, 5xx,
// timeouts and truncated bodies), for the crawl summary.
func (r *Registry) Retries() int64 { return r.client.Stats().Retries }

// String names the registry for logs and the snapshot manifest: "npm registry URL", the default
// registry URL without credentials.
func (r *Registry) String() string { return "npm registry " + redact.URL(r.cfg.Config.Registry) }
