package gomod

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// constSpec is what one ConstSpec of a parenthesized const declaration means once Go's implicit
// repetition is applied (https://go.dev/ref/spec#Constant_declarations): a spec without values
// repeats the type and values of the last spec that has them, with its own iota.
type constSpec struct {
	typ    ast.Expr   // the spec's type, own or repeated; nil when untyped
	values []ast.Expr // the spec's values, own or repeated
	iota   int        // the spec's index in its declaration
}

// constSpecs records the meaning of every ConstSpec of files. It must run before go/doc, which
// drops unexported specs from declarations (and with them the positions iota counts) and gives
// implicit specs a type of their own.
func constSpecs(files []*ast.File) map[*ast.ValueSpec]constSpec {
	m := map[*ast.ValueSpec]constSpec{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			var last constSpec
			for i, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				if len(vs.Values) > 0 {
					last = constSpec{typ: vs.Type, values: vs.Values}
				}
				m[vs] = constSpec{typ: last.typ, values: last.values, iota: i}
			}
		}
	}
	return m
}

// valueSignature prints the declaration of the i-th name of vs, a spec of a const or var
// declaration (tok), as one declaration of that name alone with its type and value:
// "const DefaultPoolSize = 10", "var ReadTimeout time.Duration = 3 * time.Second". An implicit
// const spec shows the expression it repeats, and an expression that uses iota ends in a comment
// giving its value when it is simple integer arithmetic: "const Casual Style = iota // 1". When
// names and values do not pair up ("var A, B = f()") the whole spec is printed. A value printed
// longer than maxValueSignature bytes is elided to "…" (a composite literal to "T{…}").
func (em *emitter) valueSignature(tok token.Token, vs *ast.ValueSpec, i int) string {
	typ, values, iota := vs.Type, vs.Values, -1
	if cs, ok := em.pkg.consts[vs]; ok && tok == token.CONST {
		typ, values, iota = cs.typ, cs.values, cs.iota
	}
	one := &ast.ValueSpec{Names: vs.Names, Type: typ, Values: values}
	if len(values) == len(vs.Names) {
		one.Names, one.Values = vs.Names[i:i+1], values[i:i+1]
	} else if len(values) == 0 {
		one.Names = vs.Names[i : i+1]
	}
	decl := &ast.GenDecl{Tok: tok, Specs: []ast.Spec{one}}
	sig := em.printCompact(decl)
	if len(sig) > maxValueSignature && len(one.Values) > 0 {
		elided := make([]ast.Expr, len(one.Values))
		for j, v := range one.Values {
			elided[j] = elide(v)
		}
		one.Values = elided
		sig = em.printCompact(decl)
	}
	if iota >= 0 && len(one.Values) == 1 && usesIota(one.Values[0]) {
		if v, ok := evalConst(one.Values[0], iota); ok {
			sig += " // " + v
		}
	}
	return sig
}

// ellipsis stands for an elided expression.
var ellipsis = &ast.Ident{Name: "…"}

// elide returns x shortened to "…", or to "T{…}" when x is a composite literal of type T.
func elide(x ast.Expr) ast.Expr {
	switch v := x.(type) {
	case *ast.CompositeLit:
		if v.Type != nil {
			return &ast.CompositeLit{Type: v.Type, Elts: []ast.Expr{ellipsis}}
		}
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			return &ast.UnaryExpr{Op: token.AND, X: elide(v.X)}
		}
	}
	return ellipsis
}

// usesIota reports whether x mentions iota.
func usesIota(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// maxShift is the largest shift count evalConst computes, and maxConstBits the largest value in
// bits it keeps: hostile source (1 << 1e9, or a long product) is not evaluated.
const (
	maxShift     = 512
	maxConstBits = 1024
)

// evalConst evaluates x, an untyped integer constant expression of literals, iota (standing for
// the given value), parentheses, and unary and binary arithmetic, and returns its value in
// decimal. It returns false for anything else: names of other constants, conversions, floats,
// strings, division by zero, or a shift over maxShift.
func evalConst(x ast.Expr, iota int) (string, bool) {
	v, ok := evalInt(x, iota)
	if !ok {
		return "", false
	}
	return v.ExactString(), true
}

func evalInt(x ast.Expr, iota int) (constant.Value, bool) {
	v, ok := evalIntExpr(x, iota)
	if !ok || v.Kind() != constant.Int || constant.BitLen(v) > maxConstBits {
		return nil, false
	}
	return v, true
}

func evalIntExpr(x ast.Expr, iota int) (constant.Value, bool) {
	switch e := x.(type) {
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.CHAR {
			return nil, false
		}
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		if e.Kind == token.CHAR {
			v = constant.ToInt(v)
		}
		return v, v.Kind() == constant.Int
	case *ast.Ident:
		if e.Name == "iota" {
			return constant.MakeInt64(int64(iota)), true
		}
	case *ast.ParenExpr:
		return evalInt(e.X, iota)
	case *ast.UnaryExpr:
		v, ok := evalInt(e.X, iota)
		if !ok {
			return nil, false
		}
		switch e.Op {
		case token.ADD, token.SUB, token.XOR:
			return constant.UnaryOp(e.Op, v, 0), true
		}
	case *ast.BinaryExpr:
		a, ok := evalInt(e.X, iota)
		if !ok {
			return nil, false
		}
		b, ok := evalInt(e.Y, iota)
		if !ok {
			return nil, false
		}
		switch e.Op {
		case token.SHL, token.SHR:
			n, exact := constant.Uint64Val(b)
			if !exact || n > maxShift {
				return nil, false
			}
			return constant.Shift(a, e.Op, uint(n)), true
		case token.QUO, token.REM:
			if constant.Sign(b) == 0 {
				return nil, false
			}
			op := e.Op
			if op == token.QUO {
				op = token.QUO_ASSIGN // integer division (go/constant's convention)
			}
			return constant.BinaryOp(a, op, b), true
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
			return constant.BinaryOp(a, e.Op, b), true
		}
	}
	return nil, false
}
