package testutil

import (
	"fmt"
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

func TestPresentAbsent(t *testing.T) {
	syms := ByName([]docidx.Symbol{{QualifiedName: "p.f"}, {QualifiedName: "p.T"}})
	r := &recorder{TB: t}
	Present(r, syms, "p", "p.f", "p.g")
	Present(r, syms, "", "p.T", "p.h")
	Absent(r, syms, "private", "p._x", "p.T")
	Absent(r, syms, "", "p.f")
	want := []string{"p: p.g missing", "p.h missing", "p.T is a symbol; want none: private", "p.f is a symbol; want none"}
	if !slices.Equal(r.errs, want) {
		t.Errorf("errors = %q, want %q", r.errs, want)
	}
}

// TestFieldChecks: Signatures, Docs and Files each pass a symbol whose field is the one wanted
// (the empty one too) and report one whose field differs and a name that is no symbol.
func TestFieldChecks(t *testing.T) {
	for _, tc := range []struct {
		field string
		check func(testing.TB, map[string]docidx.Symbol, map[string]string)
		set   func(*docidx.Symbol, string)
	}{
		{"signature", Signatures, func(s *docidx.Symbol, v string) { s.Signature = v }},
		{"doc", Docs, func(s *docidx.Symbol, v string) { s.Doc = v }},
		{"file", Files, func(s *docidx.Symbol, v string) { s.File = v }},
	} {
		f, g, e := docidx.Symbol{QualifiedName: "p.f"}, docidx.Symbol{QualifiedName: "p.g"}, docidx.Symbol{QualifiedName: "p.e"}
		tc.set(&f, "F")
		tc.set(&g, "G")
		syms := ByName([]docidx.Symbol{f, g, e})
		r := &recorder{TB: t}
		tc.check(r, syms, map[string]string{"p.f": "F", "p.e": ""})
		tc.check(r, syms, map[string]string{"p.g": "G2"})
		tc.check(r, syms, map[string]string{"p.h": "H"})
		want := []string{fmt.Sprintf(`p.g: %s "G", want "G2"`, tc.field), fmt.Sprintf(`p.h missing; want %s "H"`, tc.field)}
		if !slices.Equal(r.errs, want) {
			t.Errorf("%s: errors = %q, want %q", tc.field, r.errs, want)
		}
	}
}
