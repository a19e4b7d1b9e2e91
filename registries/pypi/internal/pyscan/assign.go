package pyscan

import (
	"strings"

	"github.com/docidx/docidx"
)

// keywords are Python's keywords, which never start an assignment. Soft keywords (match, case,
// type, _) are names an assignment may bind ("type: str" in a TypedDict).
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true,
	"elif": true, "else": true, "except": true, "finally": true, "for": true, "from": true,
	"global": true, "if": true, "import": true, "in": true, "is": true, "lambda": true,
	"nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true,
}

// typeFactories are calls whose result is a type variable or a new type, not a constant
// (T = TypeVar("T")).
var typeFactories = map[string]bool{
	"TypeVar": true, "ParamSpec": true, "TypeVarTuple": true, "NewType": true, "TypeAliasType": true,
}

// assignment records a statement that binds one name at module level (cls nil) or in the body
// of class cls: "NAME = value", "name: type = value" or "name: type"
// (https://docs.python.org/3/reference/simple_stmts.html#assignment-statements). It returns
// the item made, or nil for any other statement.
//
// At module level an UPPER_CASE name or one annotated Final is a constant (KindConst); another
// name is a variable (KindVar) kept only when the module's __all__ lists it or, in a .pyi stub,
// whose declarations are its interface (the typing spec's "Stub files": names without a
// leading underscore are public), always: loguru/__init__.pyi declares "logger: Logger", the
// object everyone imports. In a class, an
// UPPER_CASE or Final name is a constant, a member of an Enum class is a constant, and any other
// name is a field (KindField): class attributes, dataclass, attrs and pydantic fields,
// TypedDict keys and NamedTuple fields alike. Type variables (TypeVar, ParamSpec, NewType …) are
// skipped. The Signature is the statement as written with the value cut at MaxValue bytes;
// the Doc comes from "#:" comments right above the statement or after it on its line
// (https://www.sphinx-doc.org/en/master/usage/extensions/autodoc.html#directive-autoattribute),
// from a string statement right after it (which the caller attaches), or from a
// description="…" argument of the value (pydantic's Field).
func (s *scanner) assignment(toks []token, cls *item) *item {
	name, annotation, value, ok := s.splitAssignment(toks)
	if !ok {
		return nil
	}
	if len(value) > 0 && value[0].kind == tName && typeFactories[lastDotted(s.dottedName(value))] && len(value) > 1 {
		return nil
	}
	final := len(annotation) > 0 && lastDotted(s.dottedName(annotation)) == "Final"
	kind := docidx.KindVar
	switch {
	case IsUpperName(name) || final:
		kind = docidx.KindConst
	case cls != nil && cls.enum && len(value) > 0:
		kind = docidx.KindConst
	case cls != nil:
		kind = docidx.KindField
	}
	key := name
	if cls != nil {
		key = cls.name + "." + name
	}
	it, ok := s.byKey[key]
	switch {
	case ok && !it.needsDoc:
		return nil // defined before: the first definition stands
	case ok:
		// An instance attribute __init__ documented before the class body declared it: the
		// declaration stands, with the attribute's doc when it has none of its own.
		doc := it.doc
		*it = item{kind: kind, name: name, cls: cls, line: toks[0].line, assign: true}
		it.doc = doc
	default:
		it = &item{kind: kind, name: name, cls: cls, line: toks[0].line, assign: true, onlyInAll: kind == docidx.KindVar && !s.stub()}
		s.byKey[key] = it
		s.items = append(s.items, it)
	}
	s.setValue(it, annotation, value)
	if doc := s.commentDoc(toks); doc != "" {
		it.doc = doc
	}
	if it.doc == "" && len(value) > 0 {
		it.doc = s.descriptionArg(value)
	}
	if it.doc == "" {
		it.doc = s.annotatedDoc(annotation)
	}
	return it
}

// unpacking records the UPPER_CASE names a module-level tuple assignment binds, as constants
// ("(MSG_OK, MSG_FAIL) = range(2)", "A, B = 1, 2", paramiko's message numbers): the names before
// the "=" outside brackets, each a constant whose signature is the whole statement (cut at
// MaxSignature). Names that are not UPPER_CASE, a target that is not only names, and a name
// defined before are left alone.
func (s *scanner) unpacking(toks []token) {
	eq, depth := -1, 0
	for i, t := range toks {
		if t.kind != tOp {
			continue
		}
		switch s.src[t.start] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		}
		if depth == 0 && s.is(t, "=") {
			eq = i
			break
		}
	}
	if eq <= 0 || eq == len(toks)-1 {
		return
	}
	var names []token
	for _, t := range toks[:eq] {
		switch {
		case t.kind == tName && !keywords[s.text(t)]:
			names = append(names, t)
		case t.kind == tOp && (s.is(t, ",") || s.is(t, "(") || s.is(t, ")") || s.is(t, "[") || s.is(t, "]")):
		default:
			return // an attribute, a subscript, a starred name …
		}
	}
	if len(names) < 2 {
		return
	}
	sig := cut(s.render(toks[:eq])+" = "+cutValue(s.render(toks[eq+1:]), MaxValue), MaxSignature)
	for _, t := range names {
		name := s.text(t)
		if !IsUpperName(name) {
			continue
		}
		if _, ok := s.byKey[name]; ok {
			continue
		}
		it := &item{kind: docidx.KindConst, name: name, line: t.line, assign: true, sigs: []string{sig}}
		s.byKey[name] = it
		s.items = append(s.items, it)
	}
}

// setValue sets the signature of an assigned item: "name[: annotation][ = value]", the value
// cut at MaxValue bytes after an item or argument (cutValue). In a .pyi stub a value of "..."
// only says the name is assigned, not what to: "msg: str = ..." is "msg: str".
func (s *scanner) setValue(it *item, annotation, value []token) {
	if len(value) == 1 && s.isOp(value[0], stubDefault) && s.stub() {
		value = nil
	}
	sig := it.name
	if len(annotation) > 0 {
		it.annotation = s.render(s.withoutDocs(annotation))
		sig += ": " + it.annotation
	}
	if len(value) > 0 {
		it.value = cutValue(s.render(value), MaxValue)
		sig += " = " + it.value
		it.hasValue = true
	}
	it.sigs = []string{cut(sig, MaxSignature)}
}

// instanceAttribute records "self.name = value" (or "self.name: type = value") in the body of
// __init__ of class cls, as Sphinx's autodoc reads instance attributes: a public attribute
// documented by "#:" comments or a string statement right after it (which the caller attaches)
// becomes a field; one the class body declares with a type only ("max_redirects: int") gets
// the value __init__ assigns appended to that declaration, and its doc when it has none. A
// value that is just one of __init__'s parameters ("self.name = name") says nothing of a
// default and is left out. It returns the field, or nil for any other statement.
func (s *scanner) instanceAttribute(toks []token, init *item) *item {
	cls := init.cls
	if len(toks) < 5 || !s.isName(toks[0], "self") || !s.isOp(toks[1], ".") {
		return nil
	}
	name, annotation, value, ok := s.splitAssignment(toks[2:])
	if !ok || strings.HasPrefix(name, "_") {
		return nil
	}
	if len(value) == 1 && value[0].kind == tName {
		for _, p := range init.params {
			if p.name == s.text(value[0]) {
				value = nil
				break
			}
		}
	}
	key := cls.name + "." + name
	it := s.byKey[key]
	switch {
	case it == nil:
		it = &item{kind: docidx.KindField, name: name, cls: cls, line: toks[0].line, assign: true, needsDoc: true}
		s.byKey[key] = it
		s.items = append(s.items, it)
		s.setValue(it, annotation, value)
	case !it.assign || it.cls != cls:
		return nil
	case !it.hasValue && len(value) > 0:
		head := it.sigs[0] + " = "
		it.sigs = []string{head + cutValue(s.render(value), max(min(MaxValue, MaxSignature-len(head)), 0))}
		it.hasValue = true
	}
	if it.doc == "" {
		it.doc = s.commentDoc(toks)
	}
	return it
}

// splitAssignment reads a statement binding one name: "name = value", "name: annotation =
// value" or "name: annotation". In a chained assignment ("A = B = 1") value is the last
// expression. ok is false for any other statement.
func (s *scanner) splitAssignment(toks []token) (name string, annotation, value []token, ok bool) {
	if len(toks) < 2 || toks[0].kind != tName || keywords[s.text(toks[0])] {
		return "", nil, nil, false
	}
	name = s.text(toks[0])
	colon, eq := -1, -1
	switch {
	case s.isOp(toks[1], "="):
		eq = 1
	case s.isOp(toks[1], ":") && len(toks) >= 3:
		colon = 1
		depth := 0
		for i := 2; i < len(toks); i++ {
			depth += s.nesting(toks[i])
			if depth == 0 && s.isOp(toks[i], "=") {
				eq = i
				break
			}
		}
	default:
		return "", nil, nil, false
	}
	switch {
	case colon >= 0 && eq >= 0:
		annotation, value = toks[colon+1:eq], toks[eq+1:]
	case colon >= 0:
		annotation = toks[colon+1:]
	default:
		value = toks[eq+1:]
		// In a chained assignment "A = B = 1" the value is after the last "=" outside brackets.
		depth, last := 0, -1
		for i, t := range value {
			depth += s.nesting(t)
			if depth == 0 && s.isOp(t, "=") {
				last = i
			}
		}
		value = value[last+1:]
	}
	if colon >= 0 && len(annotation) == 0 || eq >= 0 && len(value) == 0 {
		return "", nil, nil, false
	}
	return name, annotation, value, true
}

// lastDotted returns the last component of a dotted name ("typing.Final" -> "Final").
func lastDotted(n string) string { return n[strings.LastIndexByte(n, '.')+1:] }

// IsUpperName reports whether name is an UPPER_CASE constant name as PEP 8 writes one (and as
// Scan tells a constant from a variable): at least two characters, a letter among them, and no
// lower-case or non-ASCII letter.
func IsUpperName(name string) bool {
	if len(name) < 2 {
		return false
	}
	letter := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z' || c >= 0x80:
			return false
		case 'A' <= c && c <= 'Z':
			letter = true
		}
	}
	return letter
}

// maxCommentLines bounds the "#:" comment lines read above one assignment.
const maxCommentLines = 64

// commentDoc returns the "#:" comment documenting the statement toks: the "#:" lines right
// above its first line (without a blank line between), else a "#:" comment at the end of its
// last line. Each line loses "#:" and one space; lines are joined with line breaks.
func (s *scanner) commentDoc(toks []token) string {
	src := s.src
	var above []string
	for end := lineStart(src, toks[0].start); end > 0 && len(above) < maxCommentLines; {
		var line string
		line, end = lineAbove(src, end)
		text, ok := strings.CutPrefix(strings.TrimSpace(line), "#:")
		if !ok {
			break
		}
		above = append(above, strings.TrimPrefix(text, " "))
	}
	if len(above) > 0 {
		for i, j := 0, len(above)-1; i < j; i, j = i+1, j-1 {
			above[i], above[j] = above[j], above[i]
		}
		return cut(strings.TrimSpace(strings.Join(above, "\n")), maxRawDoc)
	}
	p := toks[len(toks)-1].end
	e := p
	for e < len(src) && src[e] != '\n' && src[e] != '\r' {
		e++
	}
	rest := strings.TrimSpace(string(src[p:e]))
	if text, ok := strings.CutPrefix(rest, "#:"); ok {
		return cut(strings.TrimSpace(text), maxRawDoc)
	}
	return ""
}

// descriptionArg returns the string passed as description=… in the value of a field
// (pydantic's Field(…, description="…")), or "".
func (s *scanner) descriptionArg(value []token) string {
	for i := 0; i+2 < len(value); i++ {
		if s.isName(value[i], "description") && s.isOp(value[i+1], "=") {
			if doc, ok := s.docstring(stringRun(value[i+2:])); ok {
				return cut(cleandoc(doc), maxRawDoc)
			}
		}
	}
	return ""
}

// stringRun returns the string tokens at the start of toks (implicitly concatenated literals).
func stringRun(toks []token) []token {
	n := 0
	for n < len(toks) && toks[n].kind == tString {
		n++
	}
	return toks[:n]
}

// baseNames returns the last names of the bases in a class header's parentheses (the tokens
// after the class name): "(enum.IntEnum, metaclass=M)" gives "IntEnum" and "metaclass".
func (s *scanner) baseNames(toks []token) []string {
	if len(toks) == 0 || !s.isOp(toks[0], "(") {
		return nil
	}
	var out []string
	depth := 0
	for i, t := range toks {
		if t.kind == tOp {
			depth += s.nesting(t)
			continue
		}
		if depth != 1 || t.kind != tName || i > 0 && s.isOp(toks[i-1], ".") {
			continue
		}
		out = append(out, lastDotted(s.dottedName(toks[i:])))
	}
	return out
}

// enumBases reports whether a class's bases (baseNames) include an Enum or a Flag.
func enumBases(bases []string) bool {
	for _, n := range bases {
		if strings.HasSuffix(n, "Enum") || n == "Flag" || n == "IntFlag" {
			return true
		}
	}
	return false
}

// fieldInitClass reports whether a class with these decorators and bases (baseNames) gets an
// __init__ generated from its fields: @dataclass (dataclasses, pydantic), @attr.s,
// @attr.attrs, @attrs.define/frozen/mutable (https://peps.python.org/pep-0681/), or a base
// BaseModel, BaseSettings or NamedTuple.
func fieldInitClass(decos []decorator, bases []string) bool {
	for _, d := range decos {
		switch lastDotted(d.name) {
		case "dataclass", "define", "frozen", "mutable":
			return true
		case "s", "attrs":
			if strings.Contains(d.name, ".") {
				return true
			}
		}
	}
	for _, n := range bases {
		switch n {
		case "BaseModel", "BaseSettings", "NamedTuple":
			return true
		}
	}
	return false
}

// isOverload reports whether decos include @overload (typing.overload).
func isOverload(decos []decorator) bool {
	for _, d := range decos {
		if lastDotted(d.name) == "overload" {
			return true
		}
	}
	return false
}
