package gomod

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"go/doc"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

const helloDir = "testdata/mod/example.com/hello@v1.1.0"

// extractDir extracts the module at dir straight from the file system, testdata as written:
// nested module, vendor, testdata and _ directories included, so the walk must skip them.
func extractDir(t *testing.T, dir, modPath string) *moduleDocs {
	t.Helper()
	md, err := extractModule(context.Background(), os.DirFS(dir), modPath, "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return md
}

func TestExtractGolden(t *testing.T) {
	md := extractDir(t, helloDir, "example.com/hello")
	got, err := json.MarshalIndent(md.symbols, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "golden", "hello-v1.1.0.symbols.json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("symbols differ from %s (run go test -update and review the diff):\n%s", golden, got)
	}
}

func TestExtractAPI(t *testing.T) {
	md := extractDir(t, helloDir, "example.com/hello")
	syms := testutil.ByName(md.symbols)

	testutil.Present(t, syms, "",
		"example.com/hello", "hello.Greeter", "hello.NewGreeter", "hello.Greeter.Greet", "hello.Formal",
		"hello.Casual", "hello.DefaultName", "hello.ErrEmpty", "hello.Hi", "hello.PlatformName",
		"hello.WindowsOnly", // //go:build windows is one of the documented platforms
		"example.com/hello/sub/tools", "tools.Map", "tools.Tool", "tools.Pair",
		"example.com/hello/cmd/hello", // a command with a package comment
		"sub/hello.Hello",             // a second package named hello
	)
	for q := range syms {
		for _, bad := range []string{"PlanNine", "IgnoredFunc", "Secret", "Fixture", "Gen", "Nested", "Dep", "helper", "shouty", "TestHi", "Example"} {
			if strings.HasSuffix(q, "."+bad) || strings.HasSuffix(q, "/"+strings.ToLower(bad)) {
				t.Errorf("unexpected symbol %s", q)
			}
		}
		if strings.Contains(q, "internal") || strings.Contains(q, "nested") || strings.Contains(q, "vendor") {
			t.Errorf("unexpected symbol %s", q)
		}
	}

	checks := []struct {
		q, kind, parent, sig, file string
	}{
		{"example.com/hello", "package", "", "package hello", "doc.go"},
		{"hello.Greeter.Greet", "method", "Greeter", "func (g *Greeter) Greet(name string) string", "hello.go"},
		{"hello.Greeter", "type", "", "type Greeter struct {\n\tStyle Style\n\tName  string\n\t// contains filtered or unexported fields\n}", "hello.go"},
		{"tools.Tool", "type", "", "type Tool interface {\n\tRun() error\n\t// contains filtered or unexported methods\n}", "sub/tools/tools.go"},
		{"tools.Map", "func", "", "func Map[T, U any](s []T, f func(T) U) []U", "sub/tools/tools.go"},
		{"hello.DefaultName", "const", "", `const DefaultName = "world"`, "hello.go"},
		{"hello.PlatformName", "func", "", "func PlatformName() string", "hello_linux.go"},
	}
	for _, c := range checks {
		s, ok := syms[c.q]
		if !ok {
			continue
		}
		if string(s.Kind) != c.kind || s.Parent != c.parent || s.File != c.file {
			t.Errorf("%s: kind %s parent %q file %s; want %s %q %s", c.q, s.Kind, s.Parent, s.File, c.kind, c.parent, c.file)
		}
		if s.Signature != c.sig {
			t.Errorf("%s: signature\n%s\nwant\n%s", c.q, s.Signature, c.sig)
		}
		if s.Line == 0 {
			t.Errorf("%s: no line", c.q)
		}
	}
	if s := syms["hello.Casual"]; s.Signature != "const Casual Style = iota // 1" || s.Doc != "Casual says \"Hi\".\n" {
		t.Errorf("hello.Casual: signature %q doc %q; want its own spec with its value and the line comment", s.Signature, s.Doc)
	}
	if s := syms["hello.Hi"]; !s.Deprecated {
		t.Errorf("hello.Hi is not marked deprecated")
	}
	if s := syms["hello.Greet"]; s.Deprecated {
		t.Errorf("hello.Greet marked deprecated")
	}
	if s := syms["hello.Greeter.Greet"]; s.Package != "example.com/hello" || s.Doc != "Greet returns a greeting for name.\n" {
		t.Errorf("hello.Greeter.Greet: package %q doc %q", s.Package, s.Doc)
	}
}

func TestExtractExamples(t *testing.T) {
	syms := testutil.ByName(extractDir(t, helloDir, "example.com/hello").symbols)
	pkg := syms["example.com/hello"]
	if len(pkg.Examples) != 1 || pkg.Examples[0].Name != "Example" || pkg.Examples[0].Output != "Good day, Gopher\n" {
		t.Fatalf("package examples = %+v", pkg.Examples)
	}
	// A playable example is a whole program.
	if code := pkg.Examples[0].Code; !strings.Contains(code, "package main") || !strings.Contains(code, `"example.com/hello"`) || strings.Contains(code, "Output:") {
		t.Errorf("package example code:\n%s", code)
	}
	m := syms["hello.Greeter.Greet"]
	if len(m.Examples) != 1 || m.Examples[0].Name != "ExampleGreeter_Greet" || m.Examples[0].Output != "Hi, Ana\n" || m.Examples[0].Lang != "go" {
		t.Errorf("method examples = %+v", m.Examples)
	}
	f := syms["hello.NewGreeter"]
	if len(f.Examples) != 1 || f.Examples[0].Name != "ExampleNewGreeter_shouting" {
		t.Errorf("func examples = %+v", f.Examples)
	}
}

func TestExtractDocuments(t *testing.T) {
	md := extractDir(t, helloDir, "example.com/hello")
	var got []string
	for _, d := range md.documents {
		got = append(got, string(d.Kind)+":"+d.Path)
	}
	want := []string{"readme:README.md", "doc:docs/guide.md", "example:examples/README.md", "example:examples/basic/main.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("documents = %q, want %q", got, want)
	}
	for _, d := range md.documents {
		if d.Path == "examples/basic/main.go" {
			if d.Summary != "Basic greets the world formally." || len(d.Sections) != 1 || len(d.Sections[0].Code) != 1 {
				t.Errorf("example program document = %+v", d)
			}
		}
	}
	if md.license != "MIT" || md.synopsis != "Package hello greets people in several styles." || md.deprecated != "" {
		t.Errorf("license %q synopsis %q deprecated %q", md.license, md.synopsis, md.deprecated)
	}
}

// TestExtractRootGuides checks that markdown at the module root that documents the module's use
// (a FAQ, a migration guide) and markdown under site/ (a Hugo or similar documentation site)
// become guides, while the files about the project (contributing, change log, code of conduct,
// agent instructions, a README's translation) do not, at the root or under docs/.
func TestExtractRootGuides(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":                      file("module m.example/a\n"),
		"a.go":                        file("// Package a is a.\npackage a\n"),
		"README.md":                   file("# A\n\nA does a.\n"),
		"FAQ.md":                      file("# FAQ\n\n## Why are logs missing?\n\nSampling drops them.\n"),
		"MIGRATION_GUIDE.md":          file("# Migrating\n\nRename X to Y.\n"),
		"CONTRIBUTING.md":             file("# Contributing\n\nSend patches.\n"),
		"CHANGELOG.md":                file("# Changes\n\n## 1.0\n"),
		"CODE-OF-CONDUCT.md":          file("# Conduct\n\nBe kind.\n"),
		"AGENTS.md":                   file("# Agents\n\nRun make.\n"),
		"README_ZH_CN.md":             file("# A\n"),
		"notes.txt":                   file("not markdown"),
		"site/content/user_guide.md":  file("# User Guide\n\n## Suggestions\n\nA minimum distance of 2.\n"),
		"site/content/img/logo.png":   file("png"),
		"website/docs/intro.markdown": file("# Intro\n\nHello.\n"),
		"docs/CHANGELOG.md":           file("# Change Log\n\n## 1.17.0\n\n- Apps now exit with a code of 3.\n"),
		"docs/CONTRIBUTING.md":        file("# Contributing\n\nSend patches.\n"),
		"docs/release-notes/v2.md":    file("# v2\n\nNew.\n"),
		"docs/testing.md":             file("# Testing your app\n\nUse the test helpers.\n"),
	}
	checkDocuments(t, fsys, "m.example/a", "readme:README.md", "doc:FAQ.md", "doc:MIGRATION_GUIDE.md",
		"doc:docs/testing.md", "doc:site/content/user_guide.md", "doc:website/docs/intro.markdown")
}

func TestExtractLimits(t *testing.T) {
	md, err := extractModule(context.Background(), os.DirFS(helloDir), "example.com/hello", "v1.0.0",
		Limits{MaxSymbols: 3, MaxDocuments: 1, MaxFile: 300}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(md.symbols) != 3 {
		t.Errorf("%d symbols, want 3", len(md.symbols))
	}
	if len(md.documents) != 0 {
		// README.md is over 300 bytes, so the first document that fits is dropped by the count.
		for _, d := range md.documents {
			if d.Path == "README.md" {
				t.Errorf("README.md over MaxFile was read")
			}
		}
	}
	if len(md.documents) > 1 {
		t.Errorf("%d documents, want at most 1", len(md.documents))
	}
}

func TestExtractCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := extractModule(ctx, os.DirFS(helloDir), "example.com/hello", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler)); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestQualifiers(t *testing.T) {
	mk := func(ip, name string) *pkgInfo {
		return &pkgInfo{importPath: ip, doc: newDocPackage(name)}
	}
	a, b, c, d := mk("m.example/x", "x"), mk("m.example/a/util", "util"), mk("m.example/b/util", "util"), mk("m.example/c/a/util", "util")
	q := qualifiers([]*pkgInfo{a, b, c, d})
	want := map[*pkgInfo]string{a: "x", b: "util", c: "b/util", d: "c/a/util"}
	for p, w := range want {
		if q[p] != w {
			t.Errorf("qualifier of %s = %q, want %q", p.importPath, q[p], w)
		}
	}
}

func TestDeprecated(t *testing.T) {
	testutil.Mapping(t, "isDeprecated", isDeprecated, map[string]bool{
		"Deprecated: use Y.":                   true,
		"F does x.\n\nDeprecated: use Y.\n":    true,
		"F is not Deprecated: at all.\n":       false,
		"F does x.\nDeprecated: mid-paragraph": false,
		"":                                     false,
	})
}

func newDocPackage(name string) *doc.Package { return &doc.Package{Name: name} }

// FuzzExtract runs the extraction over a module of one Go file, one test file and a README with
// arbitrary contents: it must never panic, whatever go/parser accepts.
func FuzzExtract(f *testing.F) {
	f.Add([]byte("// Package a is a.\npackage a\n\n// F is f.\nfunc F() {}\n\ntype T struct{ X int; y int }\n\nfunc (T) M() {}\n"),
		[]byte("package a_test\n\nfunc ExampleF() {\n\t// Output: x\n}\n"), []byte("# A\n\ntext"))
	f.Add([]byte("package a\nconst (\n\tA = iota\n\tB\n)\nvar X, Y = 1, 2\n"), []byte("package a\nfunc Example() {}\n"), []byte(""))
	f.Add([]byte("package a\ntype G[T any, U ~int] interface{ M(T) U; m() }\nfunc (*G[T, U]) N() {}\n"), []byte(""), []byte("README"))
	f.Add([]byte("package a\ntype O struct {\n\t// A is a.\n\tA, B int `json:\"a\"`\n\n\t*E\n\tS []struct{ X int // x\n\t}\n}\ntype E struct{}\ntype I interface{ E; error; F() }\n"), []byte(""), []byte(""))
	f.Add([]byte("package a\nconst (\n\t_ = iota\n\tK, L = 1 << (10 * iota), -iota\n\tM, N\n\tP = 1 << (iota * 999)\n)\nvar V = &O{A: 1}\ntype O struct{ A int }\n"), []byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, src, test, readme []byte) {
		fsys := fstest.MapFS{
			"go.mod":        {Data: []byte("module m.example/a\n")},
			"a.go":          {Data: src},
			"a_test.go":     {Data: test},
			"README.md":     {Data: readme},
			"sub/b.go":      {Data: src},
			"examples/x.md": {Data: readme},
		}
		md, err := extractModule(context.Background(), fsys, "m.example/a", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range md.symbols {
			if s.QualifiedName == "" || s.Kind == "" {
				t.Fatalf("bad symbol %+v", s)
			}
		}
	})
}

// TestGoModReadOnce checks what extraction takes from go.mod, which it reads once: the module
// path it declares (another than the one asked for is refused) and its deprecation notice.
// TestReleaseEntry: a module's CHANGELOG.md gives the entry of the version extracted as a guide,
// and nothing for a version it has no entry of (a pseudo-version).
func TestReleaseEntry(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":       {Data: []byte("module example.com/x\n")},
		"x.go":         {Data: []byte("// Package x does x.\npackage x\n")},
		"CHANGELOG.md": {Data: []byte("# Changelog\n\n## v1.2.0\n\n- Decode rejects unknown keys.\n\n## v1.1.0\n\n- Older.\n")},
	}
	for version, want := range map[string]bool{"v1.2.0": true, "v1.1.1-0.20250101000000-abcdefabcdef": false} {
		md, err := extractModule(context.Background(), fsys, "example.com/x", version, Limits{}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(md.documents, func(d docidx.Document) bool { return d.Path == "CHANGELOG.md" })
		if got := i >= 0; got != want || got && !strings.Contains(md.documents[i].Sections[0].Text, "rejects unknown keys") {
			t.Errorf("%s: CHANGELOG.md document %v, want %v (%+v)", version, got, want, md.documents)
		}
	}
}

func TestGoModReadOnce(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("// Deprecated: use example.com/x/v2 instead.\nmodule example.com/x\n\ngo 1.21\n")},
		"x.go":   {Data: []byte("// Package x does x.\npackage x\n\n// F does f.\nfunc F() {}\n")},
	}
	md, err := extractModule(context.Background(), fsys, "example.com/x", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if want := "use example.com/x/v2 instead."; md.deprecated != want {
		t.Errorf("deprecated = %q, want %q", md.deprecated, want)
	}
	// The go directive is the module's minimum Go version.
	pd := packageDocs("example.com/x", "v1.0.0", nil, time.Time{}, "", md)
	if want := []docidx.Requirement{{Name: "go", Range: ">=1.21"}}; !slices.Equal(pd.Package.Requires, want) {
		t.Errorf("Requires = %v, want %v", pd.Package.Requires, want)
	}
	if _, err := extractModule(context.Background(), fsys, "example.com/y", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler)); !errors.Is(err, ErrModulePath) {
		t.Errorf("extracting example.com/x as example.com/y: %v, want ErrModulePath", err)
	}
}

// TestPackageReadmes checks that the README of a package directory below the module root is a
// guide of the module (klauspost/compress's zstd/README.md), after its docs/ pages, while one in
// a directory without a package, in internal/ or in testdata/ is not, nor one the examples walk
// read already (two documents of one path made the search and ranking indexes disagree).
func TestPackageReadmes(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":               file("module example.com/multi\n\ngo 1.22\n"),
		"README.md":            file("# multi\n\nMany packages.\n"),
		"multi.go":             file("// Package multi is the root.\npackage multi\n"),
		"docs/guide.md":        file("# Guide\n\nRead me first.\n"),
		"zstd/README.md":       file("# zstd\n\nIt is important to Close a Decoder to stop its goroutines.\n"),
		"zstd/zstd.go":         file("// Package zstd compresses.\npackage zstd\n"),
		"notes/README.md":      file("# notes\n\nNo package here.\n"),
		"internal/x/README.md": file("# x\n\nInternal.\n"),
		"internal/x/x.go":      file("package x\n"),
		"testdata/p/README.md": file("# p\n\nFixture.\n"),
		"testdata/p/p.go":      file("package p\n"),
		// A package in examples/, whose README the examples walk reads.
		"examples/README.md": file("# Examples\n\nRun them.\n"),
		"examples/main.go":   file("// Command examples shows it.\npackage main\n\nfunc main() {}\n"),
	}
	checkDocuments(t, fsys, "example.com/multi", "readme:README.md", "doc:docs/guide.md", "example:examples/README.md",
		"example:examples/main.go", "doc:zstd/README.md")
}

// checkDocuments extracts module mod from fsys and checks its documents, as "kind:path" in order.
func checkDocuments(t *testing.T, fsys fs.FS, mod string, want ...string) {
	t.Helper()
	m, err := extractModule(context.Background(), fsys, mod, "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range m.documents {
		got = append(got, string(d.Kind)+":"+d.Path)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("documents = %q, want %q", got, want)
	}
}

// file is a MapFS file holding s.
func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
