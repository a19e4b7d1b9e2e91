// Package pypitest fakes a Python package index with net/http/httptest and lays out
// site-packages directories, for tests of registries/pypi and of anything that crawls Python
// distributions.
//
// The Server speaks both APIs an index may offer:
//
//	GET /pypi/<name>/json              JSON API project document (info of the latest release, releases, urls)
//	GET /pypi/<name>/<version>/json    JSON API release document
//	GET /simple/<normalized name>/     PEP 691 JSON (Accept: application/vnd.pypi.simple.v1+json) or PEP 503 HTML
//	GET /files/<filename>              a wheel or sdist
//	GET /files/<filename>.metadata     its PEP 658 metadata file (wheels)
//
// Releases are built at start-up from a directory tree
//
//	<root>/<project>/<version>/METADATA           core metadata; Name and Version are set from the path
//	<root>/<project>/<version>/<files>            the files a wheel installs (packages, modules)
//	<root>/<project>/<version>/sdist/<files>      files only the sdist has (docs/, examples/, setup.py)
//
// into a pure-Python wheel "<dist>-<version>-py3-none-any.whl" and an sdist
// "<name>-<version>.tar.gz" each, with sha256 and md5 digests computed from the built files.
// JSON API file URLs are absolute, simple API ones relative, as on PyPI and many mirrors; the
// fields of each document and file, and the media types, are those of the index's recorded answers
// in registries/pypi/testdata/real, which Record (of the embedded registrytest.Server) serves as
// they were sent. Faults (statuses, Retry-After, truncated or replaced bodies) are injected through
// the embedded registrytest.Server; wrong digests (TamperDigest), yanked releases, hand-made files,
// a mirror without the JSON API and HTML-only simple pages are set per test.
//
// It imports the standard library and registries/registrytest, never package pypi, so any
// package's tests can use it.
package pypitest

import (
	"archive/tar"
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/registrytest"
)

// File is one distribution file of a release.
type File struct {
	Filename string
	Data     []byte
	Metadata []byte // the PEP 658 metadata file; nil when not served
	Yanked   string // non-empty: yanked with this reason ("yanked" when no reason)
}

// Server is a fake package index. Its methods are safe for concurrent use.
type Server struct {
	// URL is the index root, without a trailing slash: the simple API is URL + "/simple/" and
	// the JSON API URL + "/pypi/".
	// It logs the requests and applies the faults injected with Inject.
	*registrytest.Server

	mu         sync.Mutex
	projects   map[string]*project   // by normalized name
	tampered   registrytest.Tampered // by file name
	noJSON     bool
	htmlSimple bool
}

type project struct {
	name     string // as published
	releases map[string]*release
}

type release struct {
	version  string
	metadata []byte
	files    []*File
	uploaded time.Time
}

var (
	separators = regexp.MustCompile(`[-_.]+`)
	preRelease = regexp.MustCompile(`(?i)^(a|b|rc|c|alpha|beta|pre|preview|dev)\d*`)
)

// Normalize is PEP 503 name normalization: runs of "-", "_" and "." become "-", lowercased.
func Normalize(name string) string { return strings.ToLower(separators.ReplaceAllString(name, "-")) }

// NewServer starts a fake index over the tree at root (see the package doc); root "" starts an
// empty one. It fails tb on a malformed tree and closes the server at cleanup.
func NewServer(tb testing.TB, root string) *Server {
	tb.Helper()
	s := &Server{projects: map[string]*project{}}
	s.Server = registrytest.NewServer(tb, http.HandlerFunc(s.serve), nil)
	if root != "" {
		if err := s.load(root); err != nil {
			tb.Fatalf("pypitest: %v", err)
		}
	}
	return s
}

// SimpleURL returns the simple API base, ending in "/simple/" (pip's index-url).
func (s *Server) SimpleURL() string { return s.URL + "/simple/" }

func (s *Server) load(root string) error {
	versions, err := registrytest.ReadVersions(root, nil)
	if err != nil {
		return err
	}
	for _, v := range versions {
		meta := v.Files["METADATA"]
		delete(v.Files, "METADATA")
		wheel, sdist := map[string]string{}, map[string]string{}
		for p, body := range v.Files {
			if rest, ok := strings.CutPrefix(p, "sdist/"); ok {
				sdist[rest] = body
				continue
			}
			wheel[p] = body
			sdist[p] = body
		}
		s.AddRelease(v.Name, v.Version, meta, wheel, sdist)
	}
	return nil
}

// WithNameVersion returns metadata with its Name and Version headers set (added when missing),
// Metadata-Version kept, or 2.1 when missing.
func WithNameVersion(metadata, name, version string) string {
	head, body, hasBody := strings.Cut(strings.ReplaceAll(metadata, "\r\n", "\n"), "\n\n")
	var lines []string
	mv := "2.1"
	skip := false
	for _, l := range strings.Split(head, "\n") {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			if !skip {
				lines = append(lines, l)
			}
			continue
		}
		k, v, _ := strings.Cut(l, ":")
		skip = false
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "metadata-version":
			mv = strings.TrimSpace(v)
			continue
		case "name", "version", "":
			skip = true
			continue
		}
		lines = append(lines, l)
	}
	out := "Metadata-Version: " + mv + "\nName: " + name + "\nVersion: " + version + "\n"
	if len(lines) > 0 {
		out += strings.Join(lines, "\n") + "\n"
	}
	if hasBody {
		out += "\n" + body
	}
	return out
}

// AddRelease publishes name@version with metadata (Name and Version are set), a pure-Python wheel
// of wheelFiles (paths as installed) and an sdist of sdistFiles (paths below the sdist's top
// directory; PKG-INFO is added). A nil file map builds no such file.
func (s *Server) AddRelease(name, version, metadata string, wheelFiles, sdistFiles map[string]string) {
	meta := WithNameVersion(metadata, name, version)
	var files []*File
	if wheelFiles != nil {
		fn := WheelName(name, version)
		files = append(files, &File{Filename: fn, Data: Wheel(name, version, meta, wheelFiles), Metadata: []byte(meta)})
	}
	if sdistFiles != nil {
		all := map[string]string{"PKG-INFO": meta}
		for k, v := range sdistFiles {
			all[k] = v
		}
		files = append(files, &File{Filename: name + "-" + version + ".tar.gz", Data: Tarball(name+"-"+version, all)})
	}
	s.AddFiles(name, version, meta, files...)
}

// AddFiles publishes name@version with the given metadata (as the JSON API shows it) and files
// built by the caller (see Wheel, Tarball, Wheels, Sdists).
func (s *Server) AddFiles(name, version, metadata string, files ...*File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	norm := Normalize(name)
	p := s.projects[norm]
	if p == nil {
		p = &project{name: name, releases: map[string]*release{}}
		s.projects[norm] = p
	}
	r := p.releases[version]
	if r == nil {
		r = &release{version: version, uploaded: registrytest.Published(len(p.releases))}
		p.releases[version] = r
	}
	r.metadata = []byte(WithNameVersion(metadata, name, version))
	r.files = append(r.files, files...)
}

// Yank marks every file of name@version yanked with reason (PEP 592).
func (s *Server) Yank(name, version, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.projects[Normalize(name)]; p != nil {
		if r := p.releases[version]; r != nil {
			for _, f := range r.files {
				f.Yanked = reason
				if reason == "" {
					f.Yanked = "yanked"
				}
			}
		}
	}
}

// RemoveFiles drops the files of name@version whose name has the suffix (".whl", ".tar.gz").
func (s *Server) RemoveFiles(name, version, suffix string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.projects[Normalize(name)]; p != nil {
		if r := p.releases[version]; r != nil {
			var kept []*File
			for _, f := range r.files {
				if !strings.HasSuffix(f.Filename, suffix) {
					kept = append(kept, f)
				}
			}
			r.files = kept
		}
	}
}

// DisableJSONAPI makes /pypi/ answer 404, as a mirror that serves only the simple API.
func (s *Server) DisableJSONAPI() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noJSON = true
}

// HTMLOnly makes the simple API answer PEP 503 HTML whatever the Accept header asks.
func (s *Server) HTMLOnly() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.htmlSimple = true
}

// TamperDigest makes the index advertise a wrong sha256 for one distribution file, or, with
// "<filename>.metadata", for its PEP 658 metadata file.
func (s *Server) TamperDigest(filename string) {
	s.tampered.Add(filename)
}

// FileURL returns the URL of a distribution file.
func (s *Server) FileURL(filename string) string { return s.URL + "/files/" + filename }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) == 3 && parts[0] == "pypi" && parts[2] == "json":
		s.serveJSON(w, r, parts[1], "")
	case len(parts) == 4 && parts[0] == "pypi" && parts[3] == "json":
		s.serveJSON(w, r, parts[1], parts[2])
	case len(parts) == 2 && parts[0] == "simple":
		if !strings.HasSuffix(r.URL.Path, "/") {
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
			return
		}
		s.serveSimple(w, r, parts[1])
	case len(parts) == 2 && parts[0] == "files":
		s.serveFile(w, r, parts[1])
	default:
		http.NotFound(w, r)
	}
}

// sortedReleases returns a project's releases, oldest first.
func (p *project) sortedReleases() []*release {
	out := slices.Collect(maps.Values(p.releases))
	sort.Slice(out, func(i, j int) bool { return registrytest.LessVersion(out[i].version, out[j].version) })
	return out
}

// latest is the highest release that is not yanked and not a pre-release, as PyPI's info shows.
func (p *project) latest() *release {
	rs := p.sortedReleases()
	for i := len(rs) - 1; i >= 0; i-- {
		if !isPre(rs[i].version) && !rs[i].yanked() {
			return rs[i]
		}
	}
	if len(rs) > 0 {
		return rs[len(rs)-1]
	}
	return nil
}

func (r *release) yanked() bool {
	if len(r.files) == 0 {
		return false
	}
	for _, f := range r.files {
		if f.Yanked == "" {
			return false
		}
	}
	return true
}

func isPre(v string) bool { return preRelease.MatchString(strings.TrimLeft(v, "0123456789.")) }

// info renders a release's metadata as the JSON API's info object.
func info(r *release) map[string]any {
	msg, err := mail.ReadMessage(bytes.NewReader(r.metadata))
	out := map[string]any{"version": r.version, "yanked": r.yanked(), "yanked_reason": nil}
	if err != nil {
		return out
	}
	h := msg.Header
	body := new(bytes.Buffer)
	body.ReadFrom(msg.Body)
	str := func(k string) any {
		if v := h.Get(k); v != "" {
			return v
		}
		return nil
	}
	out["name"] = h.Get("Name")
	out["summary"] = str("Summary")
	out["description"] = body.String()
	if strings.TrimSpace(body.String()) == "" {
		out["description"] = h.Get("Description")
	}
	out["description_content_type"] = str("Description-Content-Type")
	out["keywords"] = str("Keywords")
	out["license"] = str("License")
	out["license_expression"] = str("License-Expression")
	out["home_page"] = str("Home-page")
	out["requires_python"] = str("Requires-Python")
	out["classifiers"] = h["Classifier"]
	out["requires_dist"] = h["Requires-Dist"]
	urls := map[string]string{}
	for _, pu := range h["Project-Url"] {
		if label, u, ok := strings.Cut(pu, ","); ok {
			urls[strings.TrimSpace(label)] = strings.TrimSpace(u)
		}
	}
	out["project_urls"] = urls
	if r.yanked() {
		out["yanked_reason"] = r.files[0].Yanked
	}
	return out
}

func digests(data []byte) (sha, md string) {
	s := sha256.Sum256(data)
	m := md5.Sum(data)
	return hex.EncodeToString(s[:]), hex.EncodeToString(m[:])
}

// advertisedSHA returns the sha256 the index shows for f: wrong after TamperDigest.
func (s *Server) advertisedSHA(f *File) string {
	return s.tampered.Digest(f.Filename, f.Data, sha256Hex)
}

// metadataSHA returns the sha256 the index shows for f's PEP 658 metadata file: wrong after
// TamperDigest("<filename>.metadata").
func (s *Server) metadataSHA(f *File) string {
	return s.tampered.Digest(f.Filename+".metadata", f.Metadata, sha256Hex)
}

// sha256Hex returns the sha256 of data in lowercase hex.
func sha256Hex(data []byte) string {
	sha, _ := digests(data)
	return sha
}

// jsonFile renders a file as the JSON API's file object, with every field PyPI sends.
func (s *Server) jsonFile(r *release, f *File) map[string]any {
	_, md := digests(f.Data)
	b2 := blake2bPlaceholder(f.Data)
	kind, pyVersion := "sdist", "source"
	if strings.HasSuffix(f.Filename, ".whl") {
		kind, pyVersion = "bdist_wheel", "py3"
	}
	var coreMetadata any = false
	if f.Metadata != nil {
		coreMetadata = map[string]string{"sha256": s.metadataSHA(f)}
	}
	o := map[string]any{
		"filename": f.Filename, "url": s.FileURL(f.Filename), "packagetype": kind, "size": len(f.Data),
		"digests":    map[string]string{"sha256": s.advertisedSHA(f), "md5": md, "blake2b_256": b2},
		"md5_digest": md,
		"yanked":     f.Yanked != "", "yanked_reason": nil,
		"upload_time": r.uploaded.Format("2006-01-02T15:04:05"), "upload_time_iso_8601": r.uploaded.Format("2006-01-02T15:04:05.000000Z"),
		"requires_python": nil, "python_version": pyVersion, "comment_text": "", "has_sig": false, "downloads": -1,
		"core-metadata": coreMetadata,
	}
	if f.Yanked != "" {
		o["yanked_reason"] = f.Yanked
	}
	return o
}

// blake2bPlaceholder stands in for a file's BLAKE2b-256 digest, which docidx never checks: a
// sha256 in the same hex form, so the field has PyPI's shape without importing x/crypto.
func blake2bPlaceholder(data []byte) string {
	sum := sha256.Sum256(append([]byte("blake2b"), data...))
	return hex.EncodeToString(sum[:])
}

// ownership is the JSON API's ownership object of a project without an organization.
var ownership = map[string]any{"organization": nil, "roles": []any{}}

func (s *Server) serveJSON(w http.ResponseWriter, r *http.Request, name, version string) {
	s.mu.Lock()
	noJSON := s.noJSON
	p := s.projects[Normalize(name)]
	s.mu.Unlock()
	if noJSON {
		http.NotFound(w, r)
		return
	}
	if p == nil {
		http.Error(w, `{"message": "Not Found"}`, http.StatusNotFound)
		return
	}
	s.mu.Lock()
	var doc map[string]any
	if version == "" {
		rel := map[string]any{}
		for _, rr := range p.sortedReleases() {
			list := []any{}
			for _, f := range rr.files {
				list = append(list, s.jsonFile(rr, f))
			}
			rel[rr.version] = list
		}
		latest := p.latest()
		urls := []any{}
		for _, f := range latest.files {
			urls = append(urls, s.jsonFile(latest, f))
		}
		doc = map[string]any{"info": info(latest), "releases": rel, "urls": urls, "last_serial": 1, "vulnerabilities": []any{}, "ownership": ownership}
	} else if rr := p.releases[version]; rr != nil {
		urls := []any{}
		for _, f := range rr.files {
			urls = append(urls, s.jsonFile(rr, f))
		}
		doc = map[string]any{"info": info(rr), "urls": urls, "last_serial": 1, "vulnerabilities": []any{}, "ownership": ownership}
	}
	s.mu.Unlock()
	if doc == nil {
		http.Error(w, `{"message": "Not Found"}`, http.StatusNotFound)
		return
	}
	body, _ := json.Marshal(doc)
	registrytest.Reply(w, "application/json", body)
}

func (s *Server) serveSimple(w http.ResponseWriter, r *http.Request, name string) {
	norm := Normalize(name)
	s.mu.Lock()
	p := s.projects[norm]
	htmlOnly := s.htmlSimple
	s.mu.Unlock()
	if p == nil {
		http.NotFound(w, r)
		return
	}
	wantJSON := !htmlOnly && strings.Contains(r.Header.Get("Accept"), "application/vnd.pypi.simple.v1+json")
	s.mu.Lock()
	var body []byte
	if wantJSON {
		files := []any{}
		versions := []string{}
		for _, rr := range p.sortedReleases() {
			versions = append(versions, rr.version)
			for _, f := range rr.files {
				o := map[string]any{
					"filename": f.Filename, "url": "../../files/" + f.Filename,
					"hashes": map[string]string{"sha256": s.advertisedSHA(f)}, "size": len(f.Data),
					"upload-time": rr.uploaded.Format("2006-01-02T15:04:05.000000Z"), "yanked": false,
					"requires-python": nil,
				}
				if f.Yanked != "" {
					o["yanked"] = f.Yanked
				}
				if f.Metadata != nil {
					sha := s.metadataSHA(f)
					o["core-metadata"] = map[string]string{"sha256": sha}
					o["dist-info-metadata"] = map[string]string{"sha256": sha}
				}
				files = append(files, o)
			}
		}
		body, _ = json.Marshal(map[string]any{"meta": map[string]string{"api-version": "1.1", "_last-serial": "1"}, "name": norm, "versions": versions, "files": files})
	} else {
		var b strings.Builder
		b.WriteString("<!DOCTYPE html>\n<html><head><meta name=\"pypi:repository-version\" content=\"1.1\"><title>Links for " + html.EscapeString(norm) + "</title></head><body>\n")
		for _, rr := range p.sortedReleases() {
			for _, f := range rr.files {
				attrs := ""
				if f.Metadata != nil {
					sha := s.metadataSHA(f)
					attrs += ` data-dist-info-metadata="sha256=` + sha + `" data-core-metadata="sha256=` + sha + `"`
				}
				if f.Yanked != "" {
					attrs += ` data-yanked="` + html.EscapeString(f.Yanked) + `"`
				}
				fmt.Fprintf(&b, "<a href=\"../../files/%s#sha256=%s\"%s>%s</a><br/>\n", f.Filename, s.advertisedSHA(f), attrs, html.EscapeString(f.Filename))
			}
		}
		b.WriteString("</body></html>\n")
		body = []byte(b.String())
	}
	s.mu.Unlock()
	if wantJSON {
		registrytest.Reply(w, "application/vnd.pypi.simple.v1+json", body)
	} else {
		registrytest.Reply(w, "text/html; charset=utf-8", body)
	}
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, filename string) {
	want, isMeta := strings.CutSuffix(filename, ".metadata")
	s.mu.Lock()
	var data []byte
	for _, p := range s.projects {
		for _, rr := range p.releases {
			for _, f := range rr.files {
				if f.Filename == want {
					data = f.Data
					if isMeta {
						data = f.Metadata
					}
				}
			}
		}
	}
	s.mu.Unlock()
	if data == nil {
		http.NotFound(w, r)
		return
	}
	registrytest.Reply(w, "application/octet-stream", data)
}

// WheelName returns the file name of a pure-Python wheel: "<dist>-<version>-py3-none-any.whl"
// with the distribution name escaped as PEP 427 says.
func WheelName(name, version string) string {
	return escapeDist(name) + "-" + version + "-py3-none-any.whl"
}

func escapeDist(name string) string { return separators.ReplaceAllString(name, "_") }

// Wheel builds a pure-Python wheel of files (paths as installed) with
// <dist>-<version>.dist-info/METADATA, WHEEL and RECORD.
func Wheel(name, version, metadata string, files map[string]string) []byte {
	info := escapeDist(name) + "-" + version + ".dist-info/"
	all := map[string]string{}
	for k, v := range files {
		all[k] = v
	}
	all[info+"METADATA"] = metadata
	all[info+"WHEEL"] = "Wheel-Version: 1.0\nGenerator: pypitest\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
	var record strings.Builder
	for _, n := range slices.Sorted(maps.Keys(all)) {
		sum := sha256.Sum256([]byte(all[n]))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", n, base64.RawURLEncoding.EncodeToString(sum[:]), len(all[n]))
	}
	fmt.Fprintf(&record, "%sRECORD,,\n", info)
	// RECORD goes last, as the wheel specification recommends.
	entries := append(registrytest.Files("", all), registrytest.Entry{Name: info + "RECORD", Body: record.String()})
	return Wheels.Build(entries)
}

// Tarball builds a gzip tar of files (slash paths) under the top directory top, in sorted order,
// as an sdist is laid out.
func Tarball(top string, files map[string]string) []byte {
	return Sdists.Build(registrytest.Files(top, files))
}

// Wheels builds wheels from raw entries and Sdists builds sdists (PAX tar headers), each with a
// fixed modification time.
var (
	Wheels = registrytest.Zip{Modified: time.Date(1980, 1, 2, 0, 0, 0, 0, time.UTC)}
	Sdists = registrytest.Tar{ModTime: time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC), Format: tar.FormatPAX}
)
