package pyscan

import (
	"cmp"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Docstring limits.
const (
	// maxParams bounds the parameters parsed from one docstring.
	maxParams = 256
	// MaxParamDoc is the longest Param.Doc kept, in bytes; a longer one is cut with "…".
	MaxParamDoc = 2 << 10
)

// Params parses the parameter documentation of a docstring cleaned as inspect.cleandoc does,
// in one of the three styles Python projects use:
//
//   - reStructuredText field lists as Sphinx reads them
//     (https://www.sphinx-doc.org/en/master/usage/domains/python.html#info-field-lists):
//     ":param [type] name: description", ":type name: type", and the ":keyword", ":kwarg",
//     ":arg", ":argument", ":parameter" and ":key" synonyms; the description continues on the
//     following lines indented deeper than the field;
//   - Google style (https://google.github.io/styleguide/pyguide.html#383-functions-and-methods):
//     an "Args:", "Arguments:", "Parameters:", "Params:", "Keyword Args:", "Keyword Arguments:"
//     or "Other Parameters:" line, then one "name (type): description" or "name: description"
//     entry per parameter, indented, with deeper-indented continuation lines;
//   - NumPy style (https://numpydoc.readthedocs.io/en/latest/format.html#parameters):
//     a "Parameters", "Other Parameters" or "Keyword Arguments" heading underlined with dashes,
//     then "name : type" lines (several names may share one: "x1, x2 : int") with the
//     description indented below; "default 10" or "default=10" in the type part becomes
//     Default.
//
// A description that states its default ("Defaults to 30.", "(default: *30*)", a Google
// "Default: None" line under the entry) gives Default too when the value is a literal or
// inline code ([docDefault]).
//
// Params are returned in the order the docstring documents them, one per name; a name
// documented twice keeps its first description (":type" fields only set the type). Names lose
// the reStructuredText escapes of "\*args". Doc is the description's lines dedented and joined
// with line breaks, blank lines between paragraphs kept, cut at MaxParamDoc bytes. At most
// maxParams parameters are returned; nil when the docstring documents none.
func Params(clean string) []docidx.Param {
	return parseFields(clean, paramSections)
}

// Attributes parses the attribute documentation of a class docstring the way [Params] parses
// parameters: reST ":ivar name:", ":cvar name:" and ":var name:" fields (with ":vartype"),
// a Google "Attributes:" section, a NumPy "Attributes" section. Fields documented there and
// nowhere else take their Doc from it.
func Attributes(clean string) []docidx.Param {
	return parseFields(clean, attributeSections)
}

// sections names the reST fields and the Google and NumPy headings of one kind of entry.
type sections struct {
	fields, typeFields, google, numpy map[string]bool
}

var (
	paramSections = sections{
		fields:     set("param", "parameter", "arg", "argument", "key", "keyword", "kwarg", "kwparam"),
		typeFields: set("type", "kwtype"),
		google: set("args", "arguments", "parameters", "params", "keyword args", "keyword arguments",
			"kwargs", "other parameters", "other params"),
		numpy: set("parameters", "other parameters", "keyword arguments", "params", "arguments"),
	}
	attributeSections = sections{
		fields:     set("ivar", "cvar", "var"),
		typeFields: set("vartype"),
		google:     set("attributes"),
		numpy:      set("attributes"),
	}
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func parseFields(clean string, sec sections) []docidx.Param {
	lines := strings.Split(clean, "\n")
	var ps paramSet
	ps.rest(lines, sec)
	ps.google(lines, sec)
	ps.numpy(lines, sec)
	return ps.list
}

// paramSet collects parameters by name.
type paramSet struct {
	list  []docidx.Param
	index map[string]int
	types map[string]string // ":type x:" fields seen before their ":param x:"
}

func (ps *paramSet) add(p docidx.Param) {
	p.Name = strings.ReplaceAll(strings.TrimSpace(p.Name), `\`, "")
	p.Type = strings.TrimSpace(p.Type)
	p.Doc = cut(strings.TrimSpace(p.Doc), MaxParamDoc)
	if p.Name == "" || !validParamName(p.Name) {
		return
	}
	if p.Default == "" {
		p.Default = docDefault(p.Doc)
	}
	if ps.index == nil {
		ps.index = map[string]int{}
	}
	if i, ok := ps.index[p.Name]; ok {
		q := &ps.list[i]
		if q.Type == "" {
			q.Type = p.Type
		}
		if q.Doc == "" {
			q.Doc = p.Doc
		}
		if q.Default == "" {
			q.Default = p.Default
		}
		return
	}
	if len(ps.list) >= maxParams {
		return
	}
	if p.Type == "" && ps.types != nil {
		p.Type = ps.types[p.Name]
	}
	ps.index[p.Name] = len(ps.list)
	ps.list = append(ps.list, p)
}

func (ps *paramSet) setType(name, typ string) {
	name = strings.ReplaceAll(strings.TrimSpace(name), `\`, "")
	typ = strings.TrimSpace(typ)
	if i, ok := ps.index[name]; ok {
		if ps.list[i].Type == "" {
			ps.list[i].Type = typ
		}
		return
	}
	if ps.types == nil {
		ps.types = map[string]string{}
	}
	ps.types[name] = typ
}

// validParamName reports whether n is an identifier with at most two leading stars, or a
// dotted path of identifiers ("options.timeout").
func validParamName(n string) bool {
	n = strings.TrimPrefix(strings.TrimPrefix(n, "*"), "*")
	for _, part := range strings.Split(n, ".") {
		if !isIdentifier(part) {
			return false
		}
	}
	return true
}

func isIdentifier(s string) bool {
	if s == "" || s == "True" || s == "False" || s == "None" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isIdentStart(c) || i > 0 && isDigit(c)) {
			return false
		}
	}
	return true
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// body returns the lines after lines[i] that belong to an item indented ind: those indented
// deeper, and blank lines followed by such lines. It returns them dedented to their common
// indentation, and the index of the first line after the item.
func body(lines []string, i, ind int) ([]string, int) {
	j := i + 1
	end := j
	for ; j < len(lines); j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		if indentOf(lines[j]) <= ind {
			break
		}
		end = j + 1
	}
	out := lines[i+1 : end]
	margin := -1
	for _, l := range out {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if m := indentOf(l); margin < 0 || m < margin {
			margin = m
		}
	}
	res := make([]string, len(out))
	for k, l := range out {
		if len(l) >= margin && margin > 0 {
			l = l[margin:]
		}
		res[k] = strings.TrimRight(l, " ")
	}
	return res, end
}

// joinDoc joins the first line of a description (the text after the colon) with its body.
func joinDoc(first string, rest []string) string {
	first = strings.TrimSpace(first)
	text := strings.TrimSpace(strings.Join(rest, "\n"))
	switch {
	case first == "":
		return text
	case text == "":
		return first
	}
	return first + "\n" + text
}

// restFieldRE matches a reStructuredText field line: ":name args: text".
var restFieldRE = regexp.MustCompile(`^(\s*):([A-Za-z]+)((?:\s+[^:\s][^:]*)?):\s*(.*)$`)

// rest reads ":param …:" and ":type …:" fields.
func (ps *paramSet) rest(lines []string, sec sections) {
	for i := 0; i < len(lines); i++ {
		m := restFieldRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		ind := len(m[1])
		field := strings.ToLower(m[2])
		args := strings.Fields(m[3])
		rest, end := body(lines, i, ind)
		switch {
		case sec.fields[field]:
			if len(args) == 0 {
				continue
			}
			p := docidx.Param{Name: args[len(args)-1], Doc: joinDoc(m[4], rest)}
			if len(args) > 1 {
				p.Type = strings.Join(args[:len(args)-1], " ")
			}
			ps.add(p)
		case sec.typeFields[field]:
			if len(args) == 1 {
				ps.setType(args[0], joinDoc(m[4], rest))
			}
		default:
			continue
		}
		i = end - 1
	}
}

// googleEntryRE matches "name (type): text", "name: text" or "*args: text".
var googleEntryRE = regexp.MustCompile(`^(\*{0,2}[A-Za-z_][A-Za-z0-9_.]*)\s*(?:\(([^)]*)\))?\s*:(?:\s+(.*))?$`)

// google reads Google-style sections. A "Default: x" line at the indentation of the entries
// (docker's "platform (str): The platform …" then "Default: None") belongs to the entry
// above it: it continues that entry's description and sets its Default.
func (ps *paramSet) google(lines []string, sec sections) {
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		head, ok := strings.CutSuffix(t, ":")
		if !ok || !sec.google[strings.ToLower(head)] {
			continue
		}
		entries, end := body(lines, i, indentOf(lines[i]))
		var found []docidx.Param
		for k := 0; k < len(entries); k++ {
			if entries[k] == "" || indentOf(entries[k]) > 0 {
				continue
			}
			m := googleEntryRE.FindStringSubmatch(entries[k])
			if m == nil {
				continue
			}
			rest, next := body(entries, k, 0)
			k = next - 1
			doc := joinDoc(m[3], rest)
			if n := strings.ToLower(m[1]); (n == "default" || n == "defaults") && m[2] == "" && len(found) > 0 {
				prev := &found[len(found)-1]
				prev.Doc = joinDoc(prev.Doc, []string{m[1] + ": " + doc})
				if prev.Default == "" {
					prev.Default = literalAt(doc)
				}
				continue
			}
			found = append(found, docidx.Param{Name: m[1], Type: m[2], Doc: doc})
		}
		for _, p := range found {
			ps.add(p)
		}
		i = end - 1
	}
}

// isUnderline reports whether l underlines a heading: three or more of one reStructuredText
// adornment character (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html#sections).
// NumPy style uses dashes; some projects (SymPy) underline "Examples" with "=", which must end a
// Parameters section as a dashed heading does.
func isUnderline(l string) bool {
	l = strings.TrimSpace(l)
	return len(l) >= 3 && strings.ContainsRune(adornments, rune(l[0])) && strings.Trim(l, l[:1]) == ""
}

// adornments are the characters of a heading underline that isUnderline accepts.
const adornments = "-=~^+#*"

// numpyDefaultRE finds a default in a NumPy type: "int, default 10", "str, default='a'",
// "bool, default: True", "bool, default is False"; numpyParenDefaultRE one in parentheses:
// "int, optional (default = 5)".
var (
	numpyDefaultRE      = regexp.MustCompile(`(?:,\s*|\s+|^)default(?:\s*[=:]\s*|\s+is\s+|\s+)(.+)$`)
	numpyParenDefaultRE = regexp.MustCompile(`\s*\(default(?:\s*[=:]\s*|\s+)(.+)\)$`)
)

// numpy reads NumPy-style sections.
func (ps *paramSet) numpy(lines []string, sec sections) {
	for i := 0; i+1 < len(lines); i++ {
		if !sec.numpy[strings.ToLower(strings.TrimSpace(lines[i]))] || !isUnderline(lines[i+1]) {
			continue
		}
		ind := indentOf(lines[i])
		j := i + 2
		for j < len(lines) {
			l := lines[j]
			if strings.TrimSpace(l) == "" {
				j++
				continue
			}
			if indentOf(l) < ind || j+1 < len(lines) && isUnderline(lines[j+1]) {
				break
			}
			if indentOf(l) > ind {
				j++
				continue
			}
			names, typ, _ := strings.Cut(strings.TrimSpace(l), " : ")
			if !strings.Contains(l, " : ") {
				names, typ, _ = strings.Cut(strings.TrimSpace(l), ":")
			}
			rest, end := body(lines, j, ind)
			var def string
			if m := numpyParenDefaultRE.FindStringSubmatchIndex(typ); m != nil && balanced(typ[m[2]:m[3]]) {
				def = unmark(typ[m[2]:m[3]])
				typ = strings.TrimSpace(typ[:m[0]])
			} else if m := numpyDefaultRE.FindStringSubmatchIndex(typ); m != nil {
				def = unmark(typ[m[2]:m[3]])
				typ = strings.TrimRight(strings.TrimSpace(typ[:m[0]]), ",")
			} else {
				def = docDefault(typ) // "(default None) sort key(s)"
			}
			doc := strings.TrimSpace(strings.Join(rest, "\n"))
			for _, n := range strings.Split(names, ",") {
				ps.add(docidx.Param{Name: n, Type: typ, Default: def, Doc: doc})
			}
			j = end
		}
		i = j - 1
	}
}

// sigParam is one parameter of a def header: its name as written with its stars, its
// annotation and its default value.
type sigParam struct {
	name, typ, def string
	// doc is a field's own description, for the parameters of a generated __init__, or what
	// the parameter's annotation says of it (annotated, see annotatedDoc).
	doc       string
	annotated bool
}

// signatureParams reads the parameters of a def header (toks from "def" or "async" to before
// the colon). It returns nil when there is no parameter list.
func (s *scanner) signatureParams(toks []token) []sigParam {
	open := -1
	for i, t := range toks {
		if s.isOp(t, "(") {
			open = i
			break
		}
	}
	if open < 0 {
		return nil
	}
	var out []sigParam
	depth, start := 0, open+1
	for i := open + 1; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tOp {
			continue
		}
		depth += nesting(s.src[t.start])
		if depth < 0 || depth == 0 && s.src[t.start] == ',' { // the closing ')' or a comma
			if p, ok := s.sigParam(toks[start:i]); ok {
				out = append(out, p)
			}
			start = i + 1
			if depth < 0 || len(out) >= maxParams {
				return out
			}
		}
	}
	return out
}

// sigParam reads one parameter: [*|**]name[: type][= default].
func (s *scanner) sigParam(toks []token) (sigParam, bool) {
	if s.opts.Cython {
		if p, ok := s.cythonParam(toks); ok {
			return p, true
		}
	}
	var p sigParam
	i := 0
	for i < len(toks) && (s.isOp(toks[i], "*") || s.isOp(toks[i], "**")) {
		p.name += s.text(toks[i])
		i++
	}
	if i >= len(toks) || toks[i].kind != tName {
		return p, false
	}
	p.name += s.text(toks[i])
	i++
	colon, eq := -1, -1
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		depth += s.nesting(t)
		if depth == 0 && colon < 0 && eq < 0 && s.isOp(t, ":") && j == i {
			colon = j
		}
		if depth == 0 && eq < 0 && s.isOp(t, "=") {
			eq = j
		}
	}
	switch {
	case colon >= 0 && eq >= 0:
		p.typ = s.render(s.withoutDocs(toks[colon+1 : eq]))
		p.def = s.render(toks[eq+1:])
		p.doc = s.annotatedDoc(toks[colon+1 : eq])
	case colon >= 0:
		p.typ = s.render(s.withoutDocs(toks[colon+1:]))
		p.doc = s.annotatedDoc(toks[colon+1:])
	case eq >= 0:
		p.def = s.render(toks[eq+1:])
	}
	p.annotated = p.doc != ""
	return p, true
}

// fillParams completes documented parameters with the annotation and default of the same
// parameter in the signature.
func fillParams(params []docidx.Param, sig []sigParam) {
	if len(sig) == 0 {
		return
	}
	byName := make(map[string]sigParam, len(sig))
	for _, p := range sig {
		byName[strings.TrimLeft(p.name, "*")] = p
	}
	for i := range params {
		p := &params[i]
		sp, ok := byName[strings.TrimLeft(p.Name, "*")]
		if !ok {
			continue
		}
		if p.Type == "" {
			p.Type = sp.typ
		}
		if p.Doc == "" && sp.annotated {
			p.Doc = sp.doc
		}
		if sp.def != stubDefault && (p.Default == "" || isLiteral(sp.def)) {
			p.Default = sp.def
		}
	}
}

// withAnnotatedDocs returns params followed by the parameters of the signature sig that params
// does not document and whose annotations do (PEP 727's Annotated[T, Doc("…")], see
// annotatedDoc), with their types and defaults: FastAPI documents its parameters so, and its
// docstrings have no parameter sections.
func withAnnotatedDocs(params []docidx.Param, sig []sigParam) []docidx.Param {
	var documented map[string]bool
	for _, sp := range sig {
		if !sp.annotated {
			continue
		}
		if documented == nil {
			documented = make(map[string]bool, len(params))
			for _, p := range params {
				documented[strings.TrimLeft(p.Name, "*")] = true
			}
		}
		if name := strings.TrimLeft(sp.name, "*"); !documented[name] {
			documented[name] = true
			def := sp.def
			if def == stubDefault {
				def = ""
			}
			params = append(params, docidx.Param{Name: sp.name, Type: sp.typ, Default: def, Doc: sp.doc})
		}
	}
	return params
}

// withSignatureDefaults returns params followed by the parameters of the signature sig that
// params does not document and whose default tells something: a literal ([isLiteral]) or a
// constant's name (DEFAULT_TIMEOUT, which the distribution's constants may spell out). So
// "timeout=30" is a parameter of its function even when the docstring only says "the
// timeout", and its "default 30" is in the text a question about the default is matched
// against. self, cls, *args, **kwargs and private parameters ("_wrapper") are left out, as are
// None and stub defaults, which tell nothing.
func withSignatureDefaults(params []docidx.Param, sig []sigParam) []docidx.Param {
	documented := make(map[string]bool, len(params))
	for _, p := range params {
		documented[strings.TrimLeft(p.Name, "*")] = true
	}
	for _, sp := range sig {
		if strings.HasPrefix(sp.name, "*") || strings.HasPrefix(sp.name, "_") || documented[sp.name] ||
			sp.name == "self" || sp.name == "cls" || !tellingDefault(sp.def) {
			continue
		}
		documented[sp.name] = true
		params = append(params, docidx.Param{Name: sp.name, Type: sp.typ, Default: sp.def, Doc: sp.doc})
	}
	return params
}

// withClassParams returns params, a method's documented parameters, followed by the parameters
// of its signature sig that params does not document and its class documents (cls, from
// classParams): prompt_toolkit's PromptSession.prompt takes the session's options and leaves
// them to the class docstring ("For those, refer to the class documentation"), so its
// is_password is described there. The type and default are the method's own when it writes
// them. self, cls, *args, **kwargs and private parameters are left out.
func withClassParams(params []docidx.Param, sig []sigParam, cls []docidx.Param) []docidx.Param {
	if len(cls) == 0 {
		return params
	}
	documented := make(map[string]bool, len(params))
	for _, p := range params {
		documented[strings.TrimLeft(p.Name, "*")] = true
	}
	byName := make(map[string]docidx.Param, len(cls))
	for _, p := range cls {
		if _, dup := byName[p.Name]; !dup && p.Doc != "" {
			byName[p.Name] = p
		}
	}
	for _, sp := range sig {
		cp, ok := byName[sp.name]
		if !ok || documented[sp.name] || strings.HasPrefix(sp.name, "_") || sp.name == "self" || sp.name == "cls" {
			continue
		}
		documented[sp.name] = true
		p := docidx.Param{Name: sp.name, Type: cmp.Or(sp.typ, cp.Type), Default: sp.def, Doc: cp.Doc}
		if sp.def == "" || sp.def == stubDefault {
			p.Default = cp.Default
		}
		params = append(params, p)
	}
	return params
}

// tellingDefault reports whether a default as written says a value: a literal, or a name whose
// last part is UPPER_CASE ("DEFAULT_TIMEOUT", "socket._GLOBAL_DEFAULT_TIMEOUT").
func tellingDefault(def string) bool {
	if isLiteral(def) {
		return true
	}
	last := def[strings.LastIndexByte(def, '.')+1:]
	return validParamName(def) && !strings.HasPrefix(def, "*") && IsUpperName(strings.TrimLeft(last, "_"))
}

// isLiteral reports whether a default as written is a number, a string (not an f-string),
// True or False: a value that says itself, which a description's "defaults to …" never
// overrides. None and names (sentinels, constants) do not: "timeout=None" documented as
// "Defaults to 30" defaults to 30.
func isLiteral(v string) bool {
	switch {
	case v == "True" || v == "False":
		return true
	case v == "":
		return false
	case numberRE.FindString(v) == v: // v is not "": a match is the whole of it
		return true
	}
	// A string: an optional r, b or u prefix (f and t strings are computed), then quotes.
	i := strings.IndexAny(v, `'"`)
	if i < 0 || i > 2 || strings.Trim(v[:i], "rRbBuU") != "" {
		return false
	}
	return len(v) >= i+2 && v[len(v)-1] == v[i]
}

// boundDoc cuts a cleaned docstring to at most limit bytes: at the last paragraph break (a
// blank line) before the limit when there is one in its second half, else at the last line
// break, else at a rune boundary; the cut text ends with "…".
func boundDoc(clean string, limit int) string {
	if len(clean) <= limit {
		return clean
	}
	const ellipsis = "…"
	head := clean[:limit-len(ellipsis)]
	for len(head) > 0 && !utf8.RuneStart(clean[len(head)]) {
		head = head[:len(head)-1]
	}
	if i := strings.LastIndex(head, "\n\n"); i >= limit/2 {
		return head[:i] + "\n\n" + ellipsis
	}
	if i := strings.LastIndexByte(head, '\n'); i >= limit/2 {
		return head[:i] + "\n" + ellipsis
	}
	return head + ellipsis
}

// defaultPhraseRE finds where a description states its default: "Default: None",
// "Defaults to 30.", "(default: *30*)", "(default 30)", "the default is 'utf-8'", "default value
// is 5", "default=5". The verb needs its "to": "also defaults content_type to json" states
// the default of another thing.
var defaultPhraseRE = regexp.MustCompile(`(?i)(?:\bdefaults\s+to|\bdefault(?:\s+value)?(?:\s+is|\s*[:=])|\(default\s*[:=]?)\s*`)

// numberRE matches a Python number literal at the start of a string: "30", "-1", "0.5",
// "1e-3", "0x1F", "10_000".
var numberRE = regexp.MustCompile(`^-?(?:0[xXoObB][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][-+]?[0-9]+)?)\b`)

// maxDocDefault bounds a default read from a description, in bytes.
const maxDocDefault = 64

// docDefault returns the default a parameter's description states, as written in it without
// its inline markup: the value after "default:", "defaults to", "default is" and the like when
// that value is a literal (a number, a quoted string, True, False or None) or a name marked as
// code (DEFAULT_TIMEOUT in backquotes, *30*). "Defaults to the system locale" states none: "".
func docDefault(doc string) string {
	if !mentionsDefault(doc) {
		return "" // most descriptions: the expression would scan them in vain
	}
	for _, m := range defaultPhraseRE.FindAllStringIndex(doc, 4) {
		if v := literalAt(doc[m[1]:]); v != "" {
			return v
		}
	}
	return ""
}

// mentionsDefault reports whether doc holds the word "default" in any case, as every phrase
// defaultPhraseRE finds does (none of its letters has a case folding outside ASCII).
func mentionsDefault(doc string) bool {
	const word = "default"
	for i := 0; i+len(word) <= len(doc); i++ {
		if doc[i]|0x20 == 'd' && strings.EqualFold(doc[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// balanced reports whether the parentheses of s pair up: "Symbol('a')" does, "None) sort
// key(s" (a parenthesized default followed by more type) does not.
func balanced(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// unmark returns v trimmed, without the inline markup around it (backquotes, "*30*").
func unmark(v string) string {
	v = strings.TrimSpace(v)
	for _, mark := range []string{"``", "**", "`", "*"} {
		if len(v) > 2*len(mark) && strings.HasPrefix(v, mark) && strings.HasSuffix(v, mark) {
			return strings.TrimSpace(v[len(mark) : len(v)-len(mark)])
		}
	}
	return v
}

// literalAt returns the literal at the start of s (see docDefault), or "".
func literalAt(s string) string {
	for _, mark := range []string{"``", "**", "`", "*"} {
		if rest, ok := strings.CutPrefix(s, mark); ok {
			v, _, closed := strings.Cut(rest, mark)
			if !closed || v == "" || len(v) > maxDocDefault || strings.ContainsAny(v, "\n`*") {
				return ""
			}
			return strings.TrimSpace(v)
		}
	}
	if s == "" {
		return ""
	}
	switch q := s[0]; {
	case q == '\'' || q == '"':
		if end := strings.IndexByte(s[1:], q); end >= 0 && end+2 <= maxDocDefault && !strings.Contains(s[:end+2], "\n") {
			return s[:end+2]
		}
		return ""
	}
	if n := numberRE.FindString(s); n != "" {
		return n
	}
	for _, w := range []string{"True", "False", "None"} {
		if rest, ok := strings.CutPrefix(s, w); ok && (rest == "" || !isIdentStart(rest[0]) && !isDigit(rest[0])) {
			return w
		}
	}
	return ""
}
