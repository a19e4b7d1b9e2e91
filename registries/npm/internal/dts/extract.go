package dts

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/docidx/docidx"
)

// Default limits for Options' zero fields.
const (
	DefaultMaxSymbols  = 20000   // symbols per package version
	DefaultMaxFiles    = 200     // declaration files scanned per package version
	DefaultMaxFileSize = 2 << 20 // bytes of one declaration file; larger files are skipped
	DefaultMaxDepth    = 16      // re-export / import / reference hops from an entry point
	maxDoc             = 8 << 10 // bytes of one doc comment
	maxOverloads       = 32      // signature lines merged into one symbol
)

// Options configures Extract.
type Options struct {
	// Package is the npm package name, the Package of every symbol outside ambient modules.
	Package string
	// ExportName is the name a file's `export = X` target is shown under (the name users import
	// the package by, e.g. "express" for @types/express); "" keeps X.
	ExportName string
	// Limits; zero means the Default* constant.
	MaxSymbols  int
	MaxFiles    int
	MaxFileSize int64
	MaxDepth    int
}

// Result is what Extract found.
type Result struct {
	Symbols   []docidx.Symbol // in file then source order; QualifiedName is unique
	Files     []string        // declaration files scanned, in visiting order
	Truncated bool            // a limit stopped the scan early
	Problems  []string        // files that could not be read or were skipped, with the reason
}

// Extract scans the declaration files reachable from entries (slash paths inside fsys, usually
// the package's "types" entry point) and returns their exported declarations.
//
// Files are followed breadth-first through relative `export * from`, `export * as ns from`
// (whose symbols are qualified "ns.X"), `export { … } from`, `import … from`, `import x =
// require()` and `/// <reference path>`; specifiers ending in .js/.mjs/.cjs map to .d.ts/.d.mts/
// .d.cts, extensionless ones also try /index.d.ts. Paths that leave fsys's root are not followed.
//
// Exported means what TypeScript means: the export modifier, names listed by `export { … }`,
// `export default X` and `export = X`, and in a file, namespace or ambient module that has no
// export list or assignment, every declaration (TypeScript's "export context"). Declarations in
// `declare module "m" { … }` are qualified "m.X" with Package "m"; in `declare global { … }` and
// in script files (no import or export) they are globals.
//
// Overloads and merged declarations of one qualified name become one Symbol whose Signature holds
// one line per declaration. Class and interface members become KindMethod/KindProperty symbols
// with Parent set (private, protected and #private members are left out), enum members KindConst,
// namespaces and ambient modules KindPackage.
func Extract(fsys fs.FS, entries []string, opts Options) Result {
	x := &extractor{fsys: fsys, opts: opts, index: map[string]int{}}
	if x.opts.MaxSymbols <= 0 {
		x.opts.MaxSymbols = DefaultMaxSymbols
	}
	if x.opts.MaxFiles <= 0 {
		x.opts.MaxFiles = DefaultMaxFiles
	}
	if x.opts.MaxFileSize <= 0 {
		x.opts.MaxFileSize = DefaultMaxFileSize
	}
	if x.opts.MaxDepth <= 0 {
		x.opts.MaxDepth = DefaultMaxDepth
	}
	type item struct {
		file, prefix string
		depth        int
		entry        bool
	}
	var queue []item
	seen := map[string]bool{}
	push := func(it item) {
		key := it.file + "\x00" + it.prefix
		if seen[key] || it.depth > x.opts.MaxDepth {
			return
		}
		seen[key] = true
		queue = append(queue, it)
	}
	for _, e := range entries {
		if p, ok := cleanPath(e); ok {
			push(item{file: p, entry: true})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if len(x.res.Files) >= x.opts.MaxFiles {
			x.res.Truncated = true
			x.problem(it.file, fmt.Sprintf("not scanned: more than %d declaration files", x.opts.MaxFiles))
			break
		}
		src, err := x.read(it.file)
		if err != nil {
			x.problem(it.file, err.Error())
			continue
		}
		x.res.Files = append(x.res.Files, it.file)
		b, refs := parseFile(src)
		exportAs := ""
		if it.entry {
			exportAs = opts.ExportName
		}
		parent := strings.TrimSuffix(it.prefix, ".")
		x.emitBlock(b, scope{file: it.file, pkg: opts.Package, prefix: it.prefix, parent: parent, exportAs: exportAs,
			ambient: hasAnySuffix(it.file, ".d.ts", ".d.mts", ".d.cts")})
		dir := path.Dir(it.file)
		for _, r := range b.reexports {
			if p, ok := x.resolve(dir, r.spec, false); ok {
				prefix := it.prefix
				if r.as != "" {
					prefix += r.as + "."
				}
				push(item{file: p, prefix: prefix, depth: it.depth + 1})
			}
		}
		for _, ref := range refs {
			if p, ok := x.resolve(dir, ref, true); ok {
				push(item{file: p, prefix: it.prefix, depth: it.depth + 1})
			}
		}
		for _, spec := range b.imports {
			if p, ok := x.resolve(dir, spec, false); ok {
				push(item{file: p, prefix: it.prefix, depth: it.depth + 1})
			}
		}
		if x.full() {
			break
		}
	}
	return x.res
}

type extractor struct {
	fsys  fs.FS
	opts  Options
	res   Result
	index map[string]int // qualified name -> index in res.Symbols
}

func (x *extractor) problem(file, msg string) {
	if len(x.res.Problems) < 100 {
		x.res.Problems = append(x.res.Problems, file+": "+msg)
	}
}

func (x *extractor) full() bool {
	if len(x.res.Symbols) >= x.opts.MaxSymbols {
		x.res.Truncated = true
		return true
	}
	return false
}

// errTooBig marks a declaration file over MaxFileSize.
var errTooBig = errors.New("declaration file too large")

func (x *extractor) read(name string) ([]byte, error) {
	f, err := x.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > x.opts.MaxFileSize {
		return nil, fmt.Errorf("%w: %d bytes (limit %d)", errTooBig, st.Size(), x.opts.MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, x.opts.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > x.opts.MaxFileSize {
		return nil, fmt.Errorf("%w: over %d bytes", errTooBig, x.opts.MaxFileSize)
	}
	return data, nil
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
func (x *extractor) resolve(dir, spec string, bare bool) (string, bool) {
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
	case hasAnySuffix(joined, ".d.ts", ".d.mts", ".d.cts", ".ts", ".mts", ".cts", ".tsx"):
		cands = []string{joined}
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
		if st, err := fs.Stat(x.fsys, c); err == nil && st.Mode().IsRegular() {
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
	pkg      string // Symbol.Package
	prefix   string // qualified-name prefix, "" or ending in "."
	parent   string // Symbol.Parent of the block's own declarations
	exportAs string // the name `export = X` shows X under
	ambient  bool   // a declaration file or a declare block: TypeScript's implicit exports apply
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

// emitBlock turns the exported declarations of b into symbols.
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
	implicit := sc.ambient && !b.exportDecls
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
		case d.module:
			// "node:fs" and "fs" are one module (Node.js builtins); show the short name.
			name := strings.TrimPrefix(d.name, "node:")
			m := scope{file: sc.file, pkg: name, prefix: name + ".", ambient: true}
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
		for _, name := range names {
			x.add(d, name, sc)
			switch {
			case d.body != nil:
				x.emitBlock(d.body, sc.child(name))
			case len(d.members) > 0:
				ms := sc.child(name)
				for _, m := range d.members {
					x.add(m, m.name, ms)
				}
			}
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
	docidx.KindProperty: 8, docidx.KindPackage: 9,
}

// add records d under name in scope sc, merging it with an earlier symbol of the same qualified
// name.
func (x *extractor) add(d *decl, name string, sc scope) {
	if name == "" {
		return
	}
	qname := sc.prefix + name
	doc, deprecated := cleanDoc(d.doc)
	if i, ok := x.index[qname]; ok {
		s := &x.res.Symbols[i]
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
		if d.sig != "" && lines < maxOverloads && !containsLine(s.Signature, d.sig) {
			if s.Signature == "" {
				s.Signature = d.sig
			} else {
				s.Signature += "\n" + d.sig
			}
		}
		if s.Doc == "" {
			s.Doc = doc
		}
		s.Deprecated = s.Deprecated && deprecated
		return
	}
	if x.full() {
		return
	}
	x.index[qname] = len(x.res.Symbols)
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
	})
}

func containsLine(sig, line string) bool {
	for _, l := range strings.Split(sig, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// cleanDoc turns a raw /** … */ comment into text: the delimiters and each line's leading "*"
// go, tags such as @param and @returns stay as written. deprecated reports an @deprecated tag.
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
	text = strings.Join(out, "\n")
	if len(text) > maxDoc {
		text = truncate(text, maxDoc) + " …"
	}
	return text, deprecated
}
