package crawl

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// This file reads the manifests that name requirements rather than pin versions: pyproject.toml's
// [project] dependencies (https://packaging.python.org/en/latest/specifications/pyproject-toml/)
// and Cargo.toml's dependency tables
// (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html). Their specs are ranges:
// a crawl resolves each one, to the installed distribution with a site-packages (see Installed),
// else to the newest matching release in the registry, as pip and cargo do without a lockfile.

// pyprojectTOML is the part of pyproject.toml docidx reads.
type pyprojectTOML struct {
	Project *struct {
		Dependencies []string `toml:"dependencies"`
		Dynamic      []string `toml:"dynamic"`
	} `toml:"project"`
	Tool struct {
		Poetry *struct {
			Dependencies map[string]any `toml:"dependencies"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// parsePyproject reads [project] dependencies as requirements, like a requirements file's lines.
// Optional dependencies are left out: a project's extras are not what it needs to run.
func parsePyproject(st *lockState, name string, data []byte) error {
	var pp pyprojectTOML
	if err := decodeTOML(name, data, &pp); err != nil {
		return err
	}
	if pp.Project == nil || len(pp.Project.Dependencies) == 0 {
		switch {
		case pp.Project != nil && slices.Contains(pp.Project.Dynamic, "dependencies"):
			st.skip(name, 0, "[project] dependencies", "dynamic: the build backend computes them; give --from the requirements file or lockfile they come from")
		case pp.Tool.Poetry != nil && len(pp.Tool.Poetry.Dependencies) > 0:
			st.skip(name, 0, "[tool.poetry.dependencies]", "Poetry's own table is not read; give --from poetry.lock")
		}
		return nil
	}
	lines := strings.Split(string(data), "\n")
	for _, d := range pp.Project.Dependencies {
		line := quotedLine(lines, d)
		r, err := parseRequirement(strings.TrimSpace(d))
		if err != nil {
			return lockErr(name, line, "requirement %q: %v", d, err)
		}
		if r.skip != "" {
			st.skip(name, line, d, r.skip)
			continue
		}
		st.addRequirement(name, line, r)
	}
	return nil
}

// quotedLine returns the 1-based line of the first TOML string holding s, 0 when not found.
func quotedLine(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, `"`+s+`"`) || strings.Contains(l, `'`+s+`'`) {
			return i + 1
		}
	}
	return 0
}

// cargoDepTables are the dependency tables of a Cargo.toml, also found under [target.<cfg>].
var cargoDepTables = []string{"dependencies", "dev-dependencies", "build-dependencies"}

// parseCargoManifest reads a Cargo.toml's dependencies as version requirements: [dependencies],
// [dev-dependencies] and [build-dependencies], the same under each [target.<cfg>], and a
// workspace root's [workspace.dependencies]. A dependency renamed with package = "…" is crawled
// under its crate's name; "workspace = true" takes the requirement from the file's own
// [workspace.dependencies]. Path and git dependencies, those of another registry, and those
// inherited from a workspace root that is another file are skipped with a note.
func parseCargoManifest(st *lockState, name string, data []byte) error {
	var raw map[string]any
	if err := decodeTOML(name, data, &raw); err != nil {
		return err
	}
	ws, _ := raw["workspace"].(map[string]any)
	wsDeps, _ := ws["dependencies"].(map[string]any)
	if _, pkg := raw["package"]; !pkg && ws == nil {
		return lockErr(name, 0, "no [package] or [workspace] table: not a Cargo.toml")
	}
	lines := strings.Split(string(data), "\n")
	add := func(table string, deps map[string]any) {
		for _, key := range slices.Sorted(maps.Keys(deps)) {
			line := keyLine(lines, key)
			entry := table + "." + key
			req, crate, why := cargoRequirement(key, deps[key], wsDeps)
			if why != "" {
				st.skip(name, line, entry, why)
				continue
			}
			st.lf.Specs = append(st.lf.Specs, Spec{
				Ecosystem: docidx.Cargo, Name: crate, Query: caretDefault(req),
				Origin: originAt(name, line),
			})
		}
	}
	for _, t := range cargoDepTables {
		deps, _ := raw[t].(map[string]any)
		add(t, deps)
	}
	if targets, ok := raw["target"].(map[string]any); ok {
		for _, cfg := range slices.Sorted(maps.Keys(targets)) {
			tt, _ := targets[cfg].(map[string]any)
			for _, t := range cargoDepTables {
				deps, _ := tt[t].(map[string]any)
				add("target."+cfg+"."+t, deps)
			}
		}
	}
	add("workspace.dependencies", wsDeps)
	return nil
}

// cargoRequirement returns the version requirement (as written) and crate name of one dependency entry, or
// why it is skipped.
func cargoRequirement(key string, v any, wsDeps map[string]any) (req, crate, why string) {
	crate = key
	switch d := v.(type) {
	case string:
		if strings.TrimSpace(d) == "" {
			return "", "", "no version requirement"
		}
		return strings.TrimSpace(d), crate, ""
	case map[string]any:
		if inherit, _ := d["workspace"].(bool); inherit {
			w, ok := wsDeps[key]
			if !ok {
				return "", "", "inherited from the workspace root (workspace = true); give --from the workspace's Cargo.toml"
			}
			if _, nested := w.(map[string]any)["workspace"]; nested {
				return "", "", "workspace = true inside [workspace.dependencies]"
			}
			req, crate, why = cargoRequirement(key, w, nil)
			if pkg, ok := d["package"].(string); ok && pkg != "" {
				crate = pkg
			}
			return req, crate, why
		}
		if pkg, ok := d["package"].(string); ok && pkg != "" {
			crate = pkg
		}
		switch {
		case d["git"] != nil:
			return "", "", "git dependency"
		case d["path"] != nil:
			return "", "", "path dependency (a local crate)"
		case d["registry"] != nil || d["registry-index"] != nil:
			return "", "", fmt.Sprintf("from registry %v, not the default one", firstNonNil(d["registry"], d["registry-index"]))
		}
		ver, _ := d["version"].(string)
		if strings.TrimSpace(ver) == "" {
			return "", "", "no version requirement"
		}
		return strings.TrimSpace(ver), crate, ""
	}
	return "", "", fmt.Sprintf("unexpected %T where a version or table belongs", v)
}

// caretDefault spells out the caret of each bare comparator of a Cargo requirement ("1.2" ->
// "^1.2", "1.2, <1.5" -> "^1.2, <1.5"): Cargo reads a bare version as a caret requirement, and a
// spec's bare version would mean that exact version.
func caretDefault(req string) string {
	parts := strings.Split(req, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p != "" && p[0] >= '0' && p[0] <= '9' {
			p = "^" + p
		}
		parts[i] = p
	}
	return strings.Join(parts, ", ")
}

func firstNonNil(vs ...any) any {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// keyLine returns the 1-based line where key is first defined as "key =" or "key.", or as a
// table header "[….key]", 0 when not found.
func keyLine(lines []string, key string) int {
	for i, l := range lines {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, key)
		if !ok {
			rest, ok = strings.CutPrefix(l, `"`+key+`"`)
		}
		if ok {
			if r := strings.TrimSpace(rest); strings.HasPrefix(r, "=") || strings.HasPrefix(r, ".") {
				return i + 1
			}
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "."+key+"]") {
			return i + 1
		}
	}
	return 0
}
