package cargo

import (
	"archive/tar"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/testutil"
	untarpkg "github.com/docidx/docidx/registries/internal/untar"
	"github.com/docidx/docidx/registries/registrytest"
)

var testLimits = untarpkg.Limits{Unpacked: DefaultLimits.MaxUnpacked, Entry: DefaultLimits.MaxEntry, File: DefaultLimits.MaxFile, Kept: maxKept}

func TestEntryPath(t *testing.T) {
	checkEachOK(t, "entryPath", func(name string) (string, error) { return entryPath(name, "x-1.0.0") }, map[string]string{
		"x-1.0.0/src/lib.rs":   "src/lib.rs",
		"./x-1.0.0/Cargo.toml": "Cargo.toml",
		"x-1.0.0/":             "",
		"x-1.0.0":              "",
		"x-1.0.0/a//b/./c.rs":  "a/b/c.rs",
	})
	for _, bad := range []string{"/etc/passwd", "x-1.0.0/../../etc/passwd", `x-1.0.0\..\..\evil`, "C:/x", "x-1.0.0x/src/lib.rs", "y-1.0.0/Cargo.toml", "Cargo.toml", "x-1.0.0/a\x00b"} {
		if _, err := entryPath(bad, "x-1.0.0"); !errors.Is(err, docidx.ErrUnsafePath) {
			t.Errorf("entryPath(%q): %v, want ErrUnsafePath", bad, err)
		}
	}
}

// TestUntarCargoCrate reads a .crate exactly as cargo package wrote it.
func TestUntarCargoCrate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "tz-0.1.0.crate"))
	if err != nil {
		t.Fatal(err)
	}
	files, skipped, err := untarCrate(data, "tz-0.1.0", keepCrateFile, testLimits)
	if err != nil || len(skipped) != 0 {
		t.Fatalf("untar: %v %v", err, skipped)
	}
	names := slices.Sorted(maps.Keys(files))
	// Cargo.lock is not read.
	if !slices.Equal(names, []string{"Cargo.toml", "Cargo.toml.orig", "README.md", "src/offset.rs", "src/tz.rs"}) {
		t.Errorf("kept %q", names)
	}
	if _, _, err := untarCrate(data, "tz-0.2.0", keepCrateFile, testLimits); !errors.Is(err, docidx.ErrUnsafePath) {
		t.Errorf("wrong prefix: %v", err)
	}
}

func TestUntarLimitsAndLinks(t *testing.T) {
	c := cargotest.Crate{Name: "x", Version: "1.0.0", Files: map[string]string{
		"Cargo.toml": "[package]\nname = \"x\"\n", "src/lib.rs": strings.Repeat("// pad\n", 200), "README.md": "# x\n",
		"tests/t.rs": "pub fn t() {}", "benches/b.rs": "", "data/blob.bin": strings.Repeat("z", 5000),
	}}
	files, skipped, err := untarCrate(c.Archive(), "x-1.0.0", keepCrateFile, untarpkg.Limits{Unpacked: 1 << 20, Entry: 1 << 20, File: 100, Kept: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["Cargo.toml"]; !ok || len(files) != 2 || !slices.Equal(skipped, []string{"src/lib.rs"}) {
		t.Errorf("files %d, skipped %q", len(files), skipped)
	}
	if _, _, err := untarCrate(c.Archive(), "x-1.0.0", keepCrateFile, untarpkg.Limits{Unpacked: 1000, Entry: 1 << 20, File: 1 << 20, Kept: 1 << 20}); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("unpacked limit: %v", err)
	}
	if _, _, err := untarCrate(c.Archive(), "x-1.0.0", keepCrateFile, untarpkg.Limits{Unpacked: 1 << 20, Entry: 4000, File: 1 << 20, Kept: 1 << 20}); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("entry limit: %v", err)
	}
	links := cargotest.Crates.Build([]registrytest.Entry{
		{Name: "x-1.0.0/Cargo.toml", Body: "[package]\n"},
		{Name: "x-1.0.0/src/lib.rs", Typeflag: tar.TypeSymlink, Link: "/etc/passwd"},
		{Name: "x-1.0.0/README.md", Typeflag: tar.TypeLink, Link: "x-1.0.0/Cargo.toml"},
		{Name: "x-1.0.0/src", Typeflag: tar.TypeDir},
	})
	files, _, err = untarCrate(links, "x-1.0.0", keepCrateFile, testLimits)
	if err != nil || len(files) != 1 {
		t.Errorf("links are skipped: %v %d", err, len(files))
	}
	if _, _, err := untarCrate([]byte{0x1f, 0x8b, 8, 0, 0, 0}, "x-1.0.0", keepCrateFile, testLimits); err == nil {
		t.Error("a truncated gzip stream was accepted")
	}
}

func TestKeepCrateFile(t *testing.T) {
	keep := func(p string) bool { k, _ := keepCrateFile(p); return k }
	testutil.Mapping(t, "keepCrateFile", keep, map[string]bool{
		"Cargo.toml": true, "Cargo.toml.orig": true, "Cargo.lock": false, "README.md": true, "README": true, "readme.txt": true,
		"docs/guide.md": true, "src/lib.rs": true, "src/a/b.rs": true, "examples/demo.rs": true, "build.rs": true,
		"tests/it.rs": false, "benches/b.rs": false, "fuzz/fuzz_targets/f.rs": false, "data/x.json": false, "sub/README.md": true,
		"sub/README": false, "LICENSE": false,
	})
}

// FuzzUntarCrate checks that .crate reading never panics on arbitrary archives and only returns
// safe paths.
func FuzzUntarCrate(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "real", "tz-0.1.0.crate")); err == nil {
		f.Add(data)
	}
	f.Add(cargotest.Crates.Build([]registrytest.Entry{{Name: "x-1.0.0/Cargo.toml", Body: "[package]"}, {Name: "x-1.0.0/../y", Body: "z"}}))
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, _, err := untarCrate(data, "x-1.0.0", keepCrateFile, untarpkg.Limits{Unpacked: 1 << 20, Entry: 1 << 20, File: 64 << 10, Kept: 1 << 20})
		if err != nil {
			return
		}
		for p := range files {
			if !fs.ValidPath(p) || strings.HasPrefix(p, "..") {
				t.Fatalf("unsafe path kept: %q", p)
			}
		}
		_, _ = buildContents(memfs.New(files), "x", Limits{}.withDefaults(), nil)
	})
}

func TestManifest(t *testing.T) {
	m, err := parseManifest([]byte(`
[package]
name = "demo"
version.workspace = true
description = """
  Multi-line
  description."""
license = { workspace = true }
keywords = ["a", 1, " b "]
readme = true

[lib]
name = "demo_lib"
path = "lib.rs"

[badges]
maintenance = { status = "deprecated" }
`))
	if err != nil {
		t.Fatal(err)
	}
	if m.name != "demo" || m.version != "" || m.license != "" || m.description != "Multi-line description." || !slices.Equal(m.keywords, []string{"a", "b"}) ||
		m.readme != "README.md" || !m.readmeSet || m.libName != "demo_lib" || m.libPath != "lib.rs" || !m.deprecated {
		t.Errorf("manifest %+v", m)
	}
	if m.crateName("demo") != "demo_lib" {
		t.Errorf("crate name %q", m.crateName("demo"))
	}
	m, err = parseManifest([]byte("[project]\nname = \"old-style\"\nreadme = false\n"))
	if err != nil || m.name != "old-style" || m.readme != "" || !m.readmeSet || m.crateName("x") != "old_style" {
		t.Errorf("[project]: %+v %v", m, err)
	}
	for _, bad := range []string{"[package", "[dependencies]\nx = 1\n", "package = 3"} {
		if _, err := parseManifest([]byte(bad)); err == nil {
			t.Errorf("parseManifest(%q) succeeded", bad)
		}
	}
}

func TestContentsReadmeRules(t *testing.T) {
	files := func(manifest string, extra ...string) fs.FS {
		m := fstest.MapFS{"Cargo.toml": {Data: []byte("[package]\nname = \"x\"\n" + manifest)}}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = &fstest.MapFile{Data: []byte(extra[i+1])}
		}
		return m
	}
	lim := Limits{}.withDefaults()
	for _, tc := range []struct {
		name string
		fsys fs.FS
		want []string // document paths
	}{
		{"auto-detect prefers README.md", files("", "README.txt", "t", "README.md", "# m", "README", "p"), []string{"README.md"}},
		{"auto-detect README.txt", files("", "README.txt", "t"), []string{"README.txt"}},
		{"readme path in docs", files("readme = \"docs/README.md\"\n", "docs/README.md", "# d", "docs/guide.md", "# g"), []string{"docs/README.md", "docs/guide.md"}},
		{"readme = false", files("readme = false\n", "README.md", "# m"), nil},
		{"root guides", files("", "README.md", "# m", "FAQ.md", "# f", "CONTRIBUTING.md", "# c", "CHANGELOG.md", "# Changelog\n\n## 0.9.0\n", "NOTES.txt", "n"),
			[]string{"README.md", "FAQ.md"}},
		{"readme for crates.io is no root guide", files("readme = \"crates-io.md\"\n", "crates-io.md", "# c", "README.md", "# r"),
			[]string{"crates-io.md", "README.md"}},
		{"readme outside package", files("readme = \"../README.md\"\n"), nil},
		{"examples and docs", files("", "examples/a.rs", "//! Demo.\nfn main() {}\n", "examples/sub/b.md", "# b", "examples/c.txt", "no",
			"doc/x.markdown", "# x", "docs/.hidden/y.md", "# y", "docs/img.png", "png"), []string{"doc/x.markdown", "examples/a.rs", "examples/sub/b.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := buildContents(tc.fsys, "x", lim, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range c.docs {
				got = append(got, d.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("documents %q, want %q (problems %q)", got, tc.want, c.problems)
			}
		})
	}
	c, err := buildContents(files("", "docs/a.md", "# a", "docs/b.md", "# b", "docs/c.md", "# c"), "x", Limits{MaxDocuments: 2}.withDefaults(), nil)
	if err != nil || len(c.docs) != 2 || len(c.problems) != 1 {
		t.Errorf("MaxDocuments: %d docs, problems %q, %v", len(c.docs), c.problems, err)
	}
	if _, err := buildContents(fstest.MapFS{}, "x", lim, nil); err == nil {
		t.Error("no Cargo.toml: no error")
	}
}

func TestExampleMarkdown(t *testing.T) {
	got := string(exampleMarkdown("examples/a.rs", []byte("//! Shows ```fences```.\n//!\n//! Second line.\n#![allow(unused)]\nfn main() {}")))
	want := "# examples/a.rs\n\nShows ```fences```.\n\nSecond line.\n\n````rust\n//! Shows ```fences```.\n//!\n//! Second line.\n#![allow(unused)]\nfn main() {}\n````\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
