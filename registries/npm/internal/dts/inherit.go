package dts

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/docidx/docidx"
)

// maxInheritDepth bounds the extends/implements hops followed from one class or interface to
// the types it inherits members from: with 4, A extends B extends C extends D extends E gives A
// the members of B, C, D and E, and nothing of what E extends.
const maxInheritDepth = 4

// DefaultMaxInherited is Options.MaxInherited's default: at most this many inherited member
// symbols are added per extraction. A base extended by many types (React's HTMLAttributes, by the
// attributes of every element) would otherwise repeat its members once per type.
const DefaultMaxInherited = 2000

// maxImportTokens bounds the tokens of one import statement read for its bindings.
const maxImportTokens = 4096

// origin is the package a file belongs to: the one extracted, or one reached through
// Options.External.
type origin struct {
	fsys       fs.FS
	name       string // npm package name, for External
	pkg        string // Symbol.Package
	filePrefix string // before Symbol.File
	entries    []string
}

// binding is a name an import statement brings into a block: `import * as ns from "m"` and
// `import ns = require("m")` bind ns to the whole module (imported "*"), `import { a as b } from
// "m"` binds b to the module's export a, `import d from "m"` binds d to its export "default".
type binding struct{ local, imported, spec string }

// lexical is a block with the blocks around it, where a name written in the block is looked up.
type lexical struct {
	b    *block
	up   *lexical // the enclosing block; nil for a file's top level
	org  *origin
	file string // slash path of the block's file in org.fsys
}

// shown is the Symbol.File of declarations in l.
func (l *lexical) shown() string { return l.org.filePrefix + l.file }

// inside returns the lexical scope of b nested in l.
func (l *lexical) inside(b *block) *lexical {
	return &lexical{b: b, up: l, org: l.org, file: l.file}
}

// heir is a class or interface emitted with extends or implements clauses, waiting for the
// members it inherits.
type heir struct {
	d   *decl
	sc  scope    // the scope of its members
	lex *lexical // where its base names are looked up
}

// inheritedMember is a member of a base type and the Symbol.File of its declaration.
type inheritedMember struct {
	d    *decl
	file string
}

// typeDecl is a declaration found by name (by lookupType, a class, interface or object type
// alias; by exportedDecls, any), with where it was declared.
type typeDecl struct {
	d   *decl
	lex *lexical
}

// importBindings reads the names an import statement binds; toks start at "import".
func importBindings(toks []token) []binding {
	if len(toks) > maxImportTokens {
		toks = toks[:maxImportTokens]
	}
	word := func(i int) string {
		if i < len(toks) && (toks[i].kind == tIdent || toks[i].kind == tPunct) {
			return toks[i].text
		}
		return ""
	}
	ident := func(i int) bool { return i < len(toks) && toks[i].kind == tIdent }
	i := 1
	if word(i) == "type" && (ident(i+1) && word(i+1) != "from" || word(i+1) == "{" || word(i+1) == "*") {
		i++
	}
	// import x = require("m")
	if ident(i) && word(i+1) == "=" && word(i+2) == "require" && word(i+3) == "(" && i+4 < len(toks) && toks[i+4].kind == tString {
		return []binding{{local: toks[i].text, imported: "*", spec: unquote(toks[i+4].text)}}
	}
	var out []binding
	if ident(i) && word(i) != "from" {
		out = append(out, binding{local: toks[i].text, imported: "default"})
		i++
		if word(i) == "," {
			i++
		}
	}
	switch word(i) {
	case "*":
		if word(i+1) == "as" && ident(i+2) {
			out = append(out, binding{local: toks[i+2].text, imported: "*"})
			i += 3
		}
	case "{":
		for i++; i < len(toks) && word(i) != "}"; i++ {
			if word(i) == "type" && (ident(i+1) || i+1 < len(toks) && toks[i+1].kind == tString) && word(i+1) != "as" && word(i+1) != "," && word(i+1) != "}" {
				i++
			}
			if !ident(i) && !(i < len(toks) && toks[i].kind == tString) {
				continue
			}
			b := binding{local: unquote(toks[i].text), imported: unquote(toks[i].text)}
			if word(i+1) == "as" && i+2 < len(toks) {
				b.local = toks[i+2].text
				i += 2
			}
			out = append(out, b)
		}
		i++
	}
	if word(i) != "from" || i+1 >= len(toks) || toks[i+1].kind != tString {
		return nil
	}
	spec := unquote(toks[i+1].text)
	for j := range out {
		out[j].spec = spec
	}
	return out
}

// heritage returns the type names a class or interface header extends or implements, without
// type arguments: `interface A<T extends X> extends B<T>, ns.C {` gives "B" and "ns.C". Bases
// that are expressions (`extends mixin(Base)`) are left out.
func heritage(toks []token) []string {
	var out []string
	angle, depth := 0, 0
	in := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tPunct {
			switch t.text {
			case "<":
				angle++
			case ">":
				if angle > 0 {
					angle--
				}
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			}
			continue
		}
		if angle > 0 || depth > 0 || t.kind != tIdent {
			continue
		}
		if t.text == "extends" || t.text == "implements" {
			in = true
			continue
		}
		prev := toks[max(i-1, 0)]
		if !in || !(prev.kind == tIdent && (prev.text == "extends" || prev.text == "implements") || prev.kind == tPunct && prev.text == ",") {
			continue
		}
		name, j := t.text, i+1
		for j+1 < len(toks) && toks[j].kind == tPunct && toks[j].text == "." && toks[j+1].kind == tIdent {
			name += "." + toks[j+1].text
			j += 2
		}
		i = j - 1
		if j < len(toks) && toks[j].kind == tPunct && toks[j].text == "(" {
			continue // a call: a mixin, not a type
		}
		out = append(out, name)
	}
	return out
}

// external returns the package that spec, a bare module specifier written in a file of org,
// names, loading it through Options.External at most once and at most MaxPackages packages in
// all; nil when it is not found or over the limit. what names the statement for Problems.
func (x *extractor) external(org *origin, spec, shown, what string) *origin {
	if x.opts.External == nil || !isBare(spec) {
		return nil
	}
	o, ok := x.others[spec]
	if ok {
		return o
	}
	if len(x.others) >= x.opts.MaxPackages {
		x.res.Problem(shown, fmt.Sprintf("%s of %q not followed: more than %d other packages", what, spec, x.opts.MaxPackages))
		return nil
	}
	ext, found := x.opts.External(org.name, spec)
	if !found || ext.FS == nil || len(ext.Entries) == 0 {
		x.others[spec] = nil
		return nil
	}
	o = &origin{fsys: ext.FS, name: ext.Name, pkg: ext.Name, filePrefix: ext.Name + "/", entries: ext.Entries}
	x.others[spec] = o
	return o
}

// parsed returns the top-level block of file in org, reading and parsing it on first use. Files
// read only to find base types count against MaxFiles with the scanned ones.
func (x *extractor) parsed(org *origin, file string) *block {
	key := org.name + "\x00" + file
	if b, ok := x.blocks[key]; ok {
		return b
	}
	if len(x.res.Files)+x.extraFiles >= x.opts.MaxFiles {
		return nil
	}
	x.extraFiles++
	src, err := x.read(org.fsys, file)
	if err != nil {
		x.blocks[key] = nil
		return nil
	}
	b, _, err := x.parse(src)
	if err != nil {
		x.res.Truncated = true
		x.res.Problem(org.filePrefix+file, "not scanned: "+err.Error())
	}
	x.blocks[key] = b
	return b
}

// inherit gives every class and interface that extends or implements resolvable types the
// members it inherits (see Extract).
func (x *extractor) inherit() {
	count := map[string]int{} // members per Parent
	for _, s := range x.res.Symbols {
		if s.Kind == docidx.KindMethod || s.Kind == docidx.KindField {
			count[s.Parent]++
		}
	}
	// Types that declare no members of their own are empty without what they inherit: first.
	sort.SliceStable(x.heirs, func(i, j int) bool { return len(x.heirs[i].d.members) == 0 && len(x.heirs[j].d.members) > 0 })
	added := 0
	for _, h := range x.heirs {
		if x.full() {
			return
		}
		ms := x.inherited(h.d, h.lex, 0, map[*decl]bool{h.d: true})
		mine := map[string]bool{} // qualified names this heir added: more overloads may follow
		for _, m := range ms {
			q := h.sc.prefix + m.d.name
			if _, ok := x.index[q]; ok && !mine[q] {
				continue // declared by the type itself, or by another declaration of it
			}
			if added >= x.opts.MaxInherited {
				x.res.Problem(h.sc.file, fmt.Sprintf("%s: inherited members left out: more than %d in all", h.sc.parent, x.opts.MaxInherited))
				return
			}
			if count[h.sc.parent] >= x.opts.MaxMembers {
				x.res.Problem(h.sc.file, fmt.Sprintf("%s: inherited members over %d members left out", h.sc.parent, x.opts.MaxMembers))
				break
			}
			sc := h.sc
			sc.file = m.file
			before := len(x.res.Symbols)
			x.add(m.d, m.d.name, sc)
			if len(x.res.Symbols) > before {
				count[h.sc.parent]++
				mine[q] = true
				added++
			}
		}
	}
}

// inherited returns the members d inherits from its bases, looked up from lex: each base's
// members, then what that base inherits, up to maxInheritDepth hops. A member d declares itself,
// or that an earlier base has, is left out. seen holds the types already visited (cycles, and
// a base reached twice).
func (x *extractor) inherited(d *decl, lex *lexical, depth int, seen map[*decl]bool) []inheritedMember {
	own := map[string]bool{}
	for _, m := range d.members {
		own[m.name] = true
	}
	var out []inheritedMember
	taken := map[string]bool{}
	for _, base := range d.bases {
		var group []inheritedMember
		for _, t := range x.lookupType(base, lex) {
			if seen[t.d] || d.kind == docidx.KindType && !hiddenShape(t) {
				continue
			}
			seen[t.d] = true
			for _, m := range t.d.members {
				group = append(group, inheritedMember{d: m, file: t.lex.shown()})
			}
			if depth+1 < maxInheritDepth && len(t.d.bases) > 0 {
				group = append(group, x.inherited(t.d, t.lex, depth+1, seen)...)
			}
		}
		added := map[string]bool{}
		for _, m := range group {
			if own[m.d.name] || taken[m.d.name] {
				continue
			}
			added[m.d.name] = true
			out = append(out, m)
		}
		for n := range added {
			taken[n] = true
		}
		if len(out) >= x.opts.MaxMembers {
			break
		}
	}
	return out
}

// hiddenShape reports whether t, a type an alias names whole (aliasBases), is an interface or an
// object type that its file does not export: its members are reachable only through the alias.
// An exported type, or a class, keeps its members to itself.
func hiddenShape(t typeDecl) bool {
	if t.d.kind != docidx.KindInterface && t.d.kind != docidx.KindType || t.d.exported || !t.lex.b.exportDecls {
		return false
	}
	for _, e := range t.lex.b.exportNames {
		if e.local == t.d.name {
			return false
		}
	}
	return true
}

// lookupType finds the declarations of a type name written in lex ("Base", "ns.Base",
// "core.Application" with core an imported module): in lex's block and the blocks around it,
// then through the block's imports.
func (x *extractor) lookupType(name string, lex *lexical) []typeDecl {
	parts := strings.Split(name, ".")
	for l := lex; l != nil; l = l.up {
		if found := inBlock(l, parts); len(found) > 0 {
			return found
		}
		for _, bd := range l.b.bindings {
			if bd.local != parts[0] || bd.imported == "default" {
				continue
			}
			rest := parts[1:]
			if bd.imported != "*" {
				rest = append([]string{bd.imported}, rest...)
			}
			if len(rest) == 0 {
				return nil
			}
			return x.inModule(l, bd.spec, rest, 0)
		}
	}
	return nil
}

// inBlock finds the class, interface and object type declarations named by parts in l's block
// (or a `declare global` inside it), descending into namespaces for a dotted name.
func inBlock(l *lexical, parts []string) []typeDecl {
	var out []typeDecl
	var search func(b *block, inGlobal bool)
	search = func(b *block, inGlobal bool) {
		for _, d := range b.decls {
			switch {
			case d.global && !inGlobal:
				search(d.body, true)
			case d.name != parts[0] || d.module:
			case len(parts) == 1 && (d.kind == docidx.KindInterface || d.kind == docidx.KindClass || d.kind == docidx.KindType && len(d.members) > 0):
				out = append(out, typeDecl{d: d, lex: l})
			case len(parts) > 1 && d.body != nil:
				out = append(out, inBlock(l.inside(d.body), parts[1:])...)
			}
		}
	}
	search(l.b, false)
	return out
}

// inModule finds the type named by parts among the declarations of module spec, imported in
// from's block: a file of the same package or, for a bare specifier, another package through
// Options.External. A module's `export =` namespace and its `export * from` re-exports are
// searched too, up to maxInheritDepth hops.
func (x *extractor) inModule(from *lexical, spec string, parts []string, hops int) []typeDecl {
	for _, top := range x.moduleTops(from, spec) {
		b := top.b
		if found := inBlock(top, parts); len(found) > 0 {
			return found
		}
		if b.exportEquals != "" {
			if found := inBlock(top, append([]string{b.exportEquals}, parts...)); len(found) > 0 {
				return found
			}
		}
		if hops+1 >= maxInheritDepth {
			continue
		}
		for _, r := range b.reexports {
			p := parts
			if r.as != "" {
				if r.as != parts[0] || len(parts) == 1 {
					continue
				}
				p = parts[1:]
			}
			if found := x.inModule(top, r.spec, p, hops+1); len(found) > 0 {
				return found
			}
		}
	}
	return nil
}

// moduleFiles returns the package and the declaration files of module spec, imported in from's
// block: a file of the same package, the package's own subpath by name, or another package
// through Options.External (its entry points for the subpath spec names).
func (x *extractor) moduleFiles(from *lexical, spec string) (*origin, []string) {
	org := from.org
	if p, ok := resolve(org.fsys, path.Dir(from.file), spec, false); ok {
		return org, []string{p}
	}
	if sub, ok := strings.CutPrefix(spec, org.name); ok && org.name != "" && (sub == "" || sub[0] == '/') {
		if p, ok := resolve(org.fsys, ".", "."+sub, false); ok {
			return org, []string{p}
		}
		return org, nil
	}
	o := x.external(org, spec, from.shown(), "import")
	if o == nil {
		return org, nil
	}
	var files []string
	for _, e := range o.entries {
		if p, ok := cleanPath(e); ok {
			files = append(files, p)
		}
	}
	return o, files
}

// moduleTops returns the parsed top-level blocks of module spec's declaration files (see
// moduleFiles), as lexical scopes; files that cannot be read or parsed are left out.
func (x *extractor) moduleTops(from *lexical, spec string) []*lexical {
	org, files := x.moduleFiles(from, spec)
	var tops []*lexical
	for _, f := range files {
		if b := x.parsed(org, f); b != nil {
			tops = append(tops, &lexical{b: b, org: org, file: f})
		}
	}
	return tops
}

// exportedIn returns the declarations named name of l's block that the block exports: by the
// export modifier, listed (named in its export list), or implicitly (a declaration file or
// namespace without export statements).
func exportedIn(l *lexical, name string, listed bool) []typeDecl {
	var found []typeDecl
	for _, d := range l.b.decls {
		if d.name == name && !d.module && !d.global && (listed || d.exported || !l.b.exportDecls) {
			found = append(found, typeDecl{d: d, lex: l})
		}
	}
	return found
}

// exportedDecls finds the declarations module spec (imported in from's block) exports as name
// ("default" for its default export), of any kind, as TypeScript resolves an import: declared
// in the module's file and exported (by a modifier, an export list, or implicitly in a
// declaration file without export statements), or imported there and exported again
// (fetch-blob/from.d.ts imports Blob from "./index.js" and lists it in `export { File, Blob }`),
// or a member of the namespace the module assigns with `export =`, or re-exported by `export *
// from`, up to maxInheritDepth hops.
func (x *extractor) exportedDecls(from *lexical, spec, name string, hops int) []typeDecl {
	for _, top := range x.moduleTops(from, spec) {
		b := top.b
		local, listed := name, false
		for _, n := range b.exportNames {
			if n.as == name {
				local, listed = n.local, true
				break
			}
		}
		found := exportedIn(top, local, listed)
		if len(found) == 0 && b.exportEquals != "" && name != "default" {
			// `export = inject` of a namespace inject: the module's exports are its members
			// (light-my-request's InjectOptions).
			for _, d := range b.decls {
				if d.name == b.exportEquals && d.body != nil {
					found = append(found, exportedIn(top.inside(d.body), name, false)...)
				}
			}
		}
		if len(found) > 0 {
			return found
		}
		if hops+1 >= maxInheritDepth {
			continue
		}
		if listed {
			for _, bd := range b.bindings {
				if bd.local == local && bd.imported != "*" {
					if found := x.exportedDecls(top, bd.spec, bd.imported, hops+1); len(found) > 0 {
						return found
					}
				}
			}
		}
		for _, r := range b.reexports {
			want := name
			if r.names != nil {
				want = ""
				for _, n := range r.names {
					if n.as == name {
						want = n.local
					}
				}
			}
			if r.as != "" || want == "" {
				continue
			}
			if found := x.exportedDecls(top, r.spec, want, hops+1); len(found) > 0 {
				return found
			}
		}
	}
	return nil
}
