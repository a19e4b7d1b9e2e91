package gomod

import (
	"go/ast"
	"go/format"
	"go/token"
	"strconv"
	"strings"

	"github.com/docidx/docidx"
)

// Members of a type are symbols of their own (docs/ARCHITECTURE.md §4), so that a question about one field of
// a large options struct is answered by that field and its doc comment, not by the whole struct:
//
//   - an exported field of a struct type is a docidx.KindField named by the field, or for an
//     embedded field by its type's name ("Options" for *pkg.Options[T]); Signature is the field's
//     declaration ("PoolSize int", with its struct tag when it is short), Doc its doc comment, else
//     its line comment. The fields of an embedded type stay on that type.
//   - the exported fields of an anonymous struct type in a field ("Sub struct{ … }", also behind
//     a pointer, slice or array) are members of "Type.Sub", down to maxMemberDepth levels.
//   - an exported method of an interface type is a docidx.KindMethod with Signature "Name(params)
//     results"; an exported interface it embeds is a docidx.KindInterface named by its type name,
//     Signature the embedded type as written. Type-set terms (~int | ~string) stay in the type's
//     signature only.
//
// Every member has Parent set to the enclosing type ("Options", or "Options.Sub" when nested) and
// QualifiedName "<qualifier>.<Parent>.<Name>" ("redis.Options.PoolSize"); go/doc has already left
// out unexported members. Over the symbol limit (Limits.MaxSymbols), members are dropped before
// declarations.

// members adds the members of the struct or interface type typ declared as parent, depth levels
// below a named type.
func (em *emitter) members(parent string, typ ast.Expr, depth int) {
	switch t := typ.(type) {
	case *ast.StructType:
		em.structFields(parent, t, depth)
	case *ast.InterfaceType:
		em.interfaceMethods(parent, t)
	}
}

// structFields adds the exported fields of st, a struct type that is parent or a field's type in it.
func (em *emitter) structFields(parent string, st *ast.StructType, depth int) {
	if st.Fields == nil {
		return
	}
	for _, f := range st.Fields.List {
		docText := commentText(f.Doc, f.Comment)
		tag := fieldTag(f)
		if len(f.Names) == 0 {
			name := embeddedName(f.Type)
			if name == "" || !ast.IsExported(name) {
				continue
			}
			em.member(docidx.KindField, parent, name, em.printCompact(f.Type)+tag, docText, f.Type)
			continue
		}
		var nested *ast.StructType
		if depth < maxMemberDepth {
			nested = anonymousStruct(f.Type)
		}
		for _, n := range f.Names {
			if !n.IsExported() {
				continue
			}
			em.member(docidx.KindField, parent, n.Name, em.fieldSignature(n.Name, f.Type)+tag, docText, n)
			if nested != nil {
				em.structFields(parent+"."+n.Name, nested, depth+1)
			}
		}
	}
}

// interfaceMethods adds the exported methods and embedded interfaces of it, the interface type parent.
func (em *emitter) interfaceMethods(parent string, it *ast.InterfaceType) {
	if it.Methods == nil {
		return
	}
	for _, f := range it.Methods.List {
		docText := commentText(f.Doc, f.Comment)
		if len(f.Names) == 0 {
			name := embeddedName(f.Type)
			if name == "" || !ast.IsExported(name) {
				continue // a type-set term, or an unexported or predeclared interface such as error
			}
			em.member(docidx.KindInterface, parent, name, em.printCompact(f.Type), docText, f.Type)
			continue
		}
		ft, ok := f.Type.(*ast.FuncType)
		if !ok {
			continue
		}
		for _, n := range f.Names {
			if !n.IsExported() {
				continue
			}
			sig := n.Name + strings.TrimPrefix(em.printCompact(ft), "func")
			em.member(docidx.KindMethod, parent, n.Name, sig, docText, n)
		}
	}
}

// member adds one member symbol declared at the position of at.
func (em *emitter) member(kind docidx.SymbolKind, parent, name, sig, docText string, at ast.Node) {
	file, line := em.pos(at.Pos())
	em.addMember(docidx.Symbol{
		Kind:          kind,
		Name:          name,
		Parent:        parent,
		Package:       em.pkg.importPath,
		QualifiedName: em.qual + "." + parent + "." + name,
		Signature:     sig,
		Doc:           docText,
		File:          file,
		Line:          line,
		Deprecated:    isDeprecated(docText),
	})
}

// fieldSignature prints the declaration of the field name of type typ as gofmt would, without
// the comments inside typ and cut like a type's signature: "PoolSize int",
// "Limits struct {\n\tMax int\n}".
func (em *emitter) fieldSignature(name string, typ ast.Expr) string {
	decl := &ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{&ast.TypeSpec{Name: ast.NewIdent(name), Type: typ}}}
	return strings.TrimPrefix(truncateType(em.printCompact(decl), maxTypeSignature), "type ")
}

// fieldTag returns " " and f's struct tag as written when the tag is at most maxFieldTag bytes,
// else "": a short tag tells the name a field has in JSON or YAML, a long one is noise.
func fieldTag(f *ast.Field) string {
	if f.Tag == nil || len(f.Tag.Value) > maxFieldTag {
		return ""
	}
	return " " + f.Tag.Value
}

// commentText returns the text of doc and of line (a field's or value spec's doc comment and
// its line comment) as two paragraphs, ending in a newline like go/doc's Doc strings; "" when
// both are empty. Both are kept, as go doc prints the declaration with both: a comment above a
// run of fields often heads the run ("// Field and value options") while each field says what
// it does on its own line ("IncludeUnexported bool // Include unexported fields in output").
func commentText(doc, line *ast.CommentGroup) string {
	var b strings.Builder
	for _, c := range []*ast.CommentGroup{doc, line} {
		if t := strings.TrimSpace(c.Text()); t != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// embeddedName returns the field name an embedded type gets, its type name (typeName).
func embeddedName(x ast.Expr) string { return typeName(x) }

// typeName returns the name of the named type x spells: T for T, *T, pkg.T, T[K] and
// *pkg.T[K, V]; "" for anything else (type-set terms, literals).
func typeName(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// anonymousStruct returns the struct type literal of a field of type x, *x, []x or [N]x, or nil.
func anonymousStruct(x ast.Expr) *ast.StructType {
	for {
		switch t := x.(type) {
		case *ast.StructType:
			return t
		case *ast.StarExpr:
			x = t.X
		case *ast.ArrayType:
			x = t.Elt
		case *ast.ParenExpr:
			x = t.X
		default:
			return nil
		}
	}
}

// printCompact prints node as gofmt would, leaving out the doc and line comments and the tags
// of the struct fields and interface methods inside it and the blank lines between them, so that
// a type's signature lists its members one per line and their documentation (and tags) live on
// the members alone. They are taken off the syntax tree only while printing.
func (em *emitter) printCompact(node ast.Node) string {
	type saved struct {
		f         *ast.Field
		doc, line *ast.CommentGroup
		tag       *ast.BasicLit
	}
	var undo []saved
	ast.Inspect(node, func(n ast.Node) bool {
		if f, ok := n.(*ast.Field); ok && (f.Doc != nil || f.Comment != nil || f.Tag != nil) {
			undo = append(undo, saved{f, f.Doc, f.Comment, f.Tag})
			f.Doc, f.Comment, f.Tag = nil, nil, nil
		}
		return true
	})
	s := em.print(node)
	for _, u := range undo {
		u.f.Doc, u.f.Comment, u.f.Tag = u.doc, u.line, u.tag
	}
	if !strings.Contains(s, "\n\n") {
		return s
	}
	// The printer keeps a blank line where a removed comment was; without them gofmt also aligns
	// the fields as one block, so format the joined lines again.
	lines := strings.Split(s, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	joined := strings.Join(kept, "\n")
	if _, ok := node.(ast.Decl); !ok {
		return joined // format.Source takes declarations, not a lone type
	}
	out, err := format.Source([]byte(joined))
	if err != nil {
		return joined
	}
	return string(out)
}

// truncateType cuts sig, a type's compact signature, to at most about max bytes at a line
// boundary, closing it with a comment that counts the member lines left out ("// … and 212 more
// lines; see its members") and the closing brace, so that a type with hundreds of members is not
// dumped whole: each member is a symbol of its own.
func truncateType(sig string, max int) string {
	if len(sig) <= max {
		return sig
	}
	cut := strings.LastIndexByte(sig[:max], '\n')
	if cut <= 0 {
		return sig // one long line: nothing sensible to cut
	}
	rest := strings.Count(sig[cut+1:], "\n") // the lines after the cut but the closing brace
	lines := " more lines"
	if rest == 1 {
		lines = " more line"
	}
	return sig[:cut] + "\n\t// … and " + strconv.Itoa(rest) + lines + "; see its members\n}"
}
