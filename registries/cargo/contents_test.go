package cargo

import (
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// crateFiles is a crate whose src/lib.rs carries crate-level docs and includes a guide.
func crateFiles(lib string, extra map[string]string) map[string][]byte {
	files := map[string][]byte{
		"Cargo.toml": []byte("[package]\nname = \"guided\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
		"README.md":  []byte("# guided\n\nGuides things.\n"),
		"src/lib.rs": []byte(lib),
	}
	for p, s := range extra {
		files[p] = []byte(s)
	}
	return files
}

func TestCrateDocument(t *testing.T) {
	long := "//! " + strings.Repeat("Guided guides the guidance of guides. ", 40) + "\n"
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		want  bool
	}{
		{"headings", crateFiles("//! Guides.\n//!\n//! # Getting started\n//!\n//! ```\n//! # use guided::go;\n//! go();\n//! ```\npub fn go() {}\n", nil), true},
		{"long prose", crateFiles(long+"pub fn go() {}\n", nil), true},
		{"one line", crateFiles("//! Guides things.\npub fn go() {}\n", nil), false},
		{"none", crateFiles("pub fn go() {}\n", nil), false},
		{"README included", crateFiles("#![doc = include_str!(\"../README.md\")]\npub fn go() {}\n", nil), false},
		{"README copied", crateFiles("//! # guided\n//!\n//! Guides things.\npub fn go() {}\n", nil), false},
		{"another file included", crateFiles("#![doc = include_str!(\"../docs/intro.md\")]\npub fn go() {}\n",
			map[string]string{"docs/intro.md": "# Intro\n\nHow guided guides.\n"}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := buildContents(memfs.New(tc.files), "guided", Limits{}.withDefaults(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			var crate docidx.Document
			for _, d := range c.docs {
				paths = append(paths, d.Path)
				if d.Path == "src/lib.rs" {
					crate = d
				}
			}
			if got := slices.Contains(paths, "src/lib.rs"); got != tc.want {
				t.Fatalf("documents %v: crate docs indexed = %v, want %v", paths, got, tc.want)
			}
			if !tc.want {
				return
			}
			if paths[0] != "README.md" || paths[1] != "src/lib.rs" || crate.Kind != docidx.DocGuide || crate.Title != "Crate guided" {
				t.Errorf("documents %v; crate docs = %+v", paths, crate)
			}
			for _, s := range crate.Sections {
				for _, cb := range s.Code {
					if cb.Lang != "rust" || strings.Contains(cb.Code, "use guided::go") {
						t.Errorf("code block %+v: want rust with the hidden line gone", cb)
					}
				}
			}
		})
	}
}

// TestRepositoryReadme: a crate whose manifest names another README for crates.io (serde's
// crates-io.md) has its repository's README.md indexed as a guide too, unless the two are the
// same text or the manifest names README.md itself.
func TestRepositoryReadme(t *testing.T) {
	manifest := func(readme string) string {
		return "[package]\nname = \"guided\"\nversion = \"0.1.0\"\n" + readme
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // document paths and kinds
	}{
		{"another README", map[string]string{"Cargo.toml": manifest("readme = \"crates-io.md\"\n"),
			"crates-io.md": "# guided\n\nGuides.\n", "README.md": "# guided\n\nGuides. The \"derive\" feature is needed for derives.\n"},
			[]string{"crates-io.md readme", "README.md doc"}},
		{"the same text", map[string]string{"Cargo.toml": manifest("readme = \"crates-io.md\"\n"),
			"crates-io.md": "# guided\n\nGuides.\n", "README.md": "# guided\n\nGuides.\n"},
			[]string{"crates-io.md readme"}},
		{"README.md named", map[string]string{"Cargo.toml": manifest("readme = \"README.md\"\n"), "README.md": "# guided\n"},
			[]string{"README.md readme"}},
		{"auto-detected", map[string]string{"Cargo.toml": manifest(""), "README.md": "# guided\n"},
			[]string{"README.md readme"}},
		{"no README", map[string]string{"Cargo.toml": manifest("readme = false\n"), "README.md": "# guided\n"}, nil},
		// The change log's entry for the crate's version (0.1.0) is a guide of its own.
		{"change log", map[string]string{"Cargo.toml": manifest(""), "README.md": "# guided\n",
			"CHANGELOG.md": "# Changelog\n\n## [0.1.0] - 2025-01-01\n\n- `jboolean` is `bool`.\n\n## [0.0.9]\n\n- Older.\n"},
			[]string{"README.md readme", "CHANGELOG.md doc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string][]byte{}
			for p, s := range tc.files {
				files[p] = []byte(s)
			}
			c, err := buildContents(memfs.New(files), "guided", Limits{}.withDefaults(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range c.docs {
				got = append(got, d.Path+" "+string(d.Kind))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("documents %q, want %q", got, tc.want)
			}
		})
	}
}

// TestManifestTargetOrder: a dependency listed in two target tables resolves to the same one on
// every read (the first target table by name), not to whichever map order gives.
func TestManifestTargetOrder(t *testing.T) {
	data := []byte("[package]\nname = \"x\"\nversion = \"1.0.0\"\n" +
		"[target.'cfg(windows)'.dependencies]\ndep = \"2\"\n[target.'cfg(unix)'.dependencies]\ndep = \"1\"\n" +
		"[target.'cfg(wasm)'.dependencies]\ndep = \"3\"\n")
	for range 20 {
		m, err := parseManifest(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.deps["dep"].req; got != "1" {
			t.Fatalf("dep requirement %q, want the cfg(unix) table's 1", got)
		}
	}
}
