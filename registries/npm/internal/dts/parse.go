package dts

import (
	"strconv"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/limit"
)

// decl is one declaration found in a file.
type decl struct {
	kind      docidx.SymbolKind
	name      string
	sig       string
	doc       string
	line      int
	exported  bool // written with the export modifier
	isDefault bool // export default
	members   []*decl
	bases     []string // class or interface: the types named by extends and implements ("core.Application")
	body      *block   // namespace, ambient module or global body
	module    bool     // declare module "name" { … }: name is the module name
	global    bool     // declare global { … }
}

// exportName is one local name listed by `export { local as as }`, `export default local` or
// `export = local`.
type exportName struct{ local, as string }

// importAlias is `export import local = a.b.c;` (TypeScript's import alias declaration of a
// namespace or module member, winston's `export import format = logform.format;`): path is
// [a b c].
type importAlias struct {
	local string
	path  []string
}

// reexport is `export * from "spec"`, `export * as ns from "spec"` or `export { … } from "spec"`,
// whose list is names.
type reexport struct {
	spec, as string
	names    []exportName
}

// block is the statement list of a file, a namespace or an ambient module.
type block struct {
	decls        []*decl
	exportDecls  bool // export {…}, export * or export =/default <expression>: no implicit exports
	exportNames  []exportName
	exportEquals string
	reexports    []reexport
	imports      []string
	bindings     []binding // names imported into the block
	aliases      []importAlias
	isModule     bool // has a top-level import or export
}

// maxLiteralDepth bounds how deeply the members of inline object-literal types are kept:
// interface I { a: { b: { c: { d: 1 } } } } yields I.a.b, I.a.b.c and I.a.b.c.d, and the members
// of a literal nested deeper stay only in their property's signature.
const maxLiteralDepth = 3

// parser walks the tokens of one file.
type parser struct {
	toks    []token
	p       int
	depth   int // namespace and module nesting
	literal int // inline object-literal types being read by members
}

// parseFile parses src into its top-level block and the /// <reference path> targets, and
// returns the number of its tokens. When src holds more than maxTokens tokens, it returns an
// error wrapping ErrTooManyTokens.
func parseFile(src []byte, maxTokens int) (*block, []string, int, error) {
	toks, refs, ok := tokenize(src, maxTokens)
	if !ok {
		return nil, nil, 0, ErrTooManyTokens
	}
	ps := &parser{toks: toks}
	return ps.parseBlock(false), refs, len(toks), nil
}

func (ps *parser) tok() token { return ps.toks[ps.p] }

func (ps *parser) peek(n int) token {
	if i := ps.p + n; i < len(ps.toks) {
		return ps.toks[i]
	}
	return ps.toks[len(ps.toks)-1]
}

func (ps *parser) advance() {
	if ps.p < len(ps.toks)-1 {
		ps.p++
	}
}

func (ps *parser) eof() bool { return ps.toks[ps.p].kind == tEOF }

func (ps *parser) is(text string) bool {
	t := ps.toks[ps.p]
	return t.text == text && (t.kind == tPunct || t.kind == tIdent)
}

// parseBlock reads statements to EOF or, when closed, to the matching "}" (consumed).
func (ps *parser) parseBlock(closed bool) *block {
	b := &block{}
	for !ps.eof() {
		if closed && ps.is("}") {
			ps.advance()
			return b
		}
		start := ps.p
		ps.statement(b, closed)
		if ps.p == start {
			ps.advance()
		}
	}
	return b
}

// statement reads one statement into b.
func (ps *parser) statement(b *block, closed bool) {
	t := ps.tok()
	if t.kind == tPunct && (t.text == ";" || t.text == "}" && !closed) {
		ps.advance()
		return
	}
	doc, line := t.doc, t.line
	exported, isDefault := false, false
	sigStart := -1
modifiers:
	for {
		t = ps.tok()
		if t.kind != tIdent {
			break
		}
		next := ps.peek(1)
		switch t.text {
		case "export":
			b.isModule = true
			switch {
			case next.text == "=" && next.kind == tPunct:
				ps.advance()
				ps.advance()
				if ps.tok().kind == tIdent {
					b.exportEquals = ps.tok().text
				}
				b.exportDecls = true
				ps.skipDecl(false)
				return
			case next.kind == tPunct && (next.text == "{" || next.text == "*"):
				ps.advance()
				ps.exportList(b)
				return
			case next.text == "type" && (ps.peek(2).text == "{" || ps.peek(2).text == "*"):
				ps.advance()
				ps.advance()
				ps.exportList(b)
				return
			case next.text == "import":
				// export import A = B.C;
				if ps.peek(2).kind == tIdent && ps.peek(3).text == "=" && ps.peek(4).kind == tIdent && ps.peek(4).text != "require" {
					a := importAlias{local: ps.peek(2).text, path: []string{ps.peek(4).text}}
					for k := 5; ps.peek(k).text == "." && ps.peek(k+1).kind == tIdent; k += 2 {
						a.path = append(a.path, ps.peek(k+1).text)
					}
					b.aliases = append(b.aliases, a)
				}
				ps.skipStatement(false)
				return
			case next.text == "as":
				// export as namespace X;
				ps.skipStatement(false)
				return
			}
			exported = true
			ps.advance()
		case "declare":
			if next.kind != tIdent {
				break modifiers
			}
			ps.advance()
		case "default":
			if !exported {
				break modifiers
			}
			isDefault = true
			ps.advance()
			switch ps.tok().text {
			case "function", "class", "interface", "abstract", "async", "enum", "namespace":
				continue
			}
			// export default <expression>;
			b.exportDecls = true
			if ps.tok().kind == tIdent && (ps.peek(1).text == ";" || ps.peek(1).nl || ps.peek(1).kind == tEOF) {
				b.exportNames = append(b.exportNames, exportName{local: ps.tok().text, as: "default"})
			}
			ps.skipDecl(false)
			return
		default:
			break modifiers
		}
	}
	sigStart = ps.p
	t = ps.tok()
	if t.kind != tIdent {
		ps.skipStatement(false)
		return
	}
	mk := func(kind docidx.SymbolKind, name string) *decl {
		return &decl{kind: kind, name: name, doc: doc, line: line, exported: exported, isDefault: isDefault}
	}
	next := ps.peek(1)
	switch t.text {
	case "import":
		if next.text == "(" || next.text == "." {
			ps.skipStatement(false)
			return
		}
		b.isModule = true
		b.bindings = append(b.bindings, importBindings(ps.toks[ps.p:])...)
		if spec := ps.importSpec(); spec != "" {
			b.imports = append(b.imports, spec)
		}
	case "abstract", "async":
		if next.text != "class" && next.text != "function" {
			ps.skipStatement(false)
			return
		}
		ps.advance()
		ps.statementKeyword(b, mk, sigStart)
	default:
		ps.statementKeyword(b, mk, sigStart)
	}
}

// statementKeyword reads a declaration starting at its keyword.
func (ps *parser) statementKeyword(b *block, mk func(docidx.SymbolKind, string) *decl, sigStart int) {
	t, next := ps.tok(), ps.peek(1)
	switch t.text {
	case "function":
		ps.advance()
		if ps.is("*") {
			ps.advance()
		}
		d := mk(docidx.KindFunc, "default")
		if ps.tok().kind == tIdent && !ps.is("default") {
			d.name = ps.tok().text
			ps.advance()
		} else if !d.isDefault {
			ps.skipDecl(false)
			return
		}
		d.sig = ps.join(sigStart, ps.skipDecl(false))
		b.decls = append(b.decls, d)
	case "class", "interface":
		kind := docidx.KindClass
		if t.text == "interface" {
			kind = docidx.KindInterface
		}
		ps.advance()
		d := mk(kind, "default")
		if ps.tok().kind == tIdent && !ps.is("extends") && !ps.is("implements") {
			d.name = ps.tok().text
			ps.advance()
		} else if !d.isDefault {
			ps.skipDecl(false)
			return
		}
		from := ps.p
		open, ok := ps.header()
		d.sig = ps.join(sigStart, open)
		d.bases = heritage(ps.toks[from:open])
		if ok {
			ps.advance() // "{"
			d.members = ps.members(kind)
		}
		b.decls = append(b.decls, d)
	case "enum":
		ps.enum(b, mk, sigStart)
	case "const", "let", "var", "using":
		if t.text == "const" && next.text == "enum" {
			ps.advance()
			ps.enum(b, mk, sigStart)
			return
		}
		ps.variables(b, mk, sigStart)
	case "type":
		if next.kind != tIdent || ps.peek(2).text != "=" && ps.peek(2).text != "<" {
			ps.skipStatement(false)
			return
		}
		ps.advance()
		d := mk(docidx.KindType, ps.tok().text)
		ps.advance()
		ps.objectType(d, sigStart)
		b.decls = append(b.decls, d)
	case "namespace", "module":
		ps.advance()
		if ps.tok().kind == tString {
			d := mk(docidx.KindPackage, unquote(ps.tok().text))
			d.module = true
			ps.advance()
			d.sig = "declare " + ps.join(sigStart, ps.p)
			if !ps.is("{") {
				ps.skipDecl(false) // declare module "x"; (shorthand ambient module)
				return
			}
			ps.advance()
			d.body = ps.nested()
			b.decls = append(b.decls, d)
			return
		}
		if ps.tok().kind != tIdent {
			ps.skipDecl(false)
			return
		}
		name := ps.tok().text
		ps.advance()
		for ps.is(".") && ps.peek(1).kind == tIdent {
			name += "." + ps.peek(1).text
			ps.advance()
			ps.advance()
		}
		d := mk(docidx.KindPackage, name)
		d.sig = ps.join(sigStart, ps.p)
		if !ps.is("{") {
			ps.skipDecl(false)
			return
		}
		ps.advance()
		d.body = ps.nested()
		b.decls = append(b.decls, d)
	case "global":
		if !(next.text == "{" && next.kind == tPunct) {
			ps.skipStatement(false)
			return
		}
		ps.advance()
		ps.advance()
		d := mk(docidx.KindPackage, "global")
		d.global = true
		d.body = ps.nested()
		b.decls = append(b.decls, d)
	default:
		ps.skipStatement(false)
	}
}

// objectType reads the rest of a type alias, ps just past its name. An alias of an object
// literal type (`type Options = { a: string; b?: number }`) gets the literal's members and the
// compact signature "type Options = { … }"; any other alias (unions, intersections, mapped
// types, an object type indexed or combined with others) keeps its whole declaration.
func (ps *parser) objectType(d *decl, sigStart int) {
	at := ps.p
	if ps.is("<") {
		angle, depth := 0, 0
		for !ps.eof() && !(depth == 0 && ps.is(";")) {
			switch {
			case ps.is("<"):
				angle++
			case ps.is(">"):
				angle--
			case ps.is("(") || ps.is("[") || ps.is("{"):
				depth++
			case ps.is(")") || ps.is("]") || ps.is("}"):
				depth--
			}
			ps.advance()
			if angle == 0 || depth < 0 {
				break
			}
		}
	}
	if ps.is("=") && ps.peek(1).text == "{" && ps.peek(1).kind == tPunct {
		eq := ps.p
		ps.advance()
		ps.advance()
		members := ps.members(docidx.KindInterface)
		t := ps.tok()
		pure := t.kind == tEOF || t.kind == tPunct && (t.text == ";" || t.text == "}") || t.nl && !continuesBefore(t)
		if pure && len(members) > 0 {
			d.sig = ps.join(sigStart, eq+1) + " { … }"
			d.members = members
			if ps.is(";") {
				ps.advance()
			}
			return
		}
	}
	ps.p = at
	end := ps.skipDecl(false)
	d.sig = ps.join(sigStart, end)
	if ps.toks[at].text == "=" && ps.toks[at].kind == tPunct {
		d.bases = aliasBases(ps.toks[at+1 : end])
	}
}

// aliasBases returns the types whose members an alias has when it names them whole: `X`,
// `Partial<X>`, `Readonly<X>`, `Required<X>`, or an intersection of these (`A & Partial<B>`),
// each X a name or a qualified one ("ns.X"); nil for any other alias (a union, a mapped or
// conditional type, an object literal in an intersection). @babel/parser exports
// `type ParserOptions = Partial<Options>`, and Options, which it does not export, holds
// every option with its doc.
func aliasBases(toks []token) []string {
	if n := len(toks); n > 0 && toks[n-1].kind == tPunct && toks[n-1].text == ";" {
		toks = toks[:n-1]
	}
	var out []string
	for len(toks) > 0 {
		wrapped := false
		if len(toks) > 2 && toks[0].kind == tIdent && toks[1].kind == tPunct && toks[1].text == "<" {
			switch toks[0].text {
			case "Partial", "Readonly", "Required":
				wrapped, toks = true, toks[2:]
			default:
				return nil
			}
		}
		name, i := "", 0
		for i < len(toks) && toks[i].kind == tIdent {
			name += toks[i].text
			i++
			if i+1 < len(toks) && toks[i].kind == tPunct && toks[i].text == "." && toks[i+1].kind == tIdent {
				name += "."
				i++
				continue
			}
			break
		}
		if name == "" {
			return nil
		}
		toks = toks[i:]
		if wrapped {
			if len(toks) == 0 || toks[0].kind != tPunct || toks[0].text != ">" {
				return nil
			}
			toks = toks[1:]
		}
		out = append(out, name)
		if len(toks) == 0 {
			return out
		}
		if toks[0].kind != tPunct || toks[0].text != "&" {
			return nil
		}
		toks = toks[1:]
	}
	return nil
}

// nested parses a "{ … }" body whose "{" was consumed, bounding the nesting depth.
func (ps *parser) nested() *block {
	if ps.depth >= maxNesting {
		ps.skipBalanced(1)
		return &block{}
	}
	ps.depth++
	defer func() { ps.depth-- }()
	return ps.parseBlock(true)
}

// enum reads `enum E { A = 1, B }` with ps at "enum".
func (ps *parser) enum(b *block, mk func(docidx.SymbolKind, string) *decl, sigStart int) {
	ps.advance()
	if ps.tok().kind != tIdent {
		ps.skipDecl(false)
		return
	}
	d := mk(docidx.KindEnum, ps.tok().text)
	ps.advance()
	d.sig = ps.join(sigStart, ps.p)
	if !ps.is("{") {
		ps.skipDecl(false)
		return
	}
	ps.advance()
	for !ps.eof() && !ps.is("}") {
		t := ps.tok()
		start := ps.p
		if t.kind == tIdent || t.kind == tString || t.kind == tNumber {
			m := &decl{kind: docidx.KindConst, name: unquote(t.text), doc: t.doc, line: t.line}
			ps.advance()
			depth := 0
			for !ps.eof() {
				if depth == 0 && (ps.is(",") || ps.is("}")) {
					break
				}
				switch ps.tok().text {
				case "(", "[", "{":
					depth++
				case ")", "]", "}":
					depth--
				}
				ps.advance()
			}
			m.sig = ps.join(start, ps.p)
			d.members = append(d.members, m)
		}
		if ps.p == start || ps.is(",") {
			ps.advance()
		}
	}
	ps.advance() // "}"
	b.decls = append(b.decls, d)
}

// variables reads `const a: A, b: B;` with ps at the keyword.
func (ps *parser) variables(b *block, mk func(docidx.SymbolKind, string) *decl, sigStart int) {
	kw := ps.tok().text
	kind := docidx.KindVar
	if kw == "const" {
		kind = docidx.KindConst
	}
	ps.advance()
	first := true
	for ps.tok().kind == tIdent {
		nameAt := ps.p
		d := mk(kind, ps.tok().text)
		ps.advance()
		// `declare const findUp: { (name: string): …; sync: { … }; stop: … }`, a function with
		// properties as older typings declare one for `export =`: its type's members, the
		// JSDoc of each, are the variable's, as an interface's are.
		d.members = ps.literalMembers()
		end := ps.skipDecl(true)
		if first {
			d.sig = ps.join(sigStart, end)
		} else {
			d.sig = kw + " " + ps.join(nameAt, end)
		}
		if d.doc == "" {
			d.doc = callDoc(d.members)
		}
		first = false
		b.decls = append(b.decls, d)
		if !ps.is(",") {
			return
		}
		ps.advance()
	}
	ps.skipDecl(false) // destructuring or junk
}

// callDoc returns the doc comment of the first documented call signature among members (named
// "()"): the doc of a variable declared with an object type that can be called, as an editor's
// hover over a call of it shows.
func callDoc(members []*decl) string {
	for _, m := range members {
		if m.name == "()" && m.doc != "" {
			return m.doc
		}
	}
	return ""
}

// header skips a class or interface header to its body's "{" and returns that "{"'s index.
// ok is false when the declaration has no body.
func (ps *parser) header() (open int, ok bool) {
	depth, angle := 0, 0
	for !ps.eof() {
		t := ps.tok()
		if t.kind == tPunct {
			switch t.text {
			case "{":
				if depth == 0 && angle == 0 {
					return ps.p, true
				}
				depth++
			case "(", "[":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return ps.p, false
				}
				depth--
			case "<":
				angle++
			case ">":
				if angle > 0 {
					angle--
				}
			case ";":
				if depth == 0 {
					end := ps.p
					ps.advance()
					return end, false
				}
			}
		}
		ps.advance()
	}
	return ps.p, false
}

// memberModifiers are words that modify a class or interface member when another name follows.
var memberModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true,
	"abstract": true, "declare": true, "override": true, "accessor": true, "async": true,
	"get": true, "set": true, "export": true,
}

// members reads class or interface members up to the closing "}" (consumed).
func (ps *parser) members(parent docidx.SymbolKind) []*decl {
	var out []*decl
	for !ps.eof() && !ps.is("}") {
		if ps.is(";") || ps.is(",") {
			ps.advance()
			continue
		}
		start := ps.p
		t := ps.tok()
		doc, line := t.doc, t.line
		private, accessor := false, false
		sigStart := ps.p
		for t = ps.tok(); t.kind == tIdent && memberModifiers[t.text]; t = ps.tok() {
			n := ps.peek(1)
			if !(n.kind == tIdent || n.kind == tString || n.kind == tNumber || n.text == "[" || n.text == "*") || n.nl && t.text != "static" {
				break
			}
			switch t.text {
			case "private", "protected":
				private = true
			case "get", "set":
				accessor = true
			}
			ps.advance()
			if t.text == "public" || t.text == "declare" || t.text == "export" {
				sigStart = ps.p
			}
		}
		if ps.is("*") {
			ps.advance()
		}
		t = ps.tok()
		var name string
		var kind docidx.SymbolKind
		switch {
		case t.kind == tIdent && t.text == "new" && (ps.peek(1).text == "(" || ps.peek(1).text == "<"):
			name, kind = "new", docidx.KindMethod // construct signature
		case t.kind == tPunct && (t.text == "(" || t.text == "<"):
			name, kind = "()", docidx.KindMethod // call signature
		case t.kind == tPunct && t.text == "[" && ps.peek(1).kind == tIdent && ps.peek(2).text == ":":
			// index signature: [key: string]: T
			kind = docidx.KindField
			for i := ps.p + 3; i < len(ps.toks) && i < ps.p+64; i++ {
				if ps.toks[i].text == "]" && ps.toks[i].kind == tPunct {
					name = ps.join(ps.p, i+1)
					break
				}
			}
		case t.kind == tIdent || t.kind == tNumber:
			name = t.text
		case t.kind == tString:
			name = unquote(t.text)
		}
		if name == "" { // computed name, junk
			ps.skipStatement(true)
			if ps.p == start {
				ps.advance()
			}
			continue
		}
		if kind != "" {
			end := ps.skipStatement(true)
			if ps.p == start {
				ps.advance()
			}
			out = append(out, &decl{kind: kind, name: name, sig: ps.join(sigStart, end), doc: doc, line: line})
			continue
		}
		ps.advance()
		if ps.is("?") || ps.is("!") {
			ps.advance()
		}
		kind = docidx.KindField
		if (ps.is("(") || ps.is("<")) && !accessor {
			kind = docidx.KindMethod
		}
		hidden := private || strings.HasPrefix(name, "#") || hiddenDoc(doc)
		var inner []*decl
		if kind == docidx.KindField && !accessor && !hidden {
			inner = ps.literalMembers()
		}
		end := ps.skipDecl(true)
		if ps.p == start {
			ps.advance()
		}
		if hidden {
			continue
		}
		out = append(out, &decl{kind: kind, name: name, sig: ps.join(sigStart, end), doc: doc, line: line, members: inner})
	}
	ps.advance() // "}"
	return out
}

// literalMembers returns the members of a property's type when that type is one inline object
// literal (`name: { a: string; b?: number }`), ps just past the property's name and "?". It
// leaves ps where it was, so the caller reads the property's signature as written. Any other
// type (unions or intersections with a literal, arrays of one, generics wrapping one, mapped
// types), a dictionary literal holding only index signatures (`{ [key: string]: T }`, which
// names nothing its property's signature does not) and literals nested deeper than
// maxLiteralDepth give nil.
func (ps *parser) literalMembers() []*decl {
	if !ps.is(":") || ps.peek(1).text != "{" || ps.peek(1).kind != tPunct || ps.literal >= maxLiteralDepth {
		return nil
	}
	at := ps.p
	defer func() { ps.p = at }()
	ps.literal++
	defer func() { ps.literal-- }()
	ps.advance()
	ps.advance()
	members := ps.members(docidx.KindInterface)
	t := ps.tok()
	pure := t.kind == tEOF || t.kind == tPunct && (t.text == ";" || t.text == "," || t.text == "}") || t.nl && !continuesBefore(t)
	if !pure {
		return nil
	}
	for _, m := range members {
		if !strings.HasPrefix(m.name, "[") {
			return members
		}
	}
	return nil
}

// importSpec reads an import statement (ps at "import") and returns its module specifier, if any.
func (ps *parser) importSpec() string {
	ps.advance()
	spec := ""
	if ps.tok().kind == tString {
		spec = unquote(ps.tok().text)
	}
	start := ps.p
	for i := start; i < len(ps.toks)-1; i++ {
		t := ps.toks[i]
		if i > start && (t.kind == tPunct && (t.text == ";" || t.text == "}" && ps.toks[i-1].kind == tString) || t.nl && ps.toks[i-1].kind == tString) {
			break
		}
		if t.kind == tString && i > 0 {
			prev := ps.toks[i-1]
			if prev.text == "from" || prev.text == "(" && i > 1 && ps.toks[i-2].text == "require" {
				spec = unquote(t.text)
				break
			}
		}
		if i-start > 4096 {
			break
		}
	}
	ps.skipDecl(false)
	return spec
}

// exportList reads `{ a, b as c } [from "x"]` or `* [as ns] from "x"` after "export".
func (ps *parser) exportList(b *block) {
	b.exportDecls = true
	if ps.is("*") {
		ps.advance()
		as := ""
		if ps.is("as") {
			ps.advance()
			as = unquote(ps.tok().text)
			ps.advance()
		}
		if ps.is("from") && ps.peek(1).kind == tString {
			b.reexports = append(b.reexports, reexport{spec: unquote(ps.peek(1).text), as: as})
		}
		ps.skipDecl(false)
		return
	}
	ps.advance() // "{"
	var names []exportName
	for !ps.eof() && !ps.is("}") {
		start := ps.p
		if ps.is("type") && (ps.peek(1).kind == tIdent || ps.peek(1).kind == tString) && ps.peek(1).text != "as" {
			ps.advance()
		}
		t := ps.tok()
		if t.kind == tIdent || t.kind == tString {
			n := exportName{local: unquote(t.text), as: unquote(t.text)}
			ps.advance()
			if ps.is("as") {
				ps.advance()
				n.as = unquote(ps.tok().text)
				ps.advance()
			}
			names = append(names, n)
		}
		if ps.is(",") || ps.p == start {
			ps.advance()
		}
	}
	ps.advance() // "}"
	if ps.is("from") && ps.peek(1).kind == tString {
		b.reexports = append(b.reexports, reexport{spec: unquote(ps.peek(1).text), names: names})
	} else {
		b.exportNames = append(b.exportNames, names...)
	}
	ps.skipDecl(false)
}

// continuesAfter reports whether a line break after t cannot end a declaration.
func continuesAfter(t token) bool {
	if t.kind == tPunct {
		switch t.text {
		case ")", "]", "}", ">", ";":
			return false
		}
		return true
	}
	if t.kind == tIdent {
		switch t.text {
		case "extends", "implements", "keyof", "typeof", "infer", "readonly", "unique", "is", "as",
			"in", "new", "asserts", "satisfies", "declare", "export", "default", "abstract", "async",
			"function", "class", "interface", "type", "namespace", "module", "enum", "var", "let",
			"const", "import", "from", "static", "public", "private", "protected", "override", "accessor":
			return true
		}
	}
	return false
}

// continuesBefore reports whether t at the start of a line continues the previous line.
func continuesBefore(t token) bool {
	if t.kind == tPunct {
		switch t.text {
		case "|", "&", "?", ":", ".", "=>", "=", ",", ")", "]", ">", "(", "[", "<", "{", "...":
			return true
		}
		return false
	}
	if t.kind == tIdent {
		switch t.text {
		case "extends", "implements", "is", "as", "satisfies":
			return true
		}
	}
	return t.kind == tTemplate
}

// expectsType reports whether a "{" after t opens a type or object literal rather than a body.
func expectsType(t token) bool {
	if t.kind == tPunct {
		switch t.text {
		case ")", "]", "}", ">":
			return false
		}
		return true
	}
	if t.kind == tIdent {
		switch t.text {
		case "extends", "keyof", "typeof", "readonly", "infer", "is", "as", "in", "satisfies", "return":
			return true
		}
	}
	return false
}

// skipDecl advances over the rest of a declaration whose first tokens were already read and
// returns the index just past the last token of its signature: a terminating ";" is consumed, a
// body "{ … }" is skipped, a "}" that closes the enclosing block is left in place, and a line
// break ends the declaration where JavaScript's automatic semicolon insertion would. With atComma,
// a "," at depth 0 ends it too (left in place).
func (ps *parser) skipDecl(atComma bool) int { return ps.skip(atComma, false) }

// skipStatement skips a whole statement (or member) that starts at the current token.
func (ps *parser) skipStatement(atComma bool) int { return ps.skip(atComma, true) }

func (ps *parser) skip(atComma, fromStart bool) int {
	depth, angle := 0, 0
	start := ps.p
	for !ps.eof() {
		t := ps.tok()
		if fromStart && ps.p == start {
			if t.kind == tPunct && (t.text == ";" || t.text == "}") {
				if t.text == ";" {
					ps.advance()
				}
				return start
			}
		} else if depth == 0 && ps.p > 0 {
			prev := ps.toks[ps.p-1]
			if t.nl && angle == 0 && !continuesAfter(prev) && !continuesBefore(t) {
				return ps.p
			}
			if t.kind == tPunct {
				switch t.text {
				case ";":
					end := ps.p
					ps.advance()
					return end
				case "}":
					return ps.p
				case ",":
					if atComma && angle == 0 {
						return ps.p
					}
				case "{":
					if !expectsType(prev) {
						end := ps.p
						ps.advance()
						ps.skipBalanced(1)
						if ps.is(";") {
							ps.advance()
						}
						return end
					}
				}
			}
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			case "<":
				angle++
			case ">":
				if angle > 0 {
					angle--
				}
			}
		}
		ps.advance()
	}
	return ps.p
}

// skipBalanced skips tokens until depth brackets are closed.
func (ps *parser) skipBalanced(depth int) {
	for !ps.eof() && depth > 0 {
		if t := ps.tok(); t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
		ps.advance()
	}
}

// maxSignature caps one signature's length in bytes.
const maxSignature = 2000

// join renders tokens [from, to) as source text with comments dropped and every run of
// whitespace collapsed to one space; a line-broken list loses the space inside its brackets and
// its trailing comma ("f(\n  a,\n)" reads "f(a)").
func (ps *parser) join(from, to int) string {
	if from < 0 {
		from = 0
	}
	if to > len(ps.toks) {
		to = len(ps.toks)
	}
	var b strings.Builder
	last := ""
	for i := from; i < to; i++ {
		t := ps.toks[i]
		if t.kind == tEOF {
			break
		}
		closer := t.kind == tPunct && (t.text == ")" || t.text == "]" || t.text == ">")
		if closer && last == "," && t.nl && b.Len() > 0 {
			s := strings.TrimSuffix(b.String(), ",")
			b.Reset()
			b.WriteString(s)
		}
		if i > from && t.gap {
			tight := t.kind == tPunct && (t.text == ")" || t.text == "]" || t.text == ",") ||
				last == "(" || last == "[" || t.nl && (closer || last == "<")
			if !tight {
				b.WriteByte(' ')
			}
		}
		text := t.text
		if t.kind == tTemplate || t.kind == tString {
			text = strings.Join(strings.Fields(text), " ")
		}
		b.WriteString(text)
		last = text
		if b.Len() > maxSignature {
			return limit.Cut(b.String(), maxSignature) + " …"
		}
	}
	return b.String()
}

// unquote returns the value of a string token, or the text itself.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		if s[0] == '\'' {
			s = `"` + strings.ReplaceAll(strings.ReplaceAll(s[1:len(s)-1], `"`, `\"`), `\'`, `'`) + `"`
		}
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	}
	return s
}

// hiddenTags are the JSDoc and TSDoc block tags that take a member out of the public API:
// TypeScript's stripInternal drops @internal declarations from what it emits
// (https://www.typescriptlang.org/tsconfig/#stripInternal), and JSDoc and TypeDoc leave out
// @private, @ignore and @hidden ones (https://jsdoc.app/tags-ignore, https://typedoc.org/tags/hidden/).
var hiddenTags = []string{"@internal", "@private", "@ignore", "@hidden"}

// hiddenDoc reports whether the raw /** … */ comment doc holds one of hiddenTags as a block
// tag: first on one of its lines (after the "*" that opens it, if any), a whole word.
func hiddenDoc(doc string) bool {
	if !strings.Contains(doc, "@") {
		return false
	}
	for line := range strings.SplitSeq(doc, "\n") {
		t := strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(line), "/**"), " \t*")
		for _, tag := range hiddenTags {
			if rest, ok := strings.CutPrefix(t, tag); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '*') {
				return true
			}
		}
	}
	return false
}
