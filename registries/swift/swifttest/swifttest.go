// Package swifttest fakes a Swift package registry (SE-0292) with net/http/httptest and lays out
// SwiftPM .build directories, for tests of registries/swift and of anything that crawls Swift
// packages.
//
// The registry serves the endpoints of swift-package-manager's
// Documentation/PackageRegistry/Registry.md for the releases published to it:
//
//	GET /{scope}/{name}                         releases, with Link rel="canonical" and "latest-version"
//	                                            (paginated with ?page=N and rel="next" after SetPageSize)
//	GET /{scope}/{name}/{version}               release metadata with the source archive's checksum
//	GET /{scope}/{name}/{version}/Package.swift the manifest (?swift-version=X: the variant, else 303)
//	GET /{scope}/{name}/{version}.zip           the source archive, with a Digest header
//	GET /identifiers?url={url}                  the identifiers whose repositoryURLs hold url
//
// Scopes and names match case-insensitively. Every reply carries Content-Version: 1; errors are
// RFC 7807 problem documents. A request without an Accept header gets 400 and one asking for
// another API version 415, as the specification allows, so tests see what the client sends.
// Source archives are zips built at publication, every file under a top-level directory named
// after the package (as `swift package archive-source` writes them), and the metadata checksum
// is their SHA-256. Faults (404, 500, 429 with Retry-After, a truncated body, a replaced body),
// a wrong checksum and required credentials are set per test.
//
// It imports only the standard library, so any package's tests can use it.
package swifttest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BaseTime is the publication time of the first release published to a Server; each later
// release is one day later unless it sets its own.
var BaseTime = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// Release is one package release to publish.
type Release struct {
	// ID is the package identifier "scope.name" in the case the registry reports it.
	ID string
	// Version is the release version, e.g. "1.2.0".
	Version string
	// Files are the package's files by slash path (Package.swift, Sources/…), archived under a
	// top-level directory named after the package.
	Files map[string]string
	// Archive, when set, is served as the source archive instead of one built from Files (see
	// Zip and ZipEntries); its checksum is computed all the same.
	Archive []byte
	// Metadata is the release's "metadata" object: description, licenseURL, readmeURL,
	// repositoryURLs, author, originalPublicationTime …
	Metadata map[string]any
	// Problem, when set, lists the release as unavailable with a 410 problem of this detail.
	Problem string
	// PublishedAt is the registry's publication time; zero means BaseTime plus a day per
	// release published before.
	PublishedAt time.Time
}

// Fault changes the replies to matching requests.
type Fault struct {
	// Path selects requests whose path (and query) contains it, e.g. "/mona/LinkedList/1.0.0.zip"
	// or ".zip"; "" selects every request. Matching is case-sensitive on the request as sent.
	Path string
	// Status, when non-zero, is the reply status (404, 410, 429, 500 …) with a problem body.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header.
	RetryAfter string
	// Body, when non-nil, replaces the body of a 200 reply.
	Body []byte
	// Truncate declares the full Content-Length but sends only half the body.
	Truncate bool
	// Times is how many requests the fault applies to before it expires; 0 means all.
	Times int
}

// Request is one request the Server received.
type Request struct {
	Path          string // escaped path, e.g. "/mona/LinkedList/1.0.0.zip"
	Query         string // raw query
	Accept        string // the Accept header, e.g. "application/vnd.swift.registry.v1+json"
	Authorization string // the Authorization header, or ""
}

// Server is a fake Swift package registry. Its methods are safe for concurrent use.
type Server struct {
	// URL is the registry URL, without a trailing slash, for a registries.json or NewConfig.
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	pkgs     map[string]*pkg // lowercased id
	faults   []*Fault
	reqs     []Request
	auth     string
	pageSize int
	tampered map[string]bool // lowercased id@version
	ids      map[string][]string
	nextTime time.Time
}

type pkg struct {
	id       string
	releases map[string]*release
}

type release struct {
	Release
	archive  []byte
	checksum string
}

// NewServer starts a fake registry holding the releases under root, laid out as
//
//	<root>/<scope>/<name>/<version>/<package files>
//	<root>/<scope>/<name>/<version>.json     (optional: the release's metadata object)
//
// root "" starts an empty one. It fails tb on an unreadable tree and closes the server at cleanup.
func NewServer(tb testing.TB, root string) *Server {
	tb.Helper()
	s := &Server{pkgs: map[string]*pkg{}, tampered: map[string]bool{}, ids: map[string][]string{}, nextTime: BaseTime}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.srv.Close)
	s.URL = s.srv.URL
	if root != "" {
		if err := s.load(root); err != nil {
			tb.Fatalf("swifttest: %v", err)
		}
	}
	return s
}

func (s *Server) load(root string) error {
	scopes, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, sc := range scopes {
		if !sc.IsDir() {
			continue
		}
		names, err := os.ReadDir(filepath.Join(root, sc.Name()))
		if err != nil {
			return err
		}
		for _, n := range names {
			if !n.IsDir() {
				continue
			}
			dir := filepath.Join(root, sc.Name(), n.Name())
			versions, err := os.ReadDir(dir)
			if err != nil {
				return err
			}
			for _, v := range versions {
				if !v.IsDir() {
					continue
				}
				files, err := ReadTree(filepath.Join(dir, v.Name()))
				if err != nil {
					return err
				}
				r := Release{ID: sc.Name() + "." + n.Name(), Version: v.Name(), Files: files}
				if b, err := os.ReadFile(filepath.Join(dir, v.Name()+".json")); err == nil {
					if err := json.Unmarshal(b, &r.Metadata); err != nil {
						return fmt.Errorf("%s.json: %w", v.Name(), err)
					}
				}
				s.Publish(r)
			}
		}
	}
	return nil
}

// ReadTree reads every regular file under dir into a map keyed by slash path.
func ReadTree(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return files, err
}

// Client returns an http.Client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Publish adds (or replaces) a release. Its metadata's repositoryURLs become /identifiers
// mappings.
func (s *Server) Publish(r Release) {
	archive := r.Archive
	if archive == nil {
		_, name, _ := strings.Cut(r.ID, ".")
		archive = Zip(name, r.Files)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(r.ID)
	p := s.pkgs[key]
	if p == nil {
		p = &pkg{id: r.ID, releases: map[string]*release{}}
		s.pkgs[key] = p
	}
	if r.PublishedAt.IsZero() {
		r.PublishedAt = s.nextTime
		s.nextTime = s.nextTime.Add(24 * time.Hour)
	}
	p.releases[r.Version] = &release{Release: r, archive: archive, checksum: Checksum(archive)}
	if urls, ok := r.Metadata["repositoryURLs"].([]any); ok {
		for _, u := range urls {
			if us, ok := u.(string); ok {
				s.addIdentifier(us, r.ID)
			}
		}
	}
	if urls, ok := r.Metadata["repositoryURLs"].([]string); ok {
		for _, u := range urls {
			s.addIdentifier(u, r.ID)
		}
	}
}

func (s *Server) addIdentifier(repo, id string) {
	for _, have := range s.ids[repo] {
		if strings.EqualFold(have, id) {
			return
		}
	}
	s.ids[repo] = append(s.ids[repo], id)
}

// AddIdentifier makes GET /identifiers?url=repo answer id (besides the metadata's own URLs).
func (s *Server) AddIdentifier(repo, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addIdentifier(repo, id)
}

// Checksum returns the hex SHA-256 of data, the form of a release resource's checksum.
func Checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ArchiveChecksum returns the checksum of the source archive of id@version, or "".
func (s *Server) ArchiveChecksum(id, version string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pkgs[strings.ToLower(id)]; p != nil {
		if r := p.releases[version]; r != nil {
			return r.checksum
		}
	}
	return ""
}

// TamperChecksum makes the release metadata of id@version give a checksum that does not match
// its archive.
func (s *Server) TamperChecksum(id, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tampered[strings.ToLower(id)+"@"+version] = true
}

// RequireAuth makes every request need exactly this Authorization header value ("Bearer t",
// "Basic …"); other requests get 401.
func (s *Server) RequireAuth(header string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auth = header
}

// SetPageSize paginates release lists: n releases per page, highest version first, with
// rel="next" links; 0 turns pagination off.
func (s *Server) SetPageSize(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pageSize = n
}

// Inject adds a fault; faults apply in the order added, the first match wins.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// fault records the request and returns the first live fault matching it.
func (s *Server) fault(r *http.Request) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, Request{Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Accept: r.Header.Get("Accept"), Authorization: r.Header.Get("Authorization")})
	target := r.URL.EscapedPath()
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	for i, f := range s.faults {
		if f.Path != "" && !strings.Contains(target, f.Path) {
			continue
		}
		c := *f
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return &c
	}
	return nil
}

// problem writes an RFC 7807 problem reply.
func problem(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Content-Version", "1")
	w.Header().Set("Content-Language", "en")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"status": status, "title": http.StatusText(status), "detail": detail})
	w.Write(b)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	f := s.fault(r)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		problem(w, http.StatusMethodNotAllowed, "publishing isn't supported")
		return
	}
	s.mu.Lock()
	auth := s.auth
	s.mu.Unlock()
	if auth != "" && r.Header.Get("Authorization") != auth {
		w.Header().Set("WWW-Authenticate", `Basic realm="registry"`)
		problem(w, http.StatusUnauthorized, "authentication required")
		return
	}
	if f != nil && f.Status != 0 {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		problem(w, f.Status, "injected fault")
		return
	}
	accept := r.Header.Get("Accept")
	switch {
	case accept == "":
		problem(w, http.StatusBadRequest, "missing Accept header")
		return
	case strings.HasPrefix(accept, "application/vnd.swift.registry.v") && !strings.HasPrefix(accept, "application/vnd.swift.registry.v1"):
		problem(w, http.StatusUnsupportedMediaType, "unsupported API version")
		return
	}
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	s.route(rec, r)
	body := rec.body.Bytes()
	if rec.status == http.StatusOK && f != nil && f.Body != nil {
		body = f.Body
	}
	for k, vs := range rec.header {
		w.Header()[k] = vs
	}
	if rec.status == http.StatusOK && f != nil && f.Truncate {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
		return
	}
	if rec.status == http.StatusOK {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(rec.status)
	w.Write(body)
}

// recorder buffers a reply so faults can replace or cut its body.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rc *recorder) Header() http.Header         { return rc.header }
func (rc *recorder) Write(b []byte) (int, error) { return rc.body.Write(b) }
func (rc *recorder) WriteHeader(status int)      { rc.status = status }

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimPrefix(r.URL.Path, "/")
	if p == "identifiers" {
		s.serveIdentifiers(w, r)
		return
	}
	parts := strings.Split(p, "/")
	switch {
	case len(parts) == 2:
		s.serveReleases(w, r, parts[0], strings.TrimSuffix(parts[1], ".json"))
	case len(parts) == 3 && strings.HasSuffix(parts[2], ".zip"):
		s.serveArchive(w, parts[0], parts[1], strings.TrimSuffix(parts[2], ".zip"))
	case len(parts) == 3:
		s.serveMetadata(w, parts[0], parts[1], strings.TrimSuffix(parts[2], ".json"))
	case len(parts) == 4 && parts[3] == "Package.swift":
		s.serveManifest(w, r, parts[0], parts[1], parts[2])
	default:
		problem(w, http.StatusNotFound, "not found")
	}
}

// lookup returns the package scope.name (case-insensitive) under the lock.
func (s *Server) lookup(scope, name string) *pkg {
	return s.pkgs[strings.ToLower(scope+"."+name)]
}

func (s *Server) jsonReply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Version", "1")
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	w.Write(b)
}

// sortedVersions returns p's versions, highest first (SE-0292 asks servers for that order).
func (p *pkg) sortedVersions() []string {
	vs := make([]string, 0, len(p.releases))
	for v := range p.releases {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return lessVersion(vs[j], vs[i]) })
	return vs
}

func (s *Server) releaseURL(p *pkg, version string) string {
	scope, name, _ := strings.Cut(p.id, ".")
	return s.URL + "/" + scope + "/" + name + "/" + version
}

func (s *Server) serveReleases(w http.ResponseWriter, r *http.Request, scope, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lookup(scope, name)
	if p == nil {
		problem(w, http.StatusNotFound, "package not found")
		return
	}
	vs := p.sortedVersions()
	page, pages := 1, 1
	if s.pageSize > 0 {
		pages = (len(vs) + s.pageSize - 1) / s.pageSize
		if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n >= 1 && n <= pages {
			page = n
		}
		vs = vs[(page-1)*s.pageSize : min(page*s.pageSize, len(vs))]
	}
	releases := map[string]any{}
	for _, v := range vs {
		rel := p.releases[v]
		entry := map[string]any{"url": s.releaseURL(p, v)}
		if rel.Problem != "" {
			entry["problem"] = map[string]any{"status": 410, "title": "Gone", "detail": rel.Problem}
		}
		releases[v] = entry
	}
	var links []string
	if latest := p.latest(); latest != "" {
		links = append(links, fmt.Sprintf(`<%s>; rel="latest-version"`, s.releaseURL(p, latest)))
	}
	for i, u := range p.repositoryURLs() {
		rel := "alternate"
		if i == 0 {
			rel = "canonical"
		}
		links = append(links, fmt.Sprintf(`<%s>; rel="%s"`, u, rel))
	}
	if page < pages {
		links = append(links, fmt.Sprintf(`<%s/%s/%s?page=%d>; rel="next"`, s.URL, scope, name, page+1))
	}
	for _, l := range links {
		w.Header().Add("Link", l)
	}
	s.jsonReply(w, map[string]any{"releases": releases})
}

// latest returns the highest available release without a pre-release part.
func (p *pkg) latest() string {
	for _, v := range p.sortedVersions() {
		if p.releases[v].Problem == "" && !strings.Contains(v, "-") {
			return v
		}
	}
	return ""
}

// repositoryURLs returns the latest release's repositoryURLs.
func (p *pkg) repositoryURLs() []string {
	for _, v := range p.sortedVersions() {
		var out []string
		switch urls := p.releases[v].Metadata["repositoryURLs"].(type) {
		case []string:
			out = urls
		case []any:
			for _, u := range urls {
				if s, ok := u.(string); ok {
					out = append(out, s)
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

func (s *Server) serveMetadata(w http.ResponseWriter, scope, name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lookup(scope, name)
	if p == nil || p.releases[version] == nil {
		problem(w, http.StatusNotFound, "release not found")
		return
	}
	rel := p.releases[version]
	if rel.Problem != "" {
		problem(w, http.StatusGone, rel.Problem)
		return
	}
	checksum := rel.checksum
	if s.tampered[strings.ToLower(p.id)+"@"+version] {
		checksum = Checksum(append([]byte("tampered"), rel.archive...))
	}
	meta := map[string]any{}
	for k, v := range rel.Metadata {
		meta[k] = v
	}
	if latest := p.latest(); latest != "" {
		w.Header().Add("Link", fmt.Sprintf(`<%s>; rel="latest-version"`, s.releaseURL(p, latest)))
	}
	s.jsonReply(w, map[string]any{
		"id":      p.id,
		"version": version,
		"resources": []any{map[string]any{
			"name": "source-archive", "type": "application/zip", "checksum": checksum,
		}},
		"metadata":    meta,
		"publishedAt": rel.PublishedAt.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
	})
}

func (s *Server) serveArchive(w http.ResponseWriter, scope, name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lookup(scope, name)
	if p == nil || p.releases[version] == nil || p.releases[version].Problem != "" {
		problem(w, http.StatusNotFound, "release not found")
		return
	}
	rel := p.releases[version]
	sum := sha256.Sum256(rel.archive)
	_, pkgName, _ := strings.Cut(p.id, ".")
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Version", "1")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.zip"`, pkgName, version))
	w.Header().Set("Digest", "sha-256="+base64.StdEncoding.EncodeToString(sum[:]))
	w.Header().Set("Cache-Control", "public, immutable")
	w.Write(rel.archive)
}

func (s *Server) serveManifest(w http.ResponseWriter, r *http.Request, scope, name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lookup(scope, name)
	if p == nil || p.releases[version] == nil {
		problem(w, http.StatusNotFound, "release not found")
		return
	}
	rel := p.releases[version]
	file := "Package.swift"
	if sv := r.URL.Query().Get("swift-version"); sv != "" {
		variant := "Package@swift-" + sv + ".swift"
		if _, ok := rel.Files[variant]; !ok {
			w.Header().Set("Location", s.releaseURL(p, version)+"/Package.swift")
			w.Header().Set("Content-Version", "1")
			w.WriteHeader(http.StatusSeeOther)
			return
		}
		file = variant
	}
	body, ok := rel.Files[file]
	if !ok {
		problem(w, http.StatusNotFound, "manifest not found")
		return
	}
	var variants []string
	for f := range rel.Files {
		if strings.HasPrefix(f, "Package@swift-") && strings.HasSuffix(f, ".swift") && !strings.Contains(f, "/") {
			variants = append(variants, f)
		}
	}
	sort.Strings(variants)
	for _, v := range variants {
		sv := strings.TrimSuffix(strings.TrimPrefix(v, "Package@swift-"), ".swift")
		w.Header().Add("Link", fmt.Sprintf(`<%s/Package.swift?swift-version=%s>; rel="alternate"; filename="%s"`, s.releaseURL(p, version), sv, v))
	}
	w.Header().Set("Content-Type", "text/x-swift")
	w.Header().Set("Content-Version", "1")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, file))
	w.Write([]byte(body))
}

func (s *Server) serveIdentifiers(w http.ResponseWriter, r *http.Request) {
	u := r.URL.Query().Get("url")
	if u == "" {
		problem(w, http.StatusBadRequest, "missing url parameter")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for repo, list := range s.ids {
		if sameRepo(repo, u) {
			ids = append(ids, list...)
		}
	}
	if len(ids) == 0 {
		problem(w, http.StatusNotFound, "no package identifiers for this URL")
		return
	}
	sort.Strings(ids)
	s.jsonReply(w, map[string]any{"identifiers": ids})
}

// sameRepo compares repository URLs loosely: case, scheme, user, ".git" and a trailing slash
// do not matter.
func sameRepo(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if u, err := url.Parse(s); err == nil && u.Host != "" {
			s = u.Host + u.Path
		} else if at := strings.IndexByte(s, '@'); at >= 0 {
			s = strings.Replace(s[at+1:], ":", "/", 1)
		}
		return strings.TrimSuffix(strings.TrimRight(s, "/"), ".git")
	}
	return norm(a) == norm(b)
}

// lessVersion orders "1.2.3-pre" style versions well enough for test fixtures.
func lessVersion(a, b string) bool {
	pa, pb := strings.SplitN(a, "-", 2), strings.SplitN(b, "-", 2)
	na, nb := strings.Split(pa[0], "."), strings.Split(pb[0], ".")
	for i := 0; i < len(na) && i < len(nb); i++ {
		x, _ := strconv.Atoi(na[i])
		y, _ := strconv.Atoi(nb[i])
		if x != y {
			return x < y
		}
	}
	if len(na) != len(nb) {
		return len(na) < len(nb)
	}
	if len(pa) != len(pb) {
		return len(pa) > len(pb) // a pre-release sorts first
	}
	return a < b
}

// Entry is one raw zip entry for ZipEntries. Name is written as is (no prefix, no cleaning), so
// tests can build hostile archives ("pkg/../../x", "/abs").
type Entry struct {
	Name string      // the entry name as stored
	Body string      // the content
	Mode fs.FileMode // 0 means a regular file 0644; fs.ModeSymlink makes Body the link target
}

// Zip builds a source archive of files (slash paths) under the top-level directory prefix, in
// sorted order, as `swift package archive-source` lays it out.
func Zip(prefix string, files map[string]string) []byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	entries := make([]Entry, 0, len(names)+1)
	entries = append(entries, Entry{Name: prefix + "/", Mode: fs.ModeDir | 0o755})
	for _, n := range names {
		entries = append(entries, Entry{Name: prefix + "/" + n, Body: files[n]})
	}
	return ZipEntries(entries)
}

// ZipEntries builds a zip from raw entries.
func ZipEntries(entries []Entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		mode := e.Mode
		if mode == 0 {
			mode = 0o644
		}
		hdr := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)}
		hdr.SetMode(mode)
		if mode.IsDir() {
			hdr.Method = zip.Store
		}
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			panic(err)
		}
		if !mode.IsDir() {
			if _, err := w.Write([]byte(e.Body)); err != nil {
				panic(err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
