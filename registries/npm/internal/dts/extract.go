package dts

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/npm/internal/tsdoc"
)

// Default limits for Options' zero fields.
const (
	DefaultMaxSymbols  = limit.Symbols // symbols per package version
	DefaultMaxFiles    = 1000          // declaration files scanned per package version (maxTokens bounds their memory)
	DefaultMaxFileSize = 2 << 20       // bytes of one declaration file; larger files are skipped
	DefaultMaxDepth    = 16            // re-export / import / reference hops from an entry point
	// DefaultMaxMembers bounds the members (fields, methods, call and construct signatures) kept
	// of one interface, class or object type; the rest are left out and reported in Problems.
	DefaultMaxMembers = 500
	// DefaultMaxPackages bounds the other packages one extraction follows re-exports into.
	DefaultMaxPackages = 8
	maxDoc             = limit.Doc // bytes of one doc comment
	maxOverloads       = 32        // declarations kept of one qualified name (overloads, merged declarations)
)

// Package is another package's declaration files, as Options.External returns them.
type Package struct {
	// Name is the npm package name, the Package of its symbols and the first element of their
	// File ("@vue/runtime-dom/dist/runtime-dom.d.ts").
	Name string
	// FS holds the package's files, rooted at its directory.
	FS fs.FS
	// Entries are its declaration entry points (slash paths in FS).
	Entries []string
}

// Options configures Extract.
type Options struct {
	// Package is the npm package name, the Package of every symbol outside ambient modules.
	Package string
	// ExportName is the name a file's `export = X` target is shown under (the name users import
	// the package by, e.g. "express" for @types/express); "" keeps X.
	ExportName string
	// FilePrefix is put before every Symbol.File of the package's own files: "@types/ws/" when
	// the declarations come from the DefinitelyTyped package of ws rather than ws itself.
	FilePrefix string
	// External resolves a bare module specifier ("@vue/runtime-dom", "pkg/sub") re-exported by a
	// file of package from (`export * from "pkg"`, `export { x } from "pkg"`) to that package's
	// declarations; nil, or ok false, leaves such re-exports unfollowed. When spec names a
	// subpath, Entries are the subpath's declaration files. Files followed this way count
	// against MaxFiles and MaxDepth like the package's own.
	External func(from, spec string) (pkg Package, ok bool)
	// Limits; zero means the Default* constant.
	MaxSymbols  int
	MaxFiles    int
	MaxFileSize int64
	MaxDepth    int
	MaxMembers  int // per interface, class or object type
	MaxPackages int // other packages followed through External

	// MaxInherited bounds the inherited member symbols added in all; zero means DefaultMaxInherited.
	MaxInherited int
}

// Extract scans the declaration files reachable from entries (slash paths inside fsys, usually
// the package's "types" entry point) and returns their exported declarations.
//
// Files are followed breadth-first through relative `export * from`, `export * as ns from`
// (whose symbols are qualified "ns.X"), `export { … } from`, `import … from`, `import x =
// require()` and `/// <reference path>`; specifiers ending in .js/.mjs/.cjs map to .d.ts/.d.mts/
// .d.cts, and so do those ending in .ts/.mts/.cts when no such source is there, extensionless
// ones also try /index.d.ts. Paths that leave fsys's root are not followed.
// Re-exports of other packages (bare specifiers) are followed through Options.External, at most
// MaxPackages of them.
//
// Exported means what TypeScript means: the export modifier, names listed by `export { … }`,
// `export default X` and `export = X`, and in a file, namespace or ambient module that has no
// export list or assignment, every declaration (TypeScript's "export context"). Declarations in
// `declare module "m" { … }` are qualified "m.X" with Package "m"; in `declare global { … }` and
// in script files (no import or export) they are globals.
//
// Each overload of a function or method, and each declaration of a member, is a Symbol of its
// own with its own signature and doc; overloads share their QualifiedName (at most maxOverloads
// of one name are kept). Other declarations of one qualified name merge into one Symbol (an
// interface declared twice, a const and the interface of its type, a namespace merged into a
// function or class), whose Signature holds one line per declaration. Interface, class and
// object-literal type members become symbols with Parent set: KindField for properties,
// accessors and index signatures, KindMethod for methods, call signatures (named "()") and
// construct signatures (named "new"), at most MaxMembers per type; private, protected and
// #private members are left out, and so are members whose doc comment holds an @internal,
// @private, @ignore or @hidden tag (hiddenDoc), as the JavaScript extractor leaves them out. A property whose type is one inline object literal
// (`recovery: { /** doc */ maxDuration?: number }`) keeps its signature as written, and the
// literal's members become symbols too, qualified and parented by the property
// ("I.recovery.maxDuration", Parent "I.recovery") with their own doc, down to maxLiteralDepth
// literals deep and at most MaxMembers per literal; a literal in a union, an intersection, an
// array or a generic type is left in the signature only. A class or interface also gets the
// members it inherits through extends and implements from types found by name in its own or an
// enclosing block, or through an import of another file or (via Options.External) another
// package: with Parent and QualifiedName of the inheriting type, the base member's signature,
// doc, File and Line, after the package's other symbols; members the type declares win, chains
// are followed at most maxInheritDepth hops and the MaxMembers limit counts inherited members
// too. At most MaxInherited inherited members are added in all, first to the types that declare
// no members of their own (`interface Application extends core.Application {}`), then in source
// order. Enum members are KindConst, namespaces and ambient modules KindPackage. JSDoc @param
// tags fill Symbol.Params and @deprecated sets Deprecated; a function or method taking an
// options type that no other one takes gets its documented fields as Params too (optionParams).
// An undocumented function of the package's own files takes the doc comment of its TypeScript
// source, when a declaration map names one the package ships (sourceDocs).
func Extract(fsys fs.FS, entries []string, opts Options) extracted.Result {
	x := &extractor{opts: opts, index: map[string]int{}, more: map[string][]int{}, others: map[string]*origin{}, blocks: map[string]*block{}}
	limit.Default(&x.opts.MaxSymbols, DefaultMaxSymbols)
	limit.Default(&x.opts.MaxFiles, DefaultMaxFiles)
	limit.Default(&x.opts.MaxFileSize, DefaultMaxFileSize)
	limit.Default(&x.opts.MaxDepth, DefaultMaxDepth)
	limit.Default(&x.opts.MaxMembers, DefaultMaxMembers)
	limit.Default(&x.opts.MaxPackages, DefaultMaxPackages)
	limit.Default(&x.opts.MaxInherited, DefaultMaxInherited)
	self := &origin{fsys: fsys, name: opts.Package, pkg: opts.Package, filePrefix: opts.FilePrefix}
	type item struct {
		org          *origin
		file, prefix string
		depth        int
		entry        bool
	}
	var queue []item
	seen := map[string]bool{}
	own := map[string]string{} // Symbol.File -> path in fsys, of the package's own files
	push := func(it item) {
		key := it.org.name + "\x00" + it.file + "\x00" + it.prefix
		if seen[key] || it.depth > x.opts.MaxDepth {
			return
		}
		seen[key] = true
		queue = append(queue, it)
	}
	for _, e := range entries {
		if p, ok := cleanPath(e); ok {
			push(item{org: self, file: p, entry: true})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		shown := it.org.filePrefix + it.file
		if len(x.res.Files) >= x.opts.MaxFiles {
			x.res.Truncated = true
			x.res.Problem(shown, fmt.Sprintf("not scanned: more than %d declaration files", x.opts.MaxFiles))
			break
		}
		src, err := x.read(it.org.fsys, it.file)
		if err != nil {
			x.res.Problem(shown, err.Error())
			continue
		}
		b, refs, err := x.parse(src)
		if err != nil {
			x.res.Truncated = true
			x.res.Problem(shown, "not scanned: "+err.Error())
			continue
		}
		x.res.Files = append(x.res.Files, shown)
		if it.org == self {
			own[shown] = it.file
		}
		if key := it.org.name + "\x00" + it.file; x.blocks[key] == nil {
			x.blocks[key] = b
		}
		exportAs := ""
		if it.entry {
			exportAs = opts.ExportName
		}
		parent := strings.TrimSuffix(it.prefix, ".")
		x.emitBlock(b, scope{file: shown, pkg: it.org.pkg, prefix: it.prefix, parent: parent, exportAs: exportAs,
			ambient: hasAnySuffix(it.file, ".d.ts", ".d.mts", ".d.cts"), lex: &lexical{b: b, org: it.org, file: it.file}})
		dir := path.Dir(it.file)
		for _, r := range b.reexports {
			prefix := it.prefix
			if r.as != "" {
				prefix += r.as + "."
			}
			if p, ok := resolve(it.org.fsys, dir, r.spec, false); ok {
				push(item{org: it.org, file: p, prefix: prefix, depth: it.depth + 1})
				continue
			}
			// A package re-exporting its own subpath by name ("zustand/vanilla" in zustand).
			if sub, ok := strings.CutPrefix(r.spec, it.org.name); ok && it.org.name != "" && (sub == "" || sub[0] == '/') {
				if p, ok := resolve(it.org.fsys, ".", "."+sub, false); ok {
					push(item{org: it.org, file: p, prefix: prefix, depth: it.depth + 1})
				}
				continue
			}
			o := x.external(it.org, r.spec, shown, "re-export")
			if o == nil {
				continue
			}
			for _, e := range o.entries {
				if p, ok := cleanPath(e); ok {
					push(item{org: o, file: p, prefix: prefix, depth: it.depth + 1})
				}
			}
		}
		for _, ref := range refs {
			if p, ok := resolve(it.org.fsys, dir, ref, true); ok {
				push(item{org: it.org, file: p, prefix: it.prefix, depth: it.depth + 1})
			}
		}
		for _, spec := range b.imports {
			if p, ok := resolve(it.org.fsys, dir, spec, false); ok {
				push(item{org: it.org, file: p, prefix: it.prefix, depth: it.depth + 1})
			}
		}
		if x.full() {
			break
		}
	}
	x.sourceDocs(fsys, own)
	optionParams(x.res.Symbols) // before inherit: the fields an options type declares itself
	x.inherit()
	return x.res
}

// isBare reports whether a module specifier names a package ("pkg", "@scope/pkg/sub") rather
// than a file, a URL or a Node.js builtin ("node:fs").
func isBare(spec string) bool {
	if spec == "" || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.Contains(spec, ":") || strings.Contains(spec, `\`) {
		return false
	}
	return true
}

type extractor struct {
	opts  Options
	res   extracted.Result
	index map[string]int   // qualified name -> index in res.Symbols of its first symbol
	more  map[string][]int // qualified name -> indexes of its later symbols (overloads)

	others     map[string]*origin // bare specifier -> package found through External; nil if none
	blocks     map[string]*block  // origin name + "\x00" + file -> its parsed top-level block
	extraFiles int                // files parsed only to find base types
	tokens     int                // tokens of the files parsed so far
	aliasDepth int                // whole-module import aliases being emitted (emitAlias)
	heirs      []heir             // classes and interfaces with extends or implements clauses
}

func (x *extractor) full() bool {
	if len(x.res.Symbols) >= x.opts.MaxSymbols {
		x.res.Truncated = true
		return true
	}
	return false
}

// maxTokens bounds the tokens of all the files one Extract parses: each token costs 56 bytes
// (twice that while the slice grows), and dense declarations ("declare const a: T;" repeated)
// have one token per 4 bytes, so DefaultMaxFiles files of DefaultMaxFileSize could hold
// gigabytes; this bound keeps one extraction near 100 MB. A file that would pass it is not
// scanned, nor any after it.
const maxTokens = 1 << 19

// ErrTooManyTokens is the reason, quoted in extracted.Result.Problems, why a declaration file was not
// scanned: its tokens would pass the bound on all the files of one extraction, or a file's
// before it did. Extract reports it as text, not as an error to test with errors.Is.
var ErrTooManyTokens = fmt.Errorf("declaration files too large to scan: more than %d tokens in all", maxTokens)

// parse parses src (see parseFile) within what is left of the extraction's token bound.
func (x *extractor) parse(src []byte) (*block, []string, error) {
	b, refs, n, err := parseFile(src, maxTokens-x.tokens)
	x.tokens += n
	if err != nil {
		x.tokens = maxTokens // no later file is parsed either: each would fill the bound again
	}
	return b, refs, err
}

// errTooBig marks a declaration file over MaxFileSize.
var errTooBig = errors.New("declaration file too large")

func (x *extractor) read(fsys fs.FS, name string) ([]byte, error) {
	data, err := memfs.ReadLimited(fsys, name, x.opts.MaxFileSize)
	if errors.Is(err, docidx.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %v", errTooBig, err)
	}
	return data, err
}

// cleanPath cleans a slash path inside the package; ok is false for paths that leave it.
func cleanPath(p string) (string, bool) {
	p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, `\`, "/")), "/")
	if p == "" || p == "." {
		return "", false
	}
	return p, true
}

// resolve maps a module specifier written in a file of directory dir to a declaration file in
// fsys. bare is true for /// <reference path>, whose paths are relative without "./".
func resolve(fsys fs.FS, dir, spec string, bare bool) (string, bool) {
	if spec == "" || strings.HasPrefix(spec, "/") || strings.Contains(spec, `\`) {
		return "", false
	}
	if !bare && !(spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")) {
		return "", false // a package, not a file
	}
	joined := path.Join(dir, spec)
	if joined == ".." || strings.HasPrefix(joined, "../") || strings.HasPrefix(joined, "/") {
		return "", false
	}
	var cands []string
	switch {
	case hasAnySuffix(joined, ".d.ts", ".d.mts", ".d.cts"):
		cands = []string{joined}
	case hasAnySuffix(joined, ".ts", ".mts", ".cts", ".tsx"):
		// A TypeScript source's own extension (allowImportingTsExtensions; date-fns' index.d.ts
		// says export * from "./add.ts"): its declaration file beside it, as the compiler
		// resolves it.
		ext := path.Ext(joined)
		decl := strings.TrimSuffix(joined, ext) + ".d" + strings.TrimSuffix(ext, "x")
		cands = []string{joined, decl}
	case strings.HasSuffix(joined, ".js") || strings.HasSuffix(joined, ".jsx"):
		base := strings.TrimSuffix(strings.TrimSuffix(joined, ".js"), ".jsx")
		cands = []string{base + ".d.ts", base + ".ts", base + ".tsx"}
	case strings.HasSuffix(joined, ".mjs"):
		base := strings.TrimSuffix(joined, ".mjs")
		cands = []string{base + ".d.mts", base + ".mts", base + ".d.ts"}
	case strings.HasSuffix(joined, ".cjs"):
		base := strings.TrimSuffix(joined, ".cjs")
		cands = []string{base + ".d.cts", base + ".cts", base + ".d.ts"}
	case strings.HasSuffix(joined, ".json"):
		return "", false
	default:
		cands = []string{joined + ".d.ts", joined + ".ts", joined + ".d.mts", joined + ".d.cts",
			joined + "/index.d.ts", joined + "/index.ts", joined + "/index.d.mts", joined + "/index.d.cts"}
		if joined == "." {
			cands = []string{"index.d.ts", "index.ts"}
		}
	}
	for _, c := range cands {
		if st, err := fs.Stat(fsys, c); err == nil && st.Mode().IsRegular() {
			return c, true
		}
	}
	return "", false
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// scope is where a block's declarations land.
type scope struct {
	file     string
	pkg      string   // Symbol.Package
	prefix   string   // qualified-name prefix, "" or ending in "."
	parent   string   // Symbol.Parent of the block's own declarations
	exportAs string   // the name `export = X` shows X under
	ambient  bool     // a declaration file or a declare block: TypeScript's implicit exports apply
	lex      *lexical // where names written in the block are looked up
}

func (s scope) child(name string) scope {
	c := s
	c.prefix = s.prefix + name + "."
	if s.parent == "" {
		c.parent = name
	} else {
		c.parent = s.parent + "." + name
	}
	c.exportAs = ""
	c.ambient = true
	return c
}

// emitBlock turns the exported declarations of b into symbols, and the declarations of b that
// are not exported but that their signatures name (see referencedLocals).
func (x *extractor) emitBlock(b *block, sc scope) {
	aliases := map[string][]string{}
	for _, n := range b.exportNames {
		aliases[n.local] = append(aliases[n.local], n.as)
	}
	if b.exportEquals != "" {
		as := b.exportEquals
		if sc.exportAs != "" {
			as = sc.exportAs
		}
		aliases[b.exportEquals] = append(aliases[b.exportEquals], as)
	}
	if sc.lex != nil && sc.lex.b != b {
		sc.lex = sc.lex.inside(b)
	}
	implicit := sc.ambient && !b.exportDecls
	emitted := map[*decl]bool{}
	for _, d := range b.decls {
		if x.full() {
			return
		}
		switch {
		case d.global:
			g := sc
			g.prefix, g.parent, g.exportAs, g.ambient = "", "", "", true
			x.emitBlock(d.body, g)
			continue
		case d.module && (strings.HasPrefix(d.name, "./") || strings.HasPrefix(d.name, "../")):
			// An augmentation of one of the package's own modules (zustand's middleware:
			// `declare module '../vanilla.mjs' { interface StoreMutators … }`) merges into
			// types that module declares, documented there; it is not a module of its own.
			continue
		case d.module:
			// "node:fs" and "fs" are one module (Node.js builtins); show the short name.
			name := strings.TrimPrefix(d.name, "node:")
			m := scope{file: sc.file, pkg: name, prefix: name + ".", ambient: true, lex: sc.lex}
			x.add(d, name, scope{file: sc.file, pkg: name})
			x.emitBlock(d.body, m)
			continue
		}
		var names []string
		if d.exported || implicit {
			names = append(names, d.name)
		}
		for _, as := range aliases[d.name] {
			if as == "default" && len(names) > 0 {
				continue // export default X of an exported X: keep the name
			}
			if as == "default" {
				as = d.name
			}
			names = appendUnique(names, as)
		}
		if len(names) > 0 {
			emitted[d] = true
		}
		for _, name := range names {
			x.emitDecl(d, name, sc)
		}
	}
	for _, d := range referencedLocals(b.decls, emitted) {
		if x.full() {
			return
		}
		x.emitDecl(d, d.name, sc)
	}
	x.emitImported(b, sc)
}

// emitImported emits the names b's export list takes from another package's import ("import
// { Blob } from 'fetch-blob/from.js'" and "export { Blob }" in node-fetch; @reduxjs/toolkit's
// createSelector from reselect), and those an `export { a as b } from` renames (zod's gt is
// core's _gt), as TypeScript exports them: the declarations the module exports under the
// imported name (exportedDecls), named as b exports them, with Symbol.File their own file.
// Names imported from the package's own files under their own names are left to those files,
// which the extraction scans and emits themselves.
func (x *extractor) emitImported(b *block, sc scope) {
	if sc.lex == nil {
		return
	}
	// `export { _gt as gt } from "../core/index.cjs"` (zod): the module's declarations are
	// emitted under their own names when its file is scanned; a renamed one is gt here too.
	for _, r := range b.reexports {
		for _, n := range r.names {
			if n.as == n.local || n.as == "default" {
				continue
			}
			x.emitFound(x.exportedDecls(sc.lex, r.spec, n.local, 0), n.as, sc)
		}
	}
	for _, a := range b.aliases {
		x.emitAlias(a, sc)
	}
	for _, n := range b.exportNames {
		bd, ok := importedAt(sc.lex, n.local)
		if !ok || bd.imported == "*" || !isBare(bd.spec) {
			continue
		}
		as := n.as
		if as == "default" {
			as = n.local
		}
		x.emitFound(x.exportedDecls(bd.lex, bd.spec, bd.imported, 0), as, sc)
	}
}

// emitAlias emits what `export import local = a.b;` names when a is a namespace import
// (`import * as a from "m"`): the declarations module m exports as b (winston's format is
// logform's format function and namespace), under local; or, for `export import local = a;`,
// the namespace local holding every declaration m exports, or the members of the namespace m
// assigns with `export =` (winston's config), qualified by local (winston.Logform.Format).
// Other aliases (of a namespace declared in the file) are left out.
func (x *extractor) emitAlias(a importAlias, sc scope) {
	bd, ok := importedAt(sc.lex, a.path[0])
	if !ok || bd.imported != "*" {
		return
	}
	if len(a.path) == 1 {
		// A module's aliases of other whole modules nest their namespaces: at most
		// maxInheritDepth deep, so that modules aliasing each other end.
		if x.aliasDepth >= maxInheritDepth {
			return
		}
		x.aliasDepth++
		defer func() { x.aliasDepth-- }()
		for i, top := range x.moduleTops(bd.lex, bd.spec) {
			b := top.b
			if x.full() {
				return
			}
			if i == 0 {
				ns := sc
				ns.file = top.shown()
				x.add(&decl{kind: docidx.KindPackage, name: a.local, sig: "namespace " + a.local, line: 1}, a.local, ns)
			}
			in := sc.child(a.local)
			in.file = top.shown()
			if b.exportEquals == "" {
				in.lex = top
				x.emitBlock(b, in)
				continue
			}
			// A module written `export = winston` of a namespace winston exports its members.
			for _, d := range b.decls {
				if d.name == b.exportEquals && d.body != nil {
					in.lex = top.inside(d.body)
					x.emitBlock(d.body, in)
				}
			}
		}
		return
	}
	found := x.exportedDecls(bd.lex, bd.spec, a.path[1], 0)
	for _, part := range a.path[2:] {
		var inner []typeDecl
		for _, fd := range found {
			if fd.d.body != nil {
				inner = append(inner, exportedIn(fd.lex.inside(fd.d.body), part, false)...)
			}
		}
		found = inner
	}
	x.emitFound(found, a.local, sc)
}

// emitFound emits declarations found in another module (exportedDecls) under name in scope sc,
// each with its own file, and names in it looked up where it is declared.
func (x *extractor) emitFound(found []typeDecl, name string, sc scope) {
	for _, fd := range found {
		if x.full() {
			return
		}
		in := sc
		in.file, in.lex = fd.lex.shown(), fd.lex
		x.emitDecl(fd.d, name, in)
	}
}

// lexicalBinding is an import binding with the block it is written in.
type lexicalBinding struct {
	binding
	lex *lexical
}

// importedAt returns the import binding a name written in lex refers to, looking outward from
// lex's block as TypeScript does (fastify's `declare namespace fastify { export type {
// InjectOptions } }` names the file's import of it): ok is false when a block on the way
// declares the name itself, or no import binds it.
func importedAt(lex *lexical, name string) (lexicalBinding, bool) {
	for l := lex; l != nil; l = l.up {
		for _, d := range l.b.decls {
			if d.name == name && !d.module && !d.global {
				return lexicalBinding{}, false
			}
		}
		for _, bd := range l.b.bindings {
			if bd.local == name {
				return lexicalBinding{bd, l}, true
			}
		}
	}
	return lexicalBinding{}, false
}

// emitDecl adds d under name in scope sc with what it holds: a namespace's body, an interface's
// or class's members.
func (x *extractor) emitDecl(d *decl, name string, sc scope) {
	x.add(d, name, sc)
	switch {
	case d.body != nil:
		x.emitBlock(d.body, sc.child(name))
	case len(d.members) > 0:
		x.emitMembers(d, name, sc)
	}
	if len(d.bases) > 0 && sc.lex != nil {
		x.heirs = append(x.heirs, heir{d: d, sc: sc.child(name), lex: sc.lex})
	}
}

// referencedLocals returns the declarations of decls that emitted lacks (not exported) but that
// the signatures of the emitted ones, or of their members, name, and in turn those that theirs
// name: a bundled declaration file declares the options of an exported function as a local
// interface ("interface PrettyOptions { query?: string … }" beside "export declare const
// prettyJSON: (options?: PrettyOptions) => …"), whose members are the function's parameters'
// documentation, as an editor's hover shows them. Types of a module or global block are left
// out.
func referencedLocals(decls []*decl, emitted map[*decl]bool) []*decl {
	// The candidates by name; a block without any (every declaration exported, the usual
	// case) costs no look at the signatures.
	locals := map[string][]*decl{}
	for _, d := range decls {
		if !emitted[d] && !d.global && !d.module && d.body == nil && d.name != "" {
			locals[d.name] = append(locals[d.name], d)
		}
	}
	if len(locals) == 0 {
		return nil
	}
	// A worklist: each declaration's signature is read once, and each name taken once.
	picked := map[*decl]bool{}
	work := slices.Collect(maps.Keys(emitted))
	for len(work) > 0 {
		d := work[len(work)-1]
		work = append(work[:len(work)-1], d.members...)
		for _, w := range strings.FieldsFunc(d.sig, notIdentRune) {
			for _, l := range locals[w] {
				picked[l] = true
				work = append(work, l)
			}
			delete(locals, w)
		}
	}
	var out []*decl // in the order of the block
	for _, d := range decls {
		if picked[d] {
			out = append(out, d)
		}
	}
	return out
}

// notIdentRune reports whether r cannot be part of a TypeScript identifier.
func notIdentRune(r rune) bool {
	return !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

// emitMembers adds the members of d, declared as name in scope sc, at most MaxMembers of them,
// and in turn the members of their inline object-literal types: the member a of interface I
// is "I.a" with Parent "I", and the member b of a's literal type is "I.a.b" with Parent "I.a".
func (x *extractor) emitMembers(d *decl, name string, sc scope) {
	ms := sc.child(name)
	members := d.members
	if len(members) > x.opts.MaxMembers {
		x.res.Problem(sc.file, fmt.Sprintf("%s%s: %d members, only the first %d kept", sc.prefix, name, len(members), x.opts.MaxMembers))
		members = members[:x.opts.MaxMembers]
	}
	for _, m := range members {
		if x.full() {
			return
		}
		x.add(m, m.name, ms)
		if len(m.members) > 0 {
			x.emitMembers(m, m.name, ms)
		}
	}
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// kindRank orders kinds when declarations of one name merge: the lowest rank names the symbol.
var kindRank = map[docidx.SymbolKind]int{
	docidx.KindClass: 0, docidx.KindFunc: 1, docidx.KindEnum: 2, docidx.KindInterface: 3,
	docidx.KindType: 4, docidx.KindConst: 5, docidx.KindVar: 6, docidx.KindMethod: 7,
	docidx.KindField: 8, docidx.KindPackage: 9,
}

// separate reports whether declarations of kind k that share a name are symbols of their own:
// overloads of a function or method, and repeated member declarations (a static and an instance
// property, a getter and a setter, an interface member redeclared by augmentation).
func separate(k docidx.SymbolKind) bool {
	return k == docidx.KindFunc || k == docidx.KindMethod || k == docidx.KindField
}

// add records d under name in scope sc: as a symbol of its own, as one more overload of an
// earlier symbol of the same qualified name, or merged into it (see Extract).
func (x *extractor) add(d *decl, name string, sc scope) {
	if name == "" {
		return
	}
	qname := sc.prefix + name
	doc, deprecated := cleanDoc(d.doc)
	if i, ok := x.index[qname]; ok {
		s := &x.res.Symbols[i]
		if separate(d.kind) && s.Kind == d.kind {
			if len(x.more[qname])+1 >= maxOverloads || x.hasSignature(qname, d.sig) {
				return
			}
			x.append(d, name, qname, sc, doc, deprecated)
			return
		}
		if d.kind == docidx.KindPackage && s.Kind != docidx.KindPackage {
			return // a namespace merged into a function, class or enum adds only members
		}
		if s.Kind == docidx.KindPackage && d.kind != docidx.KindPackage {
			s.Signature = "" // the namespace only held members; the declaration names the symbol
		}
		if kindRank[d.kind] < kindRank[s.Kind] {
			s.Kind = d.kind
			s.File, s.Line = sc.file, d.line
		}
		lines := strings.Count(s.Signature, "\n") + 1
		if d.sig != "" && lines < maxOverloads && !slices.Contains(strings.Split(s.Signature, "\n"), d.sig) {
			if s.Signature == "" {
				s.Signature = d.sig
			} else {
				s.Signature += "\n" + d.sig
			}
		}
		if s.Doc == "" {
			s.Doc = doc
			s.Params = params(doc, d.sig)
		}
		s.Deprecated = s.Deprecated && deprecated
		return
	}
	if x.full() {
		return
	}
	x.append(d, name, qname, sc, doc, deprecated)
}

// append adds a new symbol for d.
func (x *extractor) append(d *decl, name, qname string, sc scope, doc string, deprecated bool) {
	if x.full() {
		return
	}
	if _, ok := x.index[qname]; ok {
		x.more[qname] = append(x.more[qname], len(x.res.Symbols))
	} else {
		x.index[qname] = len(x.res.Symbols)
	}
	x.res.Symbols = append(x.res.Symbols, docidx.Symbol{
		Kind:          d.kind,
		Name:          name,
		Parent:        sc.parent,
		Package:       sc.pkg,
		QualifiedName: qname,
		Signature:     d.sig,
		Doc:           doc,
		File:          sc.file,
		Line:          d.line,
		Deprecated:    deprecated,
		Params:        params(doc, d.sig),
	})
}

// hasSignature reports whether a symbol named qname already has signature sig.
func (x *extractor) hasSignature(qname, sig string) bool {
	if x.res.Symbols[x.index[qname]].Signature == sig {
		return true
	}
	for _, i := range x.more[qname] {
		if x.res.Symbols[i].Signature == sig {
			return true
		}
	}
	return false
}

// cleanDoc turns a raw /** … */ comment into text: the delimiters and each line's leading "*"
// go, inline link tags read as their text (tsdoc.Links), tags such as @param and @returns stay
// as written. deprecated reports an @deprecated tag.
func cleanDoc(raw string) (text string, deprecated bool) {
	if raw == "" {
		return "", false
	}
	raw = strings.TrimPrefix(raw, "/**")
	raw = strings.TrimSuffix(raw, "*/")
	lines := strings.Split(raw, "\n")
	// Lines without a leading "*" lose only the indentation they all share.
	indent := -1
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if i == 0 || t == "" || strings.HasPrefix(t, "*") {
			continue
		}
		if n := len(l) - len(t); indent < 0 || n < indent {
			indent = n
		}
	}
	out := lines[:0]
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimLeft(l, " \t")
		switch {
		case strings.HasPrefix(t, "*"):
			t = strings.TrimPrefix(t[1:], " ")
		case i == 0 || t == "":
		default:
			t = l[min(indent, len(l)-len(t)):]
		}
		if strings.HasPrefix(t, "@deprecated") {
			deprecated = true
		}
		out = append(out, t)
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	text = tsdoc.Links(strings.Join(out, "\n"))
	if len(text) > maxDoc {
		text = limit.Cut(text, maxDoc) + " …"
	}
	return text, deprecated
}
