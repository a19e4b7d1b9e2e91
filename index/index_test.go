package index_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func goModule(version string, extra ...docidx.Symbol) *docidx.PackageDocs {
	syms := []docidx.Symbol{
		{Kind: docidx.KindPackage, Name: "errgroup", Package: "golang.org/x/sync/errgroup", QualifiedName: "golang.org/x/sync/errgroup",
			Signature: "package errgroup", Doc: "Package errgroup provides synchronization, error propagation, and Context cancelation for groups of goroutines working on subtasks of a common task."},
		{Kind: docidx.KindType, Name: "Group", Package: "golang.org/x/sync/errgroup", QualifiedName: "errgroup.Group",
			Signature: "type Group struct {\n\t// contains filtered or unexported fields\n}", Doc: "A Group is a collection of goroutines working on subtasks that are part of the same overall task."},
		{Kind: docidx.KindMethod, Name: "Go", Parent: "Group", Package: "golang.org/x/sync/errgroup", QualifiedName: "errgroup.Group.Go",
			Signature: "func (g *Group) Go(f func() error)", Doc: "Go calls the given function in a new goroutine. The first call to return a non-nil error cancels the group; its error will be returned by Wait."},
		{Kind: docidx.KindMethod, Name: "SetLimit", Parent: "Group", Package: "golang.org/x/sync/errgroup", QualifiedName: "errgroup.Group.SetLimit",
			Signature: "func (g *Group) SetLimit(n int)", Doc: "SetLimit limits the number of active goroutines in this group to at most n."},
		{Kind: docidx.KindFunc, Name: "NewWeighted", Package: "golang.org/x/sync/semaphore", QualifiedName: "semaphore.NewWeighted",
			Signature: "func NewWeighted(n int64) *Weighted", Doc: "NewWeighted creates a new weighted semaphore with the given maximum combined weight for concurrent access."},
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: "golang.org/x/sync", Version: version,
			Description: "Go concurrency primitives in addition to the ones provided by the language and sync packages."},
		Documents: []docidx.Document{{
			Path: "README.md", Kind: docidx.DocReadme, Title: "Go Sync",
			Sections: []docidx.Section{
				{Heading: []string{"Go Sync"}, Anchor: "go-sync", Text: "This repository provides Go concurrency primitives.", Plain: "This repository provides Go concurrency primitives."},
				{Heading: []string{"Go Sync", "Download/Install"}, Anchor: "downloadinstall", Text: "Run `go get golang.org/x/sync`.", Plain: "Run go get golang.org/x/sync."},
			},
		}},
		Symbols: append(syms, extra...),
	}
}

func npmPackage(name, version, desc string) *docidx.PackageDocs {
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: name, Version: version, Description: desc, Keywords: []string{"cli"}},
		Documents: []docidx.Document{
			{Path: "docs/guide.md", Kind: docidx.DocGuide, Title: "Guide", Sections: []docidx.Section{
				{Heading: []string{"Guide", "Options"}, Anchor: "options", Text: "Define options with `.option()`.", Plain: "Define options with .option() for flags like --verbose."},
			}},
			{Path: "README.md", Kind: docidx.DocReadme, Title: name, Sections: []docidx.Section{
				{Heading: []string{name, "Installation"}, Anchor: "installation", Text: "npm install " + name, Plain: "Install it with npm.",
					Code: []docidx.CodeBlock{{Lang: "sh", Code: "npm install " + name}}},
			}},
		},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindClass, Name: "Command", QualifiedName: "Command", Signature: "export class Command", Doc: "A command with options and subcommands."},
			{Kind: docidx.KindMethod, Name: "parseAsync", Parent: "Command", QualifiedName: "Command.parseAsync", Signature: "parseAsync(argv?: string[]): Promise<this>", Doc: "Parse argv asynchronously."},
			{Kind: docidx.KindFunc, Name: "read_file_sync", QualifiedName: "read_file_sync", Signature: "export function read_file_sync(path: string): string", Doc: "Reads a whole file."},
		},
	}
}

// build writes a snapshot into a new index directory and returns the directory.
func build(t testing.TB, docs ...*docidx.PackageDocs) string {
	t.Helper()
	dir := t.TempDir()
	commit(t, dir, docs...)
	return dir
}

func commit(t testing.TB, dir string, docs ...*docidx.PackageDocs) *index.Manifest {
	t.Helper()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := w.Put(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	w.AddSource("testdata")
	m, err := w.Commit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func open(t testing.TB, dir string) *index.Reader {
	t.Helper()
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func search(t *testing.T, r *index.Reader, q index.Query) []docidx.Hit {
	t.Helper()
	res, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return res.Hits
}

func TestSnapshotRoundTrip(t *testing.T) {
	dir := build(t, goModule("v0.9.0"), goModule("v0.10.0"), npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"))
	r := open(t, dir)

	m := r.Manifest()
	if m.Format != index.FormatVersion || m.DocidxVersion != docidx.Version || len(m.Sources) != 1 {
		t.Errorf("manifest = %+v", m)
	}
	for _, f := range []string{index.StoreFile} {
		if m.Files[f] == "" {
			t.Errorf("manifest has no checksum of %s: %v", f, m.Files)
		}
	}
	want := []index.EcosystemCounts{
		{Ecosystem: docidx.Go, Packages: 1, Versions: 2, Documents: 2, Sections: 4, Symbols: 10},
		{Ecosystem: docidx.NPM, Packages: 1, Versions: 1, Documents: 2, Sections: 2, Symbols: 3},
	}
	if got := fmt.Sprint(r.Counts()); got != fmt.Sprint(want) {
		t.Errorf("counts = %v, want %v", got, want)
	}

	p, err := r.Package(docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync"})
	if err != nil || p.Version != "v0.10.0" {
		t.Fatalf("latest package = %+v, %v", p, err)
	}
	if vs, _ := r.Versions(docidx.Go, "golang.org/x/sync"); strings.Join(vs, " ") != "v0.9.0 v0.10.0" {
		t.Errorf("versions = %v", vs)
	}
	if _, err := r.Package(docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync", Version: "v0.1.0"}); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("missing version: err = %v", err)
	}
	docs, err := r.Documents(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander"})
	if err != nil || len(docs) != 2 || docs[0].Kind != docidx.DocReadme {
		t.Errorf("documents: README must come first: %+v, %v", docs, err)
	}
	if d, err := r.Document(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander"}, "docs/guide.md"); err != nil || d.Title != "Guide" {
		t.Errorf("Document(docs/guide.md) = %+v, %v", d, err)
	}
	if d, err := r.Document(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander"}, ""); err != nil || d.Kind != docidx.DocReadme {
		t.Errorf("Document(\"\") = %+v, %v", d, err)
	}
	for _, name := range []string{"errgroup.Group.Go", "Group.Go", "Go", "group.go"} {
		syms, err := r.LookupSymbol(docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync"}, name)
		if err != nil || len(syms) != 1 || syms[0].QualifiedName != "errgroup.Group.Go" {
			t.Errorf("LookupSymbol(%q) = %+v, %v", name, syms, err)
		}
	}
	if _, err := r.LookupSymbol(docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync"}, "Nope"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("unknown symbol: err = %v", err)
	}
}

// A symbol is found by the path its package re-exports it under (Python's jinja2.Environment
// for jinja2.environment.Environment, its members too) before any case-insensitive match, which
// would find the module jinja2.environment instead.
func TestMatchSymbolsReexported(t *testing.T) {
	syms := []docidx.Symbol{
		{Kind: docidx.KindPackage, Name: "environment", Package: "jinja2.environment", QualifiedName: "jinja2.environment"},
		{Kind: docidx.KindType, Name: "Environment", Package: "jinja2.environment", QualifiedName: "jinja2.environment.Environment"},
		{Kind: docidx.KindMethod, Name: "__init__", Parent: "Environment", Package: "jinja2.environment", QualifiedName: "jinja2.environment.Environment.__init__"},
		{Kind: docidx.KindType, Name: "Environment", Package: "other.environment", QualifiedName: "other.environment.Environment"},
	}
	for name, want := range map[string]string{
		"jinja2.Environment":                      "jinja2.environment.Environment",
		"jinja2.Environment.__init__":             "jinja2.environment.Environment.__init__",
		"jinja2.environment":                      "jinja2.environment",
		"JINJA2.ENVIRONMENT":                      "jinja2.environment",
		"jinja2.environment.Environment":          "jinja2.environment.Environment",
		"other.Environment":                       "other.environment.Environment",
		"jinja2.environment.Environment.__init__": "jinja2.environment.Environment.__init__",
	} {
		got := index.MatchSymbols(syms, name)
		if len(got) != 1 || got[0].QualifiedName != want {
			t.Errorf("MatchSymbols(%q) = %+v, want %s", name, got, want)
		}
	}
	if got := index.MatchSymbols(syms, "nope.Environment"); got != nil {
		t.Errorf("MatchSymbols(nope.Environment) = %+v, want none", got)
	}
}

// A Rust macro is found as it is called, with its "!", by its name or path; a function of that
// name is not.
func TestMatchSymbolsMacro(t *testing.T) {
	syms := []docidx.Symbol{
		{Kind: docidx.KindMacro, Name: "pin", Package: "tokio", QualifiedName: "tokio::pin!"},
		{Kind: docidx.KindFunc, Name: "join", Package: "tokio", QualifiedName: "tokio::join"},
	}
	for name, want := range map[string]string{"pin!": "tokio::pin!", "tokio::pin!": "tokio::pin!", "pin": "tokio::pin!", "join!": "", "pin!!": ""} {
		got := index.MatchSymbols(syms, name)
		if want == "" && got != nil || want != "" && (len(got) != 1 || got[0].QualifiedName != want) {
			t.Errorf("MatchSymbols(%q) = %+v, want %q", name, got, want)
		}
	}
}

func TestSearch(t *testing.T) {
	r := open(t, build(t,
		goModule("v0.9.0", docidx.Symbol{Kind: docidx.KindFunc, Name: "OnlyOld", QualifiedName: "errgroup.OnlyOld", Signature: "func OnlyOld()", Doc: "Only in the old version."}),
		goModule("v0.10.0"),
		npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"),
		npmPackage("yargs", "17.7.2", "yargs the modern, pirate-themed successor to optimist"),
	))
	top := func(q index.Query) docidx.Hit {
		t.Helper()
		hits := search(t, r, q)
		if len(hits) == 0 {
			t.Fatalf("%+v: no hits", q)
		}
		return hits[0]
	}

	h := top(index.Query{Text: "run goroutines and return the first error"})
	if h.Package != "golang.org/x/sync" || h.Version != "v0.10.0" {
		t.Errorf("prose query: top hit %+v", h)
	}
	h = top(index.Query{Text: "SetLimit"})
	if h.Title != "errgroup.Group.SetLimit" || h.Kind != docidx.HitSymbol ||
		h.URI != "docidx://golang/golang.org/x/sync@v0.10.0/symbol/errgroup.Group.SetLimit" ||
		h.PURL != "pkg:golang/golang.org/x/sync@v0.10.0" || h.Section != "func (g *Group) SetLimit(n int)" {
		t.Errorf("symbol query: top hit %+v", h)
	}
	// camelCase and snake_case are split: "weighted" finds NewWeighted, "file sync" finds read_file_sync.
	if h = top(index.Query{Text: "weighted", Kind: "symbol"}); h.Title != "semaphore.NewWeighted" {
		t.Errorf("camelCase part: top hit %+v", h)
	}
	if h = top(index.Query{Text: "file", Kind: "func"}); h.Title != "read_file_sync" {
		t.Errorf("snake_case part: top hit %+v", h)
	}
	// An exact package name comes first.
	if h = top(index.Query{Text: "yargs"}); h.Package != "yargs" {
		t.Errorf("package name: top hit %+v", h)
	}
	// Latest version only, unless one is asked for.
	if hits := search(t, r, index.Query{Text: "OnlyOld"}); len(hits) != 0 {
		t.Errorf("old version searched without a version filter: %+v", hits)
	}
	if h = top(index.Query{Text: "OnlyOld", Version: "v0.9.0"}); h.Version != "v0.9.0" {
		t.Errorf("version filter: %+v", h)
	}
	// Filters.
	for _, h := range search(t, r, index.Query{Text: "options", Ecosystem: docidx.NPM, Package: "yargs", Limit: 50}) {
		if h.Package != "yargs" || h.Ecosystem != docidx.NPM {
			t.Errorf("package filter let through %+v", h)
		}
	}
	for _, h := range search(t, r, index.Query{Text: "install", Kind: "section", Limit: 50}) {
		if h.Kind != docidx.HitSection {
			t.Errorf("kind filter let through %+v", h)
		}
	}
	h = top(index.Query{Text: "verbose flags", Package: "commander"})
	if h.URI != "docidx://npm/commander@12.1.0/doc/docs/guide.md#options" || h.Section != "Guide › Options" || h.Title != "Guide" {
		t.Errorf("section hit = %+v", h)
	}
	// Paging.
	all := search(t, r, index.Query{Text: "install", Limit: 100})
	page2 := search(t, r, index.Query{Text: "install", Limit: 1, Offset: 1})
	if len(all) < 2 || len(page2) != 1 || page2[0].URI != all[1].URI {
		t.Errorf("paging: all=%d page2=%+v", len(all), page2)
	}
	if _, err := r.Search(context.Background(), index.Query{Text: "  "}); err == nil {
		t.Error("empty query: no error")
	}
}

func TestList(t *testing.T) {
	var docs []*docidx.PackageDocs
	for i := range 7 {
		docs = append(docs, npmPackage(fmt.Sprintf("pkg-%d", i), "1.0.0", "p"))
	}
	docs = append(docs, goModule("v0.10.0"))
	r := open(t, build(t, docs...))

	var names []string
	cursor := ""
	for range 10 {
		page, next, err := r.List(docidx.NPM, "pkg-", cursor, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range page {
			names = append(names, l.Name)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if got := strings.Join(names, ","); got != "pkg-0,pkg-1,pkg-2,pkg-3,pkg-4,pkg-5,pkg-6" {
		t.Errorf("paged list = %s", got)
	}
	all, next, err := r.List("", "", "", 100)
	if err != nil || next != "" || len(all) != 8 || all[0].Ecosystem != docidx.Go || all[0].Latest != "v0.10.0" {
		t.Errorf("List(all) = %+v, %q, %v", all, next, err)
	}
	for _, bad := range []string{"x", "bnBt.000000000000", "cGtnLTE.deadbeef0000"} {
		if _, _, err := r.List("", "", bad, 3); !errors.Is(err, index.ErrBadCursor) {
			t.Errorf("cursor %q: err = %v", bad, err)
		}
	}
}

// TestFindPackages resolves names written without their ecosystem: a whole name, a Go module's
// last path element, and a Go module path without the major version suffix of the one module
// indexed (github.com/acme/pool for github.com/acme/pool/v3), none for a path it only begins.
func TestFindPackages(t *testing.T) {
	v3 := goModule("v3.1.0")
	v3.Package.Name = "github.com/acme/pool/v3"
	crate := npmPackage("serde_json", "1.0.0", "JSON")
	crate.Package.Ecosystem = docidx.Cargo
	yaml := goModule("v3.0.1")
	yaml.Package.Name = "gopkg.in/yaml.v3"
	ts := npmPackage("typescript", "5.0.0", "TypeScript")
	ts.Package.Commands = []string{"tsc", "tsserver"}
	r := open(t, build(t, goModule("v0.10.0"), v3, npmPackage("express", "4.21.2", "e"), crate, yaml, ts))
	for _, c := range []struct {
		eco  docidx.Ecosystem
		name string
		want []string
	}{
		{docidx.NPM, "express", []string{"express"}},
		{docidx.Go, "golang.org/x/sync", []string{"golang.org/x/sync"}},
		{docidx.Go, "sync", []string{"golang.org/x/sync"}},
		{docidx.Go, "pool", []string{"github.com/acme/pool/v3"}},
		{docidx.Go, "github.com/acme/pool", []string{"github.com/acme/pool/v3"}},
		{"", "GitHub.com/Acme/Pool", []string{"github.com/acme/pool/v3"}},
		{docidx.Go, "github.com/acme", nil},
		{docidx.NPM, "github.com/acme/pool", nil},
		// A module written without its host, as people write one: the end of its path.
		{"", "acme/pool", []string{"github.com/acme/pool/v3"}},
		{docidx.Go, "pool/v3", []string{"github.com/acme/pool/v3"}},
		{docidx.Go, "x/sync", []string{"golang.org/x/sync"}},
		{docidx.Go, "me/pool", nil},
		{docidx.Go, "pool/v2", nil},
		{docidx.Go, "yaml.v3", []string{"gopkg.in/yaml.v3"}},
		{docidx.Go, "yaml.v2", nil},
		// A command names the package that installs it.
		{"", "tsc", []string{"typescript"}},
		{docidx.NPM, "TSServer", []string{"typescript"}},
		{docidx.Go, "tsc", nil},
		{docidx.Cargo, "serde_json", []string{"serde_json"}},
		{docidx.Cargo, "serde-json", []string{"serde_json"}},
		{"", "Serde-JSON", []string{"serde_json"}},
		{docidx.NPM, "serde-json", nil},
	} {
		refs, err := r.FindPackages(c.eco, c.name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ref := range refs {
			got = append(got, ref.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("FindPackages(%q, %q) = %q, want %q", c.eco, c.name, got, c.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	r := open(t, build(t, goModule("v0.10.0"), npmPackage("commander", "12.1.0", "c"), npmPackage("express", "4.21.2", "e")))
	for _, c := range []struct {
		eco  docidx.Ecosystem
		name string
		want string
	}{
		{docidx.NPM, "comander", "commander"},
		{docidx.NPM, "expres", "express"},
		{docidx.Go, "sync", "golang.org/x/sync"},
		{"", "golang.org/x/snyc", "golang.org/x/sync"},
	} {
		got := r.Suggest(c.eco, c.name, 3)
		if len(got) == 0 || got[0].Name != c.want {
			t.Errorf("Suggest(%s, %q) = %v, want %s first", c.eco, c.name, got, c.want)
		}
	}
	if got := r.Suggest(docidx.NPM, "zzzzzzzz", 3); len(got) != 0 {
		t.Errorf("Suggest(unrelated) = %v", got)
	}
}

func TestGenerations(t *testing.T) {
	dir := build(t, goModule("v0.9.0"))
	old := open(t, dir) // a running server keeps reading while a crawl writes

	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Has(docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync", Version: "v0.9.0"}) {
		t.Error("new generation is not seeded with the current one")
	}
	var busy *index.BusyError
	if _, err := index.Create(dir); !errors.As(err, &busy) || busy.Command != "crawl" || !strings.Contains(err.Error(), "another docidx crawl (pid") {
		t.Errorf("second concurrent crawl: err = %v", err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if err := w.Put(context.Background(), npmPackage(fmt.Sprintf("p%d", i), "1.0.0", "d")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Nothing is visible before Commit.
	if r := open(t, dir); r.Dir() != old.Dir() {
		t.Errorf("uncommitted generation is visible: %s", r.Dir())
	} else {
		r.Close()
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); !errors.Is(err, index.ErrClosed) {
		t.Errorf("Abort after Commit: %v", err)
	}
	r := open(t, dir)
	if got := r.Counts(); len(got) != 2 || got[0].Versions != 1 || got[1].Packages != 8 {
		t.Errorf("counts after second crawl: %+v", got)
	}
	// The old reader still answers from its generation.
	if hits := search(t, old, index.Query{Text: "SetLimit"}); len(hits) == 0 {
		t.Error("old reader broke when a new generation was published")
	}

	// An aborted crawl leaves the current snapshot as it was and no debris.
	w, err = index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.Put(context.Background(), npmPackage("aborted", "1.0.0", "d"))
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	r2 := open(t, dir)
	if r2.Dir() != r.Dir() {
		t.Errorf("abort changed the current generation: %s -> %s", r.Dir(), r2.Dir())
	}
	if _, err := r2.Package(docidx.Ref{Ecosystem: docidx.NPM, Name: "aborted"}); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("aborted package visible: %v", err)
	}
	// Generations that readers hold stay; once they are closed, the next crawl removes them.
	commit(t, dir)
	gens, _ := filepath.Glob(filepath.Join(dir, "gen-*"))
	if len(gens) != 3 || filepath.Base(gens[0]) != filepath.Base(old.Dir()) {
		t.Errorf("generations on disk with readers on two of them: %v", gens)
	}
	old.Close()
	r.Close()
	r2.Close()
	commit(t, dir)
	gens, _ = filepath.Glob(filepath.Join(dir, "gen-*"))
	if len(gens) != 1 {
		t.Errorf("generations on disk with no reader: %v", gens)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := index.Open(t.TempDir()); !errors.Is(err, docidx.ErrNoSnapshot) || !strings.Contains(err.Error(), "docidx crawl") {
		t.Errorf("empty dir: %v", err)
	}
	dir := build(t, goModule("v0.10.0"))
	r := open(t, dir)
	snap := r.Dir()
	r.Close()

	// Opening a generation directory directly works too.
	if r, err := index.Open(snap); err != nil {
		t.Errorf("open snapshot dir: %v", err)
	} else {
		r.Close()
	}
	// A newer format is refused, never misread.
	mpath := filepath.Join(snap, index.ManifestFile)
	data, _ := os.ReadFile(mpath)
	os.WriteFile(mpath, []byte(strings.Replace(string(data), fmt.Sprintf(`"format": %d`, index.FormatVersion), `"format": 99`, 1)), 0o644)
	if _, err := index.Open(dir); !errors.Is(err, docidx.ErrFormat) || !strings.Contains(err.Error(), "upgrade docidx") {
		t.Errorf("newer format: %v", err)
	}
	if _, err := index.Create(dir); !errors.Is(err, docidx.ErrFormat) {
		t.Errorf("crawl over a newer format: %v", err)
	}
}

func TestPutValidates(t *testing.T) {
	w, err := index.Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Put(context.Background(), &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "x"}}); err == nil {
		t.Error("Put without a version: no error")
	}
	// Two documents at one path: refused by name at Put, not a failed commit.
	twice := npmPackage("twice", "1.0.0", "cli")
	twice.Documents = append(twice.Documents, twice.Documents[0])
	if err := w.Put(context.Background(), twice); err == nil || !strings.Contains(err.Error(), "two documents at docs/guide.md") {
		t.Errorf("Put with a document twice: %v", err)
	}
	if err := w.Put(context.Background(), npmPackage("once", "1.0.0", "cli")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Errorf("the commit after a refused version: %v", err)
	}
}

func TestSuggestTransposition(t *testing.T) {
	r := open(t, build(t, npmPackage("zod", "3.23.8", "schemas")))
	if got := r.Suggest(docidx.NPM, "zdo", 3); len(got) != 1 || got[0].Name != "zod" {
		t.Errorf("Suggest(zdo) = %v, want zod", got)
	}
}

func TestSearchTypos(t *testing.T) {
	r := open(t, build(t, goModule("v0.10.0")))
	hits := search(t, r, index.Query{Text: "goroutnies semaphre"})
	if len(hits) == 0 || hits[0].Package != "golang.org/x/sync" {
		t.Errorf("typos: %+v", hits)
	}
}

// TestPassageBudgetSkipsTwins checks that a member inherited by a second type (the same name,
// declaration and doc), which callers show once, does not push the hits after it below the
// passage budget of the first hits: each of the first three distinct answers gets the whole one.
func TestPassageBudgetSkipsTwins(t *testing.T) {
	long := func(topic string) string {
		return strings.Repeat("The "+topic+" request timeout in milliseconds applies to every connection of the pool. ", 6)
	}
	sym := func(parent, name, topic string) docidx.Symbol {
		return docidx.Symbol{Kind: docidx.KindField, Name: name, Parent: parent, QualifiedName: parent + "." + name,
			Signature: name + "?: number", Doc: long(topic)}
	}
	pkg := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "twins", Version: "1.0.0"},
		Symbols: []docidx.Symbol{
			sym("BaseOptions", "timeout", "socket"), sym("ClientOptions", "timeout", "socket"),
			sym("PoolOptions", "idleTimeout", "idle"), sym("AgentOptions", "keepAliveTimeout", "keep-alive"),
			sym("ServerOptions", "headersTimeout", "headers"),
		},
	}
	r := open(t, build(t, pkg))
	hits := search(t, r, index.Query{Text: "socket request timeout milliseconds", Limit: 10})
	seen := map[string]bool{}
	distinct := 0
	for _, h := range hits {
		twin := h.Title[strings.LastIndexByte(h.Title, '.')+1:] + "\x00" + h.Section + "\x00" + h.Snippet
		if seen[twin] {
			continue
		}
		seen[twin] = true
		if distinct < 3 && len(h.Snippet) < index.DefaultPassageBytes/2 {
			t.Errorf("answer %d (%s) has a passage of %d bytes, want the top hits' budget", distinct+1, h.Title, len(h.Snippet))
		}
		distinct++
	}
	if distinct == len(hits) {
		t.Fatalf("no twins among %d hits: the test needs them", len(hits))
	}
}

// TestCarriedSourcesRedacted checks that the absolute paths and credentials an older crawl
// recorded as sources are not carried into the next generation's manifest: they name the
// crawling machine's directories and a registry's password.
func TestCarriedSourcesRedacted(t *testing.T) {
	dir := t.TempDir()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Put(context.Background(), goModule("v0.1.0")); err != nil {
		t.Fatal(err)
	}
	w.AddSource("/home/alice/go/pkg/mod")
	w.AddSource("go module cache")
	w.AddSource("GOPROXY=https://alice:s3cret@127.0.0.1:1/,direct")
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := commit(t, dir, goModule("v0.2.0"))
	want := []string{"GOPROXY=https://127.0.0.1:1/,direct", "go module cache", "local directory mod", "testdata"}
	if !slices.Equal(m.Sources, want) {
		t.Errorf("sources %q, want %q", m.Sources, want)
	}
}

// TestRootVersion checks that a package's root version (docidx.Package.Root: node_modules'
// top-level copy) is what a search and a lookup without a version read, although a nested copy
// is newer and was put after it; and that pruning it brings the latest back.
func TestRootVersion(t *testing.T) {
	top, nested := npmPackage("commander", "11.0.0", "cli"), npmPackage("commander", "12.1.0", "cli")
	top.Package.Root = true
	nested.Symbols = append(nested.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: "onlyInTwelve", QualifiedName: "onlyInTwelve",
		Signature: "export function onlyInTwelve(): void", Doc: "Exists only in version twelve."})
	dir := build(t, top, nested)
	r := open(t, dir)
	ref, err := r.Resolve(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander"})
	if err != nil || ref.Version != "11.0.0" {
		t.Errorf("Resolve(commander) = %v, %v; want the root version 11.0.0", ref, err)
	}
	for _, h := range search(t, r, index.Query{Text: "parse argv asynchronously"}) {
		if h.Version != "11.0.0" {
			t.Errorf("a search without a version found %s@%s, want only the root version", h.Package, h.Version)
		}
	}
	if hits := search(t, r, index.Query{Text: "only in version twelve", Package: "commander", Version: "12.1.0"}); len(hits) == 0 {
		t.Error("the nested version is not searched when asked for")
	}
	r.Close()

	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if _, err := w.Prune(index.PruneOptions{Packages: []docidx.Ref{top.Package.Ref()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ref, err := open(t, dir).Resolve(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander"}); err != nil || ref.Version != "12.1.0" {
		t.Errorf("after pruning the root: Resolve = %v, %v; want the latest", ref, err)
	}
}

// TestCodeNamesNamePackages: a call written with the alias a package's README imports it by
// ("fr.merge(…)") names that package, as does the module its code is imported as ("with
// frames, …"), though neither is its distribution's name; the alias as a plain word does not.
func TestCodeNamesNamePackages(t *testing.T) {
	frames := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "pyframes", Version: "1.0.0"},
		Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "pyframes", Sections: []docidx.Section{
			{Heading: []string{"pyframes"}, Text: "Tables.", Plain: "Tables.", Code: []docidx.CodeBlock{{Lang: "python", Code: "import frames as fr\nfr.merge(a, b)"}}},
		}}},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "merge", Package: "frames", QualifiedName: "frames.merge",
			Signature: "def merge(left, right, how='inner')", Doc: "Combine two tables on their keys: an outer merge keeps the rows of both."}},
	}
	other := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "rowkit", Version: "1.0.0"},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "merge", QualifiedName: "merge",
			Signature: "function merge(a, b)", Doc: "Merge rows: an outer merge keeps the rows of both in their order."}},
	}
	r := open(t, build(t, frames, other))
	for q, want := range map[string]string{
		"fr.merge(a, b, how='outer') keeps the rows in order?":     "pyframes",
		"with frames, does an outer merge keep the rows in order?": "pyframes",
		"does fr merge outer keep the rows in order?":              "rowkit",
	} {
		if hits := search(t, r, index.Query{Text: q, Limit: 3}); len(hits) == 0 || hits[0].Package != want {
			t.Errorf("%q: hits %v, want %s first", q, hits, want)
		}
	}
}
