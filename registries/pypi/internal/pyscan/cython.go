package pyscan

// Cython (https://cython.readthedocs.io/en/latest/src/userguide/language_basics.html) is read
// with the same lexer and block structure as Python: a .pyx file is Python with C declarations
// mixed in. What differs is handled here: include statements are expanded as text before the
// scan (expandIncludes), and the statements Cython adds (cdef, cpdef, ctypedef, cimport, DEF,
// IF, old-style property blocks) are recognised at module and class level (cythonStatement).
// Everything else, def functions, classes, assignments and docstrings, is scanned as Python.

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/docidx/docidx"
)

// Bounds of include expansion.
const (
	// MaxIncludes is the most files the include statements of one module read, nested
	// includes counted.
	MaxIncludes = 256
	// MaxExpanded is the largest module read with its includes expanded, in bytes; an include
	// that would make it larger is not read.
	MaxExpanded = 16 << 20
	// maxIncludeDepth bounds the nesting of include statements.
	maxIncludeDepth = 16
	// maxIncludeProblems bounds the problems reported for one module's includes.
	maxIncludeProblems = 32
)

// segment says that the lines of an expanded source from line on are the lines of file from
// fileLine on.
type segment struct {
	line     int
	file     string
	fileLine int
}

// expander writes a Cython source with its include statements replaced by the included files.
type expander struct {
	read     func(p string) ([]byte, error)
	out      []byte
	line     int // the line of out that the next byte written is on
	segs     []segment
	files    int
	problems []string
}

// expandIncludes returns src, the Cython source at slash path file, with each include statement
// ("include "name.pxi"", https://cython.readthedocs.io/en/latest/src/userguide/language_basics.html#the-include-statement)
// replaced by the file it names, read with read from the path relative to the including file's
// directory, its own includes expanded too, each line indented as the statement was. segs map
// the lines of the result back to their files (see scanner.position); segs is nil when src has
// no include statement. An include that cannot be read (missing, outside the distribution,
// included by itself, nested more than maxIncludeDepth deep, beyond MaxIncludes files or
// MaxExpanded bytes) is left out and reported in problems, each naming the including file and
// line, at most maxIncludeProblems of them.
func expandIncludes(src []byte, file string, read func(p string) ([]byte, error)) (out []byte, segs []segment, problems []string) {
	if !bytes.Contains(src, []byte("include")) {
		return src, nil, nil
	}
	e := &expander{read: read, line: 1, out: make([]byte, 0, len(src))}
	if !e.expand(src, file, nil, []string{file}) {
		return src, nil, e.problems
	}
	return e.out, e.segs, e.problems
}

// expand writes src, the file at slash path file, to e.out, each of its lines prefixed by indent,
// its include statements replaced by their files. stack holds the files being expanded, file
// last. It reports whether src had an include statement.
func (e *expander) expand(src []byte, file string, indent []byte, stack []string) bool {
	e.segs = append(e.segs, segment{line: e.line, file: file, fileLine: 1})
	lx := newLexer(src)
	last, found := 0, false
	for {
		_, ok := lx.next()
		if !ok {
			break
		}
		toks := lx.toks
		if len(toks) != 2 || toks[0].kind != tName || string(src[toks[0].start:toks[0].end]) != "include" || toks[1].kind != tString {
			continue
		}
		found = true
		lineStart := toks[0].start
		for lineStart > 0 && src[lineStart-1] != '\n' && src[lineStart-1] != '\r' {
			lineStart--
		}
		e.write(src[last:lineStart], indent)
		last = lx.pos
		name, _ := stringValue(src[toks[1].start:toks[1].end])
		inner := append(indent[:len(indent):len(indent)], src[lineStart:toks[0].start]...)
		e.include(file, toks[0].line, name, inner, stack)
		e.segs = append(e.segs, segment{line: e.line, file: file, fileLine: lx.line})
	}
	if !found && len(stack) == 1 {
		return false
	}
	e.write(src[last:], indent)
	return found
}

// include expands the file named name by the include statement on line of file.
func (e *expander) include(file string, line int, name string, indent []byte, stack []string) {
	fail := func(err string) {
		switch n := len(e.problems); {
		case n < maxIncludeProblems:
			e.problems = append(e.problems, fmt.Sprintf("%s:%d: include %q: %s", file, line, name, err))
		case n == maxIncludeProblems:
			e.problems = append(e.problems, "more include problems left out")
		}
	}
	p := path.Join(path.Dir(file), name)
	switch {
	case name == "" || path.IsAbs(name) || p == ".." || strings.HasPrefix(p, "../"):
		fail("not a file of the distribution")
		return
	case path.Base(name) == "." || path.Base(name) == "..":
		fail("names a directory, not a file")
		return
	case len(stack) > maxIncludeDepth:
		fail(fmt.Sprintf("includes nested more than %d deep", maxIncludeDepth))
		return
	case e.files >= MaxIncludes:
		fail(fmt.Sprintf("more than %d included files", MaxIncludes))
		return
	}
	for _, f := range stack {
		if f == p {
			fail("includes itself")
			return
		}
	}
	e.files++
	src, err := e.read(p)
	if err != nil {
		fail(err.Error())
		return
	}
	if len(e.out)+len(src) > MaxExpanded {
		fail(fmt.Sprintf("the module with its includes is over %d bytes", MaxExpanded))
		return
	}
	e.expand(src, p, indent, append(stack[:len(stack):len(stack)], p))
	if n := len(e.out); n > 0 && e.out[n-1] != '\n' && e.out[n-1] != '\r' {
		e.write([]byte("\n"), nil)
	}
}

// write appends b, which starts at the start of a line, to e.out, each line that is not blank
// prefixed by indent, and counts its line breaks ("\n", "\r\n" or "\r") as the lexer does.
func (e *expander) write(b []byte, indent []byte) {
	for len(b) > 0 {
		end := bytes.IndexAny(b, "\r\n")
		next := len(b)
		if end < 0 {
			end = len(b)
		} else {
			next = end + 1
			if b[end] == '\r' && next < len(b) && b[next] == '\n' {
				next++
			}
			e.line++
		}
		if len(indent) > 0 && len(bytes.TrimSpace(b[:end])) > 0 {
			e.out = append(e.out, indent...)
		}
		e.out = append(e.out, b[:next]...)
		b = b[next:]
	}
}

// position returns the file and line that line of the scanned source comes from: Options.File
// and line itself unless includes were expanded.
func (s *scanner) position(line int) (string, int) {
	i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].line > line }) - 1
	if i < 0 {
		return s.opts.File, line
	}
	sg := s.segs[i]
	return sg.file, sg.fileLine + line - sg.line
}

// cythonStatement reads a statement Cython adds to Python at module or class level (owner), in
// a module scanned with Options.Cython. handled is false for any other statement, which the
// caller reads as Python; b is the block the statement opens, nil for none.
//
// cdef class and cdef public class are classes and cpdef functions are functions or methods
// (see cdef); an old-style "property name:" block in a class is a property, documented by its
// own docstring or its __get__'s. cdef functions, cdef attributes that are not public or
// readonly, ctypedef, cdef extern blocks, structs, unions and enums, DEF, IF/ELIF/ELSE blocks,
// cimport and include statements (those expandIncludes could not read) are not Python API:
// they and their blocks are skipped.
func (s *scanner) cythonStatement(toks []token, ind int, owner *block, decos []decorator) (b *block, handled bool) {
	first := toks[0]
	if first.kind != tName {
		return nil, false
	}
	opens := s.isOp(toks[len(toks)-1], ":")
	switch s.text(first) {
	case "cimport", "include", "DEF", "IF", "ELIF", "ELSE", "ctypedef":
		return skipBlock(opens, ind), true
	case "from":
		for _, t := range toks {
			if s.isName(t, "cimport") {
				return nil, true
			}
		}
	case "property":
		if owner.kind == bClass && owner.owner != nil && len(toks) == 3 && toks[1].kind == tName && opens {
			name := s.text(toks[1])
			it := s.add(docidx.KindProperty, name, owner.owner, "property "+name, decos, first.line)
			if it == nil {
				return skipBlock(true, ind), true
			}
			return &block{kind: bProperty, header: ind, owner: it, first: true}, true
		}
	case "cdef", "cpdef":
		return s.cdef(toks, ind, owner, decos), true
	}
	return nil, false
}

// skipBlock returns the block a skipped statement opens: one whose contents are not API when
// the statement ends with a colon (opens), else nil.
func skipBlock(opens bool, ind int) *block {
	if opens {
		return &block{kind: bSkip, header: ind}
	}
	return nil
}

// cdef reads a cdef or cpdef statement (https://cython.readthedocs.io/en/latest/src/userguide/language_basics.html#declaring-data-types)
// and returns the block it opens. "cdef class Name(Base):" and "cdef public class Name [object
// N, type T]:" are classes, their signature "class Name(Base)", unless decorated with
// @cython.internal. "cpdef [type] name(params) [except …]:" is a function (a method in a class)
// whose signature is "def name(params)": C return types and exception clauses are no part of
// the Python signature. In a class body, "cdef public type a, b" and "cdef readonly type a"
// declare fields visible from Python, each with the signature "a: type". Anything else (cdef
// functions, private attributes, C variables, extern blocks, structs) is skipped.
func (s *scanner) cdef(toks []token, ind int, owner *block, decos []decorator) *block {
	opens := s.isOp(toks[len(toks)-1], ":")
	cp := s.is(toks[0], "cpdef")
	i, visible := 1, false
modifiers:
	for ; i < len(toks) && toks[i].kind == tName; i++ {
		switch s.text(toks[i]) {
		case "public", "readonly":
			visible = true
		case "api", "inline", "packed", "final", "noexcept":
		default:
			break modifiers
		}
	}
	if i >= len(toks) || toks[i].kind != tName {
		return skipBlock(opens, ind) // "cdef:", a block of declarations
	}
	switch s.text(toks[i]) {
	case "class":
		if cp || cythonInternal(decos) {
			return skipBlock(opens, ind)
		}
		return s.cdefClass(toks, i, ind, owner, decos)
	case "extern", "struct", "union", "enum", "cppclass", "fused", "ctypedef":
		return skipBlock(opens, ind)
	}
	open, eq, depth := -1, -1, 0 // the first "(" and "=" at bracket depth 0
	for j := i; j < len(toks) && open < 0 && eq < 0; j++ {
		t := toks[j]
		if t.kind != tOp {
			continue
		}
		switch {
		case depth == 0 && s.src[t.start] == '(':
			open = j
		case depth == 0 && s.is(t, "="):
			eq = j
		}
		depth = max(depth+s.nesting(t), 0)
	}
	switch {
	case open > i && toks[open-1].kind == tName:
		if !cp {
			return skipBlock(opens, ind)
		}
		colon := s.headerColon(toks, open)
		if colon < 0 {
			return nil // a declaration without a body
		}
		end := open
		for depth := 0; end < colon; end++ {
			if depth = depth + s.nesting(toks[end]); depth == 0 {
				break
			}
		}
		return s.define(toks, open-1, colon, false, "def ", toks[open-1:min(end+1, colon)], toks[0].line, ind, owner, decos)
	case visible && owner.kind == bClass && owner.owner != nil:
		s.cdefFields(toks, i, owner.owner)
	}
	return skipBlock(opens, ind)
}

// cythonInternal reports whether decos hold @cython.internal, which keeps a cdef class out of
// the module's Python namespace.
func cythonInternal(decos []decorator) bool {
	for _, d := range decos {
		if d.name == "cython.internal" {
			return true
		}
	}
	return false
}

// cdefClass reads "cdef [public] class Name(Base) [object N, type T]:" whose class keyword is
// toks[k] and returns the block it opens.
func (s *scanner) cdefClass(toks []token, k, ind int, owner *block, decos []decorator) *block {
	if k+1 >= len(toks) || toks[k+1].kind != tName {
		return skipBlock(s.isOp(toks[len(toks)-1], ":"), ind)
	}
	colon := s.headerColon(toks, k+2)
	if colon < 0 {
		return nil // a forward declaration
	}
	end := colon
	for j, depth := k+2, 0; j < colon; j++ {
		if depth == 0 && s.isOp(toks[j], "[") {
			end = j // the C names of a public class
			break
		}
		depth = max(depth+s.nesting(toks[j]), 0)
	}
	return s.define(toks, k+1, colon, true, "class ", toks[k+1:end], toks[0].line, ind, owner, decos)
}

// cdefFields records the fields a "cdef public|readonly type a, b = v" statement declares in the
// body of class cls; toks[i] is the first token of the type.
func (s *scanner) cdefFields(toks []token, i int, cls *item) {
	doc := s.commentDoc(toks)
	typ := ""
	for _, part := range s.splitTop(toks[i:], ",") {
		part = s.splitTop(part, "=")[0]
		n := len(part) - 1
		if n < 0 || part[n].kind != tName {
			continue
		}
		if typ == "" && n > 0 {
			typ = s.render(part[:n])
		}
		name := s.text(part[n])
		key := cls.name + "." + name
		if s.byKey[key] != nil {
			continue
		}
		it := &item{kind: docidx.KindField, name: name, cls: cls, line: toks[0].line, assign: true, annotation: typ, doc: doc}
		sig := name
		if typ != "" {
			sig += ": " + typ
		}
		it.sigs = []string{cut(sig, MaxSignature)}
		s.byKey[key] = it
		s.items = append(s.items, it)
	}
}

// splitTop splits toks at each operator op outside brackets.
func (s *scanner) splitTop(toks []token, op string) [][]token {
	var out [][]token
	start, depth := 0, 0
	for j, t := range toks {
		if depth == 0 && s.isOp(t, op) {
			out = append(out, toks[start:j])
			start = j + 1
		}
		depth = max(depth+s.nesting(t), 0)
	}
	return append(out, toks[start:])
}

// cythonParam reads a parameter with a C type ("int x=0", "_Element element not None", "char*
// s", "bint pretty_print=False") into its name, type (left empty for object, which says
// nothing) and default. ok is false for a parameter written as in Python, which sigParam reads.
func (s *scanner) cythonParam(toks []token) (p sigParam, ok bool) {
	i := 0
	for i < len(toks) && (s.isOp(toks[i], "*") || s.isOp(toks[i], "**")) {
		p.name += s.text(toks[i])
		i++
	}
	end, depth := len(toks), 0
	for j := i; j < len(toks); j++ {
		if depth == 0 && s.isOp(toks[j], "=") {
			end = j
			p.def = s.render(toks[j+1:])
			break
		}
		depth = max(depth+s.nesting(toks[j]), 0)
	}
	decl := toks[i:end]
	if n := len(decl); n >= 2 && s.isName(decl[n-1], "None") && (s.isName(decl[n-2], "not") || s.isName(decl[n-2], "or")) {
		decl = decl[:n-2]
	}
	n := len(decl)
	if n < 2 || decl[n-1].kind != tName || s.isOp(decl[1], ":") {
		return sigParam{}, false
	}
	p.name += s.text(decl[n-1])
	if typ := s.render(decl[:n-1]); typ != "object" {
		p.typ = typ
	}
	return p, true
}

// propertyAccessor reads a statement in the body of an old-style Cython property block of
// property prop ("property name:" with "def __get__(self):" inside) and returns the block it
// opens: __get__'s body, whose docstring documents prop when its block has none, or a skipped
// block for __set__, __del__ and anything else.
func (s *scanner) propertyAccessor(toks []token, ind int, prop *item) *block {
	if !s.isOp(toks[len(toks)-1], ":") {
		return nil
	}
	if len(toks) > 2 && s.isName(toks[0], "def") && s.isName(toks[1], "__get__") {
		return &block{kind: bDef, header: ind, owner: prop, first: true}
	}
	return &block{kind: bSkip, header: ind}
}
