package gomod

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// Ecosystem is the ecosystem this package serves.
const Ecosystem = docidx.Go

var (
	_ docidx.Registry = (*Proxy)(nil)
	_ docidx.Cache    = (*ModCache)(nil)
)

var (
	// ErrDirect is returned when the GOPROXY list sends a lookup to "direct": the go command would
	// then fetch from the module's version control repository, which docidx never does. Set
	// GOPROXY (or --goproxy) to a module proxy, or crawl the module cache instead.
	ErrDirect = errors.New("GOPROXY=direct: docidx does not fetch modules from version control; set GOPROXY (or --goproxy) to a module proxy URL")

	// ErrPrivate is returned for a module whose path matches GONOPROXY (by default GOPRIVATE): the
	// go command fetches those directly from version control, which docidx never does. Download
	// them with the go command and crawl the module cache (--go-modcache) instead.
	ErrPrivate = errors.New("module is private (matches GONOPROXY/GOPRIVATE), so it is not fetched through a proxy; run `go mod download` and crawl the module cache (--go-modcache) instead")
)

// ProxyConfig configures NewProxy. Only Config is required.
type ProxyConfig struct {
	// Config gives the proxy list and the private module patterns (see LoadConfig).
	Config *Config
	// Client makes every HTTP request (retries, rate limit, timeouts); nil means
	// fetch.New(http.DefaultClient).
	Client *fetch.Client
	// Logger receives fall-backs and skipped files at debug level and dropped content at warn
	// level; nil discards.
	Logger *slog.Logger
	// Limits bounds each module version: the zip's size (larger modules fail with an error
	// wrapping docidx.ErrTooLarge) and its extraction (file size, files per package, symbols,
	// documents).
	Limits Limits
}

// Proxy is a docidx.Registry over Go module proxies, speaking the module proxy protocol
// (https://go.dev/ref/mod#goproxy-protocol) with cmd/go's GOPROXY list semantics. It fetches each
// module version's zip into memory, checks it by golang.org/x/mod/zip's rules and extracts its API
// and documents without writing to disk. A Proxy is safe for concurrent use.
type Proxy struct {
	proxies []proxyEntry
	noproxy string
	client  *fetch.Client
	log     *slog.Logger
	lim     Limits
}

// proxyEntry is one element of the GOPROXY list.
type proxyEntry struct {
	url             string // base URL without a trailing slash, or "direct" or "off"
	dir             string // for file:// URLs, the local directory
	fallBackOnError bool   // the separator after it is "|"
}

// NewProxy returns a Proxy for cfg. It fails when cfg.Config is nil, or its GOPROXY is empty,
// has no entries (","), or holds an entry that is not a URL, "direct" or "off". A list that is
// only "direct" or "off" is accepted; lookups through it fail with ErrDirect or
// docidx.ErrOffline.
func NewProxy(cfg ProxyConfig) (*Proxy, error) {
	if cfg.Config == nil {
		return nil, errors.New("gomod: NewProxy needs a Config with a GOPROXY (see LoadConfig)")
	}
	list, err := parseProxyList(cfg.Config.GOPROXY)
	if err != nil {
		return nil, err
	}
	p := &Proxy{
		proxies: list,
		noproxy: cfg.Config.GONOPROXY,
		client:  cfg.Client,
		log:     cfg.Logger,
		lim:     cfg.Limits.withDefaults(),
	}
	if p.noproxy == "" {
		p.noproxy = cfg.Config.GOPRIVATE
	}
	p.client = defaults.Client(p.client)
	p.log = defaults.Logger(p.log)
	return p, nil
}

// parseProxyList parses a GOPROXY value the way cmd/go's proxyList does: entries after "off" or
// "direct" are ignored, since those end every lookup.
func parseProxyList(s string) ([]proxyEntry, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("gomod: GOPROXY is empty; set GOPROXY (or --goproxy) to a module proxy URL")
	}
	var list []proxyEntry
	for rest := s; rest != ""; {
		var raw string
		fallBack := false
		if i := strings.IndexAny(rest, ",|"); i >= 0 {
			raw, fallBack, rest = rest[:i], rest[i] == '|', rest[i+1:]
		} else {
			raw, rest = rest, ""
		}
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		if raw == "off" || raw == "direct" {
			list = append(list, proxyEntry{url: raw})
			break
		}
		// Single words are reserved for built-in behaviours; anything else without a scheme is a
		// host name (cmd/go adds https:// the same way).
		if strings.ContainsAny(raw, ".:/") && !strings.Contains(raw, ":/") && !filepath.IsAbs(raw) && !path.IsAbs(raw) {
			raw = "https://" + raw
		}
		u, err := redact.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("gomod: GOPROXY entry %w; fix GOPROXY (or --goproxy)", err)
		}
		e := proxyEntry{url: strings.TrimSuffix(raw, "/"), fallBackOnError: fallBack}
		switch u.Scheme {
		case "http", "https":
		case "file":
			e.dir = filepath.FromSlash(u.Path)
		default:
			return nil, fmt.Errorf("gomod: GOPROXY entry %q: want an http, https or file URL, \"direct\" or \"off\"", redact.URL(raw))
		}
		list = append(list, e)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("gomod: GOPROXY %q lists no proxy; set GOPROXY (or --goproxy) to a module proxy URL", s)
	}
	return list, nil
}

// Ecosystem returns docidx.Go.
func (p *Proxy) Ecosystem() docidx.Ecosystem { return Ecosystem }

// String describes the proxy list with any credentials removed, for logs and snapshot manifests.
func (p *Proxy) String() string {
	var b strings.Builder
	b.WriteString("GOPROXY=")
	for i, e := range p.proxies {
		if i > 0 {
			if p.proxies[i-1].fallBackOnError {
				b.WriteByte('|')
			} else {
				b.WriteByte(',')
			}
		}
		b.WriteString(redact.URL(e.url))
	}
	return b.String()
}

// info is a .info or @latest reply.
type info struct {
	Version string
	Time    time.Time
}

// Resolve returns the version of module name that query names, following cmd/go's module queries
// (https://go.dev/ref/mod#version-queries): "" or "latest" is the highest release (else the
// highest pre-release) in @v/list, or @latest when the list is empty; an exact version such as
// "v1.2.3" is checked with its .info; a semver prefix such as "v1" or "v1.2" picks the highest
// version with that prefix; a comparison such as "<v2.0.0" or ">=v1.5.0" picks the nearest
// version on that side; anything else (a branch or commit) is sent to the proxy's .info, which
// may resolve it. Versions retracted by the latest version's go.mod are left out unless named
// exactly. Errors wrap docidx.ErrNotFound (no such module or matching version),
// docidx.ErrBadSpec (invalid module path), ErrPrivate, ErrDirect or docidx.ErrOffline.
func (p *Proxy) Resolve(ctx context.Context, name, query string) (string, error) {
	v, err := p.resolve(ctx, name, strings.TrimSpace(query))
	if err != nil {
		return "", fmt.Errorf("gomod: resolve %s@%s: %w", name, orLatest(query), err)
	}
	return v, nil
}

func orLatest(q string) string {
	if strings.TrimSpace(q) == "" {
		return "latest"
	}
	return q
}

func (p *Proxy) resolve(ctx context.Context, name, q string) (string, error) {
	esc, err := escapePath(name)
	if err != nil {
		return "", err
	}
	if isExactVersion(q) {
		inf, _, err := p.info(ctx, name, esc, q)
		if err != nil {
			return "", err
		}
		return inf.Version, nil
	}
	if _, _, ok := queryFilter(q); !ok {
		// A branch, tag or commit: some proxies resolve it through .info.
		inf, _, err := p.info(ctx, name, esc, q)
		if err != nil {
			return "", err
		}
		return inf.Version, nil
	}
	versions, err := p.list(ctx, name, esc)
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return "", err
	}
	if len(versions) == 0 {
		if q != "" && q != "latest" {
			return "", fmt.Errorf("no tagged version matches %q: %w", q, docidx.ErrNotFound)
		}
		body, _, err := p.get(ctx, name, esc+"/@latest", maxInfo)
		if err != nil {
			return "", err
		}
		inf, err := parseInfo(body, "")
		if err != nil {
			return "", err
		}
		return inf.Version, nil
	}
	v, ok := selectVersion(versions, q, p.retracted(ctx, name, esc, versions))
	if !ok {
		return "", fmt.Errorf("no version matches %q: %w", q, docidx.ErrNotFound)
	}
	return v, nil
}

// retracted reads the go.mod of the latest version among versions and returns its retractions,
// or nil when it has none or cannot be read.
func (p *Proxy) retracted(ctx context.Context, name, esc string, versions []string) func(string) bool {
	latest, ok := selectVersion(versions, "latest", nil)
	if !ok {
		return nil
	}
	escVer, err := module.EscapeVersion(latest)
	if err != nil {
		return nil
	}
	data, _, err := p.get(ctx, name, esc+"/@v/"+escVer+".mod", MaxGoMod)
	if err != nil {
		p.log.Debug("gomod: no retractions read", "module", name, "version", latest, "err", err)
		return nil
	}
	return retractions(data)
}

// list returns the versions in @v/list, sorted oldest first; pseudo-versions and invalid lines
// are dropped.
func (p *Proxy) list(ctx context.Context, name, esc string) ([]string, error) {
	body, _, err := p.get(ctx, name, esc+"/@v/list", maxList)
	if err != nil {
		return nil, err
	}
	var versions []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(body), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		v := f[0]
		if !semver.IsValid(v) || module.IsPseudoVersion(v) || seen[v] {
			continue
		}
		seen[v] = true
		versions = append(versions, v)
	}
	semver.Sort(versions)
	return versions, nil
}

// info fetches @v/<version>.info and returns it with the base URL that answered.
func (p *Proxy) info(ctx context.Context, name, esc, version string) (*info, string, error) {
	escVer, err := module.EscapeVersion(version)
	if err != nil {
		return nil, "", fmt.Errorf("%w: version %q: %v", docidx.ErrBadSpec, version, err)
	}
	body, base, err := p.get(ctx, name, esc+"/@v/"+escVer+".info", maxInfo)
	if err != nil {
		return nil, "", err
	}
	inf, err := parseInfo(body, version)
	return inf, base, err
}

// parseInfo decodes a .info reply; an empty Version means want.
func parseInfo(body []byte, want string) (*info, error) {
	var inf info
	if err := json.Unmarshal(body, &inf); err != nil {
		return nil, fmt.Errorf("bad .info reply: %w", err)
	}
	if inf.Version == "" {
		inf.Version = want
	}
	if !semver.IsValid(inf.Version) {
		return nil, fmt.Errorf("bad .info reply: version %q is not a semantic version", inf.Version)
	}
	return &inf, nil
}

// Fetch downloads module name at version (an exact version; anything else is resolved first),
// checks the zip and extracts its documentation in memory. Package.Published is the .info time,
// Versions the @v/list, Source the proxy base URL. Errors wrap docidx.ErrNotFound,
// docidx.ErrTooLarge (zip or contents over MaxZip), docidx.ErrUnsafePath (a zip path outside
// module@version/, with "..", or otherwise invalid), docidx.ErrBadSpec, ErrPrivate, ErrDirect,
// docidx.ErrOffline, docidx.ErrRetryable or ctx's error.
func (p *Proxy) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	docs, err := p.fetch(ctx, name, version)
	if err != nil {
		return nil, fmt.Errorf("gomod: fetch %s@%s: %w", name, orLatest(version), err)
	}
	return docs, nil
}

func (p *Proxy) fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	esc, err := escapePath(name)
	if err != nil {
		return nil, err
	}
	if !isExactVersion(version) {
		if version, err = p.resolve(ctx, name, strings.TrimSpace(version)); err != nil {
			return nil, err
		}
	}
	inf, _, err := p.info(ctx, name, esc, version)
	if err != nil {
		return nil, err
	}
	version = inf.Version
	escVer, err := module.EscapeVersion(version)
	if err != nil {
		return nil, fmt.Errorf("%w: version %q: %v", docidx.ErrBadSpec, version, err)
	}
	data, base, err := p.get(ctx, name, esc+"/@v/"+escVer+".zip", p.lim.MaxZip)
	if err != nil {
		return nil, err
	}
	fsys, err := openZip(data, name, version, p.lim.MaxZip)
	if err != nil {
		return nil, err
	}
	md, err := extractModule(ctx, fsys, name, version, p.lim, p.log)
	if err != nil {
		return nil, err
	}
	versions, err := p.list(ctx, name, esc)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		p.log.Debug("gomod: no version list", "module", name, "err", err)
	}
	return packageDocs(name, version, versions, inf.Time, redact.URL(base), md), nil
}

// get fetches rel (a path below the proxy base URL) for module name through the GOPROXY list,
// following cmd/go's fall-back rules and error ranking: an error other than not-found is reported
// over a not-found one. It returns the body and the base URL that served it.
func (p *Proxy) get(ctx context.Context, name, rel string, limit int64) ([]byte, string, error) {
	if p.noproxy != "" && module.MatchPrefixPatterns(p.noproxy, name) {
		return nil, "", fmt.Errorf("%s: %w", name, ErrPrivate)
	}
	var bestErr error
	bestNotFound := true
	for _, e := range p.proxies {
		switch e.url {
		case "off":
			if bestErr == nil {
				return nil, "", fmt.Errorf("module lookup disabled by GOPROXY=off: %w", docidx.ErrOffline)
			}
			return nil, "", fmt.Errorf("%w (GOPROXY lists off next, so nothing else was tried)", bestErr)
		case "direct":
			if bestErr == nil {
				return nil, "", ErrDirect
			}
			return nil, "", fmt.Errorf("%w (GOPROXY falls back to direct next, which docidx does not support: it never fetches from version control)", bestErr)
		}
		body, err := p.getOne(ctx, e, rel, limit)
		if err == nil {
			return body, e.url, nil
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		notFound := errors.Is(err, docidx.ErrNotFound)
		if bestErr == nil || bestNotFound {
			bestErr, bestNotFound = err, notFound
		}
		if !notFound && !e.fallBackOnError {
			break
		}
		p.log.Debug("gomod: trying the next GOPROXY entry", "module", name, "proxy", redact.URL(e.url), "err", err)
	}
	return nil, "", bestErr
}

// getOne fetches rel from one proxy.
func (p *Proxy) getOne(ctx context.Context, e proxyEntry, rel string, limit int64) ([]byte, error) {
	if e.dir == "" {
		resp, err := p.client.Get(ctx, fetch.Request{URL: e.url + "/" + rel, MaxBody: limit})
		if err != nil {
			return nil, err
		}
		return resp.Body, nil
	}
	file := filepath.Join(e.dir, filepath.FromSlash(rel))
	body, err := memfs.ReadLimited(os.DirFS(filepath.Dir(file)), filepath.Base(file), limit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", file, docidx.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return body, nil
}

// escapePath case-encodes a module path for proxy URLs and cache directories ("!" before each
// lowercased capital); an invalid module path fails with an error wrapping docidx.ErrBadSpec.
func escapePath(name string) (string, error) {
	esc, err := module.EscapePath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %v", docidx.ErrBadSpec, err)
	}
	return esc, nil
}

// packageDocs assembles the record of one module version.
func packageDocs(name, version string, versions []string, published time.Time, source string, md *moduleDocs) *docidx.PackageDocs {
	if len(versions) > 0 {
		semver.Sort(versions)
	}
	var requires []docidx.Requirement
	if md.goVersion != "" {
		requires = []docidx.Requirement{{Name: "go", Range: ">=" + md.goVersion}}
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{
			Ecosystem:   Ecosystem,
			Name:        name,
			Version:     version,
			Versions:    versions,
			Description: md.synopsis,
			License:     md.license,
			Repository:  repositoryURL(name),
			Deprecated:  md.deprecated,
			Published:   published,
			Source:      source,
			Requires:    requires,
			Commands:    commands(md.symbols),
		},
		Documents: md.documents,
		Symbols:   md.symbols,
	}
}

// commands returns the commands a module's main packages are, as go install names them: the
// last element of each import path, a major version suffix ("/v2", module.SplitPathVersion)
// left out. A main package under an internal, testdata or example directory is no command of
// the module's users, nor one in a directory named main (a test harness's "pkg/test/main"),
// whose name says nothing.
func commands(syms []docidx.Symbol) []string {
	var names []string
	for i := range syms {
		s := &syms[i]
		if s.Kind != docidx.KindPackage || s.Name != "main" {
			continue
		}
		p := s.Package
		if prefix, major, ok := module.SplitPathVersion(p); ok && strings.HasPrefix(major, "/") {
			p = prefix
		}
		elems := strings.Split(p, "/")
		if slices.ContainsFunc(elems, func(e string) bool {
			switch strings.TrimPrefix(e, "_") {
			case "internal", "testdata", "example", "examples":
				return true
			}
			return false
		}) {
			continue
		}
		if name := elems[len(elems)-1]; name != "main" {
			names = append(names, name)
		}
	}
	return docidx.CommandNames(names)
}

// repositoryURL guesses the source repository of module path from well-known hosts whose paths
// name the repository directly, or returns "".
func repositoryURL(modPath string) string {
	elems := strings.Split(modPath, "/")
	switch elems[0] {
	case "github.com", "gitlab.com", "bitbucket.org", "codeberg.org":
		if len(elems) >= 3 {
			return "https://" + strings.Join(elems[:3], "/")
		}
	case "golang.org":
		if len(elems) >= 3 && elems[1] == "x" {
			return "https://go.googlesource.com/" + elems[2]
		}
	}
	return ""
}

// Retries returns how many HTTP attempts the proxy client has retried so far (429, 5xx,
// timeouts and truncated bodies), for the crawl summary.
func (p *Proxy) Retries() int64 { return p.client.Stats().Retries }
