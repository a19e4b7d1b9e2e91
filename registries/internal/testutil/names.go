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
	fields(t, syms, want, "signature", func(s docidx.Symbol) string { return s.Signature })
}

// Docs reports as test errors each qualified name of want whose symbol in syms is missing or
// has another Doc than want's.
func Docs(t testing.TB, syms map[string]docidx.Symbol, want map[string]string) {
	t.Helper()
	fields(t, syms, want, "doc", func(s docidx.Symbol) string { return s.Doc })
}

// Files reports as test errors each qualified name of want whose symbol in syms is missing or
// was read from another File (a slash path, as docidx.Symbol.File holds it) than want's.
func Files(t testing.TB, syms map[string]docidx.Symbol, want map[string]string) {
	t.Helper()
	fields(t, syms, want, "file", func(s docidx.Symbol) string { return s.File })
}

// fields reports as test errors each qualified name of want whose symbol in syms is missing or
// whose field (named name in the messages, read by field) is not the one want gives it.
func fields(t testing.TB, syms map[string]docidx.Symbol, want map[string]string, name string, field func(docidx.Symbol) string) {
	t.Helper()
	for q, w := range want {
		if s, ok := syms[q]; !ok {
			t.Errorf("%s missing; want %s %q", q, name, w)
		} else if got := field(s); got != w {
			t.Errorf("%s: %s %q, want %q", q, name, got, w)
		}
	}
}
