// Package testutil holds the helpers the registries' tests share: a table of inputs mapped to
// wanted outputs, the check of one call's value-or-error against a table row, the timing and
// report of pathologically slow inputs, the lines a symbol and an extraction's outcome take in
// the extractors' golden files, symbols' checks and lookup by qualified name (ByName,
// FirstByName, Present, Absent, Signatures, CheckSymbols), the calls of constructors, lists and
// fetches that fail the test on an error (Must, Configured, Listed, Fetched, FetchEvery), version
// resolution tables (CheckResolve), the corpus directory of the real-input tests (CorpusDir),
// the check of a limit that cuts an extraction short (CutShort), the files a test writes or
// wants written (WriteFile, Exist), and the checks of a fetched package's metadata and documents
// (SamePackage, Documents). Fake registries and archives are
// registries/registrytest's. Only tests import it. It imports the root package docidx,
// registries/internal/extracted and the standard library.
package testutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
)

// Mapping checks that f(in) equals want for every in, want of cases, reporting each mismatch as
// a test error that names the call as name(in).
func Mapping[In, Out comparable](t testing.TB, name string, f func(In) Out, cases map[In]Out) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%#v) = %#v, want %#v", name, in, got, want)
		}
	}
}

// Result checks one call's outcome against a table row: when wantErr is not nil, err must wrap
// it (errors.Is); otherwise err must be nil and got must equal want. call names the call in the
// error, such as `Resolve("1.x")`. It reports whether the outcome was as wanted.
func Result[T comparable](t testing.TB, call string, got T, err error, want T, wantErr error) bool {
	t.Helper()
	if wantErr != nil {
		if !errors.Is(err, wantErr) {
			t.Errorf("%s = %#v, %v; want error %v", call, got, err, wantErr)
			return false
		}
		return true
	}
	if err != nil || got != want {
		t.Errorf("%s = %#v, %v; want %#v", call, got, err, want)
		return false
	}
	return true
}

// TimingError reports input that took pathologically long: a test error when the environment
// variable DOCIDX_TIMING_TESTS is set, a log line otherwise. Wall-clock limits fail on shared,
// noisy machines, so `make test` does not enforce them; `make bench` measures speed.
func TimingError(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("DOCIDX_TIMING_TESTS") != "" {
		t.Errorf(format, args...)
		return
	}
	t.Logf("not enforced (set DOCIDX_TIMING_TESTS=1): "+format, args...)
}

// Linear checks that run takes about linear time on each of hostile, inputs built to be slow
// to parse: for each, it times run over ordinary (an ordinary input of about the same size) and
// then over the hostile input, and reports through TimingError, naming the input by its key, each
// that took more than 20 times as long plus 100 ms.
func Linear[In any](t testing.TB, run func(In), ordinary In, hostile map[string]In) {
	t.Helper()
	for name, src := range hostile {
		start := time.Now()
		run(ordinary)
		ref := time.Since(start)
		start = time.Now()
		run(src)
		if d := time.Since(start); d > 20*ref+100*time.Millisecond {
			TimingError(t, "%s: %v (an ordinary input of about the same size: %v)", name, d, ref)
		}
	}
}

// SymbolHeader writes the line that starts a symbol in the extractors' golden files:
// "<kind> <qualified name>[ parent=<parent>] pkg=<package> <file>:<line>[ deprecated]\n".
func SymbolHeader(b *strings.Builder, s docidx.Symbol) {
	fmt.Fprintf(b, "%s %s", s.Kind, s.QualifiedName)
	if s.Parent != "" {
		fmt.Fprintf(b, " parent=%s", s.Parent)
	}
	fmt.Fprintf(b, " pkg=%s %s:%d", s.Package, s.File, s.Line)
	if s.Deprecated {
		b.WriteString(" deprecated")
	}
	b.WriteByte('\n')
}

// Symbol writes s in the extractors' golden-file form: its SymbolHeader line, each line of its
// signature after a tab, then, when it has a doc, the doc's first line as "\t# <line>".
func Symbol(b *strings.Builder, s docidx.Symbol) {
	SymbolHeader(b, s)
	for _, l := range strings.Split(s.Signature, "\n") {
		fmt.Fprintf(b, "\t%s\n", l)
	}
	if s.Doc != "" {
		first, _, _ := strings.Cut(s.Doc, "\n")
		fmt.Fprintf(b, "\t# %s\n", first)
	}
}

// Outcome writes the lines that end an extractor's golden file after its symbols: "-- files: "
// and r.Files joined by spaces, a "-- problem: <problem>" line for each of r.Problems, and
// "-- truncated" when r.Truncated.
func Outcome(b *strings.Builder, r extracted.Result) {
	fmt.Fprintf(b, "-- files: %s\n", strings.Join(r.Files, " "))
	for _, p := range r.Problems {
		fmt.Fprintf(b, "-- problem: %s\n", p)
	}
	if r.Truncated {
		b.WriteString("-- truncated\n")
	}
}

// ByName maps each qualified name of syms to its symbol; of symbols sharing one, the last wins.
func ByName(syms []docidx.Symbol) map[string]docidx.Symbol {
	m := make(map[string]docidx.Symbol, len(syms))
	for _, s := range syms {
		m[s.QualifiedName] = s
	}
	return m
}

// FirstByName maps each qualified name of syms to the first symbol that has it: of overloads
// (one name declared again with another signature), the first declared.
func FirstByName(syms []docidx.Symbol) map[string]docidx.Symbol {
	m := make(map[string]docidx.Symbol, len(syms))
	for _, s := range syms {
		if _, ok := m[s.QualifiedName]; !ok {
			m[s.QualifiedName] = s
		}
	}
	return m
}

// Lister is what Listed reads: a docidx.Cache, or anything else that lists package versions.
type Lister interface {
	List(ctx context.Context) ([]docidx.Ref, error)
}

// Listed returns the package versions c lists. It fails tb when err, the error of making c, is
// not nil, and when List fails.
func Listed(tb testing.TB, c Lister, err error) []docidx.Ref {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	refs, err := c.List(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return refs
}

// RefNames returns each of refs as "name@version", in order, for comparing a listing with a
// table.
func RefNames(refs []docidx.Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name + "@" + r.Version
	}
	return out
}

// Fetcher is what Fetched reads: a docidx.Registry, a docidx.Cache, or anything else that
// fetches a package version's documentation.
type Fetcher interface {
	Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error)
}

// Fetched returns what f fetches for name at version (a version or a query, as Fetch takes it),
// failing tb when Fetch fails.
func Fetched(tb testing.TB, f Fetcher, name, version string) *docidx.PackageDocs {
	tb.Helper()
	pd, err := f.Fetch(context.Background(), name, version)
	if err != nil {
		tb.Fatal(err)
	}
	return pd
}

// CheckSymbols checks what every extracted symbol must satisfy: a qualified name no other symbol
// of syms has, and a name, kind, file, line (1 or more), package and signature. It reports each
// symbol that breaks them as a test error.
func CheckSymbols(t testing.TB, syms []docidx.Symbol) {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range syms {
		if seen[s.QualifiedName] {
			t.Errorf("duplicate qualified name %q", s.QualifiedName)
		}
		seen[s.QualifiedName] = true
		if s.Name == "" || s.Kind == "" || s.File == "" || s.Line < 1 || s.Package == "" || s.Signature == "" {
			t.Errorf("incomplete symbol %+v", s)
		}
	}
}

// WriteFile writes body to the file at path p, making its missing parent directories first
// (mode 0o755; the file gets 0o644). It fails tb on an error.
func WriteFile(tb testing.TB, p, body string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Exist reports a test error for each of paths, slash paths relative to dir, that does not exist
// (os.Stat: a symbolic link must lead somewhere): the files a layout writer such as a fake
// module cache or build directory must have written.
func Exist(t testing.TB, dir string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Errorf("%s missing: %v", p, err)
		}
	}
}

// Must returns f(arg), failing tb when f returns an error: a constructor called with input the
// test knows to be good, such as NewConfig(srv.URL).
func Must[A, R any](tb testing.TB, f func(A) (R, error), arg A) R {
	tb.Helper()
	r, err := f(arg)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// Configured returns newR(c) after mod, when not nil, has changed c: a registry built from the
// configuration a test's helper gives it with one test's changes (a lowered limit, another
// client). It fails tb when newR returns an error.
func Configured[C, R any](tb testing.TB, c C, mod func(*C), newR func(C) (R, error)) R {
	tb.Helper()
	if mod != nil {
		mod(&c)
	}
	return Must(tb, newR, c)
}

// SamePackage reports got as a test error when it is not want: every field alike as printed,
// with Published and CrawledAt compared as instants (their locations set aside).
func SamePackage(t testing.TB, got, want docidx.Package) {
	t.Helper()
	instants := func(p docidx.Package) string {
		p.Published, p.CrawledAt = p.Published.UTC(), p.CrawledAt.UTC()
		return fmt.Sprint(p)
	}
	if instants(got) != instants(want) {
		t.Errorf("Package =\n%+v\nwant\n%+v", got, want)
	}
}

// Documents returns pd's documents by path, reporting a test error for each path of kinds that
// is not among them with that kind.
func Documents(t testing.TB, pd *docidx.PackageDocs, kinds map[string]docidx.DocKind) map[string]docidx.Document {
	t.Helper()
	docs := map[string]docidx.Document{}
	for _, d := range pd.Documents {
		docs[d.Path] = d
	}
	for path, kind := range kinds {
		if d, ok := docs[path]; !ok || d.Kind != kind {
			t.Errorf("document %s = %+v, want kind %s", path, d, kind)
		}
	}
	return docs
}

// Text returns the text of d's sections, each followed by a newline, for tests that look for a
// phrase in a document.
func Text(d docidx.Document) string {
	var b strings.Builder
	for _, s := range d.Sections {
		b.WriteString(s.Text)
		b.WriteString("\n")
	}
	return b.String()
}
