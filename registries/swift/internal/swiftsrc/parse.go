package swiftsrc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// DeclKind names a form of Swift declaration.
type DeclKind string

// Declaration kinds the scanner reports.
const (
	DeclFunc           DeclKind = "func"
	DeclInit           DeclKind = "init"
	DeclSubscript      DeclKind = "subscript"
	DeclVar            DeclKind = "var"
	DeclLet            DeclKind = "let"
	DeclStruct         DeclKind = "struct"
	DeclClass          DeclKind = "class"
	DeclActor          DeclKind = "actor"
	DeclEnum           DeclKind = "enum"
	DeclCase           DeclKind = "case" // one enum case element
	DeclProtocol       DeclKind = "protocol"
	DeclExtension      DeclKind = "extension"
	DeclTypealias      DeclKind = "typealias"
	DeclAssociatedtype DeclKind = "associatedtype"
	DeclMacro          DeclKind = "macro"
)

// Access is a declaration's access level as written.
type Access uint8

// Access levels, lowest first (https://docs.swift.org/swift-book/documentation/the-swift-programming-language/accesscontrol).
const (
	AccessNone        Access = iota // no access modifier written
	AccessPrivate                   // private
	AccessFileprivate               // fileprivate
	AccessInternal                  // internal (the default)
	AccessPackage                   // package (Swift 5.9)
	AccessPublic                    // public
	AccessOpen                      // open
)

// Decl is one declaration of a Swift file.
type Decl struct {
	// Kind is the declaration's form; an enum case declaration yields one Decl per element.
	Kind DeclKind
	// Name is the declared name without backticks ("parse", "+", "init", "subscript"); for an
	// extension, the extended type's path without generic arguments ("Outer.Inner").
	Name string
	// Labels are the argument labels of a function, initializer, subscript or macro with a
	// parameter clause, as Swift writes them in references: "(_:with:)", "()".
	Labels string
	// Access is the access modifier written on the declaration (not its setter's), or AccessNone.
	Access Access
	// Signature is the declaration without its body, whitespace normalized: attributes that tell
	// a user something (not @inlinable, @usableFromInline or underscored ones), each on its own
	// line, then the declaration on one line. A long or closure initial value is left out.
	Signature string
	// Doc is the doc comment (/// lines or a /** */ block) with its markers stripped.
	Doc string
	// Line is the 1-based line of the declaration keyword.
	Line int
	// Deprecated is set by @available(…, deprecated…) or @available(*, unavailable…).
	Deprecated bool
	// SPI is set by @_spi(…): the declaration is visible only to clients importing that SPI.
	SPI bool
	// Stored is set for a var or let that stores its value: a let, or a var without accessors
	// or with only willSet/didSet observers. A computed var and a protocol's property
	// requirement ({ get set }) are not stored.
	Stored bool
	// Members are the declarations inside a type or extension body.
	Members []*Decl
}

// Parse scans Swift source and returns its top-level declarations, with the members of types
// and extensions nested. Statements, function bodies and accessor bodies are skipped. Parse never
// fails: text it does not understand is skipped to the end of its statement.
func Parse(src []byte) []*Decl {
	p := &parser{toks: tokenize(string(src))}
	return p.scope(false, 0)
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) tok() token { return p.toks[p.i] }

// peek returns the token n places ahead, or the EOF token.
func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

var declKeywords = map[string]bool{
	"func": true, "init": true, "deinit": true, "subscript": true, "var": true, "let": true,
	"struct": true, "class": true, "enum": true, "case": true, "protocol": true, "extension": true,
	"typealias": true, "associatedtype": true, "import": true, "operator": true, "precedencegroup": true,
}

// modifiers are the declaration modifiers (contextual keywords included).
var modifiers = map[string]bool{
	"public": true, "private": true, "fileprivate": true, "internal": true, "open": true, "package": true,
	"static": true, "final": true, "override": true, "mutating": true, "nonmutating": true, "lazy": true,
	"weak": true, "unowned": true, "convenience": true, "required": true, "dynamic": true, "optional": true,
	"indirect": true, "prefix": true, "postfix": true, "infix": true, "nonisolated": true, "distributed": true,
	"consuming": true, "borrowing": true, "__consuming": true, "isolated": true,
}

var accessLevels = map[string]Access{
	"private": AccessPrivate, "fileprivate": AccessFileprivate, "internal": AccessInternal,
	"package": AccessPackage, "public": AccessPublic, "open": AccessOpen,
}

// isDeclStart reports whether the token at i can begin a declaration; at the start of a line it
// ends the statement or header before it.
func (p *parser) isDeclStart(i int) bool {
	t := p.toks[i]
	switch t.kind {
	case tAttr:
		return true
	case tIdent:
		if declKeywords[t.text] || modifiers[t.text] {
			return true
		}
		if (t.text == "actor" || t.text == "macro") && i+1 < len(p.toks) && p.toks[i+1].kind == tIdent {
			return true
		}
	}
	return false
}

// scope scans declarations until EOF or, when nested, the "}" that closes the body.
func (p *parser) scope(nested bool, depth int) []*Decl {
	var out []*Decl
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return out
		case t.is("}"):
			p.i++
			if nested {
				return out
			}
			continue
		case t.is(";"):
			p.i++
			continue
		}
		start := p.i
		ds, ok := p.decl(depth)
		switch {
		case ok && p.i > start:
			out = append(out, ds...)
		case !ok && p.i > start:
			// Attributes and modifiers without a declaration: go on after them, so that a long
			// run of them costs linear time.
		default:
			p.i = start
			p.skipStatement()
		}
	}
}

// skipStatement skips one statement: to a ";", or to a line that starts a declaration, or to the
// "}" closing the enclosing scope, with brackets balanced. It always advances.
func (p *parser) skipStatement() {
	depth := 0
	for first := true; ; first = false {
		t := p.tok()
		if t.kind == tEOF {
			return
		}
		if depth == 0 && !first {
			if t.is("}") || t.nl && p.isDeclStart(p.i) {
				return
			}
		}
		if depth == 0 && t.is(";") {
			p.i++
			return
		}
		depth = bracketDepth(t, depth)
		p.i++
	}
}

// bracketDepth returns depth after t: up for an opening bracket, down (never below 0) for a
// closing one.
func bracketDepth(t token, depth int) int {
	if t.kind != tPunct || len(t.text) != 1 {
		return depth
	}
	switch t.text[0] {
	case '(', '[', '{':
		return depth + 1
	case ')', ']', '}':
		if depth > 0 {
			return depth - 1
		}
	}
	return depth
}

// skipBraces skips a balanced { … } group starting at the "{" at p.i.
func (p *parser) skipBraces() {
	depth := 0
	for {
		t := p.tok()
		if t.kind == tEOF {
			return
		}
		p.i++
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "{":
			depth++
		case "}":
			depth--
			if depth <= 0 {
				return
			}
		}
	}
}

// parenGroup returns the end (exclusive) of the balanced group that opens at i ("(" or "[").
func (p *parser) parenGroup(i int) int {
	depth := 0
	for ; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.kind == tEOF {
			return i
		}
		depth = bracketDepth(t, depth)
		if depth == 0 {
			return i + 1
		}
	}
	return i
}

// header is what precedes a declaration keyword.
type header struct {
	start  int       // first token (attribute, modifier or keyword)
	doc    string    // its doc comment
	attrs  [][]token // each attribute with its arguments
	mods   []token   // modifiers, with a "(set)" argument kept in the same token list
	access Access
	depr   bool
	spi    bool
}

// decl parses the declaration at p.i. ok is false when no declaration starts there, with p.i
// after the attributes and modifiers it read; a declaration that yields no Decl (import,
// operator, deinit …) returns ok with nothing.
func (p *parser) decl(depth int) ([]*Decl, bool) {
	h := header{start: p.i, doc: p.tok().doc}
	for p.tok().kind == tAttr {
		a := []token{p.tok()}
		p.i++
		if p.tok().is("(") && !p.tok().gap {
			end := p.parenGroup(p.i)
			a = append(a, p.toks[p.i:end]...)
			p.i = end
		}
		h.attrs = append(h.attrs, a)
		switch a[0].text {
		case "@available":
			h.depr = h.depr || availabilityDeprecated(a)
		case "@_spi":
			h.spi = true
		}
	}
	for p.tok().kind == tIdent {
		w := p.tok().text
		if w == "class" {
			// "class func", "class override var": a modifier; "class Name": the declaration.
			n := p.peek(1)
			if n.kind != tIdent || !(n.text == "func" || n.text == "var" || n.text == "let" || n.text == "subscript" || modifiers[n.text]) {
				break
			}
		} else if !modifiers[w] {
			break
		}
		h.mods = append(h.mods, p.tok())
		p.i++
		if p.tok().is("(") && !p.tok().gap && p.peek(1).kind == tIdent && p.peek(2).is(")") {
			switch p.peek(1).text {
			case "set", "unsafe", "safe":
				// private(set), nonisolated(unsafe): the setter's access, not the declaration's.
				h.mods = append(h.mods, p.toks[p.i:p.i+3]...)
				p.i += 3
				continue
			}
		}
		if a, ok := accessLevels[w]; ok {
			h.access = a
		}
	}
	kw := p.tok()
	if kw.kind != tIdent {
		return nil, false
	}
	if h.doc == "" {
		h.doc = kw.doc
	}
	switch kw.text {
	case "struct", "class", "enum", "protocol", "extension":
		return p.typeDecl(&h, DeclKind(kw.text), depth), true
	case "actor":
		if p.peek(1).kind != tIdent {
			return nil, false
		}
		return p.typeDecl(&h, DeclActor, depth), true
	case "func", "init", "subscript":
		return p.funcDecl(&h, DeclKind(kw.text)), true
	case "macro":
		if p.peek(1).kind != tIdent {
			return nil, false
		}
		return p.funcDecl(&h, DeclMacro), true
	case "var", "let":
		return p.varDecl(&h, DeclKind(kw.text)), true
	case "case":
		return p.caseDecl(&h), true
	case "typealias", "associatedtype":
		return p.aliasDecl(&h, DeclKind(kw.text)), true
	case "deinit", "import", "operator", "precedencegroup":
		p.i++
		if _, body := p.headerEnd(false); body >= 0 {
			p.skipBraces()
		}
		return nil, true
	}
	return nil, false
}

// availabilityDeprecated reports whether an @available attribute's arguments deprecate the
// declaration: a "deprecated" argument, or "unavailable" for all platforms ("*").
func availabilityDeprecated(attr []token) bool {
	star, unavailable := false, false
	for _, t := range attr[1:] {
		switch {
		case t.kind == tIdent && t.text == "deprecated":
			return true
		case t.kind == tIdent && t.text == "unavailable":
			unavailable = true
		case t.is("*"):
			star = true
		}
	}
	return star && unavailable
}

// headerEnd advances from p.i to the end of a declaration header and returns where it ends
// (exclusive). body is the index of the "{" that opens the body, or -1 when the declaration ends
// without one (at a ";", which is consumed, a line that starts another declaration, the "}" of
// the enclosing scope, or EOF). With value set (var, let, case, typealias, macro), a "{" after a
// top-level "=" belongs to the initial value, not a body.
func (p *parser) headerEnd(value bool) (end, body int) {
	depth := 0
	afterEq := false
	for first := true; ; first = false {
		t := p.tok()
		if t.kind == tEOF {
			return p.i, -1
		}
		if depth == 0 {
			if !first && t.nl && p.isDeclStart(p.i) {
				return p.i, -1
			}
			if t.kind == tPunct {
				switch t.text {
				case "}":
					return p.i, -1
				case ";":
					p.i++
					return p.i - 1, -1
				case "{":
					if !value || !afterEq {
						return p.i, p.i
					}
				case "=":
					afterEq = true
				}
			}
		}
		depth = bracketDepth(t, depth)
		p.i++
	}
}

// typeDecl parses a struct, class, actor, enum, protocol or extension and its body.
func (p *parser) typeDecl(h *header, kind DeclKind, depth int) []*Decl {
	kwAt := p.i
	p.i++
	d := p.newDecl(h, kind, kwAt)
	if kind == DeclExtension {
		d.Name = typePath(p.toks[p.i:])
	} else if t := p.tok(); t.kind == tIdent {
		d.Name = unquote(t.text)
	}
	end, body := p.headerEnd(false)
	d.Signature = p.signature(h, kwAt, end)
	if body < 0 {
		return []*Decl{d}
	}
	if depth >= maxNesting {
		p.skipBraces()
		return []*Decl{d}
	}
	p.i = body + 1
	d.Members = p.scope(true, depth+1)
	return []*Decl{d}
}

// typePath reads a dotted type name ("Outer.Inner", "Swift.Array") from toks, skipping generic
// arguments.
func typePath(toks []token) string {
	var parts []string
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.kind != tIdent {
			break
		}
		parts = append(parts, unquote(t.text))
		i++
		if i < len(toks) && toks[i].is("<") {
			i = skipAngles(toks, i)
		}
		if i+1 < len(toks) && toks[i].is(".") && toks[i+1].kind == tIdent {
			i++
			continue
		}
		break
	}
	return strings.Join(parts, ".")
}

// skipAngles returns the index after the ">" matching the "<" at i.
func skipAngles(toks []token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tEOF, t.is("{"), t.is(";"):
			return i
		case t.is("<"):
			depth++
		case t.is(">"):
			depth--
			if depth <= 0 {
				return i + 1
			}
		}
	}
	return i
}

// funcDecl parses a func, init, subscript or macro declaration and skips its body.
func (p *parser) funcDecl(h *header, kind DeclKind) []*Decl {
	kwAt := p.i
	p.i++
	d := p.newDecl(h, kind, kwAt)
	i := p.i
	switch kind {
	case DeclInit, DeclSubscript:
		d.Name = string(kind)
		for i < len(p.toks) && (p.toks[i].is("?") || p.toks[i].is("!")) && !p.toks[i].gap {
			i++
		}
	default:
		if t := p.toks[i]; t.kind == tIdent {
			d.Name = unquote(t.text)
			i++
		} else {
			// An operator: adjacent operator characters.
			var name strings.Builder
			for start := i; i < len(p.toks); i++ {
				t := p.toks[i]
				if t.kind != tPunct || !isOperator(t.text) || i > start && t.gap {
					break
				}
				name.WriteString(t.text)
			}
			d.Name = name.String()
		}
	}
	if i < len(p.toks) && p.toks[i].is("<") {
		i = skipAngles(p.toks, i)
	}
	if i < len(p.toks) && p.toks[i].is("(") {
		end := p.parenGroup(i)
		// Subscript parameters have no argument label unless one is written; operator
		// parameters never have one.
		unlabeled := kind == DeclSubscript || isOperatorName(d.Name)
		d.Labels = labels(p.toks[i+1:max(end-1, i+1)], unlabeled)
	}
	end, body := p.headerEnd(kind == DeclMacro)
	sigEnd := end
	if kind == DeclMacro {
		// Leave out "= #externalMacro(module:type:)": the implementation, not the interface.
		depth := 0
		for j := kwAt; j < end; j++ {
			if depth == 0 && p.toks[j].is("=") {
				sigEnd = j
				break
			}
			depth = bracketDepth(p.toks[j], depth)
		}
	}
	d.Signature = p.signature(h, kwAt, sigEnd)
	if body >= 0 {
		if kind == DeclSubscript {
			if acc := p.accessors(body); acc != "" {
				d.Signature += " " + acc
			}
		}
		p.skipBraces()
	}
	if d.Name == "" {
		return nil
	}
	return []*Decl{d}
}

// isOperator reports whether s is made of Swift operator characters.
func isOperator(s string) bool {
	if s == "" || s == "->" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("/=-+!*%<>&|^~?.", rune(s[i])) {
			return false
		}
	}
	return true
}

// isOperatorName reports whether a function name is an operator: ASCII operator characters, or
// a first character that is a Unicode symbol rather than a letter ("√", "∪").
func isOperatorName(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	if r < utf8.RuneSelf {
		return isOperator(name)
	}
	return r != utf8.RuneError && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
}

// labels returns the argument labels of a parameter clause's tokens (without its parentheses):
// "(_:with:)". A parameter's label is the first of two names before its ":", or its only name —
// except when unlabeled is set (subscripts, operators), where a lone name is not a label.
func labels(toks []token, unlabeled bool) string {
	var b strings.Builder
	b.WriteByte('(')
	var names []string
	colon := false
	flush := func() {
		switch {
		case len(names) >= 2:
			b.WriteString(names[0])
		case len(names) == 1 && !unlabeled:
			b.WriteString(names[0])
		case len(names) == 1 || colon:
			b.WriteString("_")
		default:
			return
		}
		b.WriteByte(':')
	}
	var n nesting
	for i, t := range toks {
		if n.top() && t.is(",") {
			flush()
			names, colon = nil, false
			continue
		}
		if n.top() && !colon {
			switch {
			case t.is(":"):
				colon = true
			case t.kind == tIdent:
				names = append(names, unquote(t.text))
			}
		}
		n.step(toks, i)
	}
	flush()
	b.WriteByte(')')
	return b.String()
}

// accessors returns "{ get }", "{ get set }" … when the braces at i hold only accessor keywords
// (a protocol requirement), else "".
func (p *parser) accessors(i int) string {
	var words []string
	for j := i + 1; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.is("}") {
			if len(words) == 0 {
				return ""
			}
			return "{ " + strings.Join(words, " ") + " }"
		}
		switch {
		case t.kind == tIdent && (t.text == "get" || t.text == "set" || t.text == "async" || t.text == "throws" ||
			t.text == "mutating" || t.text == "nonmutating"):
			words = append(words, t.text)
		default:
			return ""
		}
	}
	return ""
}

// varDecl parses a var or let declaration; each binding of "var a = 1, b = 2" is a Decl.
func (p *parser) varDecl(h *header, kind DeclKind) []*Decl {
	kwAt := p.i
	p.i++
	first := p.i
	end, body := p.headerEnd(true)
	var out []*Decl
	for _, b := range splitTop(p.toks[first:end]) {
		if len(b) == 0 || b[0].kind != tIdent {
			continue // a tuple pattern
		}
		d := p.newDecl(h, kind, kwAt)
		d.Name = unquote(b[0].text)
		d.Signature = p.signatureWith(h, kwAt, trimValue(b))
		d.Stored = true
		out = append(out, d)
	}
	if body >= 0 {
		if len(out) > 0 {
			// The braces belong to the last binding: accessors make it computed, observers
			// leave it stored.
			out[len(out)-1].Stored = p.observers(body)
		}
		if acc := p.accessors(body); acc != "" && len(out) > 0 {
			out[len(out)-1].Signature += " " + acc
		}
		p.skipBraces()
	}
	return out
}

// observers reports whether the braces at i hold property observers (willSet, didSet) rather
// than accessors or a getter's statements.
func (p *parser) observers(i int) bool {
	j := i + 1
	for j < len(p.toks) && p.toks[j].kind == tAttr {
		j++ // @MainActor didSet
	}
	if j >= len(p.toks) {
		return false
	}
	t := p.toks[j]
	return t.kind == tIdent && (t.text == "willSet" || t.text == "didSet")
}

// caseDecl parses an enum case declaration; each element of "case a, b(Int)" is a Decl.
func (p *parser) caseDecl(h *header) []*Decl {
	kwAt := p.i
	p.i++
	first := p.i
	end, body := p.headerEnd(true)
	if body >= 0 {
		p.skipBraces()
	}
	var out []*Decl
	for _, b := range splitTop(p.toks[first:end]) {
		if len(b) == 0 || b[0].kind != tIdent {
			continue
		}
		d := p.newDecl(h, DeclCase, kwAt)
		d.Name = unquote(b[0].text)
		d.Signature = p.signatureWith(h, kwAt, trimValue(b))
		out = append(out, d)
	}
	return out
}

// aliasDecl parses a typealias or associatedtype declaration.
func (p *parser) aliasDecl(h *header, kind DeclKind) []*Decl {
	kwAt := p.i
	p.i++
	d := p.newDecl(h, kind, kwAt)
	if t := p.tok(); t.kind == tIdent {
		d.Name = unquote(t.text)
	}
	end, body := p.headerEnd(true)
	if body >= 0 {
		p.skipBraces()
	}
	d.Signature = p.signature(h, kwAt, end)
	if d.Name == "" {
		return nil
	}
	return []*Decl{d}
}

func (p *parser) newDecl(h *header, kind DeclKind, kwAt int) *Decl {
	return &Decl{Kind: kind, Access: h.access, Doc: h.doc, Line: p.toks[kwAt].line, Deprecated: h.depr, SPI: h.spi}
}

// nesting tracks brackets and generic angle brackets while walking tokens. A "<" opens generic
// arguments only right after a name or ">" with no space between ("Dictionary<String, Int>"),
// so shifts and comparisons in default values ("1 << 40") do not.
type nesting struct{ depth, angles int }

// top reports whether the walk is outside every bracket.
func (n *nesting) top() bool { return n.depth == 0 && n.angles == 0 }

// step accounts for toks[i].
func (n *nesting) step(toks []token, i int) {
	t := toks[i]
	switch {
	case t.is("("), t.is("["), t.is("{"):
		n.depth++
	case t.is(")"), t.is("]"), t.is("}"):
		if n.depth > 0 {
			n.depth--
		}
	case t.is("<") && !t.gap && i > 0 && (toks[i-1].kind == tIdent || toks[i-1].is(">")):
		n.angles++
	case t.is(">") && n.angles > 0:
		n.angles--
	}
}

// splitTop splits toks at commas outside brackets and generic angle brackets.
func splitTop(toks []token) [][]token {
	var out [][]token
	var n nesting
	start := 0
	for i, t := range toks {
		if n.top() && t.is(",") {
			out = append(out, toks[start:i])
			start = i + 1
			continue
		}
		n.step(toks, i)
	}
	return append(out, toks[start:])
}

// maxValue is the longest initial value (or raw value) kept in a signature, in bytes.
const maxValue = 80

// trimValue drops a binding's initial value when it is long, spans lines or holds a closure;
// property observers ({ willSet … } or { didSet … } after the value) are dropped in any case.
func trimValue(b []token) []token {
	depth := 0
	for i, t := range b {
		if depth == 0 && t.is("=") {
			end := len(b)
			for j := i + 1; j+1 < len(b); j++ {
				if b[j].is("{") && b[j+1].kind == tIdent && (b[j+1].text == "willSet" || b[j+1].text == "didSet") {
					end = j
					break
				}
			}
			n := 0
			for _, v := range b[i+1 : end] {
				n += len(v.text) + 1
				if v.is("{") || v.nl || strings.Contains(v.text, "\n") {
					n = maxValue + 1
				}
			}
			if n > maxValue || end == i+1 {
				return b[:i]
			}
			return b[:end]
		}
		depth = bracketDepth(t, depth)
	}
	return b
}

// maxSignature is the longest signature kept, in bytes.
const maxSignature = 4 << 10

// signature renders the declaration from its keyword at kwAt to end, after its header.
func (p *parser) signature(h *header, kwAt, end int) string {
	if end < kwAt+1 {
		end = kwAt + 1
	}
	return p.signatureWith(h, kwAt, p.toks[kwAt+1:end])
}

// signatureWith renders attributes (one per line), modifiers, the keyword at kwAt and rest.
func (p *parser) signatureWith(h *header, kwAt int, rest []token) string {
	var b strings.Builder
	for _, a := range h.attrs {
		if hiddenAttribute(a[0].text) {
			continue
		}
		b.WriteString(join(a))
		b.WriteByte('\n')
	}
	line := make([]token, 0, len(h.mods)+1+len(rest))
	line = append(line, h.mods...)
	line = append(line, p.toks[kwAt])
	line = append(line, rest...)
	if len(line) > 0 {
		line[0].gap = false
	}
	b.WriteString(join(line))
	s := b.String()
	if len(s) > maxSignature {
		s = strings.ToValidUTF8(s[:maxSignature], "") + " …"
	}
	return s
}

// hiddenAttribute reports whether an attribute is an implementation detail left out of
// signatures: inlining and ABI attributes and the underscored ones.
func hiddenAttribute(name string) bool {
	switch name {
	case "@inlinable", "@inline", "@usableFromInline", "@backDeployed":
		return true
	}
	return strings.HasPrefix(name, "@_")
}

// join renders tokens on one line: one space where the source had whitespace, a comment or a
// line break, except just inside brackets and before commas.
func join(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.gap {
			prev := toks[i-1]
			if !(prev.is("(") || prev.is("[") || t.is(")") || t.is("]") || t.is(",")) {
				b.WriteByte(' ')
			}
		}
		text := t.text
		if t.kind == tString && strings.ContainsAny(text, "\r\n") {
			text = strings.Join(strings.Fields(text), " ")
		}
		b.WriteString(text)
	}
	return b.String()
}

// unquote strips the backticks of a quoted identifier.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return s[1 : len(s)-1]
	}
	return s
}
