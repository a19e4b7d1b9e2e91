package testutil

import (
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

func TestSignatures(t *testing.T) {
	syms := ByName([]docidx.Symbol{{QualifiedName: "p.f", Signature: "func f()"}, {QualifiedName: "p.g", Signature: "func g()"}})
	r := &recorder{TB: t}
	Signatures(r, syms, map[string]string{"p.f": "func f()"})
	Signatures(r, syms, map[string]string{"p.g": "func g(x int)"})
	Signatures(r, syms, map[string]string{"p.h": "func h()"})
	want := []string{`p.g: signature "func g()", want "func g(x int)"`, `p.h missing; want signature "func h()"`}
	if !slices.Equal(r.errs, want) {
		t.Errorf("errors = %q, want %q", r.errs, want)
	}
}

func TestDocs(t *testing.T) {
	syms := ByName([]docidx.Symbol{{QualifiedName: "p.f", Doc: "F does."}, {QualifiedName: "p.g"}})
	r := &recorder{TB: t}
	Docs(r, syms, map[string]string{"p.f": "F does.", "p.g": ""})
	Docs(r, syms, map[string]string{"p.g": "G does."})
	Docs(r, syms, map[string]string{"p.h": "H does."})
	want := []string{`p.g: doc "", want "G does."`, `p.h missing; want doc "H does."`}
	if !slices.Equal(r.errs, want) {
		t.Errorf("errors = %q, want %q", r.errs, want)
	}
}

func TestFiles(t *testing.T) {
	syms := ByName([]docidx.Symbol{{QualifiedName: "p.f", File: "a.go"}, {QualifiedName: "p.g", File: "b.go"}})
	r := &recorder{TB: t}
	Files(r, syms, map[string]string{"p.f": "a.go"})
	Files(r, syms, map[string]string{"p.g": "a.go"})
	Files(r, syms, map[string]string{"p.h": "h.go"})
	want := []string{`p.g: file "b.go", want "a.go"`, `p.h missing; want file "h.go"`}
	if !slices.Equal(r.errs, want) {
		t.Errorf("errors = %q, want %q", r.errs, want)
	}
}
