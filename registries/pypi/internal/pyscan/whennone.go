package pyscan

import (
	"strings"

	"github.com/docidx/docidx"
)

// A parameter written "countdown=None" often takes its real default in the function's body:
// celery's Task.retry begins "if not eta and countdown is None: countdown =
// self.default_retry_delay", and the class sets default_retry_delay = 3 * 60. The signature
// says None and the docstring says nothing, so the value a question about the default asks for
// is only in the code. whenNone reads it there, as a reader of the source would, and the
// parameter's description ends with it: "When not given: self.default_retry_delay (3 * 60)."

// noneWindow is how many statements at the top of a function body whenNone reads: the
// defaults of a function are filled in before its work.
const noneWindow = 40

// maxWhenNone bounds the expression whenNone keeps, in bytes: a longer one is a computation,
// not a value a reader takes in at a glance.
const maxWhenNone = 80

// whenNone reads statement toks of function it's body, at indentation ind, for the value a
// parameter whose default is None takes when it is not given, in the forms Python code writes
// it (b is the body's block, which keeps an "if" of the first form until the next statement):
//
//	if timeout is None:              a condition of clauses joined by "and", one of them
//	    timeout = DEFAULT_TIMEOUT    "timeout is None"; the next, deeper statement assigns it
//	if timeout is None: timeout = 30
//	timeout = timeout or DEFAULT_TIMEOUT
//	timeout = DEFAULT_TIMEOUT if timeout is None else timeout
//	timeout = timeout if timeout is not None else DEFAULT_TIMEOUT
//	self.timeout = timeout or DEFAULT_TIMEOUT (and the two conditional expressions so)
//
// Only the body's own statements count (not those of a loop or a nested block), and the first
// value found for a parameter.
func (s *scanner) whenNone(toks []token, ind int, b *block, it *item) {
	pending, pendingInd := b.noneIf, b.noneIfInd
	b.noneIf = ""
	if pending != "" && ind > pendingInd {
		if v, ok := s.assignedTo(toks, pending); ok {
			s.setWhenNone(it, pending, v)
		}
		return
	}
	if ind != b.indent || len(toks) < 3 {
		return
	}
	if s.isName(toks[0], "if") {
		colon := s.topLevelOp(toks, 1, ":")
		if colon < 0 {
			return
		}
		name := s.noneTested(toks[1:colon], it)
		switch {
		case name == "":
		case colon == len(toks)-1:
			b.noneIf, b.noneIfInd = name, ind
		default:
			if v, ok := s.assignedTo(toks[colon+1:], name); ok {
				s.setWhenNone(it, name, v)
			}
		}
		return
	}
	// The target: the parameter itself, or an attribute of self that the parameter, or its
	// value when not given, is stored in ("self.mounts = mounts or {}").
	var target string
	var rhs []token
	switch {
	case toks[0].kind == tName && s.isOp(toks[1], "="):
		target, rhs = s.text(toks[0]), toks[2:]
	case len(toks) > 4 && s.isName(toks[0], "self") && s.isOp(toks[1], ".") && toks[2].kind == tName && s.isOp(toks[3], "="):
		rhs = toks[4:]
	default:
		return
	}
	// is reports whether t is the parameter name: a parameter of it that defaults to None, and
	// the target itself unless the target is an attribute.
	is := func(t token) bool {
		name := s.text(t)
		return t.kind == tName && (target == "" || name == target) && noneParam(it, name)
	}
	// timeout or DEFAULT
	if len(rhs) >= 3 && is(rhs[0]) && s.isName(rhs[1], "or") && s.topLevelName(rhs, 2, "or") < 0 {
		s.setWhenNone(it, s.text(rhs[0]), s.render(rhs[2:]))
		return
	}
	// X if timeout is None else timeout; timeout if timeout is not None else X
	cond := s.topLevelName(rhs, 0, "if")
	els := s.topLevelName(rhs, 0, "else")
	if cond <= 0 || els <= cond+1 || els == len(rhs)-1 {
		return
	}
	then, test, other := rhs[:cond], rhs[cond+1:els], rhs[els+1:]
	switch {
	case len(other) == 1 && is(other[0]) && s.isNoneTest(test, s.text(other[0]), false):
		s.setWhenNone(it, s.text(other[0]), s.render(then))
	case len(then) == 1 && is(then[0]) && s.isNoneTest(test, s.text(then[0]), true):
		s.setWhenNone(it, s.text(then[0]), s.render(other))
	}
}

// setWhenNone records v as the value parameter name of it takes when not given, unless one was
// found before or v is no value to show: empty, None, too long, or naming the parameter itself.
func (s *scanner) setWhenNone(it *item, name, v string) {
	if _, seen := it.whenNone[name]; seen || v == "" || v == "None" || len(v) > maxWhenNone || mentionsName(v, name) || fString(v) {
		return
	}
	if it.whenNone == nil {
		it.whenNone = map[string]string{}
	}
	it.whenNone[name] = v
}

// fString reports whether v is an f-string (or t-string): text computed from other values,
// which reads as code to run, not a value.
func fString(v string) bool {
	i := strings.IndexAny(v, `'"`)
	return i > 0 && i <= 2 && strings.ContainsAny(v[:i], "fFtT")
}

// mentionsName reports whether the expression v uses the identifier name.
func mentionsName(v, name string) bool {
	for i := strings.Index(v, name); i >= 0; {
		end := i + len(name)
		if (i == 0 || !isIdentChar(v[i-1]) && v[i-1] != '.') && (end == len(v) || !isIdentChar(v[end])) {
			return true
		}
		j := strings.Index(v[i+1:], name)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// assignedTo returns the value toks, one statement, assigns to name ("name = value"), rendered.
func (s *scanner) assignedTo(toks []token, name string) (string, bool) {
	if len(toks) < 3 || !s.isName(toks[0], name) || !s.isOp(toks[1], "=") {
		return "", false
	}
	return s.render(toks[2:]), true
}

// noneTested returns the parameter of it whose default is None that the condition cond tests
// with "is None", when cond is that test alone or joined to others by "and" (an "or" could
// take the branch with the parameter given): "not eta and countdown is None" tests countdown.
func (s *scanner) noneTested(cond []token, it *item) string {
	if s.topLevelName(cond, 0, "or") >= 0 {
		return ""
	}
	for len(cond) > 0 {
		end := s.topLevelName(cond, 0, "and")
		if end < 0 {
			end = len(cond)
		}
		clause := cond[:end]
		if len(clause) == 3 && clause[0].kind == tName && noneParam(it, s.text(clause[0])) && s.isNoneTest(clause, s.text(clause[0]), false) {
			return s.text(clause[0])
		}
		if end == len(cond) {
			break
		}
		cond = cond[end+1:]
	}
	return ""
}

// isNoneTest reports whether test is "name is None", or with not set "name is not None".
func (s *scanner) isNoneTest(test []token, name string, not bool) bool {
	if not {
		return len(test) == 4 && s.isName(test[0], name) && s.isName(test[1], "is") && s.isName(test[2], "not") && s.isName(test[3], "None")
	}
	return len(test) == 3 && s.isName(test[0], name) && s.isName(test[1], "is") && s.isName(test[2], "None")
}

// topLevelName returns the index, from from on, of the first name token name of toks outside
// brackets, or -1.
func (s *scanner) topLevelName(toks []token, from int, name string) int {
	return s.topLevel(toks, from, func(t token) bool { return s.isName(t, name) })
}

// topLevelOp returns the index, from from on, of the first operator op of toks outside
// brackets, or -1.
func (s *scanner) topLevelOp(toks []token, from int, op string) int {
	return s.topLevel(toks, from, func(t token) bool { return s.isOp(t, op) })
}

// topLevel returns the index, from from on, of the first token of toks outside brackets for
// which is returns true, or -1.
func (s *scanner) topLevel(toks []token, from int, is func(token) bool) int {
	depth := 0
	for i, t := range toks {
		if i >= from && depth == 0 && is(t) {
			return i
		}
		depth += s.nesting(t)
	}
	return -1
}

// noneParam reports whether it has a parameter name whose default is None.
func noneParam(it *item, name string) bool {
	for _, p := range it.params {
		if p.name == name {
			return p.def == "None"
		}
	}
	return false
}

// endSentence returns doc ending as a sentence does: with its own ".", "!", "?" or ":", or with
// "." added ("timestamp of "now" time" before "When not given: …").
func endSentence(doc string) string {
	if doc == "" || strings.ContainsRune(".!?:", rune(doc[len(doc)-1])) {
		return doc
	}
	return doc + "."
}

// withWhenNone returns params, the parameters of a function whose signature is sig, with what
// its body (src's, see whenNone) gives a parameter that defaults to None ended to its
// description, unless the description states a default itself: "When not given: X." A value that is an attribute of the class (self.X, cls.X)
// that the class assigns a value shows that value too: "self.default_retry_delay (3 * 60)". A
// parameter params does not describe is added, when add is set (the function is documented), as
// withSignatureDefaults adds those whose default tells something.
func (s *scanner) withWhenNone(params []docidx.Param, sig []sigParam, src *item, add bool) []docidx.Param {
	if len(src.whenNone) == 0 {
		return params
	}
	note := func(name string) string {
		v := src.whenNone[name]
		if attr, ok := strings.CutPrefix(v, "self."); ok || strings.HasPrefix(v, "cls.") {
			if !ok {
				attr = v[len("cls."):]
			}
			if src.cls != nil {
				if a := s.byKey[src.cls.name+"."+attr]; a != nil && a.assign && a.value != "" && len(a.value) <= maxWhenNone {
					v += " (" + a.value + ")"
				}
			}
		}
		return "When not given: " + v + "."
	}
	described := make(map[string]bool, len(params))
	for i := range params {
		p := &params[i]
		name := strings.TrimLeft(p.Name, "*")
		described[name] = true
		// A description that states the default ("Defaults to :class:`Command`", "By default,
		// this is disabled") says it.
		if _, ok := src.whenNone[name]; !ok || p.Default != "None" || defaultPhraseRE.MatchString(p.Doc) || strings.Contains(strings.ToLower(p.Doc), "by default") {
			continue
		}
		if p.Doc == "" {
			p.Doc = note(name)
		} else {
			p.Doc = endSentence(strings.TrimRight(p.Doc, " \n")) + " " + note(name)
		}
	}
	if !add {
		return params
	}
	for _, sp := range sig {
		if _, ok := src.whenNone[sp.name]; !ok || described[sp.name] || strings.HasPrefix(sp.name, "_") || sp.def != "None" {
			continue
		}
		described[sp.name] = true
		params = append(params, docidx.Param{Name: sp.name, Type: sp.typ, Default: sp.def, Doc: note(sp.name)})
	}
	return params
}
