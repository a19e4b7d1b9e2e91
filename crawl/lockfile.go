package crawl

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/docidx/docidx"
)

// MaxLockfile is the largest manifest or lockfile ParseLockfile reads, in bytes.
const MaxLockfile = 64 << 20

// ErrUnknownLockfile is returned by ParseLockfile for a file name it does not know.
var ErrUnknownLockfile = errors.New("unknown lockfile")

// LockfileNames lists the file names ParseLockfile understands.
var LockfileNames = []string{"go.mod", "package-lock.json", "npm-shrinkwrap.json"}

// ParseLockfile reads the exact package versions a project uses from one manifest or lockfile,
// chosen by its base name (see LockfileNames). Specs come back sorted and without duplicates,
// each with Exact set. It returns an error wrapping ErrUnknownLockfile for other names, and a
// parse error naming the file and line for malformed content.
func ParseLockfile(name string, data []byte) ([]Spec, error) {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	var specs []Spec
	var err error
	switch base {
	case "go.mod":
		specs, err = parseGoMod(name, data)
	case "package-lock.json", "npm-shrinkwrap.json":
		specs, err = parsePackageLock(name, data)
	default:
		return nil, fmt.Errorf("%w %q: docidx reads %s", ErrUnknownLockfile, name, strings.Join(LockfileNames, ", "))
	}
	if err != nil {
		return nil, err
	}
	for i := range specs {
		specs[i].Exact = true
		specs[i].Origin = base
	}
	return dedupe(specs), nil
}

// parseGoMod returns the go.mod's requirements with replace directives applied: a module replaced
// by another module version is crawled as the replacement; one replaced by a local directory is
// skipped (it is not in any registry). Go 1.17+ go.mod files list the whole build list, indirect
// requirements included.
func parseGoMod(name string, data []byte) ([]Spec, error) {
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil, err
	}
	repl := make(map[module.Version]module.Version)
	for _, r := range f.Replace {
		repl[r.Old] = r.New
	}
	var specs []Spec
	for _, r := range f.Require {
		m := r.Mod
		if n, ok := repl[m]; ok {
			m = n
		} else if n, ok := repl[module.Version{Path: m.Path}]; ok {
			m = n
		}
		if m.Version == "" || modfile.IsDirectoryPath(m.Path) {
			continue // a local replacement
		}
		specs = append(specs, Spec{Ecosystem: docidx.Go, Name: m.Path, Query: m.Version})
	}
	return specs, nil
}

// packageLock is the part of package-lock.json (lockfileVersion 1, 2 and 3) that names versions.
// See https://docs.npmjs.com/cli/configuring-npm/package-lock-json.
type packageLock struct {
	LockfileVersion int                    `json:"lockfileVersion"`
	Packages        map[string]lockPackage `json:"packages"`     // v2, v3
	Dependencies    map[string]lockDepV1   `json:"dependencies"` // v1 (and v2's copy)
}

type lockPackage struct {
	Name    string `json:"name"` // set for aliases ("npm:real@1")
	Version string `json:"version"`
	Link    bool   `json:"link"`
}

type lockDepV1 struct {
	Version      string               `json:"version"`
	Dependencies map[string]lockDepV1 `json:"dependencies"`
}

func parsePackageLock(name string, data []byte) ([]Spec, error) {
	var lock packageLock
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var specs []Spec
	if len(lock.Packages) > 0 {
		for key, p := range lock.Packages {
			i := strings.LastIndex(key, "node_modules/")
			if i < 0 || p.Link || p.Version == "" {
				continue // the root project, a workspace link, or a local folder
			}
			pkgName := key[i+len("node_modules/"):]
			if p.Name != "" {
				pkgName = p.Name
			}
			if !validNPMVersion(p.Version) {
				continue // a git, file or tarball URL dependency
			}
			specs = append(specs, Spec{Ecosystem: docidx.NPM, Name: pkgName, Query: p.Version})
		}
		return specs, nil
	}
	var walk func(map[string]lockDepV1, int)
	walk = func(deps map[string]lockDepV1, depth int) {
		if depth > 64 {
			return
		}
		for n, d := range deps {
			if v, ok := strings.CutPrefix(d.Version, "npm:"); ok { // alias: "npm:real@1.2.3"
				if j := strings.LastIndexByte(v, '@'); j > 0 {
					n, d.Version = v[:j], v[j+1:]
				}
			}
			if validNPMVersion(d.Version) {
				specs = append(specs, Spec{Ecosystem: docidx.NPM, Name: n, Query: d.Version})
			}
			walk(d.Dependencies, depth+1)
		}
	}
	walk(lock.Dependencies, 0)
	if len(specs) == 0 && lock.LockfileVersion == 0 {
		return nil, fmt.Errorf("%s: no \"packages\" or \"dependencies\": not a package-lock.json", name)
	}
	return specs, nil
}

// validNPMVersion reports whether v looks like a registry version rather than a URL or path.
func validNPMVersion(v string) bool {
	return v != "" && v[0] >= '0' && v[0] <= '9' && !strings.ContainsAny(v, ":/ ")
}

func dedupe(specs []Spec) []Spec {
	sort.Slice(specs, func(i, j int) bool {
		a, b := specs[i], specs[j]
		if a.Ecosystem != b.Ecosystem {
			return a.Ecosystem < b.Ecosystem
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Query < b.Query
	})
	out := specs[:0]
	for i, s := range specs {
		if i > 0 && s.Ecosystem == out[len(out)-1].Ecosystem && s.Name == out[len(out)-1].Name && s.Query == out[len(out)-1].Query {
			continue
		}
		out = append(out, s)
	}
	return out
}
