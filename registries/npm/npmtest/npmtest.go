// Package npmtest fakes an npm registry with net/http/httptest and lays out node_modules trees,
// for tests of registries/npm and of anything that crawls npm packages.
//
// The registry serves full packuments (GET /<name>, scoped names as "@scope%2fname" or
// "@scope/name") and gzip tarballs (GET /<name>/-/<base>-<version>.tgz) built at start-up from a
// directory tree
//
//	<root>/<name>/<version>/<package files>      (scoped: <root>/@scope/<name>/<version>/…)
//	<root>/<name>/packument.json                 (optional: merged into the packument)
//
// with dist.integrity (SRI sha512) and dist.shasum (sha1) computed from the built tarballs. A
// package.json is generated when a version directory has none, and name and version are always
// set from the path. packument.json may set "dist-tags", "readme", "time" and per-version fields
// under "versions" (e.g. {"versions": {"1.2.0": {"deprecated": "use 2"}}}); "dist-tags.latest"
// defaults to the highest release. Faults (statuses, Retry-After, truncated or replaced
// bodies) are injected through the embedded registrytest.Server; a wrong integrity
// (TamperIntegrity) and bearer-token scopes are set per test.
//
// It imports the standard library and registries/registrytest, never package npm, so any
// package's tests can use it.
package npmtest

import (
	"archive/tar"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/registrytest"
)

// Server is a fake npm registry. Its methods are safe for concurrent use.
type Server struct {
	// URL is the registry URL, ending in "/", for NewConfig or an .npmrc registry= line.
	URL string
	// Server logs the requests and applies the faults injected with Inject.
	*registrytest.Server

	mu       sync.Mutex
	pkgs     map[string]*pkg
	tampered registrytest.Tampered // by name@version
}

type pkg struct {
	name     string
	distTags map[string]string
	readme   *string
	times    map[string]string
	versions map[string]*pkgVersion
	extra    map[string]json.RawMessage // per-version packument fields from packument.json
}

type pkgVersion struct {
	manifest map[string]any
	tarball  []byte
}

// NewServer starts a fake registry over the tree at root (see the package doc); root "" starts
// an empty one. It fails tb on a malformed tree and closes the server at cleanup.
func NewServer(tb testing.TB, root string) *Server {
	tb.Helper()
	s := &Server{pkgs: map[string]*pkg{}}
	s.Server = registrytest.NewServer(tb, http.HandlerFunc(s.serve), problem)
	s.URL = s.Server.URL + "/"
	if root != "" {
		if err := s.load(root); err != nil {
			tb.Fatalf("npmtest: %v", err)
		}
	}
	return s
}

func (s *Server) load(root string) error {
	versions, err := registrytest.ReadVersions(root, func(dir string) bool { return strings.HasPrefix(dir, "@") })
	if err != nil {
		return err
	}
	for i, v := range versions {
		s.AddPackage(v.Name, v.Version, v.Files)
		if i+1 < len(versions) && versions[i+1].Name == v.Name {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(v.Name), "packument.json")); err == nil {
			if err := s.overlay(v.Name, b); err != nil {
				return fmt.Errorf("%s/packument.json: %w", v.Name, err)
			}
		}
	}
	return nil
}

func (s *Server) overlay(name string, b []byte) error {
	var o struct {
		DistTags map[string]string                     `json:"dist-tags"`
		Readme   *string                               `json:"readme"`
		Time     map[string]string                     `json:"time"`
		Versions map[string]map[string]json.RawMessage `json:"versions"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pkgs[name]
	if p == nil {
		return fmt.Errorf("no versions")
	}
	for t, v := range o.DistTags {
		p.distTags[t] = v
	}
	if o.Readme != nil {
		p.readme = o.Readme
	}
	for k, v := range o.Time {
		p.times[k] = v
	}
	for v, fields := range o.Versions {
		for k, raw := range fields {
			p.extra[v+"\x00"+k] = raw
		}
	}
	return nil
}

// AddPackage publishes name@version with the given files (slash paths inside the package). Its
// package.json gets name and version set; one is generated when files has none.
func (s *Server) AddPackage(name, version string, files map[string]string) {
	man := map[string]any{}
	if pj, ok := files["package.json"]; ok {
		_ = json.Unmarshal([]byte(pj), &man)
	}
	man["name"], man["version"] = name, version
	pj, _ := json.MarshalIndent(man, "", "  ")
	all := map[string]string{}
	for k, v := range files {
		all[k] = v
	}
	all["package.json"] = string(pj)
	s.AddTarball(name, version, man, Tarball("package", all))
}

// AddTarball publishes name@version with a tarball built by the caller (see Tarball and
// Tarballs) and the manifest the packument shows for it.
func (s *Server) AddTarball(name, version string, manifest map[string]any, tgz []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pkgs[name]
	if p == nil {
		p = &pkg{name: name, distTags: map[string]string{}, times: map[string]string{}, versions: map[string]*pkgVersion{}, extra: map[string]json.RawMessage{}}
		s.pkgs[name] = p
	}
	if manifest == nil {
		manifest = map[string]any{"name": name, "version": version}
	}
	p.versions[version] = &pkgVersion{manifest: manifest, tarball: tgz}
	if _, ok := p.times[version]; !ok {
		p.times[version] = registrytest.Published(len(p.times)).Format(time.RFC3339)
	}
}

// SetDistTag points tag of name at version.
func (s *Server) SetDistTag(name, tag, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pkgs[name]; p != nil {
		p.distTags[tag] = version
	}
}

// SetReadme sets the packument's top-level readme of name (nil removes it).
func (s *Server) SetReadme(name string, readme *string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pkgs[name]; p != nil {
		p.readme = readme
	}
}

// TamperIntegrity makes the packument give name@version a dist.integrity that does not match its
// tarball.
func (s *Server) TamperIntegrity(name, version string) {
	s.tampered.Add(name + "@" + version)
}

// RequireToken makes every packument and tarball of scope ("@acme") need the header
// "Authorization: Bearer <token>"; other requests for it get 401.
func (s *Server) RequireToken(scope, token string) {
	s.Require(registrytest.Auth{Prefix: "/" + scope + "/", Authorization: "Bearer " + token, Challenge: "Bearer"})
}

// TarballURL returns the URL the packument gives for name@version's tarball:
// <registry>/<name>/-/<name without scope>-<version>.tgz.
func (s *Server) TarballURL(name, version string) string {
	base := name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		base = name[i+1:]
	}
	return s.URL + name + "/-/" + base + "-" + version + ".tgz"
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	escaped := strings.TrimPrefix(r.URL.EscapedPath(), "/")
	if before, file, ok := strings.Cut(escaped, "/-/"); ok {
		name, err := url.PathUnescape(before)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		s.serveTarball(w, r, name, file)
		return
	}
	name, err := url.PathUnescape(escaped)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	s.servePackument(w, r, name)
}

// problem writes an npm error reply.
func problem(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"error": detail})
	w.Write(b)
}

func (s *Server) servePackument(w http.ResponseWriter, r *http.Request, name string) {
	body, ok := s.packument(name)
	if !ok {
		problem(w, http.StatusNotFound, "Not found")
		return
	}
	registrytest.Reply(w, "application/json", body)
}

func (s *Server) serveTarball(w http.ResponseWriter, r *http.Request, name, file string) {
	s.mu.Lock()
	var tgz []byte
	if p := s.pkgs[name]; p != nil {
		for v, pv := range p.versions {
			base := name[strings.LastIndexByte(name, '/')+1:]
			if file == base+"-"+v+".tgz" {
				tgz = pv.tarball
			}
		}
	}
	s.mu.Unlock()
	if tgz == nil {
		http.NotFound(w, r)
		return
	}
	registrytest.Reply(w, "application/octet-stream", tgz)
}

// packument renders name's full packument.
func (s *Server) packument(name string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pkgs[name]
	if p == nil {
		return nil, false
	}
	vs := slices.Collect(maps.Keys(p.versions))
	sort.Slice(vs, func(i, j int) bool { return registrytest.LessVersion(vs[i], vs[j]) })
	tags := map[string]string{}
	for k, v := range p.distTags {
		tags[k] = v
	}
	if _, ok := tags["latest"]; !ok {
		for i := len(vs) - 1; i >= 0; i-- {
			if !strings.Contains(vs[i], "-") {
				tags["latest"] = vs[i]
				break
			}
		}
	}
	versions := map[string]any{}
	for _, v := range vs {
		pv := p.versions[v]
		m := map[string]any{}
		for k, x := range pv.manifest {
			m[k] = x
		}
		integrity := s.tampered.Digest(name+"@"+v, pv.tarball, Integrity)
		sum := sha1.Sum(pv.tarball)
		m["dist"] = map[string]any{
			"tarball":   s.TarballURL(name, v),
			"integrity": integrity,
			"shasum":    hex.EncodeToString(sum[:]),
		}
		for key, raw := range p.extra {
			if ver, field, _ := strings.Cut(key, "\x00"); ver == v {
				m[field] = raw
			}
		}
		versions[v] = m
	}
	times := map[string]string{"created": "2024-01-01T00:00:00Z", "modified": "2024-06-01T00:00:00Z"}
	for k, v := range p.times {
		times[k] = v
	}
	doc := map[string]any{
		"_id":       name,
		"name":      name,
		"dist-tags": tags,
		"versions":  versions,
		"time":      times,
	}
	if latest, ok := p.versions[tags["latest"]]; ok {
		for _, k := range []string{"description", "license", "homepage", "repository", "keywords"} {
			if v, ok := latest.manifest[k]; ok {
				doc[k] = v
			}
		}
	}
	if p.readme != nil {
		doc["readme"] = *p.readme
		doc["readmeFilename"] = "README.md"
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b, true
}

// Integrity returns the SRI string npm records for data: "sha512-<base64>".
func Integrity(data []byte) string {
	sum := sha512.Sum512(data)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Tarball builds a gzip tar of files (slash paths) under the top directory prefix ("package"
// in every npm tarball), in sorted order.
func Tarball(prefix string, files map[string]string) []byte {
	return Tarballs.Build(registrytest.Files(prefix, files))
}

// Tarballs builds tarballs from raw entries, with a fixed modification time, in the PAX format
// npm pack writes.
var Tarballs = registrytest.Tar{ModTime: time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC), Format: tar.FormatPAX}
