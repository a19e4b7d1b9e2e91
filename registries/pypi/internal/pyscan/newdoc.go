package pyscan

import (
	"bytes"
	"cmp"
	"strings"

	"github.com/docidx/docidx"
)

// NewDoc is a docstring one module gives an object another module defines, with numpy's
// add_newdoc (numpy.lib.add_newdoc, https://numpy.org/doc/stable/reference/generated/numpy.lib.add_newdoc.html):
// the objects of extension modules (numpy.array, numpy.ndarray.T) have no Python source, so their
// package writes their docstrings in a Python module as
//
//	add_newdoc('numpy._core.multiarray', 'array', """docstring""")
//	add_newdoc('numpy._core', 'flatiter', ('base', """docstring of flatiter.base"""))
//	add_newdoc('numpy._core', 'ndarray', [('T', """…"""), ('size', """…""")])
//
// and they are attached when the package is imported.
type NewDoc struct {
	Module string // the module the object is defined in: "numpy._core.multiarray"
	Name   string // the object: "array", "ndarray"
	Attr   string // an attribute of the object ("T" of ndarray); "" for the object itself
	// Doc is the docstring cleaned as inspect.cleandoc does, at most MaxDoc bytes; Params the
	// parameters it documents (Params).
	Doc    string
	Params []docidx.Param
	Line   int // 1-based line of the call
}

// NewDocs returns the docstrings src gives with add_newdoc calls (see NewDoc), in source order.
// A call is a statement of its own, by the bare name or a dotted one ending in add_newdoc;
// its module and object are string literals, its doc a string literal (or several, implicitly
// concatenated), an (attribute, doc) tuple or a list of them; what follows them (numpy's
// warn_on_python=False) is ignored. Calls of any other shape (a doc built at run time) are
// skipped. Source without "add_newdoc(" costs one bytes.Contains.
func NewDocs(src []byte) []NewDoc {
	if !bytes.Contains(src, []byte("add_newdoc(")) {
		return nil
	}
	s := &scanner{src: src, lx: newLexer(src)}
	var out []NewDoc
	for {
		if _, ok := s.lx.next(); !ok {
			return out
		}
		out = s.newDocCall(s.lx.toks, out)
	}
}

// newDocCall appends the docstrings of the statement toks to out when it is an add_newdoc call.
func (s *scanner) newDocCall(toks []token, out []NewDoc) []NewDoc {
	i := 0
	for i+1 < len(toks) && toks[i].kind == tName && s.isOp(toks[i+1], ".") {
		i += 2 // np.lib.add_newdoc
	}
	if i+1 >= len(toks) || !s.isName(toks[i], "add_newdoc") || !s.isOp(toks[i+1], "(") {
		return out
	}
	line := toks[i].line
	args := toks[i+2:]
	module, args, ok := s.stringArg(args)
	if !ok {
		return out
	}
	name, args, ok := s.stringArg(args)
	if !ok {
		return out
	}
	add := func(attr string, doc string) {
		clean := withoutTextSignature(cleandoc(doc), cmp.Or(attr, name))
		out = append(out, NewDoc{Module: module, Name: name, Attr: attr, Doc: boundDoc(clean, MaxDoc), Params: Params(clean), Line: line})
	}
	if doc, _, ok := s.stringArg(args); ok {
		add("", doc)
		return out
	}
	if len(args) > 0 && s.isOp(args[0], "(") {
		if attr, doc, ok := s.attrDoc(args); ok {
			add(attr, doc)
		}
		return out
	}
	if len(args) > 0 && s.isOp(args[0], "[") {
		args = args[1:]
		for len(args) > 0 && s.isOp(args[0], "(") {
			attr, doc, ok := s.attrDoc(args)
			if !ok {
				break
			}
			add(attr, doc)
			args = args[s.closing(args)+1:]
			if len(args) > 0 && s.isOp(args[0], ",") {
				args = args[1:]
			}
		}
	}
	return out
}

// withoutTextSignature removes from the docstring of the builtin name the signature Argument
// Clinic writes at its start, "name(arguments)\n--\n\n", as the interpreter does when it splits
// such a docstring into __text_signature__ and __doc__ (find_signature and skip_signature in
// CPython's Objects/typeobject.c). Other docstrings are returned as they are.
func withoutTextSignature(doc, name string) string {
	const end = ")\n--\n\n"
	if !strings.HasPrefix(doc, name+"(") {
		return doc
	}
	if i := strings.Index(doc, end); i >= 0 {
		return doc[i+len(end):]
	}
	return doc
}

// stringArg reads an argument made of string literals (implicitly concatenated) at the start
// of toks, and the comma after it if any; rest is what follows. ok is false when toks does not
// start with such an argument, ended by a comma or a closing bracket.
func (s *scanner) stringArg(toks []token) (value string, rest []token, ok bool) {
	n := 0
	for n < len(toks) && toks[n].kind == tString {
		n++
	}
	if n == 0 || n == len(toks) || !s.isOp(toks[n], ",") && !isCloser(s.src, toks[n]) {
		return "", nil, false
	}
	value, ok = s.docstring(toks[:n])
	if !ok {
		return "", nil, false
	}
	if s.isOp(toks[n], ",") {
		n++
	}
	return value, toks[n:], true
}

// attrDoc reads an ("attribute", "doc") tuple at the start of toks.
func (s *scanner) attrDoc(toks []token) (attr, doc string, ok bool) {
	attr, rest, ok := s.stringArg(toks[1:])
	if !ok {
		return "", "", false
	}
	doc, rest, ok = s.stringArg(rest)
	if !ok || len(rest) == 0 || !s.isOp(rest[0], ")") {
		return "", "", false
	}
	return attr, doc, true
}

// closing returns the index in toks of the bracket that closes toks[0], or len(toks)-1.
func (s *scanner) closing(toks []token) int {
	depth := 0
	for i, t := range toks {
		switch {
		case isOpener(s.src, t):
			depth++
		case isCloser(s.src, t):
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks) - 1
}
