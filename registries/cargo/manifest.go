package cargo

import (
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/docidx/docidx"
)

// manifest is the part of a Cargo.toml (https://doc.rust-lang.org/cargo/reference/manifest.html)
// docidx reads. Published crates carry a normalized Cargo.toml, with workspace inheritance
// resolved and targets listed, so values are read as they are written there.
type manifest struct {
	name, version, edition        string
	rustVersion                   string // rust-version: the minimum supported Rust version
	description, license          string
	homepage, documentation, repo string
	keywords                      []string
	readme                        string // a path inside the package, or "" for none
	readmeSet                     bool   // readme given (a path, true or false); false means auto-detect
	libName, libPath              string // [lib] name and path; empty when not given
	deprecated                    bool   // [badges] maintenance status = "deprecated"
	// deps are the crate's dependencies by the name Rust paths give them ("-" as "_", or the
	// key of a renamed one): [dependencies] and each [target.*.dependencies].
	deps map[string]dependency
	// features is the [features] table: each feature and the features and dependencies it
	// enables, as written ("dep:x", "x/y", "x?/y").
	features map[string][]string
	// bins are the names of the [[bin]] targets, and autobins is false when the manifest turns
	// binary discovery off (a published crate's normalized manifest does, listing its binaries).
	bins     []string
	autobins bool
	// commands are the binaries the crate installs (binaries), set by buildContents.
	commands []string
}

// dependency is one entry of a [dependencies] table
// (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html).
type dependency struct {
	pkg string // the package depended on: the key, or `package` of a renamed dependency
	req string // its version requirement, "" when it gives none (a path or git dependency)
}

// parseManifest reads a Cargo.toml. Fields of an unexpected type (a table where a string belongs,
// as in an un-normalized `version.workspace = true`) are left empty rather than failing the file.
func parseManifest(data []byte) (*manifest, error) {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("parsing Cargo.toml: %w", err)
	}
	pkg, _ := raw["package"].(map[string]any)
	if pkg == nil {
		pkg, _ = raw["project"].(map[string]any) // the table's name before Cargo 1.0
	}
	if pkg == nil {
		return nil, fmt.Errorf("no [package] table in Cargo.toml")
	}
	str := func(m map[string]any, k string) string {
		s, _ := m[k].(string)
		return strings.TrimSpace(s)
	}
	m := &manifest{
		name:          str(pkg, "name"),
		version:       str(pkg, "version"),
		edition:       str(pkg, "edition"),
		rustVersion:   str(pkg, "rust-version"),
		description:   strings.Join(strings.Fields(str(pkg, "description")), " "),
		license:       str(pkg, "license"),
		homepage:      str(pkg, "homepage"),
		documentation: str(pkg, "documentation"),
		repo:          str(pkg, "repository"),
	}
	if kw, ok := pkg["keywords"].([]any); ok {
		for _, k := range kw {
			if s, ok := k.(string); ok && strings.TrimSpace(s) != "" {
				m.keywords = append(m.keywords, strings.TrimSpace(s))
			}
		}
	}
	switch r := pkg["readme"].(type) {
	case string:
		m.readme, m.readmeSet = strings.TrimSpace(r), true
	case bool:
		m.readmeSet = true
		if r {
			m.readme = "README.md" // `readme = true` means README.md
		}
	}
	m.autobins = true
	if auto, ok := pkg["autobins"].(bool); ok {
		m.autobins = auto
	}
	if bins, ok := raw["bin"].([]map[string]any); ok {
		for _, b := range bins {
			m.bins = append(m.bins, str(b, "name"))
		}
	} else if bins, ok := raw["bin"].([]any); ok {
		for _, b := range bins {
			if t, ok := b.(map[string]any); ok {
				m.bins = append(m.bins, str(t, "name"))
			}
		}
	}
	if lib, ok := raw["lib"].(map[string]any); ok {
		m.libName, m.libPath = str(lib, "name"), str(lib, "path")
	}
	tables := []any{raw["dependencies"]}
	if targets, ok := raw["target"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(targets)) { // the first listing wins: in a stable order
			if t, ok := targets[name].(map[string]any); ok {
				tables = append(tables, t["dependencies"])
			}
		}
	}
	for _, t := range tables {
		deps, _ := t.(map[string]any)
		for key, v := range deps {
			d := dependency{pkg: key}
			switch v := v.(type) {
			case string:
				d.req = strings.TrimSpace(v)
			case map[string]any:
				d.req = str(v, "version")
				if p := str(v, "package"); p != "" {
					d.pkg = p
				}
			}
			if m.deps == nil {
				m.deps = map[string]dependency{}
			}
			if _, ok := m.deps[strings.ReplaceAll(key, "-", "_")]; !ok {
				m.deps[strings.ReplaceAll(key, "-", "_")] = d
			}
		}
	}
	if fs, ok := raw["features"].(map[string]any); ok {
		m.features = map[string][]string{}
		for name, v := range fs {
			list, _ := v.([]any)
			enables := []string{}
			for _, e := range list {
				if s, ok := e.(string); ok {
					enables = append(enables, s)
				}
			}
			m.features[name] = enables
		}
	}
	if badges, ok := raw["badges"].(map[string]any); ok {
		if mt, ok := badges["maintenance"].(map[string]any); ok && str(mt, "status") == "deprecated" {
			m.deprecated = true
		}
	}
	return m, nil
}

// crateName returns the name Rust paths use for the library: [lib] name, else the package name
// with "-" replaced by "_".
func (m *manifest) crateName(pkgName string) string {
	if m.libName != "" {
		return m.libName
	}
	if m.name != "" {
		pkgName = m.name
	}
	return strings.ReplaceAll(pkgName, "-", "_")
}

// packageInfo fills the metadata fields of a Package from the manifest.
func (m *manifest) packageInfo(p *docidx.Package) {
	p.Description = m.description
	p.License = m.license
	p.Homepage = m.homepage
	if p.Homepage == "" {
		p.Homepage = m.documentation
	}
	p.Repository = m.repo
	p.Keywords = m.keywords
	if m.rustVersion != "" {
		// https://doc.rust-lang.org/cargo/reference/rust-version.html: the oldest Rust the
		// crate supports.
		p.Requires = []docidx.Requirement{{Name: "rust", Range: ">=" + m.rustVersion}}
	}
	if m.deprecated {
		p.Deprecated = "the crate's maintenance status is deprecated (Cargo.toml [badges])"
	}
	p.Commands = m.commands
}

// binaries returns the commands the crate in fsys installs, as Cargo finds its binary targets
// (https://doc.rust-lang.org/cargo/reference/cargo-targets.html#target-auto-discovery): each
// [[bin]] of the manifest, and, unless autobins is off, src/main.rs by the package's name,
// src/bin/NAME.rs and src/bin/NAME/main.rs by NAME.
func (m *manifest) binaries(fsys fs.FS, name string) []string {
	names := slices.Clone(m.bins)
	if m.autobins {
		if st, err := fs.Stat(fsys, "src/main.rs"); err == nil && st.Mode().IsRegular() {
			names = append(names, cmp.Or(m.name, name))
		}
		entries, _ := fs.ReadDir(fsys, "src/bin") // none when it does not exist
		for _, e := range entries {
			switch {
			case e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".rs"):
				names = append(names, strings.TrimSuffix(e.Name(), ".rs"))
			case e.IsDir():
				if st, err := fs.Stat(fsys, "src/bin/"+e.Name()+"/main.rs"); err == nil && st.Mode().IsRegular() {
					names = append(names, e.Name())
				}
			}
		}
	}
	return docidx.CommandNames(names)
}
