package testutil

import (
	"testing"

	"github.com/docidx/docidx"
)

// Present reports as a test error each of names that is not a qualified name of syms (as
// ByName maps them), saying "<what>: <name> missing" ("<name> missing" when what is "").
func Present(t testing.TB, syms map[string]docidx.Symbol, what string, names ...string) {
	t.Helper()
	for _, q := range names {
		if _, ok := syms[q]; ok {
			continue
		}
		if what == "" {
			t.Errorf("%s missing", q)
		} else {
			t.Errorf("%s: %s missing", what, q)
		}
	}
}

// Absent reports as a test error each of names that is a qualified name of syms (as ByName maps
// them), saying "<name> is a symbol; want none: <why>" (without ": <why>" when why is "").
func Absent(t testing.TB, syms map[string]docidx.Symbol, why string, names ...string) {
	t.Helper()
	for _, q := range names {
		if _, ok := syms[q]; !ok {
			continue
		}
		if why == "" {
			t.Errorf("%s is a symbol; want none", q)
		} else {
			t.Errorf("%s is a symbol; want none: %s", q, why)
		}
	}
}

// Signatures reports as a test error each qualified name of want that is not one of syms (as
// ByName maps them), or whose symbol's signature is not the one want gives it.
func Signatures(t testing.TB, syms map[string]docidx.Symbol, want map[string]string) {
	t.Helper()
	for q, sig := range want {
		if s, ok := syms[q]; !ok {
			t.Errorf("%s missing; want signature %q", q, sig)
		} else if s.Signature != sig {
			t.Errorf("%s = %q, want %q", q, s.Signature, sig)
		}
	}
}

// Docs reports as test errors each qualified name of want whose symbol in syms is missing or
// has another Doc than want's.
func Docs(t testing.TB, syms map[string]docidx.Symbol, want map[string]string) {
	t.Helper()
	for q, doc := range want {
		if s, ok := syms[q]; !ok {
			t.Errorf("%s missing; want doc %q", q, doc)
		} else if s.Doc != doc {
			t.Errorf("%s: doc %q, want %q", q, s.Doc, doc)
		}
	}
}
