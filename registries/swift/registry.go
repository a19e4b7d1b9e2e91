package swift

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/loadcache"
)

// Ecosystem is the ecosystem this package serves.
const Ecosystem = docidx.Swift

var (
	_ docidx.Registry = (*Registry)(nil)
	_ docidx.Cache    = (*Checkouts)(nil)
)

// Media types a client sends in Accept (Registry.md §3.5).
const (
	MediaJSON  = "application/vnd.swift.registry.v1+json"
	MediaSwift = "application/vnd.swift.registry.v1+swift"
	MediaZip   = "application/vnd.swift.registry.v1+zip"
)

// releasesCacheSize is how many release lists a Registry keeps between Resolve and Fetch.
const releasesCacheSize = 16

// RegistryConfig configures NewRegistry. Only Config is required; the zero value of every other
// field means its default.
type RegistryConfig struct {
	// Config gives the registry of each scope and the credentials of each registry host (see
	// LoadConfig and NewConfig).
	Config *Config
	// Client makes every HTTP request (retries, rate limit, timeouts); nil means fetch.New(nil).
	Client *fetch.Client
	// Logger receives skipped files at debug level and dropped content at warn level; nil
	// discards. Credentials are never logged.
	Logger *slog.Logger
	// Limits bounds each package version: its source archive (larger archives fail with an
	// error wrapping docidx.ErrTooLarge) and its extraction (file size, files, symbols,
	// documents).
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// Registry is a docidx.Registry over Swift package registries speaking the package registry
// service API of SE-0292
// (https://github.com/swiftlang/swift-package-manager/blob/main/Documentation/PackageRegistry/Registry.md):
// it lists a package's releases (GET /{scope}/{name}), reads a release's metadata (GET
// /{scope}/{name}/{version}), downloads its source archive (GET /{scope}/{name}/{version}.zip),
// verifies the archive against the metadata's SHA-256 checksum, and extracts the archive's
// documents and public API in memory, without writing to disk. Repository URLs are mapped to
// package identifiers with GET /identifiers?url=…. Every request sends the API version 1 media
// type in Accept. A Registry is safe for concurrent use.
type Registry struct {
	cfg    RegistryConfig
	client *fetch.Client
	log    *slog.Logger

	releases loadcache.Cache[*releaseList] // key: scope.name

	mu  sync.Mutex
	ids map[string]string // repository URL -> identifier
}

// releaseList is a package's releases as the registry lists them.
type releaseList struct {
	id         string            // "scope.name", lowercased
	base       string            // the registry URL serving it
	available  map[string]string // version -> release URL from the list ("" when not given)
	problems   map[string]string // unavailable version -> the problem's detail
	repository string            // the Link rel="canonical" repository, if any
	source     string            // the list URL without credentials
}

// NewRegistry returns a Registry over cfg. It returns an error when cfg.Config is nil or names
// no registry.
func NewRegistry(cfg RegistryConfig) (*Registry, error) {
	if cfg.Config == nil || len(cfg.Config.Registries()) == 0 {
		return nil, errors.New("swift: NewRegistry needs a Config with a registry URL (see LoadConfig)")
	}
	cfg.Client = defaults.Client(cfg.Client)
	cfg.Logger = defaults.Logger(cfg.Logger)
	cfg.Now = defaults.Now(cfg.Now)
	cfg.Limits = cfg.Limits.withDefaults()
	return &Registry{cfg: cfg, client: cfg.Client, log: cfg.Logger, releases: loadcache.Cache[*releaseList]{Size: releasesCacheSize}, ids: map[string]string{}}, nil
}

// Ecosystem returns docidx.Swift.
func (r *Registry) Ecosystem() docidx.Ecosystem { return Ecosystem }

// String names the registry for logs and the snapshot manifest: "swift registry URL", the
// [default] (else first scoped) registry without credentials.
func (r *Registry) String() string {
	return "swift registry " + redact.URL(r.cfg.Config.Registries()[0])
}

// Retries returns how many HTTP attempts the registry client has retried so far (429, 5xx,
// timeouts and truncated bodies), for the crawl summary.
func (r *Registry) Retries() int64 { return r.client.Stats().Retries }

// get fetches u with the given Accept media type and the registry credentials for u's host.
func (r *Registry) get(ctx context.Context, u, accept string, limit int64) (*fetch.Response, error) {
	h := http.Header{}
	h.Set("Accept", accept)
	if auth := r.cfg.Config.AuthFor(u); auth != "" {
		h.Set("Authorization", auth)
	}
	resp, err := r.client.Get(ctx, fetch.Request{URL: u, Header: h, MaxBody: limit})
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(u, "https:") && strings.HasPrefix(resp.URL, "http:") {
		// SE-0292 §4.4.2: a client must not follow a redirect that downgrades to plain HTTP.
		return nil, fmt.Errorf("GET %s: redirected to insecure %s; refusing the downgrade", redact.URL(u), redact.URL(resp.URL))
	}
	if v := strings.TrimSpace(resp.Header.Get("Content-Version")); v != "" && v != "1" {
		return nil, fmt.Errorf("GET %s: the registry answered with API version %s; docidx speaks version 1", redact.URL(u), v)
	}
	return resp, nil
}

// httpError turns a fetch error into one that says what happened and what to do.
func (r *Registry) httpError(what, reg string, err error) error {
	switch {
	case errors.Is(err, docidx.ErrNotFound):
		return fmt.Errorf("%s not found in %s: %w", what, redact.URL(reg), err)
	case fetch.Refused(err):
		host := redact.URL(reg)
		if u, perr := url.Parse(reg); perr == nil {
			host = u.Host
		}
		return fmt.Errorf("%s: %s refused access (add a `machine %s` entry to ~/.netrc or set SWIFTPM_REGISTRY_TOKEN): %w", what, redact.URL(reg), host, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// identity maps a package name as given — an identifier "scope.name", a repository URL, or an
// "owner/repo" shorthand for https://github.com/owner/repo — to its lowercased scope and name.
func (r *Registry) identity(ctx context.Context, name string) (scope, pkg string, err error) {
	name = strings.TrimSpace(name)
	if strings.Contains(name, "/") {
		repo := name
		if !strings.Contains(repo, ":") && strings.Count(repo, "/") == 1 {
			repo = "https://github.com/" + repo
		}
		ids, err := r.Identifiers(ctx, repo)
		if err != nil {
			return "", "", err
		}
		name = ids[0]
	}
	return ParseIdentity(name)
}

// Identifiers returns the package identifiers the registries associate with a repository URL
// (GET /identifiers?url=…, Registry.md §4.5), asking the [default] registry first and then each
// scoped one, and remembering the first answer. Errors wrap docidx.ErrNotFound when no registry
// knows the URL, or the registry's failure.
func (r *Registry) Identifiers(ctx context.Context, repoURL string) ([]string, error) {
	r.mu.Lock()
	if id, ok := r.ids[repoURL]; ok {
		r.mu.Unlock()
		return []string{id}, nil
	}
	r.mu.Unlock()
	for _, reg := range r.cfg.Config.Registries() {
		u := reg + "/identifiers?url=" + url.QueryEscape(repoURL)
		resp, err := r.get(ctx, u, MediaJSON, maxJSON)
		if errors.Is(err, docidx.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, r.httpError("swift: identifiers for "+redact.URL(repoURL), reg, err)
		}
		var reply struct {
			Identifiers []string `json:"identifiers"`
		}
		if err := json.Unmarshal(resp.Body, &reply); err != nil {
			return nil, fmt.Errorf("swift: identifiers for %s from %s: not valid JSON: %w", redact.URL(repoURL), redact.URL(reg), err)
		}
		var ids []string
		for _, id := range reply.Identifiers {
			if _, _, err := ParseIdentity(id); err == nil {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			r.mu.Lock()
			if len(r.ids) < 1024 {
				r.ids[repoURL] = ids[0]
			}
			r.mu.Unlock()
			return ids, nil
		}
	}
	return nil, fmt.Errorf("swift: no registry maps the repository %s to a package identifier: %w", redact.URL(repoURL), docidx.ErrNotFound)
}

// releaseList returns the (cached) releases of scope.name.
func (r *Registry) releaseList(ctx context.Context, scope, name string) (*releaseList, error) {
	// Failures are not cached: the next call asks again.
	return r.releases.Get(ctx, scope+"."+name, func() (*releaseList, error) { return r.loadReleases(ctx, scope, name) })
}

// problemDetails is an RFC 7807 problem object.
type problemDetails struct {
	Status int    `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

func (p *problemDetails) String() string {
	switch {
	case p.Detail != "":
		return p.Detail
	case p.Title != "":
		return p.Title
	case p.Status != 0:
		return fmt.Sprintf("status %d", p.Status)
	}
	return "unavailable"
}

// loadReleases fetches the release list (Registry.md §4.1), following rel="next" pages.
func (r *Registry) loadReleases(ctx context.Context, scope, name string) (*releaseList, error) {
	id := scope + "." + name
	base, err := r.cfg.Config.RegistryFor(scope)
	if err != nil {
		return nil, fmt.Errorf("swift: %s: %w", id, err)
	}
	u := base + "/" + url.PathEscape(scope) + "/" + url.PathEscape(name)
	rl := &releaseList{id: id, base: base, available: map[string]string{}, problems: map[string]string{}, source: redact.URL(u)}
	seen := map[string]bool{}
	for page := 0; u != "" && page < maxReleasePages && !seen[u]; page++ {
		seen[u] = true
		resp, err := r.get(ctx, u, MediaJSON, maxJSON)
		if err != nil {
			return nil, r.httpError("swift: package "+id, base, err)
		}
		var doc struct {
			Releases map[string]json.RawMessage `json:"releases"`
		}
		if err := json.Unmarshal(resp.Body, &doc); err != nil {
			return nil, fmt.Errorf("swift: releases of %s from %s are not valid JSON: %w", id, redact.URL(u), err)
		}
		for v, raw := range doc.Releases {
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			var rel struct {
				URL     string          `json:"url"`
				Problem *problemDetails `json:"problem"`
			}
			_ = json.Unmarshal(raw, &rel) // a release that is not an object still counts
			if rel.Problem != nil {
				rl.problems[v] = rel.Problem.String()
				continue
			}
			rl.available[v] = resolveRef(resp.URL, rel.URL)
		}
		next := ""
		for _, l := range parseLinks(resp.Header.Values("Link")) {
			switch l.rel {
			case "canonical":
				if rl.repository == "" {
					rl.repository = l.target
				}
			case "next":
				next = resolveRef(resp.URL, l.target)
			}
		}
		u = next
	}
	if len(rl.available) == 0 && len(rl.problems) == 0 {
		return nil, fmt.Errorf("swift: package %s has no releases in %s: %w", id, redact.URL(base), docidx.ErrNotFound)
	}
	return rl, nil
}

// versions returns the available versions, oldest first.
func (rl *releaseList) versions() []string {
	vs := slices.Collect(maps.Keys(rl.available))
	docidx.SortVersions(docidx.Swift, vs)
	return vs
}

// pick returns the available version query selects, explaining unavailable releases.
func (rl *releaseList) pick(query string) (string, error) {
	q := strings.TrimSpace(query)
	if detail, ok := rl.problems[q]; ok {
		return "", fmt.Errorf("release %s of %s is unavailable (%s): %w", q, rl.id, detail, docidx.ErrNotFound)
	}
	if len(rl.available) == 0 {
		return "", fmt.Errorf("every release of %s is unavailable: %w", rl.id, docidx.ErrNotFound)
	}
	return selectVersion(rl.versions(), q)
}

// Resolve returns the version of package name that query selects. name is a package identifier
// ("mona.LinkedList", case-insensitive), a repository URL that the registry maps to one (GET
// /identifiers), or "owner/repo" for https://github.com/owner/repo. query is "" or "latest" for
// the highest release by semantic versioning (pre-releases only when there is nothing else), an
// exact version, a Swift range ("1.2.0..<2.0.0", "1.0.0...1.4.2") or a semver range ("^1.2",
// ">=1.0 <2"). Releases the registry lists with a problem (yanked or removed) are never selected.
// Errors wrap docidx.ErrNotFound (unknown package, URL or matching version), docidx.ErrBadSpec
// (a malformed identifier or range), ErrNoRegistry, docidx.ErrOffline, docidx.ErrRetryable or
// ctx's error.
func (r *Registry) Resolve(ctx context.Context, name, query string) (string, error) {
	v, err := r.resolve(ctx, name, query)
	if err != nil {
		return "", fmt.Errorf("swift: resolve %s@%s: %w", name, orLatest(query), err)
	}
	return v, nil
}

func (r *Registry) resolve(ctx context.Context, name, query string) (string, error) {
	scope, pkg, err := r.identity(ctx, name)
	if err != nil {
		return "", err
	}
	rl, err := r.releaseList(ctx, scope, pkg)
	if err != nil {
		return "", err
	}
	return rl.pick(query)
}

func orLatest(q string) string {
	if strings.TrimSpace(q) == "" {
		return "latest"
	}
	return q
}

// releaseInfo is a release's metadata reply (Registry.md §4.2, Appendix B).
type releaseInfo struct {
	ID        string `json:"id"`
	Version   string `json:"version"`
	Resources []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Checksum string `json:"checksum"`
	} `json:"resources"`
	Metadata struct {
		Author *struct {
			Name string `json:"name"`
			URL  string `json:"url"`
		} `json:"author"`
		Description             string   `json:"description"`
		LicenseURL              string   `json:"licenseURL"`
		ReadmeURL               string   `json:"readmeURL"`
		RepositoryURLs          []string `json:"repositoryURLs"`
		OriginalPublicationTime string   `json:"originalPublicationTime"`
		Keywords                []string `json:"keywords"` // not in the schema; some registries add it
	} `json:"metadata"`
	PublishedAt string `json:"publishedAt"`
}

// archiveChecksum returns the checksum of the source-archive resource.
func (ri *releaseInfo) archiveChecksum() string {
	for _, res := range ri.Resources {
		if res.Name == "source-archive" && (res.Type == "" || res.Type == "application/zip") {
			return res.Checksum
		}
	}
	return ""
}

// published returns originalPublicationTime when set (the specification prefers it), else
// publishedAt.
func (ri *releaseInfo) published() time.Time {
	for _, s := range []string{ri.Metadata.OriginalPublicationTime, ri.PublishedAt} {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(s)); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// Fetch downloads release version of package name (as in Resolve; a version that is not an
// available release is resolved first), verifies the source archive against the checksum in the
// release metadata and extracts its README, DocC articles, docs/, examples/ and public API in
// memory. Package.Description, Repository, Keywords and Published come from the release
// metadata (description, repositoryURLs, keywords, originalPublicationTime or publishedAt), the
// description falling back to the README's summary and the repository to the release list's
// rel="canonical" link; License is guessed from the LICENSE file; Versions lists the available
// releases and Source the release list URL.
//
// Errors wrap docidx.ErrNotFound (unknown package or version, or an unavailable release),
// docidx.ErrIntegrity (no checksum, or the archive does not match it), docidx.ErrTooLarge (the
// archive or an entry over its limit), docidx.ErrUnsafePath (an archive entry that is absolute
// or climbs out with ".."), docidx.ErrBadSpec, ErrNoRegistry, docidx.ErrOffline,
// docidx.ErrRetryable or ctx's error.
func (r *Registry) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	docs, err := r.fetch(ctx, name, version)
	if err != nil {
		return nil, fmt.Errorf("swift: fetch %s@%s: %w", name, orLatest(version), err)
	}
	return docs, nil
}

func (r *Registry) fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	scope, pkgName, err := r.identity(ctx, name)
	if err != nil {
		return nil, err
	}
	rl, err := r.releaseList(ctx, scope, pkgName)
	if err != nil {
		return nil, err
	}
	relURL, ok := rl.available[version]
	if !ok {
		if version, err = rl.pick(version); err != nil {
			return nil, err
		}
		relURL = rl.available[version]
	}
	if relURL == "" {
		relURL = rl.base + "/" + url.PathEscape(scope) + "/" + url.PathEscape(pkgName) + "/" + url.PathEscape(version)
	}
	resp, err := r.get(ctx, relURL, MediaJSON, maxJSON)
	if err != nil {
		return nil, r.httpError("release "+version+" of "+rl.id, rl.base, err)
	}
	var info releaseInfo
	if err := json.Unmarshal(resp.Body, &info); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) { // a field of an unexpected type leaves the rest decoded
			return nil, fmt.Errorf("release metadata from %s is not valid JSON: %w", redact.URL(relURL), err)
		}
	}
	zipURL, err := archiveURL(relURL)
	if err != nil {
		return nil, err
	}
	zresp, err := r.get(ctx, zipURL, MediaZip, r.cfg.Limits.MaxArchive)
	if err != nil {
		return nil, r.httpError("source archive of "+rl.id+" "+version, rl.base, err)
	}
	if err := verifyChecksum(zresp.Body, info.archiveChecksum(), zresp.Header.Get("Digest")); err != nil {
		return nil, fmt.Errorf("%s: %w", redact.URL(zipURL), err)
	}
	fsys, err := openArchive(zresp.Body, archiveLimits{maxArchive: r.cfg.Limits.MaxArchive, maxEntry: r.cfg.Limits.MaxEntry})
	if err != nil {
		return nil, err
	}
	pc, err := extractPackage(ctx, fsys, rl.id, r.cfg.Limits, r.log)
	if err != nil {
		return nil, err
	}
	p := docidx.Package{
		Ecosystem:   Ecosystem,
		Name:        rl.id,
		Version:     version,
		Versions:    rl.versions(),
		Description: strings.TrimSpace(info.Metadata.Description),
		License:     pc.license,
		Repository:  pickRepository(info.Metadata.RepositoryURLs, rl.repository),
		Keywords:    info.Metadata.Keywords,
		Published:   info.published(),
		Source:      rl.source,
		CrawledAt:   r.cfg.Now().UTC(),
		Requires:    pc.requires(),
		Commands:    pc.commands(),
	}
	if p.Description == "" {
		p.Description = pc.summary
	}
	return &docidx.PackageDocs{Package: p, Documents: pc.documents, Symbols: pc.symbols}, nil
}

// archiveURL returns the source archive URL of a release URL: its path with ".zip" appended
// (Registry.md §4.4).
func archiveURL(relURL string) (string, error) {
	u, err := redact.Parse(relURL)
	if err != nil {
		return "", fmt.Errorf("bad release URL: %w", err)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + ".zip"
	u.RawPath = ""
	return u.String(), nil
}

// Manifest returns the Package.swift of release version of package name (GET
// /{scope}/{name}/{version}/Package.swift, Registry.md §4.3); the registry's redirect to the
// unqualified manifest is followed. Errors are those of Resolve.
func (r *Registry) Manifest(ctx context.Context, name, version string) ([]byte, error) {
	scope, pkgName, err := r.identity(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("swift: manifest of %s@%s: %w", name, version, err)
	}
	base, err := r.cfg.Config.RegistryFor(scope)
	if err != nil {
		return nil, fmt.Errorf("swift: manifest of %s@%s: %w", name, version, err)
	}
	u := base + "/" + url.PathEscape(scope) + "/" + url.PathEscape(pkgName) + "/" + url.PathEscape(version) + "/Package.swift"
	resp, err := r.get(ctx, u, MediaSwift, maxManifest)
	if err != nil {
		return nil, fmt.Errorf("swift: %w", r.httpError("manifest of "+scope+"."+pkgName+" "+version, base, err))
	}
	return resp.Body, nil
}

// pickRepository chooses the repository URL to show: the first https URL of the release
// metadata's repositoryURLs, else its first URL made browsable (scp-like git@host:path as
// https://host/path), else the release list's canonical link.
func pickRepository(urls []string, canonical string) string {
	for _, u := range urls {
		if strings.HasPrefix(u, "https://") {
			return redact.URL(strings.TrimSpace(u))
		}
	}
	for _, u := range urls {
		if b := browsable(u); b != "" {
			return b
		}
	}
	return redact.URL(canonical)
}

// browsable turns a repository location into an https URL when it can: https and http URLs as
// they are (without credentials), ssh://git@host/path and scp-like git@host:path as
// https://host/path without ".git". Local paths give "".
func browsable(loc string) string {
	loc = strings.TrimSpace(loc)
	switch {
	case strings.HasPrefix(loc, "https://"), strings.HasPrefix(loc, "http://"):
		return redact.URL(loc)
	case strings.HasPrefix(loc, "ssh://"):
		u, err := url.Parse(loc)
		if err != nil || u.Hostname() == "" {
			return ""
		}
		return "https://" + u.Hostname() + strings.TrimSuffix(u.Path, ".git")
	case strings.Contains(loc, "@") && strings.Contains(loc, ":") && !strings.Contains(loc, "://"):
		_, hostPath, _ := strings.Cut(loc, "@")
		host, p, _ := strings.Cut(hostPath, ":")
		if host == "" || p == "" {
			return ""
		}
		return "https://" + host + "/" + strings.TrimSuffix(strings.TrimPrefix(p, "/"), ".git")
	}
	return ""
}

// resolveRef resolves ref against base; an empty or bad ref gives "".
func resolveRef(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	u, err := b.Parse(ref)
	if err != nil {
		return ""
	}
	return u.String()
}

// link is one target of a Link header (RFC 8288) with one of its relation types.
type link struct {
	target string
	rel    string
}

// parseLinks parses Link header values: comma-separated "<target>; param=value; …" entries
// whose rel parameter may list several space-separated relation types. Malformed entries end
// the value they are in.
func parseLinks(values []string) []link {
	var out []link
	for _, v := range values {
		for {
			v = strings.TrimLeft(v, " \t,")
			if !strings.HasPrefix(v, "<") {
				break
			}
			end := strings.IndexByte(v, '>')
			if end < 0 {
				break
			}
			target := strings.TrimSpace(v[1:end])
			v = v[end+1:]
			var rels []string
			for {
				v = strings.TrimLeft(v, " \t")
				if !strings.HasPrefix(v, ";") {
					break
				}
				v = strings.TrimLeft(v[1:], " \t")
				i := strings.IndexAny(v, "=;,")
				if i < 0 {
					v = ""
					break
				}
				key := strings.ToLower(strings.TrimSpace(v[:i]))
				if v[i] != '=' {
					v = v[i:]
					continue
				}
				v = strings.TrimLeft(v[i+1:], " \t")
				var val string
				if strings.HasPrefix(v, `"`) {
					j := 1
					for j < len(v) && v[j] != '"' {
						if v[j] == '\\' {
							j++
						}
						j++
					}
					val = strings.ReplaceAll(v[1:min(j, len(v))], `\`, "")
					v = v[min(j+1, len(v)):]
				} else {
					j := strings.IndexAny(v, ";,")
					if j < 0 {
						j = len(v)
					}
					val, v = strings.TrimSpace(v[:j]), v[j:]
				}
				if key == "rel" {
					rels = append(rels, strings.Fields(strings.ToLower(val))...)
				}
			}
			for _, rel := range rels {
				out = append(out, link{target: target, rel: rel})
			}
		}
	}
	return out
}
