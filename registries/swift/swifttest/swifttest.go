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
// is their SHA-256. Faults (statuses as problem documents, Retry-After, truncated or replaced
// bodies) are injected through the embedded registrytest.Server; a wrong checksum
// (TamperChecksum) and required credentials are set per test.
//
// It imports the standard library and registries/registrytest, never package swift, so any
// package's tests can use it.
package swifttest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/registrytest"
)

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
	// Zip and SourceArchive); its checksum is computed all the same.
	Archive []byte
	// Metadata is the release's "metadata" object: description, licenseURL, readmeURL,
	// repositoryURLs, author, originalPublicationTime …
	Metadata map[string]any
	// Problem, when set, lists the release as unavailable with a 410 problem of this detail.
	Problem string
	// PublishedAt is the registry's publication time; zero means registrytest.Published(n), n
	// the releases published to the Server before without a time of their own.
	PublishedAt time.Time
}

// Server is a fake Swift package registry. Its methods are safe for concurrent use.
type Server struct {
	// Server's URL is the registry URL, without a trailing slash, for a registries.json or
	// NewConfig; it logs the requests and applies the faults injected with Inject.
	*registrytest.Server

	mu       sync.Mutex
	pkgs     map[string]*pkg // lowercased id
	pageSize int
	tampered registrytest.Tampered // by lowercased id@version
	ids      map[string][]string
	dated    int // releases given a publication time by the Server
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
	s := &Server{pkgs: map[string]*pkg{}, ids: map[string][]string{}}
	s.Server = registrytest.NewServer(tb, http.HandlerFunc(s.serve), problem)
	if root != "" {
		if err := s.load(root); err != nil {
			tb.Fatalf("swifttest: %v", err)
		}
	}
	return s
}

func (s *Server) load(root string) error {
	versions, err := registrytest.ReadVersions(root, func(string) bool { return true })
	if err != nil {
		return err
	}
	for _, v := range versions {
		r := Release{ID: strings.Replace(v.Name, "/", ".", 1), Version: v.Version, Files: v.Files}
		if b, err := os.ReadFile(v.Dir + ".json"); err == nil {
			if err := json.Unmarshal(b, &r.Metadata); err != nil {
				return fmt.Errorf("%s.json: %w", v.Version, err)
			}
		}
		s.Publish(r)
	}
	return nil
}

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
		r.PublishedAt = registrytest.Published(s.dated)
		s.dated++
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
	s.tampered.Add(strings.ToLower(id) + "@" + version)
}

// RequireAuth makes every request need exactly this Authorization header value ("Bearer t",
// "Basic …"); other requests get 401.
func (s *Server) RequireAuth(header string) {
	s.Require(registrytest.Auth{Authorization: header, Challenge: `Basic realm="registry"`})
}

// SetPageSize paginates release lists: n releases per page, highest version first, with
// rel="next" links; 0 turns pagination off.
func (s *Server) SetPageSize(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pageSize = n
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
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		problem(w, http.StatusMethodNotAllowed, "publishing isn't supported")
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
	s.route(w, r)
}

// route replies to an API request under s.mu.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
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
	w.Header().Set("Content-Version", "1")
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	registrytest.Reply(w, "application/json", b)
}

// sortedVersions returns p's versions, highest first (SE-0292 asks servers for that order).
func (p *pkg) sortedVersions() []string {
	vs := slices.Collect(maps.Keys(p.releases))
	sort.Slice(vs, func(i, j int) bool { return registrytest.LessVersion(vs[j], vs[i]) })
	return vs
}

func (s *Server) releaseURL(p *pkg, version string) string {
	scope, name, _ := strings.Cut(p.id, ".")
	return s.URL + "/" + scope + "/" + name + "/" + version
}

func (s *Server) serveReleases(w http.ResponseWriter, r *http.Request, scope, name string) {
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

// release returns the package and release that scope, name and version name, or a nil release
// having replied 404 "release not found" when there is none. A release withdrawn with a Problem
// is returned when withdrawn is 0; otherwise its reply is withdrawn: http.StatusGone with the
// problem as its detail, or http.StatusNotFound "release not found". The caller holds s.mu.
func (s *Server) release(w http.ResponseWriter, scope, name, version string, withdrawn int) (*pkg, *release) {
	p := s.lookup(scope, name)
	var rel *release
	if p != nil {
		rel = p.releases[version]
	}
	switch {
	case rel == nil:
		problem(w, http.StatusNotFound, "release not found")
		return p, nil
	case rel.Problem != "" && withdrawn == http.StatusGone:
		problem(w, http.StatusGone, rel.Problem)
		return p, nil
	case rel.Problem != "" && withdrawn != 0:
		problem(w, withdrawn, "release not found")
		return p, nil
	}
	return p, rel
}

func (s *Server) serveMetadata(w http.ResponseWriter, scope, name, version string) {
	p, rel := s.release(w, scope, name, version, http.StatusGone)
	if rel == nil {
		return
	}
	checksum := s.tampered.Digest(strings.ToLower(p.id)+"@"+version, rel.archive, Checksum)
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
	p, rel := s.release(w, scope, name, version, http.StatusNotFound) // an unavailable release has no archive
	if rel == nil {
		return
	}
	sum := sha256.Sum256(rel.archive)
	_, pkgName, _ := strings.Cut(p.id, ".")
	w.Header().Set("Content-Version", "1")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.zip"`, pkgName, version))
	w.Header().Set("Digest", "sha-256="+base64.StdEncoding.EncodeToString(sum[:]))
	w.Header().Set("Cache-Control", "public, immutable")
	registrytest.Reply(w, "application/zip", rel.archive)
}

func (s *Server) serveManifest(w http.ResponseWriter, r *http.Request, scope, name, version string) {
	p, rel := s.release(w, scope, name, version, 0)
	if rel == nil {
		return
	}
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
	w.Header().Set("Content-Version", "1")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, file))
	registrytest.Reply(w, "text/x-swift", []byte(body))
}

func (s *Server) serveIdentifiers(w http.ResponseWriter, r *http.Request) {
	u := r.URL.Query().Get("url")
	if u == "" {
		problem(w, http.StatusBadRequest, "missing url parameter")
		return
	}
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

// Zip builds a source archive of files (slash paths) under the top-level directory prefix, in
// sorted order, as `swift package archive-source` lays it out.
func Zip(prefix string, files map[string]string) []byte {
	entries := append([]registrytest.Entry{{Name: prefix + "/", Mode: fs.ModeDir | 0o755}}, registrytest.Files(prefix, files)...)
	return SourceArchive.Build(entries)
}

// SourceArchive builds source archives from raw entries, with a fixed modification time.
var SourceArchive = registrytest.Zip{Modified: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)}
