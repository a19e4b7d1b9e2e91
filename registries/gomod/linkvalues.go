package gomod

// linkvalues.go gives symbols the package-level constants and variables that hold their
// defaults (Symbol.Values). Go code documents a default in two ways that go/doc keeps apart from
// the field or option it is the default of: a constant named after it (DefaultMaxElapsedTime for
// ExponentialBackOff.MaxElapsedTime, defaultReadBufferSize for Dialer.ReadBufferSize, often
// unexported), or a doc comment that names the constant ("The default buckets are DefBuckets").
// An answer to "what is the default" needs the value, so the symbol carries its declaration.

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
)

// valueRef is one name of a package-level const or var spec, recorded before go/doc drops the
// unexported ones.
type valueRef struct {
	tok  token.Token
	spec *ast.ValueSpec // a copy whose Names and Values go/doc's filtering does not touch
	i    int            // the name's index in spec.Names
}

// packageValues returns the package-level constants and variables of files by name, exported
// or not. consts gains the copies' meanings (constSpecs). It must run before go/doc, which
// filters the names of specs in place.
func packageValues(files []*ast.File, consts map[*ast.ValueSpec]constSpec) map[string]valueRef {
	out := map[string]valueRef{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				cp := &ast.ValueSpec{Names: slices.Clone(vs.Names), Type: vs.Type, Values: slices.Clone(vs.Values)}
				if cs, ok := consts[vs]; ok {
					consts[cp] = cs
				}
				for i, n := range vs.Names {
					if n.Name != "_" {
						out[n.Name] = valueRef{tok: gd.Tok, spec: cp, i: i}
					}
				}
			}
		}
	}
	return out
}

// linkValues sets the Values of syms, the symbols of em's package: for a field, method or
// function X (SetX and WithX for X too), the constant or variable DefaultX, defaultX, DefX or
// defX; then those its doc names as a word. A declaration longer than extracted.MaxLinkedValue, or with
// no value, is left out.
func (em *emitter) linkValues(syms []docidx.Symbol) {
	vals := em.pkg.values
	if len(vals) == 0 {
		return
	}
	for k := range syms {
		s := &syms[k]
		var out []string
		add := func(name string) {
			ref, ok := vals[name]
			if !ok || name == s.Name || len(out) >= extracted.MaxLinkedValues {
				return
			}
			if ref.tok == token.VAR && len(ref.spec.Values) == 0 {
				return // a variable without a value says nothing
			}
			sig := em.valueSignature(ref.tok, ref.spec, ref.i)
			if len(sig) > extracted.MaxLinkedValue || slices.Contains(out, sig) {
				return
			}
			out = append(out, sig)
		}
		switch s.Kind {
		case docidx.KindField, docidx.KindMethod, docidx.KindFunc:
			key := s.Name
			if s.Kind != docidx.KindField {
				for _, p := range []string{"Set", "With"} {
					if rest, ok := strings.CutPrefix(key, p); ok && startsUpper(rest) {
						key = rest
					}
				}
			}
			if startsUpper(key) {
				for _, p := range []string{"Default", "default", "Def", "def"} {
					add(p + key)
				}
			}
		}
		if s.Kind != docidx.KindPackage {
			for _, w := range strings.FieldsFunc(s.Doc, func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
			}) {
				if identifierLike(w) {
					add(w)
				}
			}
		}
		s.Values = out
	}
}

// startsUpper reports whether s starts with an upper-case letter.
func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// identifierLike reports whether the word w of a doc comment reads as an identifier rather than
// an English word: it holds an upper-case letter after its first, or an underscore
// ("DefBuckets", "defaultTimeout", "MAX_SIZE"), so that "Stop" or "Default" opening a sentence is
// not taken for the constant of that name.
func identifierLike(w string) bool {
	if len(w) < 4 {
		return false
	}
	if strings.Contains(w, "_") {
		return true
	}
	for _, r := range w[1:] {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
