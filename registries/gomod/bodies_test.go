package gomod

import (
	"bytes"
	"context"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
)

func TestBlankBodies(t *testing.T) {
	// bodies are the function bodies of src, between their braces, that blankBodies blanks.
	for _, tc := range []struct {
		name, src string
		bodies    []string
	}{
		{"plain", "package p\n\nfunc F(x int) int {\n\treturn x + 1\n}\n", []string{"\n\treturn x + 1\n"}},
		{"method", "package p\nfunc (t *T) M() { t.n++ }\n", []string{" t.n++ "}},
		{"result struct", "package p\nfunc F() struct{ A int } { return struct{ A int }{1} }\n", []string{" return struct{ A int }{1} "}},
		{"result interface", "package p\nfunc F() interface {\n\tM()\n} { return nil }\n", []string{" return nil "}},
		{"chan of struct", "package p\nfunc F() chan struct{} { return nil }\n", []string{" return nil "}},
		{"parameter literals", "package p\nfunc F(x struct{ A int `json:\"}\"` }, y interface{}) { _ = x }\n", []string{" _ = x "}},
		{"type parameters", "package p\nfunc F[T interface{ ~int }](x T) T { return x }\n", []string{" return x "}},
		{"literals in the body", "package p\nfunc F() { _ = \"}\"; _ = '}'; _ = `\n}`; /* } */ // }\n}\nvar V = 1\n",
			[]string{" _ = \"}\"; _ = '}'; _ = `\n}`; /* } */ // }\n"}},
		{"no body", "package p\nfunc F(x int) int\n\nfunc G() { g() }\n", []string{" g() "}},
		{"no body, line comment", "package p\nfunc F() // in assembly\nvar V = func() { println() }\n", nil},
		{"function literal", "package p\nvar V = func() int { return 1 }()\n", nil},
		{"literal inside a value", "package p\nvar fs = []func(){\nfunc() { println() },\n}\n", nil},
		{"unclosed", "package p\nfunc F() {\n\treturn\n", nil},
		{"identifier ending in struct", "package p\nfunc F() mystruct { return mystruct{} }\n", []string{" return mystruct{} "}},
	} {
		want := tc.src
		for _, b := range tc.bodies {
			blank := strings.Map(func(r rune) rune {
				if r == '\n' {
					return r
				}
				return ' '
			}, b)
			if !strings.Contains(want, "{"+b+"}") {
				t.Fatalf("%s: no body {%s}", tc.name, b)
			}
			want = strings.Replace(want, "{"+b+"}", "{"+blank+"}", 1)
		}
		if got := string(blankBodies([]byte(tc.src))); got != want {
			t.Errorf("%s: blankBodies(%q)\n got %q\nwant %q", tc.name, tc.src, got, want)
		}
	}
}

// TestBlankBodiesStandardLibrary checks blankBodies against go/parser on the standard
// library's sources: every file parses to the same declarations, comments outside the bodies
// and positions, with every function's body empty.
func TestBlankBodiesStandardLibrary(t *testing.T) {
	root := filepath.Join(build.Default.GOROOT, "src")
	files := 0
	for _, dir := range []string{"net/http", "go/ast", "go/types", "runtime", "encoding/json", "syscall", "math/big", "crypto/tls"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			name := filepath.Join(root, dir, e.Name())
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			compareBlanked(t, name, src)
			files++
		}
	}
	if files < 500 {
		t.Fatalf("read %d files of the standard library, want at least 500", files)
	}
}

// compareBlanked fails t unless src and blankBodies(src) parse to the same declarations.
func compareBlanked(t *testing.T, name string, src []byte) {
	t.Helper()
	fset := token.NewFileSet()
	want, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	blanked := blankBodies(src)
	if len(blanked) != len(src) || bytes.Count(blanked, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Fatalf("%s: blanking changed the file's length or lines", name)
	}
	got, err := parser.ParseFile(fset, name, blanked, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: blanked source does not parse: %v", name, err)
	}
	if len(got.Decls) != len(want.Decls) {
		t.Fatalf("%s: %d declarations, want %d", name, len(got.Decls), len(want.Decls))
	}
	var bodies []*ast.BlockStmt
	for i, d := range want.Decls {
		g := got.Decls[i]
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			gd := g.(*ast.FuncDecl)
			if gd.Body == nil || len(gd.Body.List) != 0 {
				t.Errorf("%s: %s: body not blanked", name, fd.Name.Name)
			}
			bodies = append(bodies, fd.Body)
			fd.Body, gd.Body = nil, nil
		}
		if at, want := span(fset, g), span(fset, d); at != want {
			t.Errorf("%s: declaration %d at %v, want %v", name, i, at, want)
		}
		if a, b := printNode(t, fset, d), printNode(t, fset, g); a != b {
			t.Errorf("%s: declaration %d prints\n%s\nwant\n%s", name, i, b, a)
		}
	}
	inBody := func(c *ast.CommentGroup) bool {
		for _, b := range bodies {
			if c.Pos() > b.Lbrace && c.End() <= b.Rbrace {
				return true
			}
		}
		return false
	}
	var wantComments []string
	for _, c := range want.Comments {
		if !inBody(c) {
			wantComments = append(wantComments, fset.Position(c.Pos()).String()+c.Text())
		}
	}
	var gotComments []string
	for _, c := range got.Comments {
		gotComments = append(gotComments, fset.Position(c.Pos()).String()+c.Text())
	}
	if strings.Join(gotComments, "\x00") != strings.Join(wantComments, "\x00") {
		t.Errorf("%s: %d comments outside bodies, want %d", name, len(gotComments), len(wantComments))
	}
}

// span returns the offsets of n's first and last byte in its file.
func span(fset *token.FileSet, n ast.Node) [2]int {
	return [2]int{fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset}
}

func printNode(t *testing.T, fset *token.FileSet, n ast.Node) string {
	t.Helper()
	var b strings.Builder
	if err := printer.Fprint(&b, fset, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBodyErrors: a function names the errors its body makes with a literal message
// (errors.New, fmt.Errorf with its other arguments elided, panic), each once, in a closure
// too, documented or not; a message built another way, a multi-line raw string and a method of
// the same name on a type literal's braces add nothing, and its doc stays its comment.
func TestBodyErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod": file("module example.com/svc\n\ngo 1.22\n"),
		"svc.go": file("// Package svc serves.\npackage svc\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\n" +
			"// GetService returns the named service.\nfunc GetService(name string) (string, error) {\n" +
			"\tif name == \"\" {\n\t\treturn \"\", errors.New(\"not found\")\n\t}\n" +
			"\tf := func() error { return fmt.Errorf(\"reading %s: %w\", name, errBase) }\n" +
			"\tif f() != nil {\n\t\tpanic(\"unreachable\")\n\t}\n" +
			"\treturn \"\", errors.New(\"not found\")\n}\n\n" +
			"// Build builds.\nfunc Build(s struct{ A int }) error {\n\treturn errors.New(msg + \"x\")\n}\n\n" +
			"func Quiet() error { return errors.New(\"quiet\") }\n\nvar errBase = errors.New(\"base\")\nvar msg = \"m\"\n"),
	}
	md, err := extractModule(context.Background(), fsys, "example.com/svc", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	syms := map[string]docidx.Symbol{}
	for _, s := range md.symbols {
		syms[s.QualifiedName] = s
	}
	get := syms["svc.GetService"]
	if want := []string{`errors.New("not found")`, `fmt.Errorf("reading %s: %w", …)`, `panic("unreachable")`}; !slices.Equal(get.Errors, want) || get.Doc != "GetService returns the named service.\n" {
		t.Errorf("GetService: doc %q, errors %q; want its comment and %q", get.Doc, get.Errors, want)
	}
	if b, q := syms["svc.Build"], syms["svc.Quiet"]; b.Errors != nil || !slices.Equal(q.Errors, []string{`errors.New("quiet")`}) || !q.Undocumented() {
		t.Errorf("Build %q, Quiet %q (undocumented %v): a built message adds nothing, an undocumented function its errors", b.Errors, q.Errors, q.Undocumented())
	}
}
