package swifttest

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Dependency is one resolved dependency to lay out in a .build directory.
type Dependency struct {
	// Location is the repository URL of a source control dependency, or the "scope.name"
	// identifier of a registry one.
	Location string
	// Identity is SwiftPM's package identity; "" derives it as SwiftPM does: the last path
	// element of Location without ".git", lowercased (for registry dependencies, Location
	// lowercased).
	Identity string
	// Name is packageRef.name; "" means the checkout directory's name.
	Name string
	// Version is the resolved tag; "" for a dependency on a branch or a revision.
	Version string
	// Revision is the checked-out commit; "" makes one up from Location and Version.
	Revision string
	// Branch is the branch of a branch dependency.
	Branch string
	// Registry lays the package out as a registry download
	// (.build/registry/downloads/<scope>/<name>/<version>) instead of a checkout.
	Registry bool
	// Unlisted leaves the dependency out of workspace-state.json (a stray checkout).
	Unlisted bool
	// Files are the package's files by slash path.
	Files map[string]string
}

func (d Dependency) subpath() string {
	loc := strings.TrimRight(d.Location, "/")
	if i := strings.LastIndexAny(loc, "/:"); i >= 0 {
		loc = loc[i+1:]
	}
	return strings.TrimSuffix(loc, ".git")
}

func (d Dependency) identity() string {
	if d.Identity != "" {
		return d.Identity
	}
	if d.Registry {
		return strings.ToLower(d.Location)
	}
	return strings.ToLower(d.subpath())
}

func (d Dependency) revision() string {
	if d.Revision != "" {
		return d.Revision
	}
	sum := sha1.Sum([]byte(d.Location + "@" + d.Version + d.Branch))
	return hex.EncodeToString(sum[:])
}

// WriteBuild lays out deps under project the way `swift package resolve` leaves them (SwiftPM
// 5.9–6.x) and returns the .build directory:
//
//	<project>/Package.resolved                                   (version 2 pins)
//	<project>/.build/workspace-state.json                        (version 6)
//	<project>/.build/checkouts/<repository name>/...             source control working copies, with .git/HEAD
//	<project>/.build/repositories/<repository name>-<hash>/      bare clones (HEAD and config only)
//	<project>/.build/registry/downloads/<scope>/<name>/<version>/...
//
// It fails tb on any error; Layout is the same without a testing.TB.
func WriteBuild(tb testing.TB, project string, deps ...Dependency) string {
	tb.Helper()
	build, err := Layout(project, deps...)
	if err != nil {
		tb.Fatalf("swifttest: %v", err)
	}
	return build
}

// Layout writes what WriteBuild does and returns the .build directory.
func Layout(project string, deps ...Dependency) (string, error) {
	build := filepath.Join(project, ".build")
	var firstErr error
	writeFile := func(p, body string) {
		if firstErr == nil {
			firstErr = writeFileErr(p, body)
		}
	}
	mkdir := func(dir string) {
		if firstErr == nil {
			firstErr = os.MkdirAll(dir, 0o755)
		}
	}
	type ref struct {
		Identity string `json:"identity"`
		Kind     string `json:"kind"`
		Location string `json:"location"`
		Name     string `json:"name"`
	}
	var entries, pins []map[string]any
	for _, d := range deps {
		id := d.identity()
		var dir string
		r := ref{Identity: id, Kind: "remoteSourceControl", Location: d.Location, Name: d.Name}
		var state map[string]any
		var subpath string
		if d.Registry {
			scope, name, _ := strings.Cut(strings.ToLower(d.Location), ".")
			subpath = scope + "/" + name + "/" + d.Version
			dir = filepath.Join(build, "registry", "downloads", scope, name, d.Version)
			r.Kind = "registry"
			if r.Name == "" {
				r.Name = name
			}
			state = map[string]any{"name": "registryDownload", "version": d.Version}
		} else {
			subpath = d.subpath()
			dir = filepath.Join(build, "checkouts", subpath)
			if r.Name == "" {
				r.Name = subpath
			}
			cs := map[string]any{"revision": d.revision()}
			if d.Version != "" {
				cs["version"] = d.Version
			}
			if d.Branch != "" {
				cs["branch"] = d.Branch
			}
			state = map[string]any{"name": "sourceControlCheckout", "checkoutState": cs}
			writeFile(filepath.Join(dir, ".git", "HEAD"), d.revision()+"\n")
			repo := filepath.Join(build, "repositories", subpath+"-"+d.revision()[:8])
			writeFile(filepath.Join(repo, "HEAD"), "ref: refs/heads/main\n")
			writeFile(filepath.Join(repo, "config"), "[core]\n\tbare = true\n")
		}
		names := slices.Sorted(maps.Keys(d.Files))
		for _, n := range names {
			writeFile(filepath.Join(dir, filepath.FromSlash(n)), d.Files[n])
		}
		if len(names) == 0 {
			mkdir(dir)
		}
		if d.Unlisted {
			continue
		}
		entries = append(entries, map[string]any{"basedOn": nil, "packageRef": r, "state": state, "subpath": subpath})
		pinState := map[string]any{}
		if d.Version != "" {
			pinState["version"] = d.Version
		}
		if !d.Registry {
			pinState["revision"] = d.revision()
			if d.Branch != "" {
				pinState["branch"] = d.Branch
			}
		}
		pins = append(pins, map[string]any{"identity": id, "kind": r.Kind, "location": d.Location, "state": pinState})
	}
	if entries == nil {
		entries = []map[string]any{}
	}
	ws := map[string]any{
		"object":  map[string]any{"artifacts": []any{}, "dependencies": entries},
		"version": 6,
	}
	b, err := json.MarshalIndent(ws, "", "  ")
	if err != nil {
		return "", err
	}
	writeFile(filepath.Join(build, "workspace-state.json"), string(b))
	if pins == nil {
		pins = []map[string]any{}
	}
	b, _ = json.MarshalIndent(map[string]any{"pins": pins, "version": 2}, "", "  ")
	writeFile(filepath.Join(project, "Package.resolved"), string(b))
	return build, firstErr
}

func writeFileErr(p, body string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(body), 0o644)
}
