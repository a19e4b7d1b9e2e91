package gomod

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"io/fs"
	"log/slog"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/internal/docdirs"
	"github.com/docidx/docidx/registries/internal/docpath"
	"github.com/docidx/docidx/registries/internal/license"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
)

// buildContexts are the platforms whose files are documented: a file is kept when any of them
// would build it (pkgsite documents linux/amd64, windows/amd64, darwin/amd64 and js/wasm).
var buildContexts = []struct{ goos, goarch string }{
	{"linux", "amd64"},
	{"darwin", "arm64"},
	{"windows", "amd64"},
	{"js", "wasm"},
}

// moduleDocs is what extraction yields for one module version.
type moduleDocs struct {
	symbols    []docidx.Symbol
	documents  []docidx.Document
	synopsis   string // root package synopsis, else README summary, else the first package's synopsis
	license    string // SPDX identifier guessed from the LICENSE file
	deprecated string // the go.mod "// Deprecated:" message
	goVersion  string // the go.mod go directive, "" when it has none
}

// ErrModulePath is returned when the go.mod at a module's root declares another module path than
// the one the module was fetched or listed under: the go command refuses such a module ("module
// declares its path as … but was required as …"), and docidx does not index one module's
// documentation under another's name.
var ErrModulePath = errors.New("go.mod declares another module path")

// readGoMod reads the go.mod at the root of fsys once, for the module path it declares, its
// deprecation notice and its go directive (the minimum Go version since Go 1.21,
// https://go.dev/ref/mod#go-mod-file-go); a module without one, or with one that cannot be
// read, gives "" for each.
func readGoMod(fsys fs.FS) (path, deprecated, goVersion string) {
	src, err := memfs.ReadLimited(fsys, "go.mod", MaxGoMod)
	if err != nil {
		return "", "", "" // none, or unreadable: extraction reads what it can
	}
	if f, err := modfile.ParseLax("go.mod", src, nil); err == nil {
		if f.Module != nil {
			deprecated = f.Module.Deprecated
		}
		if f.Go != nil {
			goVersion = f.Go.Version
		}
	}
	return modfile.ModulePath(src), deprecated, goVersion
}

// checkModulePath returns an error wrapping ErrModulePath when declared, the module path of the
// go.mod at the module's root, is another than modPath. A module without go.mod, or whose go.mod
// names no module, passes: the go command synthesizes "module <path>" for it.
func checkModulePath(declared, modPath string) error {
	if declared == "" || declared == modPath {
		return nil
	}
	return fmt.Errorf("%w: its go.mod says module %s, not %s; the go command refuses this module too (if %s is the module meant, crawl it by that path)",
		ErrModulePath, docidx.Quote(declared), modPath, docidx.Quote(declared))
}

// extractModule reads the module rooted at fsys, version of modPath: every package's exported API
// and examples, the README and the other root guides (docdirs.RootGuide), the documents of docs/, doc/,
// site/, website/ and examples/, the entry of version in its CHANGELOG.md (docdirs.Release), the
// license and the go.mod deprecation. It fails when the root cannot be read, when
// go.mod declares another module path (ErrModulePath) or when ctx ends; a bad file or package is
// logged at debug level and skipped.
func extractModule(ctx context.Context, fsys fs.FS, modPath, version string, lim Limits, log *slog.Logger) (*moduleDocs, error) {
	declared, deprecated, goVersion := readGoMod(fsys)
	if err := checkModulePath(declared, modPath); err != nil {
		return nil, err
	}
	e := &extractor{ctx: ctx, fsys: fsys, mod: modPath, lim: lim.withDefaults(), log: log}
	root, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading module root: %w", err)
	}
	out := &moduleDocs{deprecated: deprecated, goVersion: goVersion}
	e.rootFiles(root, out)
	if err := e.walk(".", root); err != nil {
		return nil, err
	}
	for _, de := range root {
		if !de.IsDir() {
			continue
		}
		switch de.Name() {
		case "docs", "doc", "site", "website":
			e.walkDocs(de.Name(), docidx.DocGuide)
		case "examples", "example", "_examples":
			e.walkDocs(de.Name(), docidx.DocExample)
		}
	}
	// What changed in this version: its entry in the module's CHANGELOG.md.
	if d, ok, skipped := docdirs.Release(fsys, version, e.lim.MaxFile); ok {
		e.addDoc(d)
	} else if skipped != nil {
		e.log.Debug("gomod: release history skipped", "module", modPath, "err", skipped)
	}
	// A package's own README (klauspost/compress's zstd/README.md), as pkg.go.dev shows it on
	// the package's page, after the module's guides and examples.
	// One that a docs/ or examples/ walk read already (a package in examples/) is not read again.
	for _, p := range e.pkgReadmes {
		if slices.ContainsFunc(e.docs, func(d docidx.Document) bool { return d.Path == p }) {
			continue
		}
		if src, ok := e.readDocFile(p); ok {
			e.addDoc(e.parseDoc(p, docidx.DocGuide, src))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out.symbols = e.symbols()
	if e.docsDropped > 0 {
		e.log.Warn("gomod: document limit reached; later documents dropped", "module", modPath, "limit", e.lim.MaxDocuments, "dropped", e.docsDropped)
	}
	out.documents = e.docs
	for _, p := range e.pkgs {
		if p.importPath == modPath && p.doc.Name != "main" {
			out.synopsis = p.doc.Synopsis(p.doc.Doc)
		}
	}
	if out.synopsis == "" {
		for _, d := range e.docs {
			if d.Kind == docidx.DocReadme && d.Summary != "" {
				out.synopsis = d.Summary
				break
			}
		}
	}
	if out.synopsis == "" {
		for _, p := range e.pkgs {
			if s := p.doc.Synopsis(p.doc.Doc); s != "" && p.doc.Name != "main" {
				out.synopsis = s
				break
			}
		}
	}
	return out, nil
}

type extractor struct {
	ctx  context.Context
	fsys fs.FS
	mod  string
	lim  Limits
	log  *slog.Logger

	pkgs        []*pkgInfo
	docs        []docidx.Document
	docsDropped int
	pkgsDropped int
	pkgReadmes  []string // the README of each package directory below the root that has one
}

// pkgInfo is one documented package directory.
type pkgInfo struct {
	dir        string // slash path inside the module, "." for the root
	importPath string
	fset       *token.FileSet
	doc        *doc.Package
	files      []*ast.File                  // non-test files given to go/doc
	docPos     token.Pos                    // the package clause of the first file with a package comment, or NoPos
	consts     map[*ast.ValueSpec]constSpec // every const spec's meaning, recorded before go/doc filtered them
	values     map[string]valueRef          // every package-level const and var by name (linkvalues.go)
	// bodyErrs are the errors function bodies make with a literal message (bodyError), by the
	// position of the declaration's keyword func (go/doc drops the bodies themselves).
	bodyErrs map[token.Pos][]string
}

// rootFiles reads the README, LICENSE and go.mod at the module root.
func (e *extractor) rootFiles(root []fs.DirEntry, out *moduleDocs) {
	readmeName, licenseName := docpath.RootFiles(root)
	if readmeName != "" {
		if src, ok := e.readDocFile(readmeName); ok {
			d := e.parseDoc(readmeName, docidx.DocReadme, src)
			d.Title = readme.PackageTitle(d, e.mod)
			e.addDoc(d)
		}
	}
	for _, de := range root {
		if name := de.Name(); de.Type().IsRegular() && name != readmeName && docdirs.RootGuide(name) {
			if src, ok := e.readDocFile(name); ok {
				e.addDoc(e.parseDoc(name, docidx.DocGuide, src))
			}
		}
	}
	if licenseName != "" {
		if src, err := memfs.ReadLimited(e.fsys, licenseName, 16<<20); err == nil {
			if len(src) > maxLicense {
				src = src[:maxLicense]
			}
			out.license = license.Detect(string(src))
		}
	}
}

// isMarkdown reports whether name is a markdown file by its extension.
func isMarkdown(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		return true
	}
	return false
}

// parseDoc turns a documentation file into a Document: markdown through package readme, any other
// text as one section.
func (e *extractor) parseDoc(p string, kind docidx.DocKind, src []byte) (d docidx.Document) {
	if isMarkdown(p) {
		// One hostile README must not end a whole crawl: fall back to the raw text.
		defer func() {
			if r := recover(); r != nil {
				e.log.Warn("gomod: markdown parser failed; keeping the raw text", "module", e.mod, "file", p, "panic", r)
				d = readme.Plain(p, kind, string(src))
			}
		}()
		return readme.Parse(p, kind, src)
	}
	return readme.Plain(p, kind, string(src))
}

func (e *extractor) addDoc(d docidx.Document) {
	if len(e.docs) >= e.lim.MaxDocuments {
		e.docsDropped++
		return
	}
	e.docs = append(e.docs, d)
}

// readDocFile reads a documentation file within the per-file limit, logging what it skips.
func (e *extractor) readDocFile(p string) ([]byte, bool) {
	src, err := memfs.ReadLimited(e.fsys, p, e.lim.MaxFile)
	if err != nil {
		skip.File(e.log, "gomod: skipping file", err, "module", e.mod, "file", p)
		return nil, false
	}
	return src, true
}

// skipDir reports whether a directory named name is left out of the API walk: hidden and "_"
// directories (which the go command ignores), testdata and vendor, and internal packages, which
// other modules cannot import.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
		name == "testdata" || name == "vendor" || name == "internal"
}

// hasGoMod reports whether entries hold a go.mod file: the directory is a nested module.
func hasGoMod(entries []fs.DirEntry) bool {
	for _, de := range entries {
		if de.Name() == "go.mod" && !de.IsDir() {
			return true
		}
	}
	return false
}

// walk documents the package in dir (whose entries are given) and then its subdirectories.
func (e *extractor) walk(dir string, entries []fs.DirEntry) error {
	if err := e.ctx.Err(); err != nil {
		return err
	}
	if dir != "." && hasGoMod(entries) {
		return nil
	}
	var goFiles []fs.DirEntry
	for _, de := range entries {
		name := de.Name()
		if de.Type().IsRegular() && strings.HasSuffix(name, ".go") &&
			!strings.HasPrefix(name, "_") && !strings.HasPrefix(name, ".") {
			goFiles = append(goFiles, de)
		}
	}
	if len(goFiles) > 0 {
		e.loadPackage(dir, goFiles)
		if name, _ := docpath.RootFiles(entries); name != "" && dir != "." {
			e.pkgReadmes = append(e.pkgReadmes, path.Join(dir, name))
		}
	}
	for _, de := range entries {
		if !de.IsDir() || skipDir(de.Name()) {
			continue
		}
		sub := path.Join(dir, de.Name())
		subEntries, err := fs.ReadDir(e.fsys, sub)
		if err != nil {
			e.log.Debug("gomod: skipping directory", "module", e.mod, "dir", sub, "err", err)
			continue
		}
		if err := e.walk(sub, subEntries); err != nil {
			return err
		}
	}
	return nil
}

// sourceFile is one .go file read for a package.
type sourceFile struct {
	name string // slash path inside the module
	src  []byte
	test bool
}

var exampleFunc = []byte("func Example")

// loadPackage parses the .go files of dir that some build context selects and documents them.
func (e *extractor) loadPackage(dir string, entries []fs.DirEntry) {
	importPath := e.mod
	if dir != "." {
		importPath += "/" + dir
	}
	if err := module.CheckImportPath(importPath); err != nil {
		e.log.Debug("gomod: skipping directory with an invalid import path", "module", e.mod, "dir", dir, "err", err)
		return
	}
	if len(entries) > e.lim.MaxPackageFiles {
		e.log.Warn("gomod: skipping package with too many files", "package", importPath, "files", len(entries), "limit", e.lim.MaxPackageFiles)
		return
	}
	if len(e.pkgs) >= e.lim.MaxPackages {
		if e.pkgsDropped == 0 {
			e.log.Warn("gomod: package limit reached; later packages skipped", "module", e.mod, "limit", e.lim.MaxPackages)
		}
		e.pkgsDropped++
		return
	}
	var files []sourceFile
	hasNonTest := false
	for _, de := range entries {
		name := de.Name()
		p := path.Join(dir, name)
		test := strings.HasSuffix(name, "_test.go")
		src, err := memfs.ReadLimited(e.fsys, p, e.lim.MaxFile)
		if err != nil {
			skip.File(e.log, "gomod: skipping file", err, "file", p, "module", e.mod)
			continue
		}
		if test && !bytes.Contains(src, exampleFunc) {
			continue // only examples are read from tests
		}
		if !matchAnyContext(name, src) {
			continue
		}
		hasNonTest = hasNonTest || !test
		files = append(files, sourceFile{name: p, src: src, test: test})
	}
	if !hasNonTest {
		return
	}

	fset := token.NewFileSet()
	var parsed []*ast.File
	names := map[string]int{}
	var bodyErrs map[token.Pos][]string
	for _, f := range files {
		if f.test {
			continue
		}
		// Nothing is taken from a function's body here but the errors it makes (bodies.go).
		blanked, errs := blankBodiesErrors(f.src)
		af, err := parser.ParseFile(fset, f.name, blanked, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			e.log.Debug("gomod: skipping file that does not parse", "file", f.name, "module", e.mod, "err", err)
			continue
		}
		if tf := fset.File(af.Pos()); tf != nil && len(errs) > 0 {
			if bodyErrs == nil {
				bodyErrs = map[token.Pos][]string{}
			}
			for off, list := range errs {
				if off < tf.Size() {
					bodyErrs[tf.Pos(off)] = list
				}
			}
		}
		parsed = append(parsed, af)
		names[af.Name.Name]++
	}
	if len(parsed) == 0 {
		return
	}
	name := packageName(names, path.Base(importPath))
	parsed = slices.DeleteFunc(parsed, func(f *ast.File) bool { return f.Name.Name != name })
	dropDuplicateFuncs(parsed)
	consts := constSpecs(parsed)
	values := packageValues(parsed, consts)
	all := slices.Clone(parsed)
	if name != "main" {
		for _, f := range files {
			if !f.test {
				continue
			}
			// Examples need object resolution: go/doc finds what a playable example uses with it.
			af, err := parser.ParseFile(fset, f.name, f.src, parser.ParseComments)
			if err != nil || (af.Name.Name != name && af.Name.Name != name+"_test") {
				continue
			}
			all = append(all, af)
		}
	}
	// The package clause of the file whose comment documents the package, before go/doc, which
	// takes the comments off the files.
	docPos := token.NoPos
	for _, f := range parsed {
		if f.Doc != nil {
			docPos = f.Package
			break
		}
	}
	d, err := doc.NewFromFiles(fset, all, importPath)
	if err != nil {
		e.log.Debug("gomod: skipping package", "package", importPath, "err", err)
		return
	}
	e.pkgs = append(e.pkgs, &pkgInfo{dir: dir, importPath: importPath, fset: fset, doc: d, files: parsed, docPos: docPos, consts: consts, values: values, bodyErrs: bodyErrs})
}

// dropDuplicateFuncs removes functions and methods already declared in an earlier file (the
// same function written once per platform), so that the first file in name order documents them:
// go/doc keeps whichever it meets first in map order.
func dropDuplicateFuncs(files []*ast.File) {
	seen := map[string]bool{}
	for _, f := range files {
		f.Decls = slices.DeleteFunc(f.Decls, func(d ast.Decl) bool {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name == "init" || fd.Name.Name == "_" {
				return false
			}
			key := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				key = recvTypeName(fd.Recv.List[0].Type) + "." + key
			}
			if seen[key] {
				return true
			}
			seen[key] = true
			return false
		})
	}
}

// recvTypeName returns the type name of a method receiver: T for T, *T, T[K] and *T[K, V]. A
// receiver is never qualified, so typeName's pkg.T does not arise.
func recvTypeName(x ast.Expr) string { return typeName(x) }

// packageName picks the package clause most files use; on a tie, the one matching the directory
// name, then the first alphabetically.
func packageName(names map[string]int, dirName string) string {
	best, n := "", -1
	for name, c := range names {
		if c > n || c == n && (name == dirName || best != dirName && name < best) {
			best, n = name, c
		}
	}
	return best
}

// matchAnyContext reports whether any of buildContexts would build the file name with contents
// src, by its name (_GOOS_GOARCH suffixes) and its build constraints, as go/build decides.
func matchAnyContext(name string, src []byte) bool {
	for _, c := range buildContexts {
		ctxt := build.Context{
			GOOS:        c.goos,
			GOARCH:      c.goarch,
			Compiler:    "gc",
			CgoEnabled:  c.goos != "js",
			ReleaseTags: build.Default.ReleaseTags,
			JoinPath:    path.Join,
			OpenFile: func(string) (io.ReadCloser, error) {
				return io.NopCloser(bytes.NewReader(src)), nil
			},
			// MatchFile needs none of these; they stop it from touching the real file system.
			IsDir:     func(string) bool { return false },
			HasSubdir: func(string, string) (string, bool) { return "", false },
			ReadDir:   func(string) ([]fs.FileInfo, error) { return nil, errors.New("no file system") },
		}
		if ok, err := ctxt.MatchFile(".", path.Base(name)); err == nil && ok {
			return true
		}
	}
	return false
}

// walkDocs adds the markdown files under dir, and for examples the Go example programs, as
// documents of kind.
func (e *extractor) walkDocs(dir string, kind docidx.DocKind) {
	entries, err := fs.ReadDir(e.fsys, dir)
	if err != nil || hasGoMod(entries) || e.ctx.Err() != nil {
		return
	}
	for _, de := range entries {
		name := de.Name()
		p := path.Join(dir, name)
		switch {
		case de.IsDir():
			if !strings.HasPrefix(name, ".") && name != "testdata" && name != "vendor" && name != "node_modules" {
				e.walkDocs(p, kind)
			}
		case !de.Type().IsRegular():
		case isMarkdown(name):
			if docdirs.ProjectPage(p[strings.Index(p, "/")+1:]) {
				continue
			}
			if src, ok := e.readDocFile(p); ok {
				e.addDoc(e.parseDoc(p, kind, src))
			}
		case kind == docidx.DocExample && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
			if src, ok := e.readDocFile(p); ok {
				if d, ok := exampleProgram(p, src); ok {
					e.addDoc(d)
				}
			}
		}
	}
}

// exampleProgram makes a document of a Go example program (a package main file under examples/):
// its package comment as text and its source as a code block.
func exampleProgram(p string, src []byte) (docidx.Document, bool) {
	if len(src) > maxExampleCode || !utf8.Valid(src) {
		return docidx.Document{}, false
	}
	f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil || f.Name.Name != "main" {
		return docidx.Document{}, false
	}
	comment := strings.TrimSpace(f.Doc.Text())
	code := string(src)
	text := "```go\n" + code
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "```\n"
	if comment != "" {
		text = comment + "\n\n" + text
	}
	return docidx.Document{
		Path:    p,
		Kind:    docidx.DocExample,
		Title:   path.Dir(p),
		Summary: new(doc.Package).Synopsis(comment),
		Sections: []docidx.Section{{
			Text:  text,
			Plain: comment,
			Code:  []docidx.CodeBlock{{Lang: "go", Name: p, Code: code}},
		}},
	}, true
}

// symbols turns the documented packages into symbols, in walk order, within the symbol limit:
// when a module has more, the members of types (fields, interface methods, embedded interfaces)
// are dropped first, so that a large module keeps its whole top-level API before any member, and
// the packages are given the limit in budgetOrder, so that of the versions of one package the
// module holds side by side the newest is kept.
func (e *extractor) symbols() []docidx.Symbol {
	quals := qualifiers(e.pkgs)
	em := &emitter{seen: map[string]bool{}, max: e.lim.MaxSymbols}
	for _, i := range budgetOrder(e.pkgs) {
		p := e.pkgs[i]
		em.pkg, em.pkgIndex = p, i
		em.qual = quals[p]
		start := len(em.out)
		em.emitPackage()
		em.linkValues(em.out[start:])
	}
	em.trimMembers()
	em.walkOrder()
	if em.dropped > 0 {
		e.log.Warn("gomod: symbol limit reached; later symbols dropped", "module", e.mod, "limit", e.lim.MaxSymbols, "dropped", em.dropped)
	}
	return em.out
}

// budgetOrder returns the indexes of pkgs (in walk order) in the order they are given the symbol
// limit: by dirOrder, which is walk order but for sibling directories named as semantic versions,
// which go newest first. A module such as go.opentelemetry.io/otel holds dozens of versions of one
// package (semconv/v1.4.0 to semconv/v1.43.0), far over the limit together; by name, v1.10.0 to
// v1.28.0 came first and the versions code imports today were dropped.
func budgetOrder(pkgs []*pkgInfo) []int {
	order := make([]int, len(pkgs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return dirOrder(pkgs[a].dir, pkgs[b].dir) })
	return order
}

// dirDepth is how many directories a slash path inside a module is below its root ("." is 0).
func dirDepth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// dirOrder compares two slash paths inside a module as the walk meets them — a directory before
// those under it, siblings by name — except that sibling directories both named as semantic
// versions (v2, v1.43.0; golang.org/x/mod/semver) compare newest first. It returns -1, 0 or +1.
func dirOrder(x, y string) int {
	xs, ys := strings.Split(x, "/"), strings.Split(y, "/")
	for k := range min(len(xs), len(ys)) {
		if xs[k] == ys[k] {
			continue
		}
		if semver.IsValid(xs[k]) && semver.IsValid(ys[k]) {
			if c := semver.Compare(ys[k], xs[k]); c != 0 {
				return c
			}
		}
		return strings.Compare(xs[k], ys[k])
	}
	return cmp.Compare(len(xs), len(ys))
}

// qualifiers names each library package for qualified symbol names: its package name, or when
// several packages of the module share that name, the shortest import path suffix that tells it
// apart ("sub/hello"); the package nearest the module root keeps the bare name, and of several
// as near, the first by dirOrder: of versions side by side (semconv/v1.4.0, semconv/v1.43.0),
// the newest, which code imports today.
func qualifiers(pkgs []*pkgInfo) map[*pkgInfo]string {
	byName := map[string][]*pkgInfo{}
	for _, p := range pkgs {
		if p.doc.Name != "main" {
			byName[p.doc.Name] = append(byName[p.doc.Name], p)
		}
	}
	q := map[*pkgInfo]string{}
	for name, group := range byName {
		slices.SortFunc(group, func(a, b *pkgInfo) int {
			return cmp.Or(cmp.Compare(dirDepth(a.dir), dirDepth(b.dir)), dirOrder(a.dir, b.dir))
		})
		q[group[0]] = name
		for _, p := range group[1:] {
			elems := strings.Split(p.importPath, "/")
			for n := 2; ; n++ {
				if n >= len(elems) {
					q[p] = p.importPath
					break
				}
				cand := strings.Join(elems[len(elems)-n:], "/")
				unique := true
				for _, o := range group {
					if o != p && (o.importPath == cand || strings.HasSuffix(o.importPath, "/"+cand)) {
						unique = false
						break
					}
				}
				if unique {
					q[p] = cand
					break
				}
			}
		}
	}
	return q
}

// emitter accumulates symbols, keeping qualified names unique and the count within max. It
// keeps up to max declarations (package, func, method, type, const, var) and up to max members
// apart, and trimMembers then cuts the members to what the declarations leave of max.
type emitter struct {
	pkg      *pkgInfo
	pkgIndex int // pkg's place in walk order
	qual     string
	out      []docidx.Symbol
	isMember []bool // isMember[i] reports whether out[i] is a member of a type
	pkgOf    []int  // pkgOf[i] is the walk-order place of out[i]'s package
	nDecls   int    // declarations in out
	nMembers int    // members in out
	seen     map[string]bool
	max      int
	dropped  int
	buf      bytes.Buffer
}

// add adds the declaration s.
func (em *emitter) add(s docidx.Symbol) { em.addSymbol(s, false) }

// addMember adds s, a member of a type.
func (em *emitter) addMember(s docidx.Symbol) { em.addSymbol(s, true) }

func (em *emitter) addSymbol(s docidx.Symbol, member bool) {
	if em.seen[s.QualifiedName] {
		return // the same name declared for two platforms: the first file wins
	}
	n := &em.nDecls
	if member {
		n = &em.nMembers
	}
	if *n >= em.max {
		em.dropped++
		return
	}
	*n++
	em.seen[s.QualifiedName] = true
	s.Doc = unlinkDocLinks(em.pkg.doc, s.Doc)
	s.Deprecated = s.Deprecated || deprecatedDoc(s.Doc)
	em.out = append(em.out, s)
	em.isMember = append(em.isMember, member)
	em.pkgOf = append(em.pkgOf, em.pkgIndex)
}

// deprecatedDoc reports whether a doc comment marks its symbol deprecated as Go does: a paragraph
// that begins with "Deprecated: " (https://go.dev/wiki/Deprecated; gopls and pkg.go.dev read it so).
func deprecatedDoc(doc string) bool {
	for para := range strings.SplitSeq(doc, "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "Deprecated: ") {
			return true
		}
	}
	return false
}

// trimMembers drops the last members until out holds at most max symbols.
func (em *emitter) trimMembers() {
	excess := em.nDecls + em.nMembers - em.max
	if excess <= 0 {
		return
	}
	em.dropped += excess
	keep := em.nMembers - excess // the first members in budget order stay
	out, isMember, pkgOf := em.out[:0], em.isMember[:0], em.pkgOf[:0]
	for i, s := range em.out {
		if em.isMember[i] {
			if keep == 0 {
				continue
			}
			keep--
		}
		out = append(out, s)
		isMember = append(isMember, em.isMember[i])
		pkgOf = append(pkgOf, em.pkgOf[i])
	}
	em.out, em.isMember, em.pkgOf, em.nMembers = out, isMember, pkgOf, em.nMembers-excess
}

// walkOrder puts out back in the packages' walk order, each package's symbols as emitted.
func (em *emitter) walkOrder() {
	if slices.IsSorted(em.pkgOf) {
		return
	}
	order := make([]int, len(em.out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return em.pkgOf[a] - em.pkgOf[b] })
	out, isMember, pkgOf := make([]docidx.Symbol, len(order)), make([]bool, len(order)), make([]int, len(order))
	for to, from := range order {
		out[to], isMember[to], pkgOf[to] = em.out[from], em.isMember[from], em.pkgOf[from]
	}
	em.out, em.isMember, em.pkgOf = out, isMember, pkgOf
}

// pos returns the slash path inside the module and the 1-based line of p.
func (em *emitter) pos(p token.Pos) (string, int) {
	if !p.IsValid() {
		return "", 0
	}
	position := em.pkg.fset.Position(p)
	return position.Filename, position.Line
}

// print renders node as gofmt would, with the comments attached to it (struct field docs).
func (em *emitter) print(node any) string {
	em.buf.Reset()
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&em.buf, em.pkg.fset, node); err != nil {
		return ""
	}
	return em.buf.String()
}

func (em *emitter) emitPackage() {
	p, d := em.pkg, em.pkg.doc
	if d.Name == "main" && strings.TrimSpace(d.Doc) == "" {
		return // a command without a package comment says nothing
	}
	pos := p.docPos
	if !pos.IsValid() && len(p.files) > 0 {
		pos = p.files[0].Package
	}
	file, line := em.pos(pos)
	em.add(docidx.Symbol{
		Kind:          docidx.KindPackage,
		Name:          d.Name,
		Package:       p.importPath,
		QualifiedName: p.importPath,
		Signature:     "package " + d.Name,
		Doc:           d.Doc,
		File:          file,
		Line:          line,
		Deprecated:    isDeprecated(d.Doc),
		Examples:      em.examples(d.Examples),
	})
	if d.Name == "main" {
		return // commands have no importable API
	}
	em.valuesAndFuncs(d.Consts, d.Vars, d.Funcs)
	for _, t := range d.Types {
		em.typ(t)
		em.valuesAndFuncs(t.Consts, t.Vars, t.Funcs)
		for _, m := range t.Methods {
			em.fn(m, t.Name)
		}
	}
}

// typ adds the type t, with a compact signature (its declaration without the comments of its
// members), and then its members.
func (em *emitter) typ(t *doc.Type) {
	decl := *t.Decl
	decl.Doc = nil
	file, line := em.pos(t.Decl.Pos())
	var spec *ast.TypeSpec
	for _, s := range t.Decl.Specs {
		if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == t.Name {
			file, line = em.pos(ts.Name.Pos())
			spec = ts
		}
	}
	em.add(docidx.Symbol{
		Kind:          docidx.KindType,
		Name:          t.Name,
		Package:       em.pkg.importPath,
		QualifiedName: em.qual + "." + t.Name,
		Signature:     truncateType(em.printCompact(&decl), maxTypeSignature),
		Doc:           t.Doc,
		File:          file,
		Line:          line,
		Deprecated:    isDeprecated(t.Doc),
		Examples:      em.examples(t.Examples),
	})
	if spec != nil {
		em.members(t.Name, spec.Type, 0)
	}
}

// valuesAndFuncs emits the constants, variables and functions go/doc groups under a package or,
// with its factory functions, under a type.
func (em *emitter) valuesAndFuncs(consts, vars []*doc.Value, funcs []*doc.Func) {
	for _, v := range consts {
		em.values(v, docidx.KindConst)
	}
	for _, v := range vars {
		em.values(v, docidx.KindVar)
	}
	for _, f := range funcs {
		em.fn(f, "")
	}
}

// fn adds a function, or a method of the type named recv.
func (em *emitter) fn(f *doc.Func, recv string) {
	if f.Decl == nil {
		return
	}
	decl := *f.Decl
	decl.Doc = nil
	decl.Body = nil
	file, line := em.pos(f.Decl.Name.Pos())
	s := docidx.Symbol{
		Kind:          docidx.KindFunc,
		Name:          f.Name,
		Package:       em.pkg.importPath,
		QualifiedName: em.qual + "." + f.Name,
		Signature:     em.print(&decl),
		Doc:           f.Doc,
		Errors:        em.pkg.bodyErrs[f.Decl.Type.Func], // what its body fails with, in its own words (bodyError)
		File:          file,
		Line:          line,
		Deprecated:    isDeprecated(f.Doc),
		Examples:      em.examples(f.Examples),
	}
	if recv != "" {
		s.Kind = docidx.KindMethod
		s.Parent = recv
		s.QualifiedName = em.qual + "." + recv + "." + f.Name
	}
	em.add(s)
}

// values adds one symbol per exported name of a const or var declaration, each with its own
// doc comment (its spec's doc or line comment, else the declaration's) and its own signature
// (see valueSignature).
func (em *emitter) values(v *doc.Value, kind docidx.SymbolKind) {
	for _, spec := range v.Decl.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok {
			continue
		}
		docText := commentText(vs.Doc, vs.Comment)
		if docText == "" {
			docText = v.Doc
		}
		for i, n := range vs.Names {
			if !n.IsExported() {
				continue
			}
			file, line := em.pos(n.Pos())
			em.add(docidx.Symbol{
				Kind:          kind,
				Name:          n.Name,
				Package:       em.pkg.importPath,
				QualifiedName: em.qual + "." + n.Name,
				Signature:     em.valueSignature(v.Decl.Tok, vs, i),
				Doc:           docText,
				File:          file,
				Line:          line,
				Deprecated:    isDeprecated(docText),
			})
		}
	}
}

// outputComment matches the comment that states an example's expected output (go/doc's rule).
var outputComment = regexp.MustCompile(`(?i)^[[:space:]]*(unordered )?output:`)

// examples converts go/doc examples to code blocks: the playable program when go/doc can build one,
// else the example function's body.
func (em *emitter) examples(exs []*doc.Example) []docidx.CodeBlock {
	var out []docidx.CodeBlock
	for _, ex := range exs {
		var code string
		if ex.Play != nil {
			em.buf.Reset()
			if err := format.Node(&em.buf, em.pkg.fset, ex.Play); err == nil {
				code = em.buf.String()
			}
		}
		if code == "" {
			code = em.exampleBody(ex)
		}
		if len(code) > maxExampleCode {
			continue
		}
		out = append(out, docidx.CodeBlock{
			Lang:   "go",
			Name:   "Example" + ex.Name,
			Code:   code,
			Output: ex.Output,
		})
	}
	return out
}

// exampleBody prints an example function's body without braces, output comment and one level of
// indentation, as pkgsite shows it.
func (em *emitter) exampleBody(ex *doc.Example) string {
	var comments []*ast.CommentGroup
	for _, c := range ex.Comments {
		if !outputComment.MatchString(c.Text()) {
			comments = append(comments, c)
		}
	}
	s := em.print(&printer.CommentedNode{Node: ex.Code, Comments: comments})
	if _, ok := ex.Code.(*ast.BlockStmt); !ok {
		return s
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	s = strings.Trim(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "\n") + "\n"
}

// deprecatedPara matches a doc comment paragraph starting "Deprecated: " (the Go convention,
// https://go.dev/wiki/Deprecated).
var deprecatedPara = regexp.MustCompile(`(?m)(?:\A|\n\n)Deprecated: `)

func isDeprecated(docText string) bool {
	return strings.Contains(docText, "Deprecated: ") && deprecatedPara.MatchString(docText)
}
