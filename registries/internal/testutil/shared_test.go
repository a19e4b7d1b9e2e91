package testutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
)

// recorder is a testing.TB that keeps the errors reported to it instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestMapping(t *testing.T) {
	r := &recorder{TB: t}
	Mapping(r, "upper", strings.ToUpper, map[string]string{"a": "A", "b": "b"})
	if len(r.errs) != 1 || r.errs[0] != `upper("b") = "B", want "b"` {
		t.Errorf("errors = %q, want one for b", r.errs)
	}
}

func TestResult(t *testing.T) {
	errBad := errors.New("bad")
	for _, tc := range []struct {
		got, want   string
		err, wanted error
		fails       bool
	}{
		{"x", "x", nil, nil, false},
		{"x", "y", nil, nil, true},
		{"x", "x", errBad, nil, true},
		{"", "", fmt.Errorf("wrapped: %w", errBad), errBad, false},
		{"", "", nil, errBad, true},
		{"", "", errors.New("other"), errBad, true},
	} {
		r := &recorder{TB: t}
		Result(r, "f()", tc.got, tc.err, tc.want, tc.wanted)
		if (len(r.errs) > 0) != tc.fails {
			t.Errorf("Result(%q, %v; want %q, %v) reported %q", tc.got, tc.err, tc.want, tc.wanted, r.errs)
		}
	}
}

func TestLinear(t *testing.T) {
	t.Setenv("DOCIDX_TIMING_TESTS", "1")
	r := &recorder{TB: t}
	Linear(r, time.Sleep, 0, map[string]time.Duration{"quick": 0, "slow": 300 * time.Millisecond})
	if len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "slow: ") {
		t.Errorf("errors = %q, want one for slow", r.errs)
	}
}

func TestSymbol(t *testing.T) {
	var b strings.Builder
	Symbol(&b, docidx.Symbol{Kind: docidx.KindMethod, QualifiedName: "p.T.f", Parent: "T", Package: "p", File: "a.go", Line: 3, Deprecated: true, Signature: "func f(\n)", Doc: "Does.\nMore."})
	Symbol(&b, docidx.Symbol{Kind: docidx.KindFunc, QualifiedName: "p.g", Package: "p", File: "a.go", Line: 9, Signature: "func g()"})
	want := "method p.T.f parent=T pkg=p a.go:3 deprecated\n\tfunc f(\n\t)\n\t# Does.\nfunc p.g pkg=p a.go:9\n\tfunc g()\n"
	if b.String() != want {
		t.Errorf("Symbol wrote\n%s\nwant\n%s", b.String(), want)
	}
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		r    extracted.Result
		want string
	}{
		{extracted.Result{}, "-- files: \n"},
		{extracted.Result{Files: []string{"a.rs", "b/c.rs"}, Problems: []string{"x.rs: too big", "y.rs: not UTF-8"}, Truncated: true},
			"-- files: a.rs b/c.rs\n-- problem: x.rs: too big\n-- problem: y.rs: not UTF-8\n-- truncated\n"},
	} {
		var b strings.Builder
		Outcome(&b, tc.r)
		if b.String() != tc.want {
			t.Errorf("Outcome(%+v) wrote %q, want %q", tc.r, b.String(), tc.want)
		}
	}
}

func TestByName(t *testing.T) {
	m := ByName([]docidx.Symbol{{QualifiedName: "a", Line: 1}, {QualifiedName: "b", Line: 2}, {QualifiedName: "a", Line: 3}})
	if len(m) != 2 || m["a"].Line != 3 || m["b"].Line != 2 {
		t.Errorf("ByName = %+v, want a at line 3 and b at line 2", m)
	}
}

func TestFirstByName(t *testing.T) {
	m := FirstByName([]docidx.Symbol{{QualifiedName: "a", Line: 1}, {QualifiedName: "b", Line: 2}, {QualifiedName: "a", Line: 3}})
	if len(m) != 2 || m["a"].Line != 1 || m["b"].Line != 2 {
		t.Errorf("FirstByName = %+v, want a at line 1 and b at line 2", m)
	}
}

type fakeLister struct {
	refs []docidx.Ref
	err  error
}

func (f fakeLister) List(context.Context) ([]docidx.Ref, error) { return f.refs, f.err }

func TestListed(t *testing.T) {
	want := []docidx.Ref{{Ecosystem: docidx.Swift, Name: "a.b", Version: "1.0.0"}}
	if got := Listed(t, fakeLister{refs: want}, nil); len(got) != 1 || got[0] != want[0] {
		t.Errorf("Listed = %v, want %v", got, want)
	}
	// Listed stops a failing test with FailNow (runtime.Goexit), so each failure runs on its own goroutine.
	for _, tc := range []struct {
		c   fakeLister
		err error
	}{{fakeLister{}, errors.New("open")}, {fakeLister{err: errors.New("list")}, nil}} {
		r := &fatalRecorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Listed(r, tc.c, tc.err)
		}()
		<-done
		if !r.failed {
			t.Errorf("Listed(%+v, %v) did not fail", tc.c, tc.err)
		}
	}
}

func TestRefNames(t *testing.T) {
	got := RefNames([]docidx.Ref{{Name: "b", Version: "2.0.0"}, {Ecosystem: docidx.Cargo, Name: "a", Version: "1.0.0"}})
	if want := []string{"b@2.0.0", "a@1.0.0"}; !slices.Equal(got, want) {
		t.Errorf("RefNames = %q, want %q", got, want)
	}
}

type fakeFetcher struct{ err error }

func (f fakeFetcher) Fetch(_ context.Context, name, version string) (*docidx.PackageDocs, error) {
	return &docidx.PackageDocs{Package: docidx.Package{Name: name, Version: version}}, f.err
}

func TestFetched(t *testing.T) {
	if pd := Fetched(t, fakeFetcher{}, "a", "1.0.0"); pd.Package.Name != "a" || pd.Package.Version != "1.0.0" {
		t.Errorf("Fetched = %+v, want a@1.0.0", pd.Package)
	}
	r := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Fetched(r, fakeFetcher{err: errors.New("fetch")}, "a", "1.0.0")
	}()
	<-done
	if !r.failed {
		t.Error("Fetched did not fail when Fetch did")
	}
}

// fatalRecorder is a testing.TB whose Fatal records the failure and ends the goroutine.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatal(args ...any) {
	r.failed = true
	runtime.Goexit()
}

func TestCheckSymbols(t *testing.T) {
	ok := docidx.Symbol{Kind: docidx.KindFunc, Name: "f", QualifiedName: "p.f", Package: "p", File: "a.go", Line: 1, Signature: "func f()"}
	noLine := ok
	noLine.QualifiedName, noLine.Line = "p.g", 0
	r := &recorder{TB: t}
	CheckSymbols(r, []docidx.Symbol{ok, noLine, ok})
	if len(r.errs) != 2 || !strings.HasPrefix(r.errs[0], "incomplete symbol") || r.errs[1] != `duplicate qualified name "p.f"` {
		t.Errorf("errors = %q, want one incomplete and one duplicate", r.errs)
	}
}

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "c.txt")
	WriteFile(t, p, "body")
	if b, err := os.ReadFile(p); err != nil || string(b) != "body" {
		t.Errorf("read back %q, %v", b, err)
	}
}

func TestExist(t *testing.T) {
	dir := t.TempDir()
	WriteFile(t, filepath.Join(dir, "a", "b.txt"), "")
	r := &recorder{TB: t}
	Exist(r, dir, "a/b.txt", "a", "a/c.txt")
	if len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "a/c.txt missing: ") {
		t.Errorf("errors = %q, want one for a/c.txt", r.errs)
	}
}

// fatalLog is a testing.TB that keeps what is reported to it with Fatal, without stopping, so
// a test can see both that a helper failed it and what the helper returned.
type fatalLog struct {
	testing.TB
	fatals []string
}

func (r *fatalLog) Helper() {}

func (r *fatalLog) Fatal(args ...any) { r.fatals = append(r.fatals, fmt.Sprint(args...)) }

func TestMustAndConfigured(t *testing.T) {
	parse := func(s string) (int, error) {
		if s == "" {
			return 0, errors.New("empty")
		}
		return len(s), nil
	}
	r := &fatalLog{TB: t}
	if got := Must(r, parse, "abc"); got != 3 || len(r.fatals) != 0 {
		t.Errorf("Must(parse, abc) = %d, reported %q", got, r.fatals)
	}
	if Must(r, parse, ""); len(r.fatals) != 1 || r.fatals[0] != "empty" {
		t.Errorf("Must(parse, \"\") reported %q, want empty", r.fatals)
	}
	r.fatals = nil
	if got := Configured(r, "ab", func(s *string) { *s += "cd" }, parse); got != 4 || len(r.fatals) != 0 {
		t.Errorf("Configured(ab, +cd) = %d, reported %q; want 4", got, r.fatals)
	}
	if got := Configured(r, "ab", nil, parse); got != 2 {
		t.Errorf("Configured(ab, nil) = %d, want 2", got)
	}
	if Configured(r, "", nil, parse); len(r.fatals) != 1 {
		t.Errorf("Configured(\"\", nil) reported %q, want empty", r.fatals)
	}
}

func TestSamePackage(t *testing.T) {
	at := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	want := docidx.Package{Name: "p", Versions: []string{"1.0.0"}, Published: at, CrawledAt: at}
	for _, tc := range []struct {
		name  string
		got   docidx.Package
		fails bool
	}{
		{"same", want, false},
		{"same instants elsewhere", docidx.Package{Name: "p", Versions: []string{"1.0.0"}, Published: at.In(time.FixedZone("x", 3600)), CrawledAt: at}, false},
		{"other version list", docidx.Package{Name: "p", Versions: []string{"1.0.1"}, Published: at, CrawledAt: at}, true},
		{"other time", docidx.Package{Name: "p", Versions: []string{"1.0.0"}, Published: at, CrawledAt: at.Add(time.Second)}, true},
		{"deprecated", docidx.Package{Name: "p", Versions: []string{"1.0.0"}, Published: at, CrawledAt: at, Deprecated: "old"}, true},
	} {
		r := &recorder{TB: t}
		SamePackage(r, tc.got, want)
		if (len(r.errs) > 0) != tc.fails {
			t.Errorf("%s: reported %q", tc.name, r.errs)
		}
	}
}

func TestDocuments(t *testing.T) {
	pd := &docidx.PackageDocs{Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme}, {Path: "a.md", Kind: docidx.DocGuide}}}
	r := &recorder{TB: t}
	docs := Documents(r, pd, map[string]docidx.DocKind{"README.md": docidx.DocReadme, "a.md": docidx.DocExample, "b.md": docidx.DocGuide})
	if len(docs) != 2 || docs["a.md"].Kind != docidx.DocGuide {
		t.Errorf("documents = %v", docs)
	}
	if len(r.errs) != 2 || !strings.HasPrefix(r.errs[0]+r.errs[1], "document ") {
		t.Errorf("reported %q, want a.md (other kind) and b.md (missing)", r.errs)
	}
}

func TestText(t *testing.T) {
	d := docidx.Document{Sections: []docidx.Section{{Text: "one"}, {Text: "two"}}}
	if got := Text(d); got != "one\ntwo\n" {
		t.Errorf("Text = %q", got)
	}
}
