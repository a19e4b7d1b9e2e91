package cargo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/loadcache"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
	untarpkg "github.com/docidx/docidx/registries/internal/untar"
)

// Ecosystem is the purl type this package serves.
const Ecosystem = docidx.Cargo

var (
	_ docidx.Registry = (*Registry)(nil)
	_ docidx.Cache    = (*Cache)(nil)
)

// indexCacheSize is how many index files a Registry keeps between Resolve and Fetch.
const indexCacheSize = 32

// RegistryConfig configures NewRegistry. The zero value reads crates.io's sparse index.
type RegistryConfig struct {
	// Config is cargo's configuration (LoadConfig, or NewConfig for a --cargo-index flag); nil
	// means the default: crates-io at DefaultIndex, no tokens.
	Config *Config
	// Registry names the registry to read: "" or "crates-io" for the default one (after source
	// replacement), or a name from [registries].
	Registry string
	// Client makes every request (rate limit, retries, status mapping); nil means fetch.New(nil).
	Client *fetch.Client
	// Logger receives fall-backs and skipped files at debug level and dropped content at warn
	// level; nil discards. Tokens are never logged.
	Logger *slog.Logger
	// Limits bounds each crate version's download and extraction.
	Limits Limits
	// Now returns the crawl time; nil means time.Now.
	Now func() time.Time
}

// Registry reads crates from a sparse registry index (https://doc.rust-lang.org/cargo/reference/registry-index.html,
// RFC 2789): the index's config.json for the download URL template and whether requests need a
// token (RFC 3139), the crate's index file (newline-delimited JSON, one entry per version) for
// version resolution, then the .crate tarball, checked against the index's sha256 checksum and
// read in memory. Metadata comes from the .crate's normalized Cargo.toml, the README from the
// .crate (the registry's rendered README is HTML), the API from its Rust sources. It implements
// docidx.Registry and is safe for concurrent use.
type Registry struct {
	src    *Source
	srcErr error
	client *fetch.Client
	log    *slog.Logger
	lim    Limits
	now    func() time.Time

	mu      sync.Mutex
	config  *indexConfig
	authReq bool // requests carry the token (auth-required, or config.json needed it)

	// files holds index files by lowercased crate name; not-found answers are kept too.
	files loadcache.Cache[indexFile]
}

// indexFile is a fetched index file: its entries and the URL they came from.
type indexFile struct {
	entries []IndexEntry
	url     string
}

// NewRegistry returns a Registry for cfg. A registry that cargo's configuration sends to a source
// docidx cannot read (a git index, a local-registry or directory source) is accepted; every
// lookup through it then fails with an error wrapping ErrUnsupportedSource that says why. It
// returns an error for an unknown registry name or a broken replace-with chain.
func NewRegistry(cfg RegistryConfig) (*Registry, error) {
	if cfg.Config == nil {
		cfg.Config = &Config{}
	}
	r := &Registry{client: cfg.Client, log: cfg.Logger, lim: cfg.Limits.withDefaults(), now: cfg.Now,
		files: loadcache.Cache[indexFile]{Size: indexCacheSize, Keep: func(err error) bool { return errors.Is(err, docidx.ErrNotFound) }}}
	r.src, r.srcErr = cfg.Config.Source(cfg.Registry)
	if r.srcErr != nil && !errors.Is(r.srcErr, ErrUnsupportedSource) {
		return nil, r.srcErr
	}
	r.client = defaults.Client(r.client)
	r.log = defaults.Logger(r.log)
	r.now = defaults.Now(r.now)
	return r, nil
}

// Ecosystem returns docidx.Cargo.
func (r *Registry) Ecosystem() docidx.Ecosystem { return Ecosystem }

// String names the registry for logs and the snapshot manifest, without credentials:
// "cargo registry crates-io sparse+https://index.crates.io/".
func (r *Registry) String() string {
	if r.src == nil {
		return "cargo registry (unsupported source)"
	}
	return "cargo registry " + r.src.String()
}

// Source returns where the registry reads crates from, or the error that makes it unusable.
func (r *Registry) Source() (*Source, error) { return r.src, r.srcErr }

// Retries returns how many HTTP attempts the registry client has retried so far (429, 5xx,
// timeouts and truncated bodies), for the crawl summary.
func (r *Registry) Retries() int64 { return r.client.Stats().Retries }

// indexConfig fetches (once) the index's config.json. It asks without a token first; when the
// registry refuses (401, 403, or 400 as some servers answer) and a token is configured, it asks
// again with it, as cargo does (https://doc.rust-lang.org/cargo/reference/registry-authentication.html).
func (r *Registry) indexConfig(ctx context.Context) (*indexConfig, bool, error) {
	r.mu.Lock()
	if r.config != nil {
		c, auth := r.config, r.authReq
		r.mu.Unlock()
		return c, auth, nil
	}
	r.mu.Unlock()
	u := r.src.URL() + "config.json"
	resp, err := r.client.Get(ctx, fetch.Request{URL: u, MaxBody: maxConfigJSON})
	needAuth := false
	var se *fetch.StatusError
	if err != nil && errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden || se.Status == http.StatusBadRequest) && r.src.HasToken() {
		needAuth = true
		resp, err = r.client.Get(ctx, fetch.Request{URL: u, Header: r.authHeader(), MaxBody: maxConfigJSON})
	}
	if err != nil {
		return nil, false, r.httpError("", "", fmt.Errorf("index config.json: %w", err))
	}
	var c indexConfig
	if err := json.Unmarshal(resp.Body, &c); err != nil {
		return nil, false, fmt.Errorf("cargo: %s: config.json is not valid JSON: %w", redact.URL(r.src.Index), err)
	}
	if strings.TrimSpace(c.DL) == "" {
		return nil, false, fmt.Errorf("cargo: %s: config.json gives no dl (download URL)", redact.URL(r.src.Index))
	}
	auth := c.AuthRequired || needAuth
	if auth && !r.src.HasToken() {
		return nil, false, fmt.Errorf("cargo: %s requires authentication (auth-required in config.json) and no token is configured: set CARGO_REGISTRIES_%s_TOKEN or add it to $CARGO_HOME/credentials.toml", redact.URL(r.src.Index), envName(r.tokenRegistry()))
	}
	r.mu.Lock()
	r.config, r.authReq = &c, auth
	r.mu.Unlock()
	return &c, auth, nil
}

// tokenRegistry names the registry whose token the user should set.
func (r *Registry) tokenRegistry() string {
	if r.src.Replaced != "" {
		return r.src.Replaced
	}
	return r.src.Registry
}

// authHeader returns the Authorization header carrying the registry's token, sent as configured
// (cargo sends the token itself, without a scheme; a registry wanting "Bearer" has users store
// "Bearer …" as the token).
func (r *Registry) authHeader() http.Header {
	h := http.Header{}
	if r.src.HasToken() {
		h.Set("Authorization", r.src.token.token)
	}
	return h
}

// index returns the entries of name's index file, trying the name with "-" and "_" swapped when
// the registry has no file for it (crates.io treats them as the same crate name; cargo add does
// the same translation). The canonical name is the entries' name.
func (r *Registry) index(ctx context.Context, name string) ([]IndexEntry, string, error) {
	if r.srcErr != nil {
		return nil, "", r.srcErr
	}
	if !ValidName(name) {
		return nil, "", fmt.Errorf("cargo: %w: %q is not a valid crate name (ASCII letters, digits, - and _, at most 64)", docidx.ErrBadSpec, name)
	}
	entries, u, err := r.indexFile(ctx, name)
	if errors.Is(err, docidx.ErrNotFound) {
		for _, alt := range []string{strings.ReplaceAll(name, "-", "_"), strings.ReplaceAll(name, "_", "-")} {
			if alt == name {
				continue
			}
			if e, au, aerr := r.indexFile(ctx, alt); aerr == nil {
				r.log.Debug("cargo: crate name translated", "asked", name, "found", alt)
				entries, u, err = e, au, nil
				break
			} else if !errors.Is(aerr, docidx.ErrNotFound) {
				return nil, "", aerr
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	return entries, u, nil
}

// indexFile fetches (or returns the cached) index file of exactly name (case-insensitively).
func (r *Registry) indexFile(ctx context.Context, name string) ([]IndexEntry, string, error) {
	// Failures other than not-found are not cached: the next call retries.
	f, err := r.files.Get(ctx, strings.ToLower(name), func() (indexFile, error) {
		entries, u, err := r.loadIndexFile(ctx, name)
		return indexFile{entries, u}, err
	})
	return f.entries, f.url, err
}

func (r *Registry) loadIndexFile(ctx context.Context, name string) ([]IndexEntry, string, error) {
	_, auth, err := r.indexConfig(ctx)
	if err != nil {
		return nil, "", err
	}
	u := r.src.URL() + IndexPath(name)
	req := fetch.Request{URL: u, MaxBody: r.lim.MaxIndexFile}
	if auth {
		req.Header = r.authHeader()
	}
	resp, err := r.client.Get(ctx, req)
	if err != nil {
		return nil, "", r.httpError(name, "", err)
	}
	all, skipped := ParseIndexFile(resp.Body)
	var entries []IndexEntry
	for _, e := range all {
		if strings.EqualFold(e.Name, name) {
			entries = append(entries, e)
		}
	}
	if skipped > 0 {
		r.log.Debug("cargo: index lines skipped", "crate", name, "lines", skipped)
	}
	if len(entries) == 0 {
		return nil, "", fmt.Errorf("cargo: crate %s: its index file %s holds no usable version: %w", name, redact.URL(u), docidx.ErrNotFound)
	}
	return entries, u, nil
}

// httpError turns a fetch error into one that says what to do.
func (r *Registry) httpError(name, version string, err error) error {
	idx := redact.URL(r.src.Index)
	what := name
	if version != "" {
		what += "@" + version
	}
	switch {
	case name != "" && errors.Is(err, docidx.ErrNotFound):
		return fmt.Errorf("cargo: crate %s not found in %s: %w", what, idx, err)
	case fetch.Refused(err):
		return fmt.Errorf("cargo: %s refused access (set CARGO_REGISTRIES_%s_TOKEN or a token in $CARGO_HOME/credentials.toml): %w", idx, envName(r.tokenRegistry()), err)
	case what == "":
		return fmt.Errorf("cargo: %s: %w", idx, err)
	}
	return fmt.Errorf("cargo: %s: %w", what, err)
}

// Resolve returns the version of crate name that query selects, as cargo would select it:
//
//   - "" or "latest": the highest version that is neither yanked nor a pre-release, else the
//     highest pre-release that is not yanked;
//   - a complete version ("1.2.3", "=1.2.3", "v1.2.3"): exactly that version, even yanked;
//   - a version requirement in Cargo's syntax
//     (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html): comma-separated
//     comparators, a bare partial version being a caret requirement ("1.2" means "^1.2"), with
//     ~, *, wildcards, <, <=, >, >=; the highest matching version that is not yanked, a
//     pre-release only when a comparator names a pre-release of the same major.minor.patch.
//
// A name the registry does not know is also tried with "-" and "_" swapped, as cargo add does.
// Errors wrap docidx.ErrNotFound, docidx.ErrBadSpec, ErrUnsupportedSource, docidx.ErrOffline or
// the registry's failure.
func (r *Registry) Resolve(ctx context.Context, name, query string) (string, error) {
	entries, _, err := r.index(ctx, name)
	if err != nil {
		return "", err
	}
	v, err := resolveEntries(entries, query)
	if err != nil {
		return "", fmt.Errorf("cargo: %w", err)
	}
	return v.Vers, nil
}

// resolveEntries applies resolveVersion to index entries.
func resolveEntries(entries []IndexEntry, query string) (*IndexEntry, error) {
	byVersion := map[string]*IndexEntry{}
	var versions []string
	for i := range entries {
		e := &entries[i]
		if _, dup := byVersion[e.Vers]; dup {
			continue
		}
		byVersion[e.Vers] = e
		versions = append(versions, e.Vers)
	}
	v, err := resolveVersion(entries[0].Name, versions, func(v string) bool { return byVersion[v].Yanked }, query)
	if err != nil {
		return nil, err
	}
	return byVersion[v], nil
}

// Fetch downloads crate name at version (exact; anything else is resolved first, as by Resolve),
// checks the .crate against the index's sha256 and extracts its metadata, README, docs/,
// examples/ and public API in memory. Package.Name is the registry's spelling of the name,
// Versions lists the versions that are not yanked (and this one), Published is the index's
// pubtime when it gives one, Source the index URL, and a yanked version says so in Deprecated.
//
// Errors wrap docidx.ErrNotFound (unknown crate or version), docidx.ErrIntegrity (checksum
// mismatch), docidx.ErrTooLarge (a limit of Limits), docidx.ErrUnsafePath (an entry that is
// absolute, climbs out with "..", or lies outside NAME-VERSION/), ErrUnsupportedSource,
// docidx.ErrOffline, docidx.ErrRetryable or ctx's error.
func (r *Registry) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	entries, _, err := r.index(ctx, name)
	if err != nil {
		return nil, err
	}
	e, err := resolveEntries(entries, version)
	if err != nil {
		return nil, fmt.Errorf("cargo: %w", err)
	}
	cfg, auth, err := r.indexConfig(ctx)
	if err != nil {
		return nil, err
	}
	dl, err := downloadURL(cfg.DL, e)
	if err != nil {
		return nil, fmt.Errorf("cargo: %s@%s: %w", e.Name, e.Vers, err)
	}
	req := fetch.Request{URL: dl, MaxBody: r.lim.MaxCrate}
	if auth {
		req.Header = r.authHeader()
	}
	resp, err := r.client.Get(ctx, req)
	if err != nil {
		return nil, r.httpError(e.Name, e.Vers, err)
	}
	if err := verifyChecksum(resp.Body, e.Cksum); err != nil {
		return nil, fmt.Errorf("cargo: %s@%s: %s: %w", e.Name, e.Vers, redact.URL(dl), err)
	}
	files, skipped, err := untarCrate(resp.Body, e.Name+"-"+e.Vers, keepCrateFile, untarpkg.Limits{
		Unpacked: r.lim.MaxUnpacked, Entry: r.lim.MaxEntry, File: r.lim.MaxFile, Kept: maxKept,
	})
	if err != nil {
		return nil, fmt.Errorf("cargo: %s@%s: %w", e.Name, e.Vers, err)
	}
	for _, s := range skipped {
		r.log.Debug("cargo: .crate file skipped (size limit)", "crate", e.Name, "version", e.Vers, "file", s)
	}
	c, err := buildContents(memfs.New(files), e.Name, r.lim, nil)
	if err != nil {
		return nil, fmt.Errorf("cargo: %s@%s: %w", e.Name, e.Vers, err)
	}
	for _, err := range c.skipped {
		skip.File(r.log, "cargo: file skipped", err, "crate", e.Name, "version", e.Vers)
	}
	for _, p := range c.problems {
		r.log.Debug("cargo: "+p, "crate", e.Name, "version", e.Vers)
	}
	pkg := docidx.Package{Ecosystem: Ecosystem, Name: e.Name, Version: e.Vers}
	c.man.packageInfo(&pkg)
	seen := map[string]bool{}
	for _, x := range entries {
		if (!x.Yanked || x.Vers == e.Vers) && !seen[x.Vers] {
			seen[x.Vers] = true
			pkg.Versions = append(pkg.Versions, x.Vers)
		}
	}
	docidx.SortVersions(Ecosystem, pkg.Versions)
	if e.Yanked {
		pkg.Deprecated = "this version was yanked from " + redact.URL(r.src.Index)
	}
	pkg.Published = e.published()
	pkg.Source = redact.URL(r.src.Index)
	pkg.CrawledAt = r.now().UTC()
	return &docidx.PackageDocs{Package: pkg, Documents: c.docs, Symbols: c.symbols}, nil
}
