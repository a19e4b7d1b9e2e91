package jsapi

import (
	"slices"
	"strings"

	"github.com/docidx/docidx/registries/internal/limit"
)

// vkind says what a value found in the source is.
type vkind uint8

const (
	vUnknown vkind = iota // an expression the readers do not follow
	vFunc                 // function declaration or expression, arrow function, method
	vClass                // class declaration or expression
	vObject               // object literal
	vLiteral              // string, number, template, regex, boolean, null, short array
	vRef                  // identifier or member path, e.g. "proto" or "utils.merge"
	vCall                 // call of a path, e.g. runInContext()
	vModule               // require("./x"), an import binding: spec and prop
)

// value is what a binding, property or export holds, as far as the scanner can tell.
type value struct {
	kind    vkind
	file    *jsFile
	line    int
	doc     string    // raw JSDoc of its declaration
	sig     string    // its declaration as written, without body
	name    string    // a function's or class's own name
	ref     string    // vRef, vCall: the path
	spec    string    // vModule: the module specifier
	prop    string    // vModule: the export taken ("default", a name), or "" for the whole module
	members []*member // vObject: properties; vClass: class body members
	binds   []string  // names this value is bound to in its file, whose assigned properties are its members
	isConst bool      // declared with const
	depth   int       // bracket depth of its declaration
	at      int       // vFunc: index of its "function" token, or 0
	headEnd int       // vFunc, vClass: index of the last token of its head (")", "=>", before "{")
	ns      bool      // a module namespace: its members are the file's exports
}

// body returns the token indexes of the braces of function v's block body, and false for a
// value that is not a function or a function without one (an arrow function's expression).
func (v *value) body() (open, end int, ok bool) {
	if v.kind != vFunc || v.headEnd <= 0 {
		return 0, 0, false
	}
	open = v.headEnd + 1
	if v.file.tok(open).text != "{" {
		return 0, 0, false
	}
	return open, v.file.closeOf(open), true
}

// member is a named slot of an object, a class, a function or a module's exports.
type member struct {
	name   string
	val    *value
	doc    string // raw JSDoc written at the member itself
	sig    string // the member's declaration as written
	line   int
	static bool // class static member
	field  bool // class field or accessor, not a method
	proto  bool // assigned on a prototype: an instance method
	spread bool // ...expr in an object literal: all of expr's members
	// aliasOf is, for a later target of an assignment chain onto the object of an earlier one
	// (res.contentType = res.type = function …: "type"), the earlier target's name
	// ("contentType"): one function under two names, documented once. Its sig says so
	// ("res.type = res.contentType"); the first name's shows the chain as written.
	aliasOf string
}

// star is an `export * from` (or __exportStar(require(…))) of a file: every export of the
// module spec, or of the binding ref (Object.keys(ref).forEach(… exports …)).
type star struct {
	spec string
	ref  string
}

// jsFile is what the scanner read from one file.
type jsFile struct {
	path       string
	toks       []token
	match      []int
	decls      map[string]*value
	props      map[string][]*member // "app", "Foo.prototype", "exports": assigned members in order
	main       *value               // module.exports = X (CommonJS), the shallowest one
	mainAt     int                  // bracket depth of main's assignment
	mainBind   []string             // the other targets of main's assignment chain, e.g. "app"
	esmDef     *value               // export default X
	named      []*member            // export function/class/const, export { … }
	stars      []star
	esm        bool
	nsVal      *value            // the namespace value standing for the file's exports, made once
	ends       []int32           // exprEnd results + 1 per token index, 0 when not known yet
	chainUntil int               // index of the value of the last assignment chain read
	calls      []int             // statements helper(obj, "name", value): indexes of the helper's name (see noteDefineCall)
	nameDocs   map[string]string // JSDoc comments by their @name (see namedDoc), made once
}

// namedDoc returns the JSDoc comment of f whose @name tag is name (https://jsdoc.app/tags-name.html),
// raw, or "". Such a comment says what it documents wherever it stands: async's bundle puts
// retry's before `const DEFAULT_TIMES = 5;`, two statements above `function retry`.
func (f *jsFile) namedDoc(name string) string {
	if f.nameDocs == nil {
		f.nameDocs = map[string]string{}
		for _, t := range f.toks {
			if t.doc == "" {
				continue
			}
			if n := jsdocName(t.doc); n != "" {
				if _, dup := f.nameDocs[n]; !dup {
					f.nameDocs[n] = t.doc
				}
			}
		}
	}
	return f.nameDocs[name]
}

// jsdocName returns the name of a raw JSDoc comment's @name tag, or "".
func jsdocName(raw string) string {
	i := strings.Index(raw, "@name")
	if i < 0 || i+5 < len(raw) && raw[i+5] != ' ' && raw[i+5] != '\t' {
		return ""
	}
	fields := strings.Fields(raw[i+5:])
	if len(fields) == 0 || strings.HasPrefix(fields[0], "*") {
		return ""
	}
	return strings.TrimSuffix(fields[0], "*/")
}

// maxSig bounds the bytes of a rendered signature.
const maxSig = 400

// parseFile scans toks, the tokens of the file at path p, for declarations, assignments and exports.
func parseFile(p string, toks []token) *jsFile {
	f := &jsFile{path: p, toks: toks, decls: map[string]*value{}, props: map[string][]*member{}}
	f.match = brackets(f.toks)
	toks = f.toks
	for i := 0; i < len(toks)-1; i++ {
		t := toks[i]
		if t.kind != tIdent {
			continue
		}
		prev := f.prev(i)
		if prev.kind == tPunct && (prev.text == "." || prev.text == "?.") {
			continue
		}
		switch t.text {
		case "function", "async", "class":
			if t.text == "async" && f.tok(i+1).text != "function" {
				break
			}
			v, _ := f.parseValue(i, i)
			if v.name != "" && (v.kind == vFunc || v.kind == vClass) {
				v.binds = []string{v.name}
				f.declare(v.name, v)
			}
			continue
		case "var", "let", "const":
			f.parseDeclarators(i, nil)
			continue
		case "export":
			if t.depth == 0 {
				f.esm = true
				f.parseExport(i)
			}
			continue
		case "import":
			if n := f.tok(i + 1); t.depth == 0 && n.text != "(" && n.text != "." {
				f.esm = true
				f.parseImport(i)
			}
			continue
		case "Object":
			if f.tok(i+1).text == "." && f.tok(i+2).text == "defineProperty" && f.tok(i+3).text == "(" {
				f.parseDefineProperty(i + 3)
			}
			if f.tok(i+1).text == "." && f.tok(i+2).text == "defineProperties" && f.tok(i+3).text == "(" {
				f.parseDefineProperties(i + 3)
			}
			// Rollup's and esbuild's re-export of a whole module:
			// Object.keys(x).forEach(function (k) { … Object.defineProperty(exports, k, …) })
			if f.tok(i+1).text == "." && f.tok(i+2).text == "keys" && f.tok(i+3).text == "(" && f.tok(i+4).kind == tIdent &&
				f.tok(i+5).text == ")" && f.tok(i+6).text == "." && f.tok(i+7).text == "forEach" && f.tok(i+8).text == "(" {
				for k, end := i+9, f.closeOf(i+8); k < end; k++ {
					if f.toks[k].text == "exports" {
						f.stars = append(f.stars, star{ref: f.tok(i + 4).text})
						break
					}
				}
			}
			continue
		case "__exportStar", "__export":
			// TypeScript's CommonJS output: __exportStar(require("./x"), exports).
			if f.tok(i+1).text == "(" && f.tok(i+2).text == "require" && f.tok(i+3).text == "(" && f.tok(i+4).kind == tString {
				f.stars = append(f.stars, star{spec: unquote(f.tok(i + 4).text)})
			}
			continue
		}
		if !t.nl && (prev.kind == tIdent && !keywordBeforeExpr[prev.text] || prev.kind == tPunct && (prev.text == ")" || prev.text == "]") ||
			prev.kind == tString || prev.kind == tNumber) {
			continue
		}
		if prev.text == "=" && i < f.chainUntil {
			continue // a later target of a chain already read from its first target
		}
		if f.tok(i+1).text == "(" {
			f.noteDefineCall(i)
			continue
		}
		f.parseAssignment(i, nil)
	}
	f.applyDefineCalls()
	return f
}

// keywordBeforeExpr are identifiers that may precede an assignment statement's target.
var keywordBeforeExpr = map[string]bool{"return": false, "else": true, "do": true, "void": true}

func (f *jsFile) tok(i int) token {
	if i < 0 || i >= len(f.toks) {
		return token{kind: tEOF}
	}
	return f.toks[i]
}

func (f *jsFile) prev(i int) token { return f.tok(i - 1) }

// closeOf returns the index of the bracket closing the one at i, or i when toks[i] opens none.
func (f *jsFile) closeOf(i int) int {
	if i >= 0 && i < len(f.match) && f.match[i] > i {
		return f.match[i]
	}
	return i
}

// declare records v as the binding name, keeping the shallowest declaration.
func (f *jsFile) declare(name string, v *value) {
	if old, ok := f.decls[name]; ok {
		better := old.kind == vUnknown && (v.kind == vFunc || v.kind == vClass)
		if !better && old.depth < v.depth || old.depth == v.depth && old.kind != vUnknown {
			return
		}
	}
	f.decls[name] = v
}

// render returns the source of tokens [from, to] on one line, spaces kept where the source had
// any, cut at maxSig bytes.
func (f *jsFile) render(from, to int) string {
	var b strings.Builder
	for k := from; k <= to && k < len(f.toks)-1; k++ {
		t := f.toks[k]
		if k > from && t.gap {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
		if b.Len() > maxSig {
			return limit.Cut(b.String(), maxSig) + " …"
		}
	}
	return b.String()
}

// exprEnd returns the index of the token ending the expression starting at i: a "," or ";" at
// its depth, a closing bracket of an enclosing one, or a line break where the expression cannot
// continue (automatic semicolon insertion).
//
// Every token at the starting depth passed on the way ends at the same token, so results are
// remembered for them: the scan over a file stays linear however many expressions start inside
// one long expression.
func (f *jsFile) exprEnd(i int) int {
	if i < 0 || i >= len(f.toks) {
		return len(f.toks) - 1
	}
	if f.ends == nil {
		f.ends = make([]int32, len(f.toks))
	}
	if e := f.ends[i]; e > 0 {
		return int(e) - 1
	}
	end := f.scanExprEnd(i)
	base := f.toks[i].depth
	for k := i; k < end; k++ {
		if f.toks[k].depth == base && f.ends[k] == 0 {
			f.ends[k] = int32(end + 1)
		}
		if c := f.closeOf(k); c > k && f.toks[k].depth == base {
			k = c
		}
	}
	return end
}

func (f *jsFile) scanExprEnd(i int) int {
	base := f.tok(i).depth
	for k := i; k < len(f.toks); k++ {
		t := f.toks[k]
		if t.kind == tEOF {
			return k
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				k = f.closeOf(k)
				continue
			case ")", "]", "}":
				return k
			case ",", ";":
				if t.depth <= base {
					return k
				}
			}
		}
		if k > 0 && t.nl && !continues(f.toks[k-1], t) {
			return k
		}
	}
	return len(f.toks) - 1
}

// continues reports whether an expression goes on over a line break between a and b.
func continues(a, b token) bool {
	if a.kind == tPunct && a.text != ")" && a.text != "]" && a.text != "}" && a.text != "++" && a.text != "--" {
		return true
	}
	if b.kind == tPunct {
		switch b.text {
		case "(", "[", "{", "!", "++", "--", "~":
			return false
		}
		return true
	}
	return b.kind == tIdent && (b.text == "instanceof" || b.text == "in")
}

// parseValue reads the expression starting at token i; head is where its declaration starts
// (the keyword or assignment target), so that signatures show it as written. It returns the
// value and the index of its last token.
func (f *jsFile) parseValue(i, head int) (*value, int) {
	t := f.tok(i)
	v := &value{file: f, line: f.tok(head).line, doc: f.tok(head).doc, depth: t.depth}
	if t.depth > maxNesting {
		// Object literals and classes nest through parseValue: stop before the stack grows.
		return v, i
	}
	switch {
	case t.kind == tIdent && (t.text == "function" || t.text == "async" && f.tok(i+1).text == "function"):
		k := i + 1
		if t.text == "async" {
			k++
		}
		if f.tok(k).text == "*" {
			k++
		}
		if n := f.tok(k); n.kind == tIdent && n.text != "(" {
			v.name = n.text
			k++
		}
		if f.tok(k).text != "(" {
			v.kind = vUnknown
			return v, k
		}
		end := f.closeOf(k)
		v.kind = vFunc
		v.at = i
		v.headEnd = end
		v.sig = f.render(head, end)
		if f.tok(end+1).text == "{" {
			return v, f.closeOf(end + 1)
		}
		return v, end
	case t.kind == tIdent && t.text == "async" && (f.tok(i+1).text == "(" || f.tok(i+1).kind == tIdent && f.tok(i+2).text == "=>"):
		w, end := f.parseValue(i+1, head)
		return w, end
	case t.text == "(" && f.tok(f.closeOf(i)+1).text == "=>" || t.kind == tIdent && f.tok(i+1).text == "=>":
		end := f.closeOf(i)
		v.kind = vFunc
		v.headEnd = end + 1
		v.sig = f.render(head, end+1)
		body := end + 2
		if f.tok(body).text == "{" {
			return v, f.closeOf(body)
		}
		return v, f.exprEnd(body) - 1
	case t.text == "(" && (f.tok(i+1).text == "function" || f.tok(i+1).text == "class" ||
		f.tok(i+1).text == "(" && f.tok(f.closeOf(i+1)+1).text == "=>"):
		// (function name() { … }), ((a) => …) or (function () { … }()): the function inside.
		w, end := f.parseValue(i+1, head)
		if w.kind == vFunc && f.tok(end+1).text == "(" {
			w.kind = vUnknown // an IIFE: its result, not the function
		}
		return w, f.closeOf(i)
	case t.kind == tIdent && t.text == "class":
		k := i + 1
		if n := f.tok(k); n.kind == tIdent && n.text != "extends" {
			v.name = n.text
			k++
		}
		for k < len(f.toks)-1 && f.tok(k).text != "{" {
			if f.tok(k).text == "(" {
				k = f.closeOf(k)
			}
			k++
		}
		v.kind = vClass
		v.headEnd = k - 1
		v.sig = f.render(head, k-1)
		end := f.closeOf(k)
		v.members = f.parseClassBody(k, end)
		return v, end
	case t.text == "{":
		end := f.closeOf(i)
		v.kind = vObject
		v.members = f.parseObject(i, end)
		v.sig = f.render(head, i-1) + " {…}"
		if head == i {
			v.sig = "{…}"
		}
		return v, end
	case t.kind == tIdent && t.text == "Object" && f.tok(i+1).text == "." && (f.tok(i+2).text == "freeze" || f.tok(i+2).text == "assign") &&
		f.tok(i+3).text == "(" && f.tok(i+4).text == "{":
		w, _ := f.parseValue(i+4, i+4)
		w.line, w.doc, w.depth = v.line, v.doc, v.depth
		w.sig = f.render(head, i+3) + "{…})"
		return w, f.closeOf(i + 3)
	case t.kind == tIdent && t.text == "require" && f.tok(i+1).text == "(" && f.tok(i+2).kind == tString && f.tok(i+3).text == ")":
		v.kind = vModule
		v.spec = unquote(f.tok(i + 2).text)
		end := i + 3
		if f.tok(end+1).text == "." && f.tok(end+2).kind == tIdent {
			v.prop = f.tok(end + 2).text
			end += 2
		}
		if f.tok(end+1).text == "(" {
			v.kind = vUnknown
			end = f.closeOf(end + 1)
		}
		v.sig = f.render(head, end)
		return v, end
	case t.kind == tIdent && (t.text == "true" || t.text == "false" || t.text == "null" || t.text == "undefined"),
		t.kind == tString, t.kind == tNumber, t.kind == tTemplate, t.kind == tRegex,
		t.text == "-" && f.tok(i+1).kind == tNumber, t.text == "[":
		end := f.exprEnd(i)
		v.kind = vLiteral
		if end-i > 24 || t.text == "[" && f.closeOf(i) != end-1 {
			v.kind = vUnknown
		}
		v.sig = f.render(head, end-1)
		return v, end - 1
	case t.kind == tIdent && t.text == "new":
		end := f.exprEnd(i)
		v.kind = vUnknown
		v.sig = f.render(head, end-1)
		return v, end - 1
	case t.kind == tIdent && !reserved[t.text]:
		k := i
		path := t.text
		for parts := 1; f.tok(k+1).text == "." && f.tok(k+2).kind == tIdent; parts++ {
			if parts >= maxPathParts {
				v.kind = vUnknown
				return v, k
			}
			path += "." + f.tok(k+2).text
			k += 2
		}
		v.ref = path
		v.kind = vRef
		if f.tok(k+1).text == "(" {
			v.kind = vCall
			k = f.closeOf(k + 1)
		}
		end := f.exprEnd(k + 1)
		if end > k+1 {
			v.kind = vUnknown // a longer expression: a || b, a ? b : c …
		}
		v.sig = f.render(head, end-1)
		return v, end - 1
	}
	end := f.exprEnd(i)
	v.kind = vUnknown
	v.sig = f.render(head, end-1)
	return v, max(end-1, i)
}

// reserved are keywords that never start a path.
var reserved = map[string]bool{
	"this": true, "typeof": true, "void": true, "delete": true, "await": true, "yield": true, "super": true,
	"new": true, "function": true, "class": true, "return": true, "if": true, "for": true, "while": true,
	"var": true, "let": true, "const": true, "switch": true, "throw": true, "try": true,
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// propName reads a property key at i: an identifier, a string or a number. ok is false for
// computed keys and anything else.
func propName(t token) (string, bool) {
	switch t.kind {
	case tIdent, tNumber:
		return t.text, true
	case tString:
		return unquote(t.text), true
	}
	return "", false
}

// eachBinding calls fn for each item of the braced list from toks[open] ("{") to toks[close]
// that names a property, with the property's name, the local name it binds (the identifier after
// rename, ":" in a destructuring pattern and "as" in an import list, else the property's own
// name) and the item's index. Items that name no property (a spread, a computed key) are passed
// over.
func (f *jsFile) eachBinding(open, close int, rename string, fn func(key, local string, p int)) {
	for p := open + 1; p < close; p = f.nextItem(p, close) {
		key, ok := propName(f.tok(p))
		if !ok {
			continue
		}
		local := key
		if f.tok(p+1).text == rename && f.tok(p+2).kind == tIdent {
			local = f.tok(p + 2).text
		}
		fn(key, local, p)
	}
}

// nextItem returns the index after the "," that ends the list item starting at k inside the
// brackets (open, close), or close.
func (f *jsFile) nextItem(k, close int) int {
	depth := f.tok(close).depth + 1
	for ; k < close; k++ {
		t := f.toks[k]
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				k = f.closeOf(k)
				continue
			case ",":
				if t.depth <= depth {
					return k + 1
				}
			}
		}
	}
	return close
}

// parseObject reads the properties of the object literal between toks[open] "{" and its close.
func (f *jsFile) parseObject(open, close int) []*member {
	var ms []*member
	for k := open + 1; k < close; {
		t := f.tok(k)
		start := k
		if t.text == "..." {
			v, _ := f.parseValue(k+1, k+1)
			ms = append(ms, &member{val: v, spread: true, line: t.line})
			k = f.nextItem(k, close)
			continue
		}
		accessor := false
		for (t.text == "get" || t.text == "set" || t.text == "async" || t.text == "*") && f.tok(k+1).text != ":" &&
			f.tok(k+1).text != "(" && f.tok(k+1).text != "," && f.tok(k+1).text != "}" {
			accessor = accessor || t.text == "get" || t.text == "set"
			k++
			t = f.tok(k)
		}
		name, ok := propName(t)
		if !ok {
			k = f.nextItem(k, close)
			continue
		}
		m := &member{name: name, doc: f.tok(start).doc, line: f.tok(start).line, field: accessor}
		switch n := f.tok(k + 1); n.text {
		case ":":
			m.val, _ = f.parseValue(k+2, start)
			m.sig = m.val.sig
		case "(":
			end := f.closeOf(k + 1)
			m.val = &value{kind: vFunc, file: f, line: m.line, doc: m.doc, sig: f.render(start, end), depth: t.depth, headEnd: end}
			m.sig = m.val.sig
		case ",", "}":
			m.val = &value{kind: vRef, file: f, ref: name, line: m.line, depth: t.depth}
			m.sig = name
		default:
			k = f.nextItem(k, close)
			continue
		}
		if accessor {
			m.val.kind = vUnknown
		}
		ms = append(ms, m)
		k = f.nextItem(k, close)
		if len(ms) >= maxMembers {
			break
		}
	}
	return ms
}

// maxMembers bounds the members read from one object literal or class body.
const maxMembers = 2000

// parseClassBody reads the members of the class body between toks[open] "{" and its close.
func (f *jsFile) parseClassBody(open, close int) []*member {
	var ms []*member
	depth := f.tok(open).depth + 1
	for k := open + 1; k < close && len(ms) < maxMembers; {
		t := f.tok(k)
		if t.depth != depth || t.text == ";" {
			k++
			continue
		}
		start := k
		m := &member{doc: t.doc, line: t.line}
		accessor := false
		for {
			switch t.text {
			case "static":
				m.static = true
			case "get", "set":
				accessor = true
			case "async", "*":
			default:
				goto key
			}
			n := f.tok(k + 1).text
			if n == "(" || n == "=" || n == ";" || n == "}" {
				break
			}
			k++
			t = f.tok(k)
		}
	key:
		if t.text == "{" { // static initialization block
			k = f.closeOf(k) + 1
			continue
		}
		if t.text == "[" {
			k = f.closeOf(k) + 1
			if f.tok(k).text == "(" {
				k = f.closeOf(k) + 1
				if f.tok(k).text == "{" {
					k = f.closeOf(k) + 1
				}
			} else {
				k = f.exprEnd(k) + 1
			}
			continue
		}
		name, ok := propName(t)
		if !ok {
			k++
			continue
		}
		m.name = name
		switch f.tok(k + 1).text {
		case "(":
			end := f.closeOf(k + 1)
			m.val = &value{kind: vFunc, file: f, line: m.line, doc: m.doc, sig: f.render(start, end), depth: t.depth, headEnd: end}
			m.sig = m.val.sig
			m.field = accessor
			k = end + 1
			if f.tok(k).text == "{" {
				k = f.closeOf(k) + 1
			}
		case "=":
			m.val, k = f.parseValue(k+2, start)
			m.sig = m.val.sig
			m.field = true
			k++
		default:
			m.val = &value{kind: vUnknown, file: f, line: m.line, sig: f.render(start, k), depth: t.depth}
			m.sig = m.val.sig
			m.field = true
			k++
		}
		ms = append(ms, m)
	}
	return ms
}

// parseDeclarators reads `var|let|const a = 1, { b } = require("x")` at toks[i]; exported
// names are appended to named when it is not nil.
func (f *jsFile) parseDeclarators(i int, named *[]*member) int {
	isConst := f.tok(i).text == "const"
	k := i + 1
	for k < len(f.toks)-1 {
		t := f.tok(k)
		switch {
		case t.kind == tIdent:
			if _, pend, ok := f.memberPath(k + 2); ok && f.tok(k+1).text == "=" && f.tok(pend+1).text == "=" {
				// var app = exports = module.exports = {}: app is one of the targets.
				v, end := f.parseAssignment(k+2, []string{t.text})
				if named != nil && v != nil {
					*named = append(*named, &member{name: t.text, val: v, sig: v.sig, line: v.line, doc: v.doc})
				}
				k = f.exprEnd(end + 1)
			} else if f.tok(k+1).text == "=" {
				v, end := f.parseValue(k+2, i)
				if v.kind != vObject {
					// Show the declarator alone: `const a = 1`, not `const x = 0, a = 1`.
					last := end
					if (v.kind == vFunc || v.kind == vClass) && v.headEnd > k {
						last = v.headEnd
					}
					v.sig = f.tok(i).text + " " + f.render(k, last)
				}
				if k != i+1 {
					v.doc = f.tok(k).doc // a later declarator: only a comment of its own
				}
				v.isConst = isConst
				v.binds = append(v.binds, t.text)
				v.depth = t.depth
				f.declare(t.text, v)
				if named != nil {
					*named = append(*named, &member{name: t.text, val: v, sig: v.sig, line: v.line, doc: v.doc})
				}
				k = f.exprEnd(end + 1)
			} else {
				v := &value{kind: vUnknown, file: f, line: t.line, doc: f.tok(i).doc, sig: f.render(i, k), depth: t.depth, binds: []string{t.text}}
				f.declare(t.text, v)
				if named != nil {
					*named = append(*named, &member{name: t.text, val: v, sig: v.sig, line: v.line, doc: v.doc})
				}
				k = f.exprEnd(k + 1)
			}
		case t.text == "{" || t.text == "[":
			// Destructuring: const { a, b: c } = require("./x").
			end := f.closeOf(k)
			if f.tok(end+1).text != "=" {
				return end
			}
			src, vend := f.parseValue(end+2, end+2)
			if t.text == "{" {
				f.eachBinding(k, end, ":", func(key, local string, p int) {
					var v *value
					switch src.kind {
					case vModule:
						v = &value{kind: vModule, file: f, spec: src.spec, prop: key, line: f.tok(p).line, depth: t.depth}
					case vRef:
						v = &value{kind: vRef, file: f, ref: src.ref + "." + key, line: f.tok(p).line, depth: t.depth}
					default:
						v = &value{kind: vUnknown, file: f, line: f.tok(p).line, depth: t.depth}
					}
					v.sig = f.tok(i).text + " { " + f.render(p, f.nextItem(p, end)-2) + " } = " + src.sig
					f.declare(local, v)
					if named != nil {
						*named = append(*named, &member{name: local, val: v, sig: v.sig, line: v.line})
					}
				})
			}
			k = f.exprEnd(vend + 1)
		default:
			return k
		}
		if f.tok(k).text != "," {
			return k
		}
		k++
	}
	return k
}

// parseAssignment reads `a.b.c = d = value` starting at toks[i] when it is one.
// extra are targets written before toks[i] (a declarator's name). It returns the value assigned
// and the index of its last token, or nil.
func (f *jsFile) parseAssignment(i int, extra []string) (*value, int) {
	targets := extra
	k := i
	for len(targets) < maxChain {
		path, end, ok := f.memberPath(k)
		if !ok || f.tok(end+1).text != "=" {
			break
		}
		targets = append(targets, path)
		k = end + 2
	}
	if len(targets) == len(extra) {
		return nil, i
	}
	f.chainUntil = max(f.chainUntil, k)
	v, vend := f.parseValue(k, i)
	if (v.kind == vFunc || v.kind == vClass) && v.headEnd >= k {
		v.sig = f.render(i, v.headEnd)
	}
	depth := f.tok(i).depth
	firstOn := map[string]string{} // object → the name its first target of the chain gives it
	for n, target := range targets {
		switch {
		case target == "exports" || target == "module.exports" || strings.HasSuffix(target, ".exports") && strings.Count(target, ".") == 1 &&
			strings.HasSuffix(strings.ToLower(strings.SplitN(target, ".", 2)[0]), "module"):
			if f.main == nil || depth < f.mainAt {
				f.main, f.mainAt = v, depth
				f.mainBind = nil
				for m, other := range targets {
					if m != n {
						f.mainBind = append(f.mainBind, other)
					}
				}
			}
		case strings.HasPrefix(target, "this."):
		case strings.Contains(target, "."):
			dot := strings.LastIndexByte(target, '.')
			obj, name := target[:dot], target[dot+1:]
			if strings.HasSuffix(obj, ".exports") && strings.HasSuffix(strings.ToLower(strings.SplitN(obj, ".", 2)[0]), "module") {
				obj = "exports"
			}
			if name == "prototype" {
				if v.kind == vObject {
					for _, m := range v.members {
						f.addProp(target, &member{name: m.name, val: m.val, doc: m.doc, sig: m.sig, line: m.line, proto: true})
					}
				}
				continue
			}
			m := &member{name: name, val: v, doc: f.tok(i).doc, sig: v.sig, line: f.tok(i).line,
				proto: strings.HasSuffix(obj, ".prototype")}
			if first, ok := firstOn[obj]; ok && first != name {
				m.aliasOf, m.sig = first, obj+"."+name+" = "+obj+"."+first
			} else {
				firstOn[obj] = name
			}
			f.addProp(obj, m)
		default:
			if _, ok := f.decls[target]; !ok {
				w := *v
				w.binds = []string{target}
				f.declare(target, &w)
			} else if v.kind == vObject || v.kind == vFunc || v.kind == vClass {
				// var app = …; app = exports = module.exports = {}: the members are the app's too.
				v.binds = append(v.binds, target)
			}
		}
	}
	return v, vend
}

// Bounds on what one statement may hold, so hostile input stays linear.
const (
	maxProps     = 5000 // members assigned onto one object
	maxChain     = 16   // targets of one assignment chain, a = b = c = …
	maxPathParts = 16   // components of a member path, a.b.c…
)

func (f *jsFile) addProp(obj string, m *member) {
	if len(f.props[obj]) < maxProps {
		f.props[obj] = append(f.props[obj], m)
	}
}

// path reads a member path at toks[i]: a.b.c, a["b"], a.prototype.c. end is its last token.
func (f *jsFile) memberPath(i int) (path string, end int, ok bool) {
	t := f.tok(i)
	if t.kind != tIdent || reserved[t.text] && t.text != "this" {
		return "", i, false
	}
	path = t.text
	k := i
	for parts := 1; ; parts++ {
		if parts > maxPathParts {
			return "", k, false
		}
		switch {
		case f.tok(k+1).text == "." && f.tok(k+2).kind == tIdent:
			path += "." + f.tok(k+2).text
			k += 2
		case f.tok(k+1).text == "[" && f.tok(k+2).kind == tString && f.tok(k+3).text == "]":
			path += "." + unquote(f.tok(k+2).text)
			k += 3
		default:
			return path, k, true
		}
	}
}

// parseDefineProperty reads Object.defineProperty(obj, "x", descriptor) with toks[open] its
// "(": a property of obj (see defineProp), documented by the JSDoc above the statement.
func (f *jsFile) parseDefineProperty(open int) {
	target, end, ok := f.memberPath(open + 1)
	if !ok || f.tok(end+1).text != "," || f.tok(end+2).kind != tString || f.tok(end+3).text != "," || f.tok(end+4).text != "{" {
		return
	}
	f.defineProp(target, unquote(f.tok(end+2).text), end+4, f.tok(open-3).doc, f.tok(open).line)
}

// parseDefineProperties reads Object.defineProperties(obj, { x: descriptor, … }) with
// toks[open] its "(": each key a property of obj, documented by the JSDoc above the key.
func (f *jsFile) parseDefineProperties(open int) {
	target, end, ok := f.memberPath(open + 1)
	if !ok || f.tok(end+1).text != "," || f.tok(end+2).text != "{" {
		return
	}
	obj := end + 2
	close := f.closeOf(obj)
	for k, n := obj+1, 0; k < close && n < maxMembers; k, n = f.nextItem(k, close), n+1 {
		if name, ok := propName(f.tok(k)); ok && f.tok(k+1).text == ":" && f.tok(k+2).text == "{" {
			f.defineProp(target, name, k+2, f.tok(k).doc, f.tok(k).line)
		}
	}
}

// defineProp records property name of the object at path target, defined by the property
// descriptor whose "{" is toks[desc] (https://tc39.es/ecma262/#sec-object.defineproperty):
//
//   - { value: v } gives the property the value v;
//   - { get: function () { return a.b } }, a getter that only returns a path not through
//     "this", re-exports that path (TypeScript's and Babel's CommonJS output);
//   - any other getter makes an accessor property, a member with no value the scanner follows
//     (express's req.protocol, computed from the request).
//
// Object.defineProperty(module, "exports", …) sets the module's value instead.
func (f *jsFile) defineProp(target, name string, desc int, doc string, line int) {
	if name == "__esModule" {
		return
	}
	if target == "module.exports" {
		target = "exports"
	}
	if target == "module" && name == "exports" {
		target, name = "", ""
	}
	close := f.closeOf(desc)
	var v *value
	accessor := false
	for _, m := range f.parseObject(desc, close) {
		switch m.name {
		case "value":
			v = m.val
		case "get":
			v = f.getterPath(desc, close)
			accessor = v == nil
		}
	}
	if accessor && name != "" {
		v = &value{kind: vUnknown, file: f, line: line, sig: "get " + name + "()"}
	}
	if v == nil {
		return
	}
	if v.headEnd > 0 {
		v.sig = f.render(desc, v.headEnd)
	}
	if name == "" {
		if f.main == nil {
			f.main, f.mainAt = v, f.tok(desc).depth
		}
		return
	}
	f.addProp(target, &member{name: name, val: v, doc: doc, sig: v.sig, line: line, field: accessor})
}

// getterPath returns what the getter of the descriptor between toks[desc] and toks[close]
// re-exports when its body is one return statement (get: function () { return m.x; }): the
// returned path, or the returned value (a require). It returns nil for a getter that computes
// its value: one whose return is not the body's first statement or goes through "this".
func (f *jsFile) getterPath(desc, close int) *value {
	for k := desc; k < close; k++ {
		if f.tok(k).text != "return" {
			continue
		}
		if f.tok(k-1).text != "{" || f.tok(k+1).text == "this" {
			return nil
		}
		if p, pend, ok := f.memberPath(k + 1); ok && f.tok(pend+1).text != "(" {
			return &value{kind: vRef, file: f, ref: p, line: f.tok(k).line, sig: f.render(k+1, pend)}
		}
		v, _ := f.parseValue(k+1, k+1)
		return v
	}
	return nil
}

// noteDefineCall records the statement at toks[i] when it is a call helper(obj, "name", x) of a
// plain function name: a candidate for a helper that defines a property (express's
// defineGetter(req, 'ip', function ip() {…})), decided once the whole file is read, since a
// function declaration may follow its calls (see applyDefineCalls).
func (f *jsFile) noteDefineCall(i int) {
	if f.tok(i).kind != tIdent || reserved[f.tok(i).text] || len(f.calls) >= maxProps {
		return
	}
	_, end, ok := f.memberPath(i + 2)
	if ok && f.tok(end+1).text == "," && f.tok(end+2).kind == tString && f.tok(end+3).text == "," {
		f.calls = append(f.calls, i)
	}
}

// applyDefineCalls turns the calls noteDefineCall recorded into properties, for those whose
// helper is a function of this file that passes its first two parameters to
// Object.defineProperty as the object and the name, and its third as the descriptor's get (an
// accessor property) or value (the property's value). The JSDoc above the call documents it.
func (f *jsFile) applyDefineCalls() {
	roles := map[*value]string{}
	for _, i := range f.calls {
		fn := f.decls[f.tok(i).text]
		if fn == nil || fn.kind != vFunc {
			continue
		}
		role, ok := roles[fn]
		if !ok {
			role = f.definerRole(fn)
			roles[fn] = role
		}
		if role == "" {
			continue
		}
		target, end, _ := f.memberPath(i + 2)
		name := unquote(f.tok(end + 2).text)
		if target == "module.exports" {
			target = "exports"
		}
		if name == "__esModule" || target == "module" {
			continue
		}
		line := f.tok(i).line
		m := &member{name: name, doc: f.tok(i).doc, line: line}
		if role == "get" {
			m.val = &value{kind: vUnknown, file: f, line: line, sig: "get " + name + "()"}
			m.field = true
		} else {
			m.val, _ = f.parseValue(end+4, i)
		}
		m.sig = m.val.sig
		// In source order among the members assigned while the file was read.
		ms := f.props[target]
		at := len(ms)
		for at > 0 && ms[at-1].line > line {
			at--
		}
		if len(ms) < maxProps {
			f.props[target] = slices.Insert(ms, at, m)
		}
	}
}

// definerRole says how function fn defines a property with its first three parameters
// (obj, name, x): "get" when its body calls Object.defineProperty(obj, name, { … get: x … }),
// "value" for { … value: x … }, else "".
func (f *jsFile) definerRole(fn *value) string {
	k := fn.at + 1
	if f.tok(k).text == "*" {
		k++
	}
	if f.tok(k).kind == tIdent && f.tok(k).text != "(" {
		k++
	}
	if fn.at <= 0 || f.tok(k).text != "(" || f.tok(fn.headEnd+1).text != "{" {
		return ""
	}
	var params []string
	for p, end := k, f.closeOf(k); p < end && len(params) < 3; p += 2 {
		if f.tok(p+1).kind != tIdent || f.tok(p+2).text != "," && f.tok(p+2).text != ")" {
			break
		}
		params = append(params, f.tok(p+1).text)
	}
	if len(params) < 3 {
		return ""
	}
	body := fn.headEnd + 1
	for k, end := body+1, f.closeOf(body); k < end; k++ {
		if f.tok(k).text != "Object" || f.tok(k+1).text != "." || f.tok(k+2).text != "defineProperty" || f.tok(k+3).text != "(" ||
			f.tok(k+4).text != params[0] || f.tok(k+5).text != "," || f.tok(k+6).text != params[1] || f.tok(k+7).text != "," ||
			f.tok(k+8).text != "{" {
			continue
		}
		desc := k + 8
		for _, m := range f.parseObject(desc, f.closeOf(desc)) {
			if m.val == nil || m.val.kind != vRef || m.val.ref != params[2] {
				continue
			}
			switch m.name {
			case "get":
				return "get"
			case "value":
				return "value"
			}
		}
	}
	return ""
}

// parseExport reads an ECMAScript export declaration at toks[i].
func (f *jsFile) parseExport(i int) {
	n := f.tok(i + 1)
	switch {
	case n.text == "default":
		v, _ := f.parseValue(i+2, i+2)
		v.doc = n.doc
		if v.doc == "" {
			v.doc = f.tok(i).doc
		}
		if v.name != "" {
			v.binds = []string{v.name}
			f.declare(v.name, v)
		}
		f.esmDef = v
	case n.text == "function" || n.text == "async" || n.text == "class":
		v, _ := f.parseValue(i+1, i+1)
		v.doc = f.tok(i).doc
		if v.name == "" {
			return
		}
		v.binds = []string{v.name}
		f.declare(v.name, v)
		f.named = append(f.named, &member{name: v.name, val: v, sig: v.sig, line: v.line, doc: v.doc})
	case n.text == "var" || n.text == "let" || n.text == "const":
		var named []*member
		f.parseDeclarators(i+1, &named)
		if len(named) > 0 && named[0].doc == "" {
			named[0].doc = f.tok(i).doc
			named[0].val.doc = f.tok(i).doc
		}
		f.named = append(f.named, named...)
	case n.text == "*":
		k := i + 2
		as := ""
		if f.tok(k).text == "as" {
			as = f.tok(k + 1).text
			k += 2
		}
		if f.tok(k).text == "from" && f.tok(k+1).kind == tString {
			spec := unquote(f.tok(k + 1).text)
			if as == "" {
				f.stars = append(f.stars, star{spec: spec})
			} else {
				f.named = append(f.named, &member{name: as, doc: f.tok(i).doc, line: f.tok(i).line, sig: f.render(i, k+1),
					val: &value{kind: vModule, file: f, spec: spec, line: f.tok(i).line, sig: f.render(i, k+1)}})
			}
		}
	case n.text == "{":
		end := f.closeOf(i + 1)
		spec := ""
		if f.tok(end+1).text == "from" && f.tok(end+2).kind == tString {
			spec = unquote(f.tok(end + 2).text)
		}
		for p := i + 2; p < end; p = f.nextItem(p, end) {
			local, ok := propName(f.tok(p))
			if !ok {
				continue
			}
			as := local
			if f.tok(p+1).text == "as" {
				if a, ok := propName(f.tok(p + 2)); ok {
					as = a
				}
			}
			var v *value
			if spec != "" {
				v = &value{kind: vModule, file: f, spec: spec, prop: local, line: f.tok(p).line}
			} else {
				v = &value{kind: vRef, file: f, ref: local, line: f.tok(p).line}
			}
			v.sig = f.render(p, f.nextItem(p, end)-2)
			if as == "default" {
				f.esmDef = v
				continue
			}
			f.named = append(f.named, &member{name: as, val: v, line: v.line, doc: f.tok(p).doc})
		}
	}
}

// parseImport reads an ECMAScript import declaration at toks[i], declaring its bindings.
func (f *jsFile) parseImport(i int) {
	k := i + 1
	end := f.exprEnd(k)
	fromAt := -1
	for p := k; p < end && p < len(f.toks)-2; p++ {
		if f.tok(p).text == "{" {
			p = f.closeOf(p)
			continue
		}
		if f.tok(p).text == "from" && f.tok(p+1).kind == tString {
			fromAt = p
			break
		}
	}
	if fromAt < 0 {
		return
	}
	spec := unquote(f.tok(fromAt + 1).text)
	bind := func(local, prop string, at int) {
		f.declare(local, &value{kind: vModule, file: f, spec: spec, prop: prop, line: f.tok(at).line, depth: 0,
			sig: "import " + f.render(at, at)})
	}
	for p := k; p < fromAt; p++ {
		t := f.tok(p)
		switch {
		case t.text == "*" && f.tok(p+1).text == "as" && f.tok(p+2).kind == tIdent:
			bind(f.tok(p+2).text, "", p+2)
			p += 2
		case t.text == "{":
			close := f.closeOf(p)
			f.eachBinding(p, close, "as", func(name, local string, q int) { bind(local, name, q) })
			p = close
		case t.kind == tIdent && t.text != "type":
			bind(t.text, "default", p)
		}
	}
}
