package gomodtest

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/docidx/docidx/registries/registrytest"
)

// Server is a fake module proxy. Its URL is a GOPROXY entry. It serves, for each module it holds:
//
//	<escaped path>/@v/list                 tagged versions, one per line
//	<escaped path>/@v/<escaped ver>.info   {"Version","Time"}
//	<escaped path>/@v/<escaped ver>.mod    the go.mod file
//	<escaped path>/@v/<escaped ver>.zip    the module zip
//	<escaped path>/@latest                 .info of the highest release (else highest version)
//
// and 404 with a plain-text message for anything else. The embedded registrytest.Server logs
// the requests and applies the faults injected with Inject first.
type Server struct {
	*registrytest.Server

	mu   sync.Mutex
	mods map[string]map[string]*Module // path → version → module
}

// NewServer starts a fake proxy holding mods, closed when t's test ends.
func NewServer(t testing.TB, mods ...*Module) *Server {
	s := &Server{mods: map[string]map[string]*Module{}}
	for _, m := range mods {
		s.Add(m)
	}
	s.Server = registrytest.NewServer(t, http.HandlerFunc(s.serve), nil)
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

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimPrefix(r.URL.Path, "/")
	body, ctype, ok := s.lookup(p)
	if !ok {
		http.Error(w, "not found: "+p, http.StatusNotFound)
		return
	}
	registrytest.Reply(w, ctype, body)
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
	versions := slices.Collect(maps.Keys(s.mods[modPath]))
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
