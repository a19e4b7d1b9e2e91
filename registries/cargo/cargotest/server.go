package cargotest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/registrytest"
)

// Server is a fake sparse registry. Its methods are safe for concurrent use.
type Server struct {
	// Server's URL is the server's base URL, e.g. "http://127.0.0.1:41234"; it logs the
	// requests and applies the faults injected with Inject.
	*registrytest.Server

	mu       sync.Mutex
	crates   map[string][]*served  // lowercased name -> versions in publish order
	tampered registrytest.Tampered // by lowercased name@version
	dl       string
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
	s := &Server{crates: map[string][]*served{}}
	s.Server = registrytest.NewServer(tb, http.HandlerFunc(s.serve), problem)
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

// AddCrate publishes c, packed with Crate.Archive.
func (s *Server) AddCrate(c Crate) { s.AddArchive(c, c.Archive()) }

// AddArchive publishes c's name and version with a .crate built by the caller (see Crates), so
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
	s.crates[key] = append(list, &served{crate: c, archive: archive, pubtime: registrytest.Published(len(list))})
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

// TamperChecksum makes the index give name@version a cksum that does not match its .crate.
func (s *Server) TamperChecksum(name, version string) {
	s.tampered.Add(strings.ToLower(name) + "@" + version)
}

// RequireToken makes the registry private (RFC 3139): config.json says "auth-required": true, and
// every request without the header "Authorization: <token>" gets 401.
func (s *Server) RequireToken(token string) {
	s.Require(registrytest.Auth{Authorization: token, Challenge: `Cargo login_url="https://registry.example.test/me"`})
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
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
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

// problem writes a registry error reply: {"errors":[{"detail":…}]}.
func problem(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"errors": []any{map[string]string{"detail": detail}}})
	w.Write(b)
}

func (s *Server) serveConfig(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cfg := map[string]any{"dl": s.dl, "api": s.URL}
	s.mu.Unlock()
	if s.AuthRequired() {
		cfg["auth-required"] = true
	}
	body, _ := json.Marshal(cfg)
	registrytest.Reply(w, "application/json", body)
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request, rel string) {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	body, ok := s.indexFile(name)
	if !ok || IndexPath(name) != rel {
		http.NotFound(w, r)
		return
	}
	registrytest.Reply(w, "text/plain", body)
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
		sum := s.tampered.Digest(strings.ToLower(v.crate.Name)+"@"+v.crate.Version, v.archive, Checksum)
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
	registrytest.Reply(w, "application/gzip", found.archive)
}

// String describes the server for test logs.
func (s *Server) String() string { return fmt.Sprintf("cargotest registry %s", s.Index()) }
