// Package pyscan is a hand-written scanner for Python source (.py), stub (.pyi) and Cython
// (.pyx, Options.Cython) files that finds a module's public API without running Python: module-level functions, classes and
// constants, the methods, properties, fields and constants of those classes, each with its
// signature as written (a constant's or field's with its value) and its whole docstring, whose
// parameter sections (reST, Google, NumPy) are parsed into docidx.Param ([Params]).
//
// The scanner follows Python's lexical rules (https://docs.python.org/3/reference/lexical_analysis.html):
// logical lines joined inside brackets and after a backslash, comments, every string form
// (prefixes, triple quotes, f-strings with nested quotes and fields as PEP 701 allows), and
// indentation (tabs to multiples of 8). It reads the block structure from indentation: function
// bodies are skipped apart from their docstring, and definitions inside if/try/with/for/while/
// match blocks at module or class level count as that level's definitions (conditional imports,
// version checks, TYPE_CHECKING blocks). It also reports a module's from-imports ([Import]), so a
// caller can follow names re-exported from private modules. Cython is read with the same lexer
// and blocks: include statements are expanded as text, cdef classes and cpdef functions are
// classes and functions, and C declarations are skipped (see cythonStatement).
//
// It imports docidx, registries/internal/extracted and limit, pypi/internal/pystr and the standard library. Scan never fails and never panics; malformed
// source yields what could be read.
package pyscan

import (
	"cmp"
	"iter"
	"slices"
	"strings"
	"unicode"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/pypi/internal/pystr"
)

// Limits.
const (
	// DefaultMaxSymbols is the most symbols Scan returns for one file when Options.MaxSymbols is 0.
	DefaultMaxSymbols = 20000
	// MaxSignature is the longest signature line kept, in bytes; a longer one is cut with "…".
	MaxSignature = 2 << 10
	// MaxDoc is the longest Symbol.Doc kept, in bytes (limit.Doc): a longer docstring is cut at
	// a paragraph boundary and ends with "…" (see boundDoc). Parameters are parsed from the
	// whole docstring.
	MaxDoc = limit.Doc
	// MaxValue is the longest value of a constant or field kept in its Signature, in bytes; a
	// longer expression is cut after one of its items or arguments (see cutValue), never inside
	// one. It is below MaxSignature, which bounds the rendered expression that cutValue cuts.
	// It holds a settings class's whole default (pydantic-settings' model_config, 998 bytes;
	// flask's default_config): a read of the symbol shows the value a question asks for. At 120
	// bytes those were cut; the answer sets and labelled rankings are the same at both.
	MaxValue = 1024
	// maxRawDoc bounds the cleaned docstring kept for parsing parameters, in bytes.
	maxRawDoc = 64 << 10
	// maxSignatureLines bounds the signature lines (overloads, conditional definitions) merged
	// into one symbol.
	maxSignatureLines = 16
	// deprecationWindow is how many statements at the top of a function body are searched for a
	// warnings.warn(…, DeprecationWarning) call.
	deprecationWindow = 5
	// maxBlockDepth bounds the block nesting tracked; deeper blocks are folded into their parent.
	maxBlockDepth = 256
)

// Options configures Scan.
type Options struct {
	// Module is the dotted module name, e.g. "flask.app": the Package of every symbol and the
	// prefix of every QualifiedName.
	Module string
	// File is the file's slash path inside the distribution, e.g. "flask/app.py", for Symbol.File.
	File string
	// MaxSymbols bounds the symbols returned; 0 means DefaultMaxSymbols.
	MaxSymbols int
	// AllDefinitions keeps every module-level function, class and variable whatever its name
	// and __all__ (methods still follow the underscore rule). It serves private modules, whose
	// definitions a public module may re-export under a public name: pytest's __all__ lists
	// hookimpl, the variable _pytest.config binds to HookimplMarker("pytest").
	AllDefinitions bool
	// Cython reads the file as Cython source (.pyx,
	// https://cython.readthedocs.io/en/latest/src/userguide/language_basics.html): its cdef
	// classes and cpdef functions are API as classes and defs are, C declarations are not (see
	// cythonStatement), and parameters may carry C types ("int x=0").
	Cython bool
	// Include reads the file a Cython include statement names, by its slash path resolved
	// against the directory of File (the including file's, for a nested include), as Cython
	// resolves it; the file's text takes the statement's place (see expandIncludes). Nil leaves
	// include statements unread. Used only with Cython.
	Include func(p string) ([]byte, error)
}

// Import is one name bound by a module-level from-import statement
// (https://docs.python.org/3/reference/simple_stmts.html#the-import-statement), including one in
// an if/try/with block at module level: "from ._core import open_nursery as start" is
// Import{Level: 1, Module: "_core", Name: "open_nursery", As: "start"}.
type Import struct {
	// Level is the number of leading dots of a relative import, 0 for an absolute one.
	Level int
	// Module is the dotted module name after the dots, "" in "from . import x".
	Module string
	// Name is the imported name, "*" for a star import.
	Name string
	// As is the name the import binds: Name, or its alias after "as"; "" for a star import.
	As string
	// Explicit reports that the import is written "from m import name as name": the typing
	// spec's explicit re-export (https://typing.python.org/en/latest/spec/distributing.html#import-conventions),
	// which marks the name as part of the module's interface although the module has no __all__.
	Explicit bool
	// Line is the line of the from keyword.
	Line int
}

// Result is what Scan found in one file.
type Result struct {
	// Symbols are the module's public API: first a KindPackage symbol for the module itself
	// (when it has a docstring or any public symbol), then functions (KindFunc), classes
	// (KindClass), constants (KindConst), variables __all__ lists (KindVar), and each public
	// class's methods (KindMethod), properties (KindProperty), fields (KindField) and constants
	// and enum members (KindConst), in source order. QualifiedName ("flask.app.Flask.route",
	// "urllib3.util.retry.Retry.DEFAULT_BACKOFF_MAX") is unique within the result.
	Symbols []docidx.Symbol
	// All holds the names of a literal __all__ (list or tuple of strings, extended with += ,
	// .extend, .append), and HasAll says the module defines one. A computed __all__ leaves
	// HasAll false and the underscore rule in force.
	All    []string
	HasAll bool
	// Imports are the names bound by module-level from-imports, in source order.
	Imports []Import
	// Inherited are the members public classes inherit from bases in the same file, each
	// with its Parent the inheriting class and its Doc ending "Inherited from <base>.", after
	// the class's own (see Scan). They are kept apart from Symbols so that a caller with a
	// budget across files keeps every file's own definitions before any inherited copy.
	// MaxSymbols bounds Symbols and Inherited together.
	Inherited []docidx.Symbol
	// Aliases are the public module-level assignments of a name to a dotted name the file does
	// not define, whose symbols (variables or constants in Symbols) a caller that reads the
	// other modules can document as their targets with [Aliased].
	Aliases []Alias
	// Truncated says MaxSymbols cut the result.
	Truncated bool
	// Problems are the Cython include statements that could not be expanded, each naming the
	// including file, its line, the included name and why (missing, a cycle, over a bound).
	// The definitions of the files read are in Symbols all the same.
	Problems []string
}

// Scan reads one Python module and returns its public API.
//
// Public means: listed in the module's literal __all__ when it has one, else a name that does not
// start with "_". An __all__ that names none of the module's own definitions, only the
// submodules "import *" brings in (sqlparse's), leaves its functions and classes public by their
// names. Methods of public classes are public unless their name starts with "_", except
// __init__ and __call__. Property setters and deleters are folded into their property. A name
// defined more than once (typing.overload stubs, if/else variants) is one symbol whose Signature
// holds one line per distinct definition; when overloads exist, the implementation's own line is
// left out and its docstring used, and the overloads' stub defaults ("= ...") show the
// implementation's values ([FillDefaults]). Nested classes, functions inside functions and
// lambdas are not API.
//
// Signature is the definition as written, without its body and its decorators, with line breaks,
// comments and a trailing comma of a multi-line parameter list removed
// ("def get(url, params=None, **kwargs) -> Response", "class Flask(App)", "async def run(self)");
// @staticmethod and @classmethod are kept as a prefix. Doc is the whole docstring, dedented as
// inspect.cleandoc does, cut at a paragraph boundary at MaxDoc bytes (a def or class without
// one, and without a base whose definition it overrides documents, takes the comment lines
// right above it, as pydoc does: defComments); a class whose docstring
// documents no parameter gets its __init__'s docstring appended when that one does (a class
// without a docstring shows __init__'s). Params are the parameters the docstring documents
// ([Params]), their types and defaults completed from the signature (a class's from its
// __init__, or from its fields when it has none, as a dataclass), then, for a documented
// definition, the parameters it does not document whose default is a literal or a constant,
// described by the sentence of the docstring that names them when there is one
// (withSignatureDefaults, proseDocs). A class without __init__ whose __init__ is generated
// from its fields (dataclass, attrs, pydantic, NamedTuple) takes those fields as its
// parameters. A command function's click-style @option and @argument decorators add the
// command-line options they declare to its parameters ([scanner.cliOption]).
//
// Assignments that bind one name are API too. At module level an UPPER_CASE name or one
// annotated Final is a constant (KindConst); another name is a variable (KindVar) only when
// __all__ lists it. In a class body an UPPER_CASE or Final name and an Enum member are
// constants, any other public name a field (KindField): class attributes, dataclass, attrs and
// pydantic fields, TypedDict keys. A public "self.x = …" in __init__ is a field when documented,
// as Sphinx's autodoc reads instance attributes. Type variables (TypeVar, ParamSpec, NewType)
// are not constants. Their Signature is the statement as written ("DEFAULT_BACKOFF_MAX = 120",
// "name: str = Field(...)"), the value clipped at MaxValue bytes; their Doc comes from "#:"
// comments above the statement or at its end, a string statement right after it, a
// description="…" argument, or the class docstring's attributes section ([Attributes]). An
// assignment of another name to a function, method or property the file defines ("runtime =
// runtime_checkable", "find = PackageFinder.find", "fetch = get" in a class body) is that
// definition under the new name ([Aliased]): a function at module level, public by its name
// like a def; one to a name the file imports is reported in Result.Aliases.
//
// A public class also has the public class attributes, methods and properties it inherits from
// bases in the same file and does not define itself (see inherited), in
// Result.Inherited, their Doc ending "Inherited from <base>.". Methods and properties are
// inherited only from bases whose own methods are not symbols: private bases, and every base in
// a module scanned with AllDefinitions; a public base documents its methods itself.
//
// Deprecated is set by a
// ".. deprecated::" directive or a line starting with "Deprecated" in the docstring, a
// @deprecated decorator (PEP 702), or a warnings.warn(…, DeprecationWarning) among the first
// statements of a function body. Line is the line of the def or class keyword.
func Scan(src []byte, opts Options) Result {
	if opts.MaxSymbols <= 0 {
		opts.MaxSymbols = DefaultMaxSymbols
	}
	var segs []segment
	var problems []string
	if opts.Cython && opts.Include != nil {
		src, segs, problems = expandIncludes(src, opts.File, opts.Include)
	}
	s := &scanner{lx: newLexer(src), src: src, opts: opts, byKey: map[string]*item{}, segs: segs}
	s.run()
	res := s.result()
	res.Problems = problems
	return res
}

type blockKind uint8

const (
	bModule blockKind = iota
	bClass
	bDef
	bOther // if, try, with, for, while, match …: transparent for definitions
	bSkip  // a nested class or a function's own blocks: nothing in it is API
	// bProperty is a Cython property block ("property name:"), whose __get__ documents it.
	bProperty
)

type block struct {
	kind   blockKind
	header int // indentation of the header line
	indent int // indentation of the body
	owner  *item
	first  bool // the next statement is the docstring position
	stmts  int
	// assigned is the constant or field the block's previous statement assigned, whose
	// docstring a string statement right after it is.
	assigned *item
	// noneIf, in a function body, is the parameter the previous statement's "if … is None:"
	// tested, at indentation noneIfInd, for whenNone.
	noneIf    string
	noneIfInd int
}

// item is a definition before the public filter.
type item struct {
	kind      docidx.SymbolKind
	name      string
	cls       *item // the class of a method
	sigs      []string
	overloads []string
	doc       string // the cleaned docstring, at most maxRawDoc bytes
	// at is 1 + where in the source the first def or class of the name starts, whose comments
	// (defComments) are its Doc when it has no docstring; 0 for an assignment.
	at         int
	deprecated bool
	// deprecation is the message a @deprecated("…") decorator (PEP 702) or a
	// warnings.warn("…", DeprecationWarning) of its body gives, when a string literal; "" else.
	deprecation string
	// raises are the errors its body raises with a literal message, each statement as written
	// (`raise ValueError("invalid port")`; see raiseStatement), at most extracted.MaxErrors.
	raises []string
	line   int
	// params are the parameters of the first definition's signature (a non-overload one when
	// there is one), for the defaults and types of documented parameters.
	params         []sigParam
	paramsOverload bool
	// options are the command-line options and arguments a command function's decorators
	// declare (cliOption), in source order: Params after those of its docstring.
	options []docidx.Param
	// forwards is the callable a function's body passes its own **kwargs to, as written
	// ("dump_all", "self.request", "Session"; see forwardedCall): its keyword parameters are
	// the function's too, but for the first forwardPos, which the call passes by position,
	// and those it passes by name, forwardNamed.
	forwards     string
	forwardPos   int
	forwardNamed []string
	// enum is set for a class with an Enum or Flag base, whose assigned names are its members;
	// fieldInit for a class whose __init__ is generated from its fields ([scanner.generatesInit]).
	enum, fieldInit bool
	// assign marks a constant, field or variable made by an assignment; onlyInAll marks a
	// module-level variable that is API only when __all__ lists it.
	assign    bool
	onlyInAll bool
	// hasValue says an assigned item's signature holds its value; needsDoc marks an instance
	// attribute, which is API only when documented.
	hasValue bool
	needsDoc bool
	// annotation and value are an assigned item's annotation and value as written (the value
	// clipped at MaxValue bytes).
	annotation, value string
	// whenNone maps a parameter whose default is None to the value the function's body gives
	// it when it is not given, as written (see scanner.whenNone).
	whenNone map[string]string
}

type decorator struct {
	name string // dotted name without arguments: "property", "functools.cached_property", "x.setter"
	// message is the first argument of a @deprecated("…") decorator, when a string literal.
	message string
	// option is the command-line option or argument the decorator declares (cliOption), or nil.
	option *docidx.Param
}

type scanner struct {
	lx    *lexer
	src   []byte
	opts  Options
	items []*item
	byKey map[string]*item // "name" or "Class.name"

	modDoc        string
	modDeprecated bool
	modLine       int

	all        []string
	hasAll     bool
	allDynamic bool
	imports    []Import

	decos      []decorator
	decoIndent int
	loop       *docLoop // the module-level for loop over names being read, or nil (docStatement)

	attrDocs map[*item]map[string]string // by class: its docstring's attribute descriptions
	// clsParams caches classParams by class: its docstrings are parsed once for all its methods.
	clsParams map[*item][]docidx.Param
	// passedParams caches, by callee, the keyword parameters withForwarded offers the functions
	// that pass their **kwargs to it: requests' seven verbs share request's.
	passedParams map[*item][]docidx.Param

	// segs map the lines of a Cython source with its includes expanded to their files (see
	// position); nil for a file without includes.
	segs []segment
}

func (s *scanner) text(t token) string { return string(s.src[t.start:t.end]) }

func (s *scanner) is(t token, text string) bool {
	return t.end-t.start == len(text) && string(s.src[t.start:t.end]) == text
}

func (s *scanner) isOp(t token, op string) bool { return t.kind == tOp && s.is(t, op) }

// nesting returns how t changes the bracket depth: 1 for an opening bracket, -1 for a closing
// one, 0 for any other token.
func (s *scanner) nesting(t token) int {
	if t.kind != tOp {
		return 0
	}
	return nesting(s.src[t.start])
}

// nesting returns how the byte c changes the bracket depth: 1 for '(', '[' or '{', -1 for ')',
// ']' or '}', 0 for any other byte.
func nesting(c byte) int {
	switch c {
	case '(', '[', '{':
		return 1
	case ')', ']', '}':
		return -1
	}
	return 0
}

func (s *scanner) isName(t token, name string) bool { return t.kind == tName && s.is(t, name) }

func (s *scanner) run() {
	stack := []*block{{kind: bModule, first: true}}
	var pending *block
	for {
		ind, ok := s.lx.next()
		if !ok {
			break
		}
		toks := s.lx.toks
		if pending != nil {
			if ind > pending.header && len(stack) < maxBlockDepth {
				pending.indent = ind
				stack = append(stack, pending)
			}
			pending = nil
		}
		for len(stack) > 1 && ind < stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		if top.first {
			top.first = false
			if doc, ok := s.docstring(toks); ok {
				s.setDoc(top, doc, toks[0].line)
				continue
			}
		}
		if prev := top.assigned; prev != nil {
			top.assigned = nil
			if doc, ok := s.docstring(toks); ok {
				if prev.doc == "" {
					prev.doc = cut(cleandoc(doc), maxRawDoc)
				}
				continue
			}
		}
		top.stmts++
		if top.kind == bProperty {
			pending = s.propertyAccessor(toks, ind, top.owner)
			continue
		}
		if top.kind == bDef || top.kind == bSkip {
			if top.kind == bDef && top.owner != nil && top.stmts <= deprecationWindow && s.warnsDeprecation(toks) {
				top.owner.deprecated = true
				top.owner.deprecation = cmp.Or(top.owner.deprecation, s.warnMessage(toks))
			}
			if top.kind == bDef && top.owner != nil && top.owner.cls != nil && top.owner.name == "__init__" {
				top.assigned = s.instanceAttribute(toks, top.owner)
			}
			if top.kind == bDef && top.owner != nil && top.stmts <= noneWindow {
				s.whenNone(toks, ind, top, top.owner)
			}
			if top.kind == bDef && top.owner != nil && top.owner.forwards == "" {
				s.forwardedCall(toks, top.owner)
			}
			if top.kind == bDef && top.owner != nil && len(top.owner.raises) < extracted.MaxErrors {
				if r := s.raiseStatement(toks); r != "" && !slices.Contains(top.owner.raises, r) {
					top.owner.raises = append(top.owner.raises, r)
				}
			}
			continue
		}
		owner := top
		for i := len(stack) - 1; owner.kind == bOther && i > 0; {
			i--
			owner = stack[i]
		}
		if s.isOp(toks[0], "@") {
			if len(s.decos) == 0 || s.decoIndent != ind {
				s.decos = s.decos[:0]
			}
			d := decorator{name: s.dottedName(toks[1:])}
			if d.name == "deprecated" || strings.HasSuffix(d.name, ".deprecated") {
				d.message = s.firstStringArg(toks[1:])
			}
			if p, ok := s.cliOption(toks[1:]); ok {
				d.option = &p
			}
			s.decos = append(s.decos, d)
			s.decoIndent = ind
			continue
		}
		var decos []decorator
		if len(s.decos) > 0 && s.decoIndent == ind {
			decos = s.decos
		}
		if s.opts.Cython {
			if b, ok := s.cythonStatement(toks, ind, owner, decos); ok {
				s.decos = s.decos[:0]
				pending = b
				continue
			}
		}
		b, isDef := s.definition(toks, ind, owner, decos)
		s.decos = s.decos[:0]
		if isDef {
			pending = b
			continue
		}
		if owner.kind == bModule {
			s.allStatement(toks)
			s.importStatement(toks)
			s.attributeImport(toks)
			s.docStatement(toks, ind)
		}
		if owner.kind == bModule || owner.kind == bClass && owner.owner != nil {
			top.assigned = s.assignment(toks, owner.owner)
			if top.assigned == nil && owner.kind == bModule {
				s.unpacking(toks)
			}
		}
		if s.isOp(toks[len(toks)-1], ":") {
			pending = &block{kind: bOther, header: ind}
		}
	}
}

// dottedName returns the dotted name at the start of toks ("functools.cached_property").
func (s *scanner) dottedName(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		if t.kind == tName || s.isOp(t, ".") {
			b.WriteString(s.text(t))
			continue
		}
		break
	}
	return b.String()
}

// headerColon returns the index of the ':' that ends a def or class header, the first one at
// bracket depth 0 from toks[from], or -1.
func (s *scanner) headerColon(toks []token, from int) int {
	depth := 0
	for i := from; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tOp {
			continue
		}
		depth = max(depth+s.nesting(t), 0)
		if depth == 0 && s.is(t, ":") {
			return i
		}
	}
	return -1
}

// definition handles a def or class line in a module or class context. isDef is false for any
// other statement. b is the block the definition's body opens, or nil for a one-line body.
func (s *scanner) definition(toks []token, ind int, owner *block, decos []decorator) (b *block, isDef bool) {
	i := 0
	if s.isName(toks[0], "async") && len(toks) > 1 {
		i = 1
	}
	if toks[i].kind != tName || i+1 >= len(toks) || toks[i+1].kind != tName {
		return nil, false
	}
	isClass := s.is(toks[i], "class")
	if !isClass && !s.is(toks[i], "def") || isClass && i == 1 {
		return nil, false
	}
	colon := s.headerColon(toks, i+2)
	if colon < 0 {
		return nil, false
	}
	return s.define(toks, i+1, colon, isClass, "", toks[:colon], toks[i].line, ind, owner, decos), true
}

// define records the def or class whose name is toks[name] and whose header ends with the colon
// toks[colon], its signature prefix followed by sig rendered, the parameters or bases read from
// the tokens after the name; line is the line of its keyword. It returns the block its body
// opens, nil for a one-line body.
func (s *scanner) define(toks []token, name, colon int, isClass bool, prefix string, sig []token, line, ind int, owner *block, decos []decorator) *block {
	nameText := s.text(toks[name])
	inline := colon < len(toks)-1
	var it *item
	switch {
	case isClass && owner.kind == bClass:
		// A nested class is not API; its body is skipped.
	case isClass:
		it = s.add(docidx.KindClass, nameText, nil, prefix+s.render(s.withoutDocs(sig)), decos, line)
		bases := s.baseNames(toks[name+1 : colon])
		it.enum = it.enum || enumBases(bases)
		it.fieldInit = it.fieldInit || fieldInitClass(decos, bases)
	default:
		var cls *item
		if owner.kind == bClass {
			cls = owner.owner
		}
		it = s.add(docidx.KindFunc, nameText, cls, prefix+s.render(s.withoutDocs(sig)), decos, line)
		if it != nil {
			overload := isOverload(decos)
			if it.params == nil || it.paramsOverload && !overload {
				it.params = s.signatureParams(toks[name+1 : colon])
				if it.params == nil {
					it.params = []sigParam{}
				}
				it.paramsOverload = overload
			}
		}
	}
	if it != nil && it.at == 0 {
		it.at = toks[0].start + 1
	}
	if inline {
		if doc, ok := s.docstring(toks[colon+1:]); ok && it != nil {
			s.setItemDoc(it, doc)
		}
		return nil
	}
	switch {
	case it == nil:
		return &block{kind: bSkip, header: ind}
	case isClass:
		return &block{kind: bClass, header: ind, owner: it, first: true}
	}
	return &block{kind: bDef, header: ind, owner: it, first: true}
}

// add records one definition, merging it with an earlier one of the same name. It returns nil
// for a property setter or deleter, whose body is then skipped.
func (s *scanner) add(kind docidx.SymbolKind, name string, cls *item, sig string, decos []decorator, line int) *item {
	var overload, deprecated bool
	var message string // a @deprecated decorator's
	prefix := ""
	for _, d := range decos {
		last := d.name[strings.LastIndexByte(d.name, '.')+1:]
		switch last {
		case "setter", "deleter", "getter":
			if strings.Contains(d.name, ".") {
				return nil
			}
		case "property", "cached_property", "abstractproperty":
			if cls != nil {
				kind = docidx.KindProperty
			}
		case "staticmethod", "classmethod":
			if cls != nil {
				prefix = "@" + last + " "
			}
		case "overload":
			overload = true
		case "deprecated":
			deprecated = true
			message = cmp.Or(message, d.message)
		}
	}
	if cls != nil && kind == docidx.KindFunc {
		kind = docidx.KindMethod
	}
	key := name
	if cls != nil {
		key = cls.name + "." + name
	}
	it := s.byKey[key]
	if it != nil && it.assign {
		// A name assigned, then defined (a fallback in an except block): the definition wins.
		*it = item{kind: kind, name: name, cls: cls, line: line}
	}
	if it == nil {
		it = &item{kind: kind, name: name, cls: cls, line: line}
		s.byKey[key] = it
		s.items = append(s.items, it)
	}
	it.deprecated = it.deprecated || deprecated
	it.deprecation = cmp.Or(it.deprecation, message)
	if len(it.options) == 0 {
		for _, d := range decos {
			if d.option != nil {
				it.options = append(it.options, *d.option)
			}
		}
	}
	sig = prefix + sig
	if overload {
		it.overloads = appendUnique(it.overloads, sig)
	} else {
		it.sigs = appendUnique(it.sigs, sig)
	}
	return it
}

func appendUnique(list []string, s string) []string {
	if len(list) >= maxSignatureLines {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// render prints the tokens of a definition header as one line: tokens separated by one space
// where the source had white space, none just inside brackets, and the trailing comma of a
// parameter list that ends on its own line dropped.
func (s *scanner) render(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if t.kind == tOp && s.src[t.start] == ',' && i+1 < len(toks) && toks[i+1].nl && isCloser(s.src, toks[i+1]) {
			continue
		}
		if i > 0 && t.space && !isOpener(s.src, toks[i-1]) && !isCloser(s.src, t) {
			b.WriteByte(' ')
		}
		b.Write(s.src[t.start:t.end])
		if b.Len() > MaxSignature {
			break
		}
	}
	out := b.String()
	if strings.ContainsAny(out, "\r\n") {
		out = strings.Join(strings.Fields(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(out)), " ")
	}
	return cut(out, MaxSignature)
}

// codeBytes calls fn with each byte c of the Python expression s from index from on that is
// outside its string literals ('…' and "…", backslash escapes skipped), its index i and the
// bracket depth before it: an opening bracket ( [ { adds one after it, a closing one takes one
// away, not below zero. fn returns false to stop.
func codeBytes(s string, from int, fn func(i int, c byte, depth int) bool) {
	depth := 0
	var quote byte
	for i := from; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		}
		if !fn(i, c, depth) {
			return
		}
		depth = max(depth+nesting(c), 0)
	}
}

// cut shortens s to at most max bytes at a rune boundary, ending it with "…".
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ellipsis = "…"
	return limit.Cut(s, max-len(ellipsis)) + ellipsis
}

// cutValue shortens the rendered expression s to at most limit bytes without cutting a value:
// after the last item or argument that fits (a "," outside strings), then " …" and the
// brackets still open, so "Config(a=1, b='x', c=[1, 2])" cut at 24 bytes becomes
// "Config(a=1, b='x', …)". An expression with no such place is cut as cut does.
func cutValue(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	var open []byte // closers of the brackets open at i
	best, bestOpen := -1, ""
	codeBytes(s, 0, func(i int, c byte, _ int) bool {
		switch c {
		case '(':
			open = append(open, ')')
		case '[':
			open = append(open, ']')
		case '{':
			open = append(open, '}')
		case ')', ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case ',':
			closers := make([]byte, len(open)) // innermost first
			for k, cl := range open {
				closers[len(open)-1-k] = cl
			}
			if i+1+len(" …")+len(closers) > limit {
				return false // later items do not fit either
			}
			best, bestOpen = i+1, string(closers)
		}
		return true
	})
	if best < 0 {
		return cut(s, limit)
	}
	return s[:best] + " …" + bestOpen
}

func isOpener(src []byte, t token) bool {
	return t.kind == tOp && t.end-t.start == 1 && (src[t.start] == '(' || src[t.start] == '[' || src[t.start] == '{')
}

func isCloser(src []byte, t token) bool {
	return t.kind == tOp && t.end-t.start == 1 && (src[t.start] == ')' || src[t.start] == ']' || src[t.start] == '}')
}

// docstring returns the value of a statement made only of string literals (implicitly
// concatenated), which in the docstring position is the docstring. Bytes and f-strings are not
// docstrings.
func (s *scanner) docstring(toks []token) (string, bool) {
	if len(toks) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, t := range toks {
		if t.kind != tString {
			return "", false
		}
		v, ok := stringValue(s.src[t.start:t.end])
		if !ok {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// stringValue returns the contents of a string literal: quotes and prefix removed and, unless
// raw, the common escapes decoded. ok is false for bytes and formatted strings.
func stringValue(lit []byte) (string, bool) {
	i, raw := 0, false
	for i < len(lit) && lit[i] != '\'' && lit[i] != '"' {
		switch lit[i] | 0x20 {
		case 'r':
			raw = true
		case 'b', 'f', 't':
			return "", false
		}
		i++
	}
	if i >= len(lit) {
		return "", false
	}
	q := lit[i]
	n := 1
	if i+2 < len(lit) && lit[i+1] == q && lit[i+2] == q {
		n = 3
	}
	body := lit[i+n:]
	if len(body) >= n && string(body[len(body)-n:]) == strings.Repeat(string(q), n) {
		body = body[:len(body)-n]
	}
	if raw || !strings.ContainsRune(string(body), '\\') {
		return string(body), true
	}
	var b strings.Builder
	for j := 0; j < len(body); j++ {
		c := body[j]
		if c != '\\' || j+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		j++
		switch body[j] {
		case '\n':
		case '\r':
			if j+1 < len(body) && body[j+1] == '\n' {
				j++
			}
		case '\\', '\'', '"':
			b.WriteByte(body[j])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte('\\')
			b.WriteByte(body[j])
		}
	}
	return b.String(), true
}

// setDoc attaches a docstring found in the docstring position of a block.
func (s *scanner) setDoc(b *block, doc string, line int) {
	switch b.kind {
	case bModule:
		clean := cleandoc(doc)
		s.modDoc = boundDoc(clean, MaxDoc)
		s.modDeprecated = deprecatedDoc(clean)
		s.modLine = line
	case bClass, bDef, bProperty:
		if b.owner != nil {
			s.setItemDoc(b.owner, doc)
		}
	}
}

func (s *scanner) setItemDoc(it *item, doc string) {
	clean := cleandoc(doc)
	if it.doc == "" {
		it.doc = cut(clean, maxRawDoc)
	}
	if deprecatedDoc(clean) {
		it.deprecated = true
	}
}

// cleandoc dedents a docstring as Python's inspect.cleandoc does: tabs expanded, the first line's
// leading white space removed, the common indentation of the other lines removed, and blank
// lines at either end dropped.
func cleandoc(doc string) string {
	doc = strings.ReplaceAll(doc, "\r\n", "\n")
	doc = strings.ReplaceAll(doc, "\r", "\n")
	if strings.ContainsRune(doc, '\t') {
		doc = pystr.ExpandTabs(doc)
	}
	lines := strings.Split(doc, "\n")
	margin := -1
	for _, l := range lines[1:] {
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if ind := len(l) - len(t); margin < 0 || ind < margin {
			margin = ind
		}
	}
	lines[0] = strings.TrimLeft(lines[0], " ")
	for i := 1; i < len(lines); i++ {
		// A line shorter than the margin is white space (the margin is the least indentation
		// of a line with text). With a margin of 0 (a module docstring at the file's left
		// edge) every line keeps its indentation: its code blocks stay code.
		if len(lines[i]) >= max(margin, 0) {
			lines[i] = lines[i][max(margin, 0):]
		} else {
			lines[i] = ""
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// withDeprecation returns doc, the cleaned docstring of it, with its deprecation message
// ("Deprecated: Use X instead.") as a paragraph after its first, when the docstring does not say
// so itself (deprecatedDoc). An undocumented item stays undocumented, as search ranks it.
func withDeprecation(doc string, it *item) string {
	if it.deprecation == "" || doc == "" || deprecatedDoc(doc) {
		return doc
	}
	note := "Deprecated: " + it.deprecation
	if first, rest, ok := strings.Cut(doc, "\n\n"); ok {
		return first + "\n\n" + note + "\n\n" + rest
	}
	return doc + "\n\n" + note
}

// raiseStatement returns a statement that raises an error constructed with a string literal
// message, written back as Python writes it: raise ValueError("invalid port") for
// raise ValueError('invalid port') (a dotted name kept, adjacent literals joined, white space
// collapsed); a message that goes on ("… %s" % x, "…".format(x), "…" + x) keeps its
// literal, ending " …". Anything else ("raise", "raise err", an f-string, no message) is "".
func (s *scanner) raiseStatement(toks []token) string {
	if len(toks) < 4 || !s.isName(toks[0], "raise") || toks[1].kind != tName {
		return ""
	}
	i := 1
	for i+2 < len(toks) && s.isOp(toks[i+1], ".") && toks[i+2].kind == tName {
		i += 2
	}
	name := s.render(toks[1 : i+1])
	if i+2 >= len(toks) || !s.isOp(toks[i+1], "(") || toks[i+2].kind != tString {
		return ""
	}
	var b strings.Builder
	k := i + 2
	for ; k < len(toks) && toks[k].kind == tString; k++ {
		v, ok := stringValue(s.src[toks[k].start:toks[k].end])
		if !ok {
			return ""
		}
		b.WriteString(v)
	}
	msg := strings.Join(strings.Fields(b.String()), " ")
	if msg == "" {
		return ""
	}
	msg = cut(msg, maxDeprecation)
	if k >= len(toks) || !s.isOp(toks[k], ",") && !s.isOp(toks[k], ")") {
		msg += " …"
	}
	return "raise " + name + "(\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(msg) + "\")"
}

// codeErrors returns the errors function it's code raises with a literal message
// (docidx.Symbol.Errors), when doc, its symbol's doc, has no section that says what it raises
// (a "Raises" heading, a ":raises" field); for a class, its __init__'s, which calling the class
// raises. What a function refuses is often only in its code; a grep of the package finds it
// there.
func (s *scanner) codeErrors(it *item, doc string) []string {
	if it.kind == docidx.KindClass {
		if init := s.byKey[it.name+".__init__"]; init != nil {
			it = init
		}
	}
	if len(it.raises) == 0 || it.kind != docidx.KindFunc && it.kind != docidx.KindMethod || documentsRaises(doc) {
		return nil
	}
	return it.raises
}

// documentsRaises reports whether a cleaned docstring says what its function raises: a line
// that starts with "Raises" (Google and NumPy style), ":raises" or ":raise" (reST fields).
func documentsRaises(clean string) bool {
	for line := range strings.SplitSeq(clean, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "Raises") || strings.HasPrefix(l, ":raise") || strings.HasPrefix(l, ":exc") {
			return true
		}
	}
	return false
}

// deprecatedDoc reports whether a cleaned docstring marks its object deprecated: a line at the
// left margin that is a ".. deprecated::" directive or starts with "Deprecated" ("Deprecated:
// use …", "DEPRECATED since 2.0"). Indented lines do not count: inside a versionchanged note, or
// under one parameter of a Parameters section, they deprecate something else (pandas'
// read_csv deprecates some of its arguments, not itself).
func deprecatedDoc(clean string) bool {
	for _, l := range strings.Split(clean, "\n") {
		if strings.HasPrefix(l, ".. deprecated::") || strings.HasPrefix(l, "Deprecated") || strings.HasPrefix(l, "DEPRECATED") {
			return true
		}
	}
	return false
}

// forwardedCall sets it.forwards, forwardPos and forwardNamed when statement toks of function
// it's body calls something with it's own **kwargs parameter spread into the call: the callee as
// written ("dump_all" for yaml.dump's "return dump_all([data], stream, Dumper=Dumper, **kwds)",
// "self.request" for requests' Session.get), how many arguments the call passes by position (2)
// and the names it passes by keyword (Dumper). A call on something other than a dotted name
// ("super().__init__(**kw)", "f()(**kw)") is not recorded.
func (s *scanner) forwardedCall(toks []token, it *item) {
	kw := ""
	for _, p := range it.params {
		if n, ok := strings.CutPrefix(p.name, "**"); ok {
			kw = n
		}
	}
	if kw == "" {
		return
	}
	var opens []int // the open brackets' tokens
	for i, t := range toks {
		switch {
		case t.kind != tOp:
		case isOpener(s.src, t):
			opens = append(opens, i)
		case isCloser(s.src, t):
			if len(opens) > 0 {
				opens = opens[:len(opens)-1]
			}
		case s.is(t, "**") && i+1 < len(toks) && s.isName(toks[i+1], kw) && len(opens) > 0:
			o := opens[len(opens)-1]
			if !s.is(toks[o], "(") || o == 0 || toks[o-1].kind != tName {
				return
			}
			start := o - 1
			for start >= 2 && s.isOp(toks[start-1], ".") && toks[start-2].kind == tName {
				start -= 2
			}
			if start > 0 && s.isOp(toks[start-1], ".") {
				return
			}
			var b strings.Builder
			for j := start; j < o; j++ {
				b.WriteString(s.text(toks[j]))
			}
			it.forwards = b.String()
			it.forwardPos, it.forwardNamed = s.callArguments(toks[o+1:])
			return
		}
	}
}

// callArguments reads the arguments of a call, toks from after its "(": how many it passes by
// position (before any * or ** argument) and the names it passes by keyword.
func (s *scanner) callArguments(toks []token) (positional int, named []string) {
	depth, start := 0, 0
	arg := func(a []token) {
		switch {
		case len(a) == 0 || s.isOp(a[0], "*") || s.isOp(a[0], "**"):
		case len(a) >= 2 && a[0].kind == tName && s.isOp(a[1], "="):
			named = append(named, s.text(a[0]))
		case len(named) == 0:
			positional++
		}
	}
	for i, t := range toks {
		if t.kind != tOp {
			continue
		}
		switch {
		case isOpener(s.src, t):
			depth++
		case isCloser(s.src, t):
			if depth == 0 {
				arg(toks[start:i])
				return positional, named
			}
			depth--
		case depth == 0 && s.is(t, ","):
			arg(toks[start:i])
			start = i + 1
		}
	}
	return positional, named
}

// warnsDeprecation reports whether a statement calls warn(…) with a DeprecationWarning or
// PendingDeprecationWarning.
func (s *scanner) warnsDeprecation(toks []token) bool {
	warn, category := false, false
	for _, t := range toks {
		if t.kind != tName {
			continue
		}
		switch s.text(t) {
		case "warn":
			warn = true
		case "DeprecationWarning", "PendingDeprecationWarning":
			category = true
		}
	}
	return warn && category
}

// warnMessage returns the message of a warn("…", …) call among toks when it is a string literal
// (adjacent literals joined), else "".
func (s *scanner) warnMessage(toks []token) string {
	for i, t := range toks {
		if t.kind == tName && s.text(t) == "warn" {
			return s.firstStringArg(toks[i:])
		}
	}
	return ""
}

// maxDeprecation bounds a deprecation message, in bytes.
const maxDeprecation = 400

// firstStringArg returns the first argument of the first call among toks ("deprecated("Use
// X.")", "warn("…", DeprecationWarning)") when it is a string literal, adjacent literals joined
// and white space collapsed, at most maxDeprecation bytes; "" for anything else (an f-string, a
// name, no call).
func (s *scanner) firstStringArg(toks []token) string {
	i := 0
	for i < len(toks) && !s.isOp(toks[i], "(") {
		i++
	}
	var b strings.Builder
	for i++; i < len(toks) && toks[i].kind == tString; i++ {
		v, ok := stringValue(s.src[toks[i].start:toks[i].end])
		if !ok {
			return ""
		}
		b.WriteString(v)
	}
	if i >= len(toks) || !s.isOp(toks[i], ",") && !s.isOp(toks[i], ")") {
		return "" // the argument goes on: "…" % x, "…".format(x), "…" + name
	}
	msg := strings.Join(strings.Fields(b.String()), " ")
	if len(msg) > maxDeprecation {
		msg = cut(msg, maxDeprecation)
	}
	return msg
}

// maxImports bounds the imports recorded for one module.
const maxImports = 1 << 14

// importStatement records the names bound by a module-level "from … import …" statement.
// Anything malformed is ignored.
func (s *scanner) importStatement(toks []token) {
	if !s.isName(toks[0], "from") {
		return
	}
	line := toks[0].line
	i, level := 1, 0
	for ; i < len(toks) && toks[i].kind == tOp && (s.is(toks[i], ".") || s.is(toks[i], "...")); i++ {
		level += toks[i].end - toks[i].start
	}
	from := i
	for i < len(toks) && (toks[i].kind == tName && !s.is(toks[i], "import") || s.isOp(toks[i], ".")) {
		i++
	}
	module := s.dottedName(toks[from:i])
	if i >= len(toks) || !s.isName(toks[i], "import") || level == 0 && module == "" {
		return
	}
	rest := toks[i+1:]
	if len(rest) == 1 && s.isOp(rest[0], "*") {
		s.addImport(Import{Level: level, Module: module, Name: "*", Line: line})
		return
	}
	if len(rest) >= 2 && s.isOp(rest[0], "(") && s.isOp(rest[len(rest)-1], ")") {
		rest = rest[1 : len(rest)-1]
	}
	for len(rest) > 0 {
		end := 0
		for end < len(rest) && !s.isOp(rest[end], ",") {
			end++
		}
		part := rest[:end]
		switch {
		case len(part) == 1 && part[0].kind == tName:
			n := s.text(part[0])
			s.addImport(Import{Level: level, Module: module, Name: n, As: n, Line: line})
		case len(part) == 3 && part[0].kind == tName && s.isName(part[1], "as") && part[2].kind == tName:
			name, as := s.text(part[0]), s.text(part[2])
			s.addImport(Import{Level: level, Module: module, Name: name, As: as, Explicit: name == as, Line: line})
		case len(part) != 0:
			return
		}
		if end == len(rest) {
			break
		}
		rest = rest[end+1:]
	}
}

// attributeImport reads a module-level "Name = module.Attr" whose module is a name an earlier
// from-import binds ("from . import _copy", then "Copy = _copy.Copy", as psycopg.copy writes
// it) as the import it amounts to, "from ._copy import Copy as Name"; a longer path
// ("Copy = _impl.copy.Copy") names a module inside it. A name another import binds in the
// meantime is followed as Python would not, but a wrong module only fails to resolve.
func (s *scanner) attributeImport(toks []token) {
	if len(toks) < 5 || toks[0].kind != tName || !s.isOp(toks[1], "=") || (len(toks)-2)%2 != 1 {
		return
	}
	path := toks[2:]
	for i, t := range path {
		if i%2 == 0 && t.kind != tName || i%2 == 1 && !s.isOp(t, ".") {
			return
		}
	}
	first := s.text(path[0])
	for i := len(s.imports) - 1; i >= 0; i-- {
		im := s.imports[i]
		if im.Name == "*" || im.As != first {
			continue
		}
		parts := []string{im.Name}
		if im.Module != "" {
			parts = append([]string{im.Module}, parts...)
		}
		for j := 2; j < len(path)-1; j += 2 {
			parts = append(parts, s.text(path[j]))
		}
		s.addImport(Import{Level: im.Level, Module: strings.Join(parts, "."), Name: s.text(path[len(path)-1]), As: s.text(toks[0]), Line: toks[0].line})
		return
	}
}

// stub reports whether the file scanned is a .pyi stub (PEP 484's "Stub files").
func (s *scanner) stub() bool { return strings.HasSuffix(s.opts.File, ".pyi") }

func (s *scanner) addImport(im Import) {
	if len(s.imports) < maxImports {
		s.imports = append(s.imports, im)
	}
}

// allStatement reads a module-level statement that sets or extends __all__.
func (s *scanner) allStatement(toks []token) {
	if !s.isName(toks[0], "__all__") {
		return
	}
	if len(toks) < 2 {
		return
	}
	switch {
	case s.isOp(toks[1], "="):
		s.setAll(toks[2:], false)
	case s.isOp(toks[1], "+="):
		s.setAll(toks[2:], true)
	case s.isOp(toks[1], ":"):
		for i := 2; i < len(toks); i++ {
			if s.isOp(toks[i], "=") {
				s.setAll(toks[i+1:], false)
				return
			}
		}
	case s.isOp(toks[1], ".") && len(toks) >= 5 && s.isOp(toks[3], "(") && s.isOp(toks[len(toks)-1], ")"):
		switch s.text(toks[2]) {
		case "extend", "append":
			s.setAll(toks[4:len(toks)-1], true)
		case "remove":
			if names, ok := s.literalNames(toks[4 : len(toks)-1]); ok {
				for _, n := range names {
					for i, x := range s.all {
						if x == n {
							s.all = append(s.all[:i], s.all[i+1:]...)
							break
						}
					}
				}
				return
			}
			s.allDynamic = true
		default:
			s.allDynamic = true
		}
	default:
		s.allDynamic = true
	}
}

func (s *scanner) setAll(rhs []token, extend bool) {
	names, ok := s.literalNames(rhs)
	if !ok || extend && !s.hasAll {
		s.allDynamic = true
		return
	}
	if !extend {
		s.all = s.all[:0]
	}
	s.all = append(s.all, names...)
	s.hasAll = true
}

// literalNames reads a literal made of strings, brackets, commas and "+" (["a", "b"] + ("c",)).
func (s *scanner) literalNames(toks []token) ([]string, bool) {
	if len(toks) == 0 {
		return nil, false
	}
	var names []string
	var cur strings.Builder
	inString := false
	flush := func() {
		if inString {
			names = append(names, cur.String())
			cur.Reset()
			inString = false
		}
	}
	for _, t := range toks {
		switch t.kind {
		case tString:
			v, ok := stringValue(s.src[t.start:t.end])
			if !ok {
				return nil, false
			}
			cur.WriteString(v)
			inString = true
		case tOp:
			switch s.text(t) {
			case "[", "]", "(", ")", ",", "+":
				flush()
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	flush()
	return names, true
}

// Bounds of inheritance (see inherited). The nearest base's members come first, so a bound
// keeps those most likely read with the class. A caller that adds members inherited across
// files keeps the same bounds.
const (
	// MaxInherited is the most class attributes one class inherits.
	MaxInherited = 32
	// MaxInheritedMethods is the most methods and properties one class inherits: it keeps a
	// framework base with hundreds of methods from being copied whole into each subclass, and
	// no class of the 98 distributions of the site-packages corpus reaches it (pytest.File
	// inherits 19 from private bases, the most).
	MaxInheritedMethods = 32
	// maxBaseDepth bounds the chain of bases followed.
	maxBaseDepth = 8
)

// inherited returns the public members that cls inherits from its bases defined in the same file
// and does not define itself, nearest base first (depth first, as Python's method resolution
// order finds them for single inheritance): class attributes (constants and fields a class body
// assigns), at most MaxInherited, and the methods and properties of bases whose own methods
// are not symbols (documented(base) false: a private base, or any base in a private module),
// at most MaxInheritedMethods. An exception hierarchy sets exit_code once in its base, and
// "UsageError's subclass BadArgumentUsage exits with 2" is then in no symbol of
// BadArgumentUsage; setuptools' public PackageFinder gets its find, and find's docstring, from
// its private base _Finder, which docidx keeps no symbol of. A public base's methods are its
// own symbols: copied into each subclass (tried: 14,900 more symbols over the site-packages
// corpus, 16%) they made common words look common enough that a question naming the npm
// package debug no longer named it, and a copy outranked its original. Bases defined elsewhere
// are not followed, nor are enum bases, whose members are not inherited. Names starting with
// "_" (__init__ included) are not inherited.
func (s *scanner) inherited(cls *item, documented func(base *item) bool) []*item {
	var out []*item
	attrs, methods := 0, 0
	seen := map[string]bool{}
	s.walkBases(cls, func(base *item) {
		for _, a := range s.items {
			if a.cls != base || a.needsDoc || seen[a.name] {
				continue
			}
			seen[a.name] = true // a nearer base's member hides a farther one's, kept or not
			if strings.HasPrefix(a.name, "_") || s.byKey[cls.name+"."+a.name] != nil {
				continue
			}
			switch {
			case a.assign && attrs < MaxInherited:
				attrs++
			case !a.assign && methods < MaxInheritedMethods && !documented(base):
				methods++
			default:
				continue
			}
			out = append(out, a)
		}
	})
	return out
}

// member returns the method or property name that class cls defines or inherits from a base in
// the same file (see inherited), or nil.
func (s *scanner) member(cls *item, name string) *item {
	if m := s.byKey[cls.name+"."+name]; m != nil {
		return m
	}
	var found *item
	s.walkBases(cls, func(base *item) {
		if found == nil {
			found = s.byKey[base.name+"."+name]
		}
	})
	return found
}

// overridden returns the documented method or property of a base class in the same file
// (walkBases, nearest first) that it overrides, when it is a method or property of a class
// without a docstring of its own, else nil. The base's doc is then the override's too, as
// inspect.getdoc and Sphinx's autodoc (autodoc_inherit_docstrings) read an undocumented
// override, without a word of where it came from: outcome's Value.unwrap overrides the
// documented Outcome.unwrap. The same doc on both makes them one hit of a search (a member
// declared alike on two types), the other named in its also.
func (s *scanner) overridden(it *item) *item {
	if it.cls == nil || it.assign || it.doc != "" || it.name == "__init__" {
		return nil
	}
	var found *item
	s.walkBases(it.cls, func(base *item) {
		if m := s.byKey[base.name+"."+it.name]; found == nil && m != nil && !m.assign && m.doc != "" {
			found = m
		}
	})
	return found
}

// sameParams reports whether a and b name the same parameters in the same order.
func sameParams(a, b []docidx.Param) bool {
	return slices.EqualFunc(a, b, func(x, y docidx.Param) bool { return x.Name == y.Name })
}

// walkBases calls visit for each class that cls derives from and that is defined in the same
// file, not an enum, depth first, each once, at most maxBaseDepth levels up.
func (s *scanner) walkBases(cls *item, visit func(base *item)) {
	visited := map[*item]bool{cls: true}
	var walk func(c *item, depth int)
	walk = func(c *item, depth int) {
		if depth > maxBaseDepth {
			return
		}
		for _, b := range classBases(c.sigs) {
			base := s.byKey[b]
			if base == nil || base.kind != docidx.KindClass || base.cls != nil || base.enum || visited[base] {
				continue
			}
			visited[base] = true
			visit(base)
			walk(base, depth+1)
		}
	}
	walk(cls, 1)
}

// Bases yields the arguments in the parentheses of the first line of a class Signature as Scan
// renders it, trimmed, empty ones left out: "class A(b.C, Generic[T], metaclass=M)" yields
// "b.C", "Generic[T]" and "metaclass=M". Callers pick the bases they can follow.
func Bases(signature string) iter.Seq[string] {
	first, _, _ := strings.Cut(signature, "\n")
	return baseArgs(first)
}

// baseArgs yields the trimmed, non-empty arguments in the parentheses of one class header line.
func baseArgs(sig string) iter.Seq[string] {
	return func(yield func(string) bool) {
		open, end := strings.IndexByte(sig, '('), strings.LastIndexByte(sig, ')')
		if open < 0 || end < open {
			return
		}
		for b := range strings.SplitSeq(sig[open+1:end], ",") {
			if b = strings.TrimSpace(b); b != "" && !yield(b) {
				return
			}
		}
	}
}

// classBases returns the plain names among the bases of a class signature ("class
// BadParameter(UsageError, metaclass=M)": "UsageError"), a generic base by its class ("class
// Value(Outcome[ValueT])": "Outcome"): not keyword arguments, not dotted bases.
func classBases(sigs []string) []string {
	if len(sigs) == 0 {
		return nil
	}
	var out []string
	for b := range baseArgs(sigs[0]) {
		// A generic base, "Outcome[ValueT]", is the class Outcome.
		if i := strings.IndexByte(b, '['); i > 0 && strings.HasSuffix(b, "]") {
			b = b[:i]
		}
		if !strings.ContainsAny(b, "=.[]() ") {
			out = append(out, b)
		}
	}
	return out
}

// docParams returns an item's Doc (its docstring cut at MaxDoc) and Params: the parameters the
// docstring documents, completed from the signature, then, for a documented item, the
// parameters of the signature it does not document that have a telling default
// ([withSignatureDefaults]). A class whose docstring documents no parameter takes those of its
// __init__'s docstring, and its Doc is both docstrings (or __init__'s alone when the class has
// none); a class's parameters are completed from __init__'s signature, or without an __init__
// from its fields (a dataclass's): the class symbol carries its constructor's parameters.
func (s *scanner) docParams(it *item) (string, []docidx.Param) {
	doc, params := s.docParamsOwn(it)
	return doc, s.withForwarded(params, it)
}

// docParamsOwn is docParams without the parameters it passes on (withForwarded).
func (s *scanner) docParamsOwn(it *item) (string, []docidx.Param) {
	if it.assign {
		doc := it.doc
		if doc == "" && it.cls != nil {
			doc = s.attributeDoc(it.cls, it.name)
		}
		return boundDoc(doc, MaxDoc), nil
	}
	doc := it.doc
	params := Params(doc)
	sig := it.params
	src := it // the definition whose body gives sig's values when not given
	prose := []string{it.doc}
	if it.kind == docidx.KindClass {
		init := s.byKey[it.name+".__init__"]
		switch {
		case init != nil:
			sig, src = init.params, init
			prose = append(prose, init.doc)
			if len(params) == 0 && init.doc != "" {
				if ip := Params(init.doc); len(ip) > 0 || doc == "" {
					params = ip
					if doc != "" {
						doc += "\n\n"
					}
					doc += init.doc
				}
			}
		case len(params) > 0 || s.generatesInit(it, 0):
			sig = s.fieldParams(it)
		}
	}
	doc = withDeprecation(doc, it)
	fillParams(params, sig)
	params = withAnnotatedDocs(params, sig)
	if it.kind == docidx.KindMethod && it.cls != nil && it.name != "__init__" {
		params = withClassParams(params, sig, s.classParams(it.cls))
	}
	if doc != "" {
		params = withSignatureDefaults(params, sig)
		proseDocs(params, prose...)
	}
	params = s.withWhenNone(params, sig, src, doc != "")
	return boundDoc(doc, MaxDoc), append(params, it.options...)
}

// withForwarded returns params, the parameters of function it, followed by
// the keyword parameters of the callable it passes its **kwargs to (item.forwards) that it has
// not got itself, when the file defines that callable: a function of the module, a method of
// it's class or its bases ("self.request"), or a class (its constructor's). yaml.dump takes
// **kwds and passes them to dump_all, whose sort_keys=True is the default a question about
// dump's key order asks for. Each is described as passed on, with the callable's own
// description of it; only those the callable documents or gives a telling default
// (withSignatureDefaults) are added, one level deep.
func (s *scanner) withForwarded(params []docidx.Param, it *item) []docidx.Param {
	target := s.forwardTarget(it)
	if target == nil {
		return params
	}
	// The target's own *args and **kwargs are no keywords, and the call passes its first
	// forwardPos parameters (after self or cls) and forwardNamed itself.
	have := make(map[string]bool, len(it.params)+len(params))
	tsig := target.params
	if init := s.byKey[target.name+".__init__"]; target.kind == docidx.KindClass && init != nil {
		tsig = init.params
	}
	if len(tsig) > 0 && (target.cls != nil || target.kind == docidx.KindClass) && (tsig[0].name == "self" || tsig[0].name == "cls") {
		tsig = tsig[1:]
	}
	for i, p := range tsig {
		if strings.HasPrefix(p.name, "*") || i < it.forwardPos {
			have[strings.TrimLeft(p.name, "*")] = true
		}
	}
	for _, n := range it.forwardNamed {
		have[n] = true
	}
	tparams, ok := s.passedParams[target]
	if !ok {
		var tdoc string
		if tdoc, tparams = s.docParamsOwn(target); tdoc == "" {
			tparams = withSignatureDefaults(tparams, tsig)
		}
		if s.passedParams == nil {
			s.passedParams = map[*item][]docidx.Param{}
		}
		s.passedParams[target] = tparams
	}
	for _, p := range it.params {
		have[strings.TrimLeft(p.name, "*")] = true
	}
	for _, p := range params {
		have[strings.TrimLeft(p.Name, "*")] = true
	}
	for _, p := range tparams {
		name := strings.TrimLeft(p.Name, "*")
		if have[name] || strings.HasPrefix(p.Name, "*") || strings.HasPrefix(name, "_") || name == "self" || name == "cls" {
			continue
		}
		have[name] = true
		passed := "passed on to " + it.forwards
		if p.Doc != "" {
			p.Doc = passed + ": " + p.Doc
		} else {
			p.Doc = passed
		}
		params = append(params, p)
	}
	return params
}

// forwardTarget returns the item it.forwards names in this file, or nil: a module-level function
// or class by its name, or through "self." or "cls." a method of it's class or a base.
func (s *scanner) forwardTarget(it *item) *item {
	name := it.forwards
	var t *item
	switch {
	case name == "":
		return nil
	case it.cls != nil && (strings.HasPrefix(name, "self.") || strings.HasPrefix(name, "cls.")):
		_, m, _ := strings.Cut(name, ".")
		t = s.member(it.cls, m)
	case !strings.Contains(name, "."):
		t = s.byKey[name]
	}
	if t == nil || t == it || t.assign || t.kind != docidx.KindFunc && t.kind != docidx.KindMethod && t.kind != docidx.KindClass {
		return nil
	}
	return t
}

// classParams returns the parameters the docstrings of class cls and of its __init__ document,
// parsed once per class.
func (s *scanner) classParams(cls *item) []docidx.Param {
	if params, ok := s.clsParams[cls]; ok {
		return params
	}
	params := Params(cls.doc)
	if init := s.byKey[cls.name+".__init__"]; init != nil {
		params = append(params, Params(init.doc)...)
	}
	if s.clsParams == nil {
		s.clsParams = map[*item][]docidx.Param{}
	}
	s.clsParams[cls] = params
	return params
}

// fieldParams returns the fields declared in the body of class cls as the parameters of the
// __init__ a dataclass, attrs class, pydantic model or NamedTuple generates: the annotated
// fields (not ClassVar) and those whose value is a field specifier (attr.ib(), field(),
// Field()), each with its annotation, its default (the value, or the default a field specifier
// gives: [fieldDefault]) and the first sentence of its doc.
func (s *scanner) fieldParams(cls *item) []sigParam {
	var out []sigParam
	for _, f := range s.items {
		if f.cls != cls || f.kind != docidx.KindField || f.needsDoc {
			continue
		}
		def, specifier := fieldDefault(f.value)
		if (f.annotation == "" || strings.Contains(f.annotation, "ClassVar")) && !specifier {
			continue
		}
		doc := f.doc
		if doc == "" {
			doc = s.attributeDoc(cls, f.name)
		}
		out = append(out, sigParam{name: f.name, typ: f.annotation, def: def, doc: firstSentence(doc)})
	}
	return out
}

// fieldSpecifiers are the calls that declare a field with its options
// (https://peps.python.org/pep-0681/#field-specifiers): dataclasses.field, attr.ib and
// attr.attrib, attrs.field, pydantic.Field.
var fieldSpecifiers = map[string]bool{"field": true, "ib": true, "attrib": true, "Field": true}

// fieldDefault returns the default of a field whose value as written is value: the value
// itself, or for a field specifier call (specifier true) its default= argument or first
// positional argument ("Field(30, description=…)" is 30), "" when it has none (a
// default_factory, or pydantic's required "Field(...)").
func fieldDefault(value string) (def string, specifier bool) {
	open := strings.IndexByte(value, '(')
	if open <= 0 || !fieldSpecifiers[lastDotted(strings.TrimSpace(value[:open]))] {
		return value, false
	}
	for k, part := range paramParts(value) {
		name, d := splitParam(part)
		switch {
		case d != "" && name == "default":
			return d, true
		case d == "" && k == 0:
			return strings.TrimSpace(part), true
		}
	}
	return "", true
}

// generatesInit reports whether class cls gets an __init__ made from its fields: decorated
// with @dataclass, @attr.s, @attrs.define (and its frozen and mutable forms), or based on
// pydantic's BaseModel or BaseSettings, typing.NamedTuple, or a class of the same file that
// is one of those.
func (s *scanner) generatesInit(cls *item, depth int) bool {
	if cls.fieldInit {
		return true
	}
	if depth > maxBaseDepth {
		return false
	}
	for _, b := range classBases(cls.sigs) {
		if base := s.byKey[b]; base != nil && base != cls && base.kind == docidx.KindClass && base.cls == nil && s.generatesInit(base, depth+1) {
			return true
		}
	}
	return false
}

// attributeDoc returns the description the docstring of class cls gives attribute name in its
// attributes section ([Attributes]), or "".
func (s *scanner) attributeDoc(cls *item, name string) string {
	if s.attrDocs == nil {
		s.attrDocs = map[*item]map[string]string{}
	}
	docs, ok := s.attrDocs[cls]
	if !ok {
		for _, a := range Attributes(cls.doc) {
			if docs == nil {
				docs = map[string]string{}
			}
			docs[a.Name] = a.Doc
		}
		s.attrDocs[cls] = docs
	}
	return docs[name]
}

// signature returns the signature lines of a definition: its overloads when it has any, their
// stub defaults filled from the implementation ([FillDefaults]), else its definitions.
func (s *scanner) signature(it *item) string {
	if len(it.overloads) > 0 {
		return FillDefaults(strings.Join(it.overloads, "\n"), strings.Join(it.sigs, "\n"))
	}
	return strings.Join(it.sigs, "\n")
}

// definitionSymbol returns the symbol of item it as its own class (or module) defines it, for
// copying into an inheriting class or an alias: kind, name, signature, doc, parameters, file
// and line, and whether it is deprecated.
func (s *scanner) definitionSymbol(it *item) docidx.Symbol {
	sym := docidx.Symbol{Kind: it.kind, Name: it.name, Signature: s.signature(it), Deprecated: it.deprecated}
	sym.File, sym.Line = s.position(it.line)
	sym.Doc, sym.Params = s.docParams(it)
	return sym
}

// aliasTarget returns the function, method or property that assignment it binds another name
// to, when the file defines it: at module level "name = func" or "name = Class.method" (the
// method defined in Class or inherited from a base in the file, see member), in a class body
// "name = method" (of the class or a base) or "name = Class.method". It returns nil for any
// other item, and for a target that is itself an assignment.
func (s *scanner) aliasTarget(it *item) *item {
	if !it.assign || it.annotation != "" || it.needsDoc || !isDottedName(it.value) {
		return nil
	}
	var target *item
	first, rest, dotted := strings.Cut(it.value, ".")
	switch {
	case !dotted && it.cls != nil:
		target = s.member(it.cls, first)
	case !dotted:
		target = s.byKey[first]
	case !strings.Contains(rest, "."):
		if cls := s.byKey[first]; cls != nil && cls.kind == docidx.KindClass && cls.cls == nil {
			target = s.member(cls, rest)
		}
	}
	if target == nil || target == it || target.assign {
		return nil
	}
	switch target.kind {
	case docidx.KindFunc, docidx.KindMethod, docidx.KindProperty:
		return target
	}
	return nil
}

// isDottedName reports whether v is a name or a dotted name ("find", "PackageFinder.find").
func isDottedName(v string) bool {
	if v == "" {
		return false
	}
	for _, part := range strings.Split(v, ".") {
		if part == "" || keywords[part] {
			return false
		}
		for i, r := range part {
			if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9' || r >= 0x80) {
				return false
			}
		}
	}
	return true
}

// Alias is a module-level assignment of one name to a dotted name that the file does not define
// ("find_packages = PackageFinder.find", PackageFinder imported from another module), for the
// caller to resolve across modules and document with [Aliased].
type Alias struct {
	// QualifiedName is the alias's symbol in Result.Symbols, e.g. "setuptools.find_packages".
	QualifiedName string
	// Target is the assigned name as written, e.g. "PackageFinder.find".
	Target string
}

// aliasNote begins the sentence Aliased ends an alias's doc with, "Alias of <target>.".
const aliasNote = "Alias of "

// AliasOnly reports whether doc is only the note Aliased writes for a definition without a doc
// of its own ("Alias of around."): a stub's "round = around", whose source documents round
// as a function of its own.
func AliasOnly(doc string) bool {
	return strings.HasPrefix(doc, aliasNote) && strings.HasSuffix(doc, ".") && !strings.Contains(doc, "\n")
}

// Aliased returns sym, the symbol of an assignment that binds another name to target (the
// assigned value as written, "PackageFinder.find"), documented as the function, method or
// property def is: a function at module level (a method or property in a class body, as def
// is), its Signature the assignment then def's signature lines, def's parameters, and def's doc
// followed by "Alias of <target>.".
func Aliased(sym, def docidx.Symbol, target string) docidx.Symbol {
	switch {
	case sym.Parent == "":
		sym.Kind = docidx.KindFunc
	case def.Kind == docidx.KindProperty:
		sym.Kind = docidx.KindProperty
	default:
		sym.Kind = docidx.KindMethod
	}
	sym.Signature = cut(sym.Signature+"\n"+def.Signature, MaxSignature)
	sym.Doc = def.Doc
	if sym.Doc != "" {
		sym.Doc += "\n\n"
	}
	sym.Doc += aliasNote + target + "."
	sym.Params = def.Params
	sym.Deprecated = sym.Deprecated || def.Deprecated
	return sym
}

// allNamesOwn reports whether __all__ (inAll) names a definition of the module itself (a
// function, class or assignment at its top level) or no public one exists to name: whether
// __all__ is the module's API.
func (s *scanner) allNamesOwn(inAll map[string]bool) bool {
	public := false
	for _, it := range s.items {
		if it.cls != nil {
			continue
		}
		if inAll[it.name] {
			return true
		}
		public = public || !it.assign && !strings.HasPrefix(it.name, "_")
	}
	return !public
}

// result applies the public filter and builds the symbols.
func (s *scanner) result() Result {
	res := Result{HasAll: s.hasAll && !s.allDynamic, Imports: s.imports}
	var inAll map[string]bool
	if res.HasAll {
		res.All = append([]string(nil), s.all...)
		inAll = make(map[string]bool, len(s.all))
		for _, n := range s.all {
			inAll[n] = true
		}
	}
	if len(inAll) > 0 && !s.allNamesOwn(inAll) {
		// An __all__ that names none of the module's own definitions lists the submodules
		// "import *" brings in (sqlparse's, pycparser's): the module's functions and classes,
		// sqlparse.format and pycparser.parse_file, are public by their names.
		inAll = nil
	}
	publicTop := func(name string) bool {
		if s.opts.AllDefinitions {
			return true
		}
		if inAll != nil {
			return inAll[name]
		}
		return !strings.HasPrefix(name, "_")
	}
	mod := s.opts.Module
	qual := func(parts ...string) string {
		q := strings.Join(parts, ".")
		if mod == "" {
			return q
		}
		return mod + "." + q
	}
	var syms []docidx.Symbol
	for _, it := range s.items {
		var sym docidx.Symbol
		target := s.aliasTarget(it)
		if it.cls == nil {
			if !publicTop(it.name) || it.onlyInAll && target == nil && !inAll[it.name] && (!s.opts.AllDefinitions || it.name == "__all__") {
				continue
			}
			sym.QualifiedName = qual(it.name)
		} else {
			if !publicTop(it.cls.name) || strings.HasPrefix(it.name, "_") && it.name != "__init__" && it.name != "__call__" {
				continue
			}
			if it.needsDoc && it.doc == "" && s.attributeDoc(it.cls, it.name) == "" {
				continue
			}
			sym.Parent = it.cls.name
			sym.QualifiedName = qual(it.cls.name, it.name)
		}
		if len(syms) >= s.opts.MaxSymbols {
			res.Truncated = true
			break
		}
		sym.Kind = it.kind
		sym.Name = it.name
		sym.Package = mod
		sym.Signature = s.signature(it)
		sym.Doc, sym.Params = s.docParams(it)
		if sym.Doc == "" {
			if base := s.overridden(it); base != nil {
				doc, params := s.docParams(base)
				sym.Doc = doc
				if sameParams(params, sym.Params) {
					sym.Params = params // with the base's descriptions
				}
			}
		}
		if sym.Doc == "" && it.at > 0 {
			sym.Doc = boundDoc(s.defComments(it.at-1), MaxDoc)
		}
		sym.Errors = s.codeErrors(it, sym.Doc)
		sym.File, sym.Line = s.position(it.line)
		sym.Deprecated = it.deprecated || it.cls != nil && it.cls.deprecated && it.name == "__init__"
		switch {
		case target != nil:
			sym = Aliased(sym, s.definitionSymbol(target), it.value)
		case it.cls == nil && it.assign && it.annotation == "" && isDottedName(it.value):
			if first, _, _ := strings.Cut(it.value, "."); s.byKey[first] == nil {
				res.Aliases = append(res.Aliases, Alias{QualifiedName: sym.QualifiedName, Target: it.value})
			}
		}
		syms = append(syms, sym)
	}
	// documented says a class's methods are symbols of this module: a public class of a public
	// module.
	documented := func(cls *item) bool { return !s.opts.AllDefinitions && publicTop(cls.name) }
	var inh []docidx.Symbol
	for _, it := range s.items {
		if it.kind != docidx.KindClass || it.cls != nil || !publicTop(it.name) || it.enum {
			continue
		}
		for _, a := range s.inherited(it, documented) {
			if len(syms)+len(inh) >= s.opts.MaxSymbols {
				res.Truncated = true
				break
			}
			sym := s.definitionSymbol(a)
			sym.Parent, sym.Package, sym.QualifiedName = it.name, mod, qual(it.name, a.name)
			if target := s.aliasTarget(a); target != nil {
				sym = Aliased(sym, s.definitionSymbol(target), a.value)
			}
			if sym.Doc != "" {
				sym.Doc += "\n\n"
			}
			sym.Doc += "Inherited from " + a.cls.name + "."
			inh = append(inh, sym)
		}
	}
	if mod != "" && (s.modDoc != "" || len(syms) > 0) {
		line := s.modLine
		if line == 0 {
			line = 1
		}
		m := docidx.Symbol{
			Kind:          docidx.KindPackage,
			Name:          mod[strings.LastIndexByte(mod, '.')+1:],
			Package:       mod,
			QualifiedName: mod,
			Signature:     "module " + mod,
			Doc:           s.modDoc,
			File:          s.opts.File,
			Line:          line,
			Deprecated:    s.modDeprecated,
		}
		switch {
		case len(syms)+len(inh) < s.opts.MaxSymbols:
		case len(inh) > 0:
			inh = inh[:len(inh)-1]
			res.Truncated = true
		default:
			syms = syms[:len(syms)-1]
			res.Truncated = true
		}
		syms = append([]docidx.Symbol{m}, syms...)
	}
	res.Inherited = inh
	res.Symbols = syms
	return res
}

// defComments returns the comments documenting the def or class whose line starts (after its
// indentation) at start, as
// inspect.getcomments finds them and pydoc.getdoc shows them for an object without a docstring
// (https://docs.python.org/3/library/inspect.html#inspect.getcomments): the lines starting with
// "#" right above it, above its decorators, at its indentation, at most maxCommentLines of them.
// Each loses its "#" and the space after it; lines holding only "#" at either end are dropped,
// and so is a "#!" or coding line. It returns "" when there are none, for a stub file (.pyi:
// pydoc reads the module itself, and a stub's comments speak to type checkers) and for a block
// that opens with a note to its maintainers (TODO, FIXME, XXX, HACK: pylint's notes).
func (s *scanner) defComments(start int) string {
	if s.stub() {
		return ""
	}
	ls := lineStart(s.src, start)
	indent := string(s.src[ls:start])
	if strings.TrimLeft(indent, " \t") != "" {
		return "" // not the first token of its line
	}
	var above []string
	decorators := true
	for end := ls; end > 0 && len(above) < maxCommentLines; {
		var line string
		line, end = lineAbove(s.src, end)
		rest, ok := strings.CutPrefix(line, indent)
		if !ok || rest == "" || rest[0] == ' ' || rest[0] == '\t' {
			break
		}
		if decorators && rest[0] == '@' {
			continue
		}
		decorators = false
		if rest[0] != '#' || strings.HasPrefix(rest, "#!") || strings.Contains(rest, "-*-") {
			break
		}
		above = append(above, strings.TrimRight(strings.TrimPrefix(rest[1:], " "), " \t"))
	}
	slices.Reverse(above)
	// A rule ("# -----") sets a block of code apart; it says nothing of the definition.
	above = slices.DeleteFunc(above, func(l string) bool { return l != "" && strings.Trim(l, "-=#*~_+ ") == "" })
	for len(above) > 0 && above[0] == "" {
		above = above[1:]
	}
	for len(above) > 0 && above[len(above)-1] == "" {
		above = above[:len(above)-1]
	}
	if len(above) == 0 || maintainerNote(above[0]) {
		return ""
	}
	return cut(strings.Join(above, "\n"), maxRawDoc)
}

// maintainerNote reports whether a comment line opens a note to a code's maintainers: TODO,
// FIXME, XXX or HACK first, as pylint's fixme check reads them, in any case.
func maintainerNote(line string) bool {
	w := strings.ToUpper(line)
	for _, m := range []string{"TODO", "FIXME", "XXX", "HACK"} {
		if rest, ok := strings.CutPrefix(w, m); ok && (rest == "" || !unicode.IsLetter(rune(rest[0]))) {
			return true
		}
	}
	return false
}

// lineStart returns where the line holding position i of src starts.
func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' && src[i-1] != '\r' {
		i--
	}
	return i
}

// lineAbove returns the line that ends right before end (a line's start, not 0) in src, without
// its line break, and where it starts.
func lineAbove(src []byte, end int) (line string, start int) {
	p := end - 1 // the line break ending the line above
	if src[p] == '\n' && p > 0 && src[p-1] == '\r' {
		p--
	}
	start = lineStart(src, p)
	return string(src[start:p]), start
}
