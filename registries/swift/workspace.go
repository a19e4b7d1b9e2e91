package swift

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// workspaceState is the part of SwiftPM's .build/workspace-state.json that docidx reads
// (WorkspaceState storage, versions 4 to 7: the shape of a dependency has been stable since
// SwiftPM 5.6).
type workspaceState struct {
	Version int `json:"version"`
	Object  struct {
		Dependencies []workspaceDependency `json:"dependencies"`
	} `json:"object"`
}

// workspaceDependency is one managed dependency.
type workspaceDependency struct {
	PackageRef struct {
		Identity string `json:"identity"`
		Kind     string `json:"kind"` // remoteSourceControl, localSourceControl, registry, fileSystem, root (older: remote, local)
		Location string `json:"location"`
		Name     string `json:"name"`
	} `json:"packageRef"`
	State struct {
		Name          string `json:"name"` // sourceControlCheckout (older: checkout), registryDownload, edited, fileSystem, custom
		CheckoutState *struct {
			Version  string `json:"version"`
			Revision string `json:"revision"`
			Branch   string `json:"branch"`
		} `json:"checkoutState"`
		Version string `json:"version"` // registryDownload
	} `json:"state"`
	Subpath string `json:"subpath"`
}

// shortRevision is how many hex digits of a commit hash name a version that has no tag.
const shortRevision = 12

// dependency is a package version found in a .build directory.
type dependency struct {
	identity string // lowercased
	name     string // packageRef.name
	location string
	kind     string
	version  string
	revision string
	branch   string
	dir      string // absolute
	registry bool   // a registry download (its directory is named by the version)
}

// parseWorkspaceState decodes workspace-state.json and returns the dependencies whose sources
// are in buildDir: source control checkouts (checkouts/<subpath>) and registry downloads
// (registry/downloads/<subpath>). Edited packages, local path dependencies and entries whose
// subpath is not a safe relative path are left out. A version is the checked-out tag, else the
// first 12 digits of the revision (branch and revision dependencies), else the branch.
func parseWorkspaceState(data []byte, buildDir string) ([]dependency, error) {
	var ws workspaceState
	if err := json.Unmarshal(trimBOM(data), &ws); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, fmt.Errorf("workspace-state.json is not valid JSON: %w", err)
		}
	}
	var out []dependency
	for _, d := range ws.Object.Dependencies {
		ref := d.PackageRef
		dep := dependency{
			identity: strings.ToLower(strings.TrimSpace(ref.Identity)),
			name:     strings.TrimSpace(ref.Name),
			location: strings.TrimSpace(ref.Location),
			kind:     ref.Kind,
		}
		if dep.identity == "" {
			dep.identity = strings.ToLower(locationBase(dep.location))
		}
		if dep.identity == "" {
			continue
		}
		switch d.State.Name {
		case "sourceControlCheckout", "checkout":
			cs := d.State.CheckoutState
			if cs == nil {
				continue
			}
			dep.revision, dep.branch = strings.TrimSpace(cs.Revision), strings.TrimSpace(cs.Branch)
			dep.version = strings.TrimSpace(cs.Version)
			if dep.version == "" {
				dep.version = shortRev(dep.revision)
			}
			if dep.version == "" {
				dep.version = dep.branch
			}
			sub := d.Subpath
			if sub == "" {
				sub = locationBase(dep.location)
			}
			if !safeRel(sub) || strings.Contains(sub, "/") {
				continue
			}
			dep.dir = filepath.Join(buildDir, "checkouts", sub)
		case "registryDownload":
			dep.registry = true
			dep.version = strings.TrimSpace(d.State.Version)
			sub := d.Subpath
			if sub == "" {
				scope, name, err := ParseIdentity(dep.identity)
				if err != nil {
					continue
				}
				sub = scope + "/" + name + "/" + dep.version
			}
			if !safeRel(sub) {
				continue
			}
			dep.dir = filepath.Join(buildDir, "registry", "downloads", filepath.FromSlash(sub))
		default:
			continue
		}
		if dep.version == "" {
			continue
		}
		out = append(out, dep)
	}
	return out, nil
}

func shortRev(rev string) string {
	if len(rev) > shortRevision && isHex(rev) {
		return rev[:shortRevision]
	}
	if isHex(rev) {
		return rev
	}
	return ""
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// safeRel reports whether p is a clean relative slash path without "." or ".." elements.
func safeRel(p string) bool {
	if p == "" || strings.ContainsAny(p, "\\\x00") || path.IsAbs(p) || filepath.IsAbs(p) || len(p) >= 2 && p[1] == ':' {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return true
}

// locationBase returns the last path element of a repository location without ".git": the
// name SwiftPM gives its checkout directory.
func locationBase(loc string) string {
	loc = strings.TrimRight(strings.TrimSpace(loc), "/")
	if i := strings.LastIndexAny(loc, "/:"); i >= 0 {
		loc = loc[i+1:]
	}
	return strings.TrimSuffix(loc, ".git")
}

// normalizeLocation reduces a repository location to a comparable form: lowercased, without
// scheme, user, ".git" and trailing slashes, scp-like "host:path" as "host/path".
func normalizeLocation(loc string) string {
	s := strings.ToLower(strings.TrimSpace(loc))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	} else if at := strings.IndexByte(s, '@'); at >= 0 && strings.Contains(s[at:], ":") {
		s = strings.Replace(s, ":", "/", 1)
	}
	if at := strings.IndexByte(s, '@'); at >= 0 && at < strings.IndexByte(s+"/", '/') {
		s = s[at+1:]
	}
	s = strings.TrimRight(s, "/")
	return strings.TrimSuffix(s, ".git")
}

// gitHead reads the commit and branch a checkout's HEAD points at, from its .git directory (or
// the directory a ".git" file names). It returns empty strings when it cannot tell.
func gitHead(dir string) (revision, branch string) {
	gitDir := filepath.Join(dir, ".git")
	if st, err := os.Stat(gitDir); err == nil && !st.IsDir() {
		data, err := readSmallFile(gitDir, 4<<10)
		if err != nil {
			return "", ""
		}
		target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return "", ""
		}
		target = strings.TrimSpace(target)
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		gitDir = target
	}
	head, err := readSmallFile(filepath.Join(gitDir, "HEAD"), 4<<10)
	if err != nil {
		return "", ""
	}
	h := strings.TrimSpace(string(head))
	ref, ok := strings.CutPrefix(h, "ref:")
	if !ok {
		if isHex(h) {
			return h, ""
		}
		return "", ""
	}
	ref = strings.TrimSpace(ref)
	branch = strings.TrimPrefix(ref, "refs/heads/")
	if !safeRel(ref) {
		return "", branch
	}
	if data, err := readSmallFile(filepath.Join(gitDir, filepath.FromSlash(ref)), 4<<10); err == nil && isHex(strings.TrimSpace(string(data))) {
		return strings.TrimSpace(string(data)), branch
	}
	if packed, err := readSmallFile(filepath.Join(gitDir, "packed-refs"), 1<<20); err == nil {
		for _, line := range bytes.Split(packed, []byte("\n")) {
			f := strings.Fields(string(line))
			if len(f) == 2 && f[1] == ref && isHex(f[0]) {
				return f[0], branch
			}
		}
	}
	return "", branch
}
