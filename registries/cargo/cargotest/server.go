package cargotest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/internal/recorded"
)

// Fault is a failure the Server injects.
type Fault int

// Faults. Set them with Fail: on config.json (name "config.json"), on a crate's index file
// (version ""), or on one version's .crate download.
const (
	FaultNone            Fault = iota
	FaultNotFound              // 404
	FaultServerError           // 500
	FaultTooManyRequests       // 429 with Retry-After: 0
	FaultTruncated             // a Content-Length larger than the body
	FaultBadChecksum           // the index gives a wrong cksum for the version (version only)
	FaultUnauthorized          // 401
)

// BaseTime is the pubtime of the first version of each crate; each later version is a day later.
var BaseTime = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// Request is one request the Server received.
type Request struct {
	Path          string // path and query, e.g. "/index/fe/rr/ferris-json"
	Authorization string
}

// Server is a fake sparse registry. Its methods are safe for concurrent use.
type Server struct {
	// URL is the server's base URL, e.g. "http://127.0.0.1:41234".
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	crates   map[string][]*served // lowercased name -> versions in publish order
	faults   map[string]Fault
	token    string
	dl       string
	requests []Request
	recorded recorded.Responses
}

// RecordedHost is the placeholder that stands for a registry's host in recorded responses:
// "https://" + RecordedHost is replaced with the Server's URL when Record serves them.
const RecordedHost = recorded.Host

// Record makes the Server answer GET path (exact, e.g. "/index/it/oa/itoa") with body and
// contentType before anything it builds itself: a response recorded from a real registry, with
// every "https://registry.example.test" in body replaced by s.URL, so that a recorded
// config.json's dl leads back here. Faults and the token do not apply to recorded responses.
func (s *Server) Record(path, contentType string, body []byte) {
	s.recorded.Record(path, contentType, body, s.URL)
}

type served struct {
	crate   Crate
	archive []byte
	pubtime time.Time
}

// NewServer starts a fake registry over the crates under root (see LoadCrates); root "" starts
// an empty one. It fails tb on a malformed tree and closes the server at cleanup.
func NewServer(tb testing.TB, root string) *Server {
	tb.Helper()
	s := &Server{crates: map[string][]*served{}, faults: map[string]Fault{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.srv.Close)
	s.URL = s.srv.URL
	s.dl = s.URL + "/api/v1/crates"
	if root != "" {
		crates, err := LoadCrates(root)
		if err != nil {
			tb.Fatalf("cargotest: %v", err)
		}
		for _, c := range crates {
			s.AddCrate(c)
		}
	}
	return s
}

// Index returns the registry's index URL as cargo's configuration writes it:
// "sparse+<URL>/index/".
func (s *Server) Index() string { return "sparse+" + s.URL + "/index/" }

// Client returns an http.Client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// AddCrate publishes c, packed with Crate.Archive.
func (s *Server) AddCrate(c Crate) { s.AddArchive(c, c.Archive()) }

// AddArchive publishes c's name and version with a .crate built by the caller (see Archive), so
// tests can serve hostile or oversized archives. c.Files is not used.
func (s *Server) AddArchive(c Crate, archive []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(c.Name)
	list := s.crates[key]
	for i, old := range list {
		if old.crate.Version == c.Version {
			list[i] = &served{crate: c, archive: archive, pubtime: old.pubtime}
			return
		}
	}
	s.crates[key] = append(list, &served{crate: c, archive: archive, pubtime: BaseTime.AddDate(0, 0, len(list))})
}

// Yank marks name@version yanked (or not) in the index.
func (s *Server) Yank(name, version string, yanked bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.crates[strings.ToLower(name)] {
		if v.crate.Version == version {
			v.crate.Yanked = yanked
		}
	}
}

// SetDownload sets config.json's dl: a URL template with {crate}, {version}, {prefix},
// {lowerprefix} and {sha256-checksum} markers, or a base URL to which cargo appends
// /{crate}/{version}/download. The default is URL + "/api/v1/crates", as crates.io's. The server
// answers downloads at whatever URL the template gives.
func (s *Server) SetDownload(dl string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dl = dl
}

// Fail injects f into requests for config.json (name "config.json"), for name's index file
// (version "") or for name@version's .crate. FaultNone clears it.
func (s *Server) Fail(name, version string, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(name)
	if version != "" {
		key += "@" + version
	}
	if f == FaultNone {
		delete(s.faults, key)
	} else {
		s.faults[key] = f
	}
}

// RequireToken makes the registry private (RFC 3139): config.json says "auth-required": true, and
// every request without the header "Authorization: <token>" gets 401.
func (s *Server) RequireToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// DownloadURL returns the URL config.json's dl gives for name@version.
func (s *Server) DownloadURL(name, version string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.crates[strings.ToLower(name)] {
		if v.crate.Version == version {
			return s.downloadURL(v)
		}
	}
	return ""
}

func (s *Server) downloadURL(v *served) string {
	dl := s.dl
	markers := false
	for _, m := range []string{"{crate}", "{version}", "{prefix}", "{lowerprefix}", "{sha256-checksum}"} {
		markers = markers || strings.Contains(dl, m)
	}
	if !markers {
		dl += "/{crate}/{version}/download"
	}
	prefix := indexPrefix(v.crate.Name)
	return strings.NewReplacer("{crate}", v.crate.Name, "{version}", v.crate.Version, "{prefix}", prefix,
		"{lowerprefix}", strings.ToLower(prefix), "{sha256-checksum}", Checksum(v.archive)).Replace(dl)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.RequestURI(), Authorization: r.Header.Get("Authorization")})
	token := s.token
	s.mu.Unlock()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if s.recorded.Serve(w, r) {
		return
	}
	if token != "" && r.Header.Get("Authorization") != token {
		w.Header().Set("WWW-Authenticate", `Cargo login_url="https://registry.example.test/me"`)
		http.Error(w, `{"errors":[{"detail":"authentication required"}]}`, http.StatusUnauthorized)
		return
	}
	switch p := r.URL.Path; {
	case p == "/index/config.json":
		s.serveConfig(w, r)
	case strings.HasPrefix(p, "/index/"):
		s.serveIndex(w, r, strings.TrimPrefix(p, "/index/"))
	default:
		s.serveDownload(w, r)
	}
}

// gate applies a fault; it reports whether the request was answered.
func (s *Server) gate(w http.ResponseWriter, key string, body []byte) bool {
	s.mu.Lock()
	f := s.faults[key]
	s.mu.Unlock()
	switch f {
	case FaultNotFound:
		http.Error(w, "not found", http.StatusNotFound)
	case FaultServerError:
		http.Error(w, "boom", http.StatusInternalServerError)
	case FaultTooManyRequests:
		w.Header().Set("Retry-After", "0")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	case FaultUnauthorized:
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	case FaultTruncated:
		w.Header().Set("Content-Length", strconv.Itoa(len(body)+100))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
	default:
		return false
	}
	return true
}

func (s *Server) serveConfig(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cfg := map[string]any{"dl": s.dl, "api": s.URL}
	if s.token != "" {
		cfg["auth-required"] = true
	}
	s.mu.Unlock()
	body, _ := json.Marshal(cfg)
	if s.gate(w, "config.json", body) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request, rel string) {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	body, ok := s.indexFile(name)
	if !ok || IndexPath(name) != rel {
		if !s.gate(w, strings.ToLower(name), nil) {
			http.NotFound(w, r)
		}
		return
	}
	if s.gate(w, strings.ToLower(name), body) {
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

// indexFile renders a crate's index file: one JSON line per version, in publish order, with the
// fields of a real index's lines (testdata/real/index of registries/cargo); no "v", which marks
// the version 2 schema of entries with features2, which these never have.
func (s *Server) indexFile(name string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.crates[strings.ToLower(name)]
	if len(list) == 0 {
		return nil, false
	}
	var b strings.Builder
	for _, v := range list {
		sum := Checksum(v.archive)
		if s.faults[strings.ToLower(v.crate.Name)+"@"+v.crate.Version] == FaultBadChecksum {
			sum = Checksum(append([]byte("tampered"), v.archive...))
		}
		line, err := json.Marshal(map[string]any{
			"name": v.crate.Name, "vers": v.crate.Version, "deps": []any{}, "cksum": sum,
			"features": map[string]any{}, "yanked": v.crate.Yanked, "pubtime": v.pubtime.Format(time.RFC3339),
		})
		if err != nil {
			panic(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String()), true
}

func (s *Server) serveDownload(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var found *served
	for _, list := range s.crates {
		for _, v := range list {
			if u := s.downloadURL(v); strings.TrimPrefix(u, s.URL) == r.URL.RequestURI() {
				found = v
			}
		}
	}
	s.mu.Unlock()
	if found == nil {
		http.NotFound(w, r)
		return
	}
	if s.gate(w, strings.ToLower(found.crate.Name)+"@"+found.crate.Version, found.archive) {
		return
	}
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(found.archive)))
	w.Write(found.archive)
}

// String describes the server for test logs.
func (s *Server) String() string { return fmt.Sprintf("cargotest registry %s", s.Index()) }
