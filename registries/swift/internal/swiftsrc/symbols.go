package swiftsrc

import (
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// DefaultMaxSymbols is the most symbols Symbols returns when Options.MaxSymbols is 0.
const DefaultMaxSymbols = 20000

// maxOverloads is the most signature lines merged into one symbol.
const maxOverloads = 32

// File is one parsed source file of a module (a SwiftPM target).
type File struct {
	Path   string  // slash path inside the package, e.g. "Sources/ArgumentParser/Parsable.swift"
	Module string  // the module the file belongs to, e.g. "ArgumentParser"
	Decls  []*Decl // the file's declarations, as Parse returns them
}

// Options bounds Symbols.
type Options struct {
	MaxSymbols int // 0 means DefaultMaxSymbols
}

// Result is the public API Symbols found.
type Result struct {
	Symbols []docidx.Symbol // in file order, then source order; QualifiedName is unique
	Dropped int             // symbols left out because of Options.MaxSymbols
}

// Symbols returns the public API declared in files, following Swift's access control
// (https://docs.swift.org/swift-book/documentation/the-swift-programming-language/accesscontrol):
//
//   - a declaration is public when it is marked public or open, and everything that encloses it
//     is public too; without a modifier it is internal, so it is left out, as are private,
//     fileprivate, internal and package declarations and whatever they enclose;
//   - members of a public protocol and cases of a public enum are public without a modifier;
//   - members of a "public extension" are public unless marked otherwise; members of an
//     extension marked internal, fileprivate or private are not public, nor are those of an
//     extension of a type that the same module declares non-public;
//   - declarations made visible only through @_spi, and names starting with "_" (which DocC
//     hides too), are left out.
//
// Kinds: top-level func → KindFunc; func, init and subscript inside a type or extension →
// KindMethod (Name "init" or "subscript"); var and let inside one → KindField when stored (a
// let, a var without accessors or with only willSet/didSet observers, static ones included),
// KindProperty when computed or a protocol's requirement ({ get set }); at top level KindVar
// and KindConst; struct → KindStruct; class and actor → KindClass; enum → KindEnum and
// each of its cases KindConst; protocol → KindProtocol; typealias and associatedtype →
// KindType; macro → KindMacro. Extensions yield their members only.
//
// Parent is the enclosing type's path ("Outer.Inner"), or the extended type's for extension
// members. Package is the module. QualifiedName is "Module.Parent.Name" followed, for functions,
// initializers, subscripts and macros, by their argument labels ("ArgumentParser.ParsableCommand
// .main(_:)"); declarations that share a qualified name (overloads differing only in types, or
// the same declaration under two #if branches) become one symbol with one signature line each.
func Symbols(files []File, opts Options) Result {
	max := opts.MaxSymbols
	if max <= 0 {
		max = DefaultMaxSymbols
	}
	e := &emitter{max: max, index: map[string]int{}, types: map[string]map[string]bool{}}
	for _, f := range files {
		for _, d := range f.Decls {
			e.record(f.Module, "", true, d)
		}
	}
	for _, f := range files {
		e.file = f
		for _, d := range f.Decls {
			e.emit(context{visible: true, def: AccessInternal}, d)
		}
	}
	return Result{Symbols: e.out, Dropped: e.dropped}
}

// context is what a declaration inherits from where it is written.
type context struct {
	parent  string // enclosing type path, "" at top level
	visible bool   // every enclosing declaration is public
	def     Access // access of members written without a modifier
	inType  bool   // inside a type or extension body
	inEnum  bool   // directly inside an enum: cases take the enum's access
}

type emitter struct {
	file    File
	out     []docidx.Symbol
	index   map[string]int             // qualified name -> position in out
	types   map[string]map[string]bool // module -> type path -> public
	max     int
	dropped int
}

func isType(k DeclKind) bool {
	switch k {
	case DeclStruct, DeclClass, DeclActor, DeclEnum, DeclProtocol:
		return true
	}
	return false
}

// record notes whether each type a module declares is public, so extensions of non-public
// types can be told apart from extensions of types declared elsewhere.
func (e *emitter) record(module, parent string, visible bool, d *Decl) {
	switch {
	case d.Kind == DeclExtension:
		for _, m := range d.Members {
			def := AccessInternal
			if d.Access >= AccessPublic {
				def = AccessPublic
			}
			vis := visible && (d.Access == AccessNone || d.Access >= AccessPublic)
			if isType(m.Kind) {
				e.recordType(module, d.Name, vis, def, m)
			}
		}
	case isType(d.Kind):
		e.recordType(module, parent, visible, AccessInternal, d)
	}
}

func (e *emitter) recordType(module, parent string, visible bool, def Access, d *Decl) {
	acc := d.Access
	if acc == AccessNone {
		acc = def
	}
	path := joinPath(parent, d.Name)
	pub := visible && acc >= AccessPublic && !d.SPI
	if e.types[module] == nil {
		e.types[module] = map[string]bool{}
	}
	e.types[module][path] = e.types[module][path] || pub
	for _, m := range d.Members {
		if isType(m.Kind) {
			e.recordType(module, path, pub, AccessInternal, m)
		}
	}
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func (e *emitter) emit(c context, d *Decl) {
	if d.Kind == DeclExtension {
		vis := c.visible && (d.Access == AccessNone || d.Access >= AccessPublic)
		if pub, known := e.types[e.file.Module][d.Name]; known && !pub {
			vis = false
		}
		if !vis || d.Name == "" || d.SPI {
			return
		}
		def := AccessInternal
		if d.Access >= AccessPublic {
			def = AccessPublic
		}
		for _, m := range d.Members {
			e.emit(context{parent: d.Name, visible: true, def: def, inType: true}, m)
		}
		return
	}
	acc := d.Access
	if acc == AccessNone {
		acc = c.def
		if d.Kind == DeclCase && c.inEnum {
			acc = AccessPublic
		}
	}
	if !c.visible || acc < AccessPublic || d.SPI || d.Name == "" || strings.HasPrefix(d.Name, "_") {
		return
	}
	e.add(c, d)
	if isType(d.Kind) {
		child := context{parent: joinPath(c.parent, d.Name), visible: true, def: AccessInternal, inType: true, inEnum: d.Kind == DeclEnum}
		if d.Kind == DeclProtocol {
			child.def = AccessPublic // requirements of a public protocol are public
		}
		for _, m := range d.Members {
			e.emit(child, m)
		}
	}
}

func symbolKind(d *Decl, inType bool) docidx.SymbolKind {
	switch k := d.Kind; k {
	case DeclFunc:
		if inType {
			return docidx.KindMethod
		}
		return docidx.KindFunc
	case DeclInit, DeclSubscript:
		return docidx.KindMethod
	case DeclVar, DeclLet:
		switch {
		case inType && d.Stored:
			return docidx.KindField
		case inType:
			return docidx.KindProperty
		case k == DeclLet:
			return docidx.KindConst
		}
		return docidx.KindVar
	case DeclStruct:
		return docidx.KindStruct
	case DeclClass, DeclActor:
		return docidx.KindClass
	case DeclEnum:
		return docidx.KindEnum
	case DeclCase:
		return docidx.KindConst
	case DeclProtocol:
		return docidx.KindProtocol
	case DeclMacro:
		return docidx.KindMacro
	}
	return docidx.KindType
}

func (e *emitter) add(c context, d *Decl) {
	qn := e.file.Module + "." + joinPath(c.parent, d.Name) + d.Labels
	if i, ok := e.index[qn]; ok {
		s := &e.out[i]
		if !containsLine(s.Signature, d.Signature) && strings.Count(s.Signature, "\n") < maxOverloads {
			s.Signature += "\n" + d.Signature
		}
		if s.Doc == "" {
			s.Doc = d.Doc
		}
		return
	}
	if len(e.out) >= e.max {
		e.dropped++
		return
	}
	e.index[qn] = len(e.out)
	e.out = append(e.out, docidx.Symbol{
		Kind:          symbolKind(d, c.inType),
		Name:          d.Name,
		Parent:        c.parent,
		Package:       e.file.Module,
		QualifiedName: qn,
		Signature:     d.Signature,
		Doc:           d.Doc,
		File:          e.file.Path,
		Line:          d.Line,
		Deprecated:    d.Deprecated,
	})
}

// containsLine reports whether sig (one or more lines, attribute lines included) already holds
// the declaration line of other.
func containsLine(sig, other string) bool {
	if sig == other {
		return true
	}
	return slices.Contains(strings.Split(sig, "\n"), other[strings.LastIndexByte(other, '\n')+1:])
}
