package gomodtest

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Server is a fake module proxy. Its URL is a GOPROXY entry. It serves, for each module it holds:
//
//	<escaped path>/@v/list                 tagged versions, one per line
//	<escaped path>/@v/<escaped ver>.info   {"Version","Time"}
//	<escaped path>/@v/<escaped ver>.mod    the go.mod file
//	<escaped path>/@v/<escaped ver>.zip    the module zip
//	<escaped path>/@latest                 .info of the highest release (else highest version)
//
// and 404 with a plain-text message for anything else. Faults injected with Inject apply first.
type Server struct {
	URL string // base URL, no trailing slash

	srv *httptest.Server

	mu     sync.Mutex
	mods   map[string]map[string]*Module // path → version → module
	faults []*Fault
	reqs   []string
}

// Fault changes the replies to matching requests.
type Fault struct {
	// Path selects requests whose path below the server root contains it, e.g.
	// "example.com/hello/@v/list" or ".zip"; "" selects every request.
	Path string
	// Status, when non-zero, is the reply status (404, 410, 429, 500 …) with a short text body.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header.
	RetryAfter string
	// Delay is waited before replying; a request cancelled meanwhile gets no reply.
	Delay time.Duration
	// Body, when non-nil, replaces the body of a 200 reply.
	Body []byte
	// Truncate declares the full Content-Length but sends only half the body, then closes.
	Truncate bool
	// Times is how many requests the fault applies to before it expires; 0 means all.
	Times int
}

// NewServer starts a fake proxy holding mods, closed when t's test ends.
func NewServer(t testing.TB, mods ...*Module) *Server {
	s := &Server{mods: map[string]map[string]*Module{}}
	for _, m := range mods {
		s.Add(m)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// NewServerFromDir starts a fake proxy holding every module version under dir (see Load).
func NewServerFromDir(t testing.TB, dir string) *Server {
	mods, err := Load(dir)
	if err != nil {
		t.Fatalf("gomodtest: %v", err)
	}
	return NewServer(t, mods...)
}

// Add makes the proxy serve m, replacing any module of the same path and version.
func (s *Server) Add(m *Module) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mods[m.Path] == nil {
		s.mods[m.Path] = map[string]*Module{}
	}
	s.mods[m.Path][m.Version] = m
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

// Requests returns the paths requested so far (below the server root, e.g.
// "example.com/hello/@v/list"), in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

// fault returns the first live fault matching p, counting its use.
func (s *Server) fault(p string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, p)
	for i, f := range s.faults {
		if f.Path != "" && !strings.Contains(p, f.Path) {
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

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimPrefix(r.URL.Path, "/")
	f := s.fault(p)
	if f != nil && f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-r.Context().Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	if f != nil && f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	if f != nil && f.Status != 0 {
		http.Error(w, http.StatusText(f.Status), f.Status)
		return
	}
	body, ctype, ok := s.lookup(p)
	if !ok {
		http.Error(w, "not found: "+p, http.StatusNotFound)
		return
	}
	if f != nil && f.Body != nil {
		body = f.Body
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if f != nil && f.Truncate {
		w.Write(body[:len(body)/2])
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
			}
		}
		return
	}
	w.Write(body)
}

// lookup answers one proxy protocol path.
func (s *Server) lookup(p string) (body []byte, ctype string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if escPath, ok := strings.CutSuffix(p, "/@latest"); ok {
		versions := s.versions(escPath)
		if len(versions) == 0 {
			return nil, "", false
		}
		best := versions[len(versions)-1]
		for _, v := range versions {
			if semver.Prerelease(v) == "" {
				best = v // versions are sorted, so the last release wins
			}
		}
		return s.module(escPath, best).info(), "application/json", true
	}
	escPath, file, ok := strings.Cut(p, "/@v/")
	if !ok {
		return nil, "", false
	}
	if file == "list" {
		versions := s.versions(escPath)
		if versions == nil {
			return nil, "", false
		}
		var b strings.Builder
		for _, v := range versions {
			if !module.IsPseudoVersion(v) {
				b.WriteString(v + "\n")
			}
		}
		return []byte(b.String()), "text/plain; charset=utf-8", true
	}
	i := strings.LastIndexByte(file, '.')
	if i < 0 {
		return nil, "", false
	}
	version, err := module.UnescapeVersion(file[:i])
	if err != nil {
		return nil, "", false
	}
	m := s.module(escPath, version)
	if m == nil {
		return nil, "", false
	}
	switch file[i:] {
	case ".info":
		return m.info(), "application/json", true
	case ".mod":
		return m.Mod, "text/plain; charset=utf-8", true
	case ".zip":
		return m.Zip, "application/zip", true
	}
	return nil, "", false
}

// versions returns the sorted versions of the module whose escaped path is escPath, or nil
// when there is no such module (or escPath is not a valid escaped path).
func (s *Server) versions(escPath string) []string {
	modPath, err := module.UnescapePath(escPath)
	if err != nil {
		return nil
	}
	var versions []string
	for v := range s.mods[modPath] {
		versions = append(versions, v)
	}
	semver.Sort(versions)
	return versions
}

func (s *Server) module(escPath, version string) *Module {
	modPath, err := module.UnescapePath(escPath)
	if err != nil {
		return nil
	}
	return s.mods[modPath][version]
}
