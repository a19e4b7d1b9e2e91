package gomod

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestExtractMembers checks the members of the types in testdata's options.go and tools.go:
// struct fields (named, multi-name, embedded, tagged, deprecated, in an anonymous struct),
// interface methods and embedded interfaces, each with its own doc and position.
func TestExtractMembers(t *testing.T) {
	syms := testutil.ByName(extractDir(t, helloDir, "example.com/hello").symbols)
	tests := []struct {
		q          string
		kind       docidx.SymbolKind
		parent     string
		sig        string
		doc        string // "" means none
		file       string
		line       int
		deprecated bool
	}{
		{"hello.Options.Network", docidx.KindField, "Options", "Network string", "Network type, either tcp or unix.\n\ndefault: is tcp.\n", "options.go", 13, false},
		{"hello.Options.Addr", docidx.KindField, "Options", "Addr string `json:\"addr,omitempty\"`", "Addr is the address formatted as host:port.\n", "options.go", 16, false},
		{"hello.Options.PoolSize", docidx.KindField, "Options", "PoolSize int", "PoolSize is the maximum number of socket connections.\nDefault is 10 connections per every available CPU.\n", "options.go", 20, false},
		// Two names in one field: one symbol each, the line comment as their doc.
		{"hello.Options.ReadTimeout", docidx.KindField, "Options", "ReadTimeout time.Duration", "Timeouts for socket reads and writes.\n", "options.go", 22, false},
		{"hello.Options.WriteTimeout", docidx.KindField, "Options", "WriteTimeout time.Duration", "Timeouts for socket reads and writes.\n", "options.go", 22, false},
		// An embedded field is named by its type.
		{"hello.Options.Greeter", docidx.KindField, "Options", "*Greeter", "Greeter is embedded: its own fields stay on Greeter.\n", "options.go", 25, false},
		// An anonymous struct field keeps its fields (comments stripped) and they are members of their own.
		{"hello.Options.Limits", docidx.KindField, "Options", "Limits struct {\n\tMaxBytes int64\n\t// contains filtered or unexported fields\n}", "Limits bounds each connection.\n", "options.go", 28, false},
		{"hello.Options.Limits.MaxBytes", docidx.KindField, "Options.Limits", "MaxBytes int64", "MaxBytes is the largest message, in bytes.\n", "options.go", 30, false},
		{"hello.Options.OldAddr", docidx.KindField, "Options", "OldAddr string", "OldAddr is the former name of Addr.\n\nDeprecated: Use Addr.\n", "options.go", 37, true},
		{"hello.Greeter.Style", docidx.KindField, "Greeter", "Style Style", "Style is the greeting style.\n", "hello.go", 27, false},
		{"hello.Greeter.Name", docidx.KindField, "Greeter", "Name string", "Name of the greeter.\n", "hello.go", 28, false},
		{"tools.Pair.Key", docidx.KindField, "Pair", "Key K", "", "sub/tools/tools.go", 22, false},
		{"hello.Checker.Check", docidx.KindMethod, "Checker", "Check(name string) error", "Check reports whether name can be greeted.\n", "options.go", 48, false},
		{"hello.Speaker.Speak", docidx.KindMethod, "Speaker", "Speak(words ...string) (n int, err error)", "Speak says words.\n", "options.go", 58, false},
		{"hello.Speaker.Checker", docidx.KindInterface, "Speaker", "Checker", "Checker is embedded.\n", "options.go", 53, false},
		{"hello.Speaker.Stringer", docidx.KindInterface, "Speaker", "fmt.Stringer", "Stringer names the speaker.\n", "options.go", 54, false},
		{"tools.Tool.Run", docidx.KindMethod, "Tool", "Run() error", "Run runs the tool.\n", "sub/tools/tools.go", 7, false},
	}
	for _, tt := range tests {
		s, ok := syms[tt.q]
		if !ok {
			t.Errorf("missing member %s", tt.q)
			continue
		}
		if s.Kind != tt.kind || s.Parent != tt.parent || s.File != tt.file || s.Line != tt.line || s.Deprecated != tt.deprecated {
			t.Errorf("%s: kind %s parent %q at %s:%d deprecated %v; want %s %q at %s:%d deprecated %v",
				tt.q, s.Kind, s.Parent, s.File, s.Line, s.Deprecated, tt.kind, tt.parent, tt.file, tt.line, tt.deprecated)
		}
		if s.Signature != tt.sig {
			t.Errorf("%s: signature\n%s\nwant\n%s", tt.q, s.Signature, tt.sig)
		}
		if s.Doc != tt.doc {
			t.Errorf("%s: doc %q, want %q", tt.q, s.Doc, tt.doc)
		}
		if s.Package == "" || !strings.HasSuffix(s.QualifiedName, "."+s.Key()) {
			t.Errorf("%s: package %q key %q", tt.q, s.Package, s.Key())
		}
	}
	// Unexported members, the fields of an unexported embedded struct, the predeclared error and
	// type-set terms are left out; the fields of an embedded type stay on that type.
	testutil.Absent(t, syms, "", "hello.Options.secret", "hello.Options.internalOptions", "hello.Options.Extra",
		"hello.Options.Limits.burst", "hello.Options.Style", "hello.Speaker.error", "hello.Speaker.whisper",
		"hello.Speaker.String", "hello.Number.int", "tools.Tool.private", "hello.Greeter.count")
}

// TestExtractValues checks that every exported name of a const or var declaration is a symbol
// with its own declaration, value and doc.
func TestExtractValues(t *testing.T) {
	syms := testutil.ByName(extractDir(t, helloDir, "example.com/hello").symbols)
	tests := []struct {
		q, kind, sig, doc string
	}{
		{"hello.DefaultName", "const", `const DefaultName = "world"`, "DefaultName is greeted when no name is given.\n"},
		// iota entries show the expression they repeat and its value.
		{"hello.Formal", "const", "const Formal Style = iota // 0", "Formal says \"Good day\".\n"},
		{"hello.Casual", "const", "const Casual Style = iota // 1", "Casual says \"Hi\".\n"},
		{"hello.KB", "const", "const KB = 1 << (10 * iota) // 1024", "KB is a kilobyte.\n"},
		{"hello.MB", "const", "const MB = 1 << (10 * iota) // 1048576", "MB is a megabyte.\n"},
		{"hello.GB", "const", "const GB = 1 << (10 * iota) // 1073741824", "Size units.\n"}, // the block's doc
		{"hello.Debug", "const", "const Debug Level = iota + 1 // 1", "Debug is verbose.\n"},
		{"hello.Info", "const", "const Info Level = iota + 1 // 2", "Info is the default.\n"},
		{"hello.DefaultReadTimeout", "var", "var DefaultReadTimeout time.Duration = 3 * time.Second", "DefaultReadTimeout is used when Options.ReadTimeout is zero.\n"},
		{"hello.DefaultOptions", "var", `var DefaultOptions = &Options{Network: "tcp", PoolSize: 10}`, "Server defaults.\n"},
		{"hello.MinPort", "var", "var MinPort = 1024", "Port range.\n"},
		{"hello.MaxPort", "var", "var MaxPort = 65535", "Port range.\n"},
		{"hello.ErrEmpty", "var", `var ErrEmpty = errors.New("hello: empty name")`, "ErrEmpty is returned by Greeter.Check for an empty name.\n"},
	}
	for _, tt := range tests {
		s, ok := syms[tt.q]
		if !ok {
			t.Errorf("missing %s", tt.q)
			continue
		}
		if string(s.Kind) != tt.kind || s.Signature != tt.sig || s.Doc != tt.doc || s.Parent != "" || s.Line == 0 {
			t.Errorf("%s: %s %q doc %q parent %q line %d\nwant %s %q doc %q", tt.q, s.Kind, s.Signature, s.Doc, s.Parent, s.Line, tt.kind, tt.sig, tt.doc)
		}
	}
}

// TestCompactTypeSignature checks that a type's signature lists its members without their
// comments, tags or the blank lines between them, aligned as gofmt aligns one block.
func TestCompactTypeSignature(t *testing.T) {
	syms := testutil.ByName(extractDir(t, helloDir, "example.com/hello").symbols)
	tests := []struct{ q, sig string }{
		{"hello.Options", "type Options struct {\n" +
			"\tNetwork                   string\n" +
			"\tAddr                      string\n" +
			"\tPoolSize                  int\n" +
			"\tReadTimeout, WriteTimeout time.Duration\n" +
			"\t*Greeter\n" +
			"\tLimits struct {\n" +
			"\t\tMaxBytes int64\n" +
			"\t\t// contains filtered or unexported fields\n" +
			"\t}\n" +
			"\tOldAddr string\n" +
			"\t// contains filtered or unexported fields\n" +
			"}"},
		{"hello.Speaker", "type Speaker interface {\n\tChecker\n\tfmt.Stringer\n\terror\n\tSpeak(words ...string) (n int, err error)\n\t// contains filtered or unexported methods\n}"},
		{"hello.Number", "type Number interface {\n\t~int | ~int64\n}"},
		{"tools.Pair", "type Pair[K comparable, V any] struct {\n\tKey   K\n\tValue V\n}"},
	}
	for _, tt := range tests {
		if got := syms[tt.q].Signature; got != tt.sig {
			t.Errorf("%s: signature\n%s\nwant\n%s", tt.q, got, tt.sig)
		}
		if syms[tt.q].Kind != docidx.KindType {
			t.Errorf("%s: kind %s", tt.q, syms[tt.q].Kind)
		}
	}
}

// TestQualifiedNamesUnique checks that no two symbols of a module share a qualified name, so that
// no member is silently dropped as a duplicate, and that a member's name is its parent's plus its own.
func TestQualifiedNamesUnique(t *testing.T) {
	md := extractDir(t, helloDir, "example.com/hello")
	seen := map[string]bool{}
	for _, s := range md.symbols {
		if seen[s.QualifiedName] {
			t.Errorf("duplicate qualified name %s", s.QualifiedName)
		}
		seen[s.QualifiedName] = true
		if s.Parent != "" && !strings.HasSuffix(s.QualifiedName, "."+s.Parent+"."+s.Name) {
			t.Errorf("%s: parent %q name %q", s.QualifiedName, s.Parent, s.Name)
		}
	}
}

func TestEvalConst(t *testing.T) {
	tests := []struct {
		expr string
		iota int
		want string // "" means not evaluated
	}{
		{"iota", 3, "3"},
		{"iota + 1", 0, "1"},
		{"1 << iota", 4, "16"},
		{"1 << (10 * iota)", 2, "1048576"},
		{"-iota", 2, "-2"},
		{"^iota", 0, "-1"},
		{"(iota * 7) % 4 / 2", 3, "0"},
		{"0x10 | iota &^ 1", 3, "18"},
		{"'a' + iota", 1, "98"},
		{"iota / 0", 1, ""},
		{"iota % 0", 1, ""},
		{"1 << (iota * 1000)", 1, ""}, // shift over maxShift
		{"(1 << 512) * (1 << 512) * (1 << 512)", 0, ""},
		{"Base + iota", 1, ""},
		{"Style(iota)", 1, ""},
		{"iota * 1.5", 1, ""},
		{`"a"`, 0, ""},
	}
	for _, tt := range tests {
		x, err := parser.ParseExpr(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := evalConst(x, tt.iota)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("evalConst(%s, iota=%d) = %q, want %q", tt.expr, tt.iota, got, tt.want)
		}
	}
}

func TestEmbeddedName(t *testing.T) {
	for expr, want := range map[string]string{
		"T": "T", "*T": "T", "pkg.T": "T", "*pkg.T[K, V]": "T", "T[int]": "T", "(T)": "T",
		"~int": "", "A | B": "", "struct{}": "", "[]T": "",
	} {
		x, err := parser.ParseExpr(expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := embeddedName(x); got != want {
			t.Errorf("embeddedName(%s) = %q, want %q", expr, got, want)
		}
	}
}

func TestTruncateType(t *testing.T) {
	sig := "type T struct {\n\tA int\n\tB int\n\tC int\n}"
	tests := []struct {
		max  int
		want string
	}{
		{len(sig), sig},
		{100, sig},
		{len("type T struct {\n\tA int\n\tB int\n"), "type T struct {\n\tA int\n\tB int\n\t// … and 1 more line; see its members\n}"},
		{len("type T struct {\n\tA"), "type T struct {\n\t// … and 3 more lines; see its members\n}"},
		{3, sig}, // no line boundary to cut at
	}
	for _, tt := range tests {
		if got := truncateType(sig, tt.max); got != tt.want {
			t.Errorf("truncateType(max %d) =\n%s\nwant\n%s", tt.max, got, tt.want)
		}
	}
}

// TestPrintCompactRestores checks that printCompact leaves the syntax tree as it found it: the
// comments and tags it leaves out are still there for the members and for a second print.
func TestPrintCompactRestores(t *testing.T) {
	src := "package p\n\n// T is t.\ntype T struct {\n\t// A is a.\n\tA int `json:\"a\"`\n\n\tB string // B is b.\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	em := &emitter{pkg: &pkgInfo{fset: fset}}
	decl := *f.Decls[0].(*ast.GenDecl)
	decl.Doc = nil
	before := em.print(&decl)
	if got, want := em.printCompact(&decl), "type T struct {\n\tA int\n\tB string\n}"; got != want {
		t.Errorf("printCompact =\n%s\nwant\n%s", got, want)
	}
	if after := em.print(&decl); after != before {
		t.Errorf("tree changed by printCompact:\n%s\nwas\n%s", after, before)
	}
}

// TestSymbolLimitDropsMembersFirst checks that a module over MaxSymbols keeps its declarations
// before any member, and the first members in walk order after them.
func TestSymbolLimitDropsMembersFirst(t *testing.T) {
	all := extractDir(t, helloDir, "example.com/hello").symbols
	var decls, members []string
	for _, s := range all {
		if s.Kind == docidx.KindField || s.Kind == docidx.KindInterface || s.Kind == docidx.KindMethod && !strings.HasPrefix(s.Signature, "func") {
			members = append(members, s.QualifiedName)
		} else {
			decls = append(decls, s.QualifiedName)
		}
	}
	if len(members) < 3 {
		t.Fatalf("only %d members in testdata", len(members))
	}
	for _, extra := range []int{0, 2} {
		md, err := extractModule(context.Background(), os.DirFS(helloDir), "example.com/hello", "v1.0.0",
			Limits{MaxSymbols: len(decls) + extra}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, q := range decls {
			want[q] = true
		}
		for _, q := range members[:extra] {
			want[q] = true
		}
		if len(md.symbols) != len(want) {
			t.Errorf("limit %d: %d symbols, want %d", len(decls)+extra, len(md.symbols), len(want))
		}
		for _, s := range md.symbols {
			if !want[s.QualifiedName] {
				t.Errorf("limit %d: kept %s", len(decls)+extra, s.QualifiedName)
			}
		}
	}
}

// TestValueSignatures covers the value declarations testdata does not: names and values that do
// not pair up, implicit specs of several names, typed vars without values and elided long values.
func TestValueSignatures(t *testing.T) {
	long := "var Table = map[string]int{\n" + strings.Repeat("\t\"k\": 1,\n", 600) + "}\n"
	src := "package v\n\nimport \"os\"\n\n" +
		"var Stdin, stdout = os.Pipe()\n\n" +
		"var X, Y int\n\n" +
		"const (\n\tA, B = iota, iota * 10\n\tC, D\n)\n\n" +
		"var Ptr = &T{Name: \"x\", Data: []byte(`" + strings.Repeat("y", maxValueSignature) + "`)}\n\n" +
		"type T struct{ Name string; Data []byte }\n\n" + long
	syms := extractSource(t, src)
	testutil.Signatures(t, syms, map[string]string{
		"v.Stdin": "var Stdin, _ = os.Pipe()", // go/doc blanks the unexported name
		"v.X":     "var X int",
		"v.Y":     "var Y int",
		"v.A":     "const A = iota // 0",
		"v.B":     "const B = iota * 10 // 0",
		"v.C":     "const C = iota // 1",
		"v.D":     "const D = iota * 10 // 10",
		"v.Ptr":   "var Ptr = &T{…}",
		"v.Table": "var Table = map[string]int{…}",
	})
}

// extractSource extracts module m.example/v, made of go.mod and the file v.go holding src, and
// returns its symbols by qualified name.
func extractSource(t *testing.T, src string) map[string]docidx.Symbol {
	t.Helper()
	md, err := extractModule(context.Background(), fstest.MapFS{
		"go.mod": {Data: []byte("module m.example/v\n")},
		"v.go":   {Data: []byte(src)},
	}, "m.example/v", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return testutil.ByName(md.symbols)
}

// TestPackageDeclaredAt checks that a package symbol is declared where its package comment is
// (doc.go), not in the package's first file: go/doc takes the comments off the files it reads.
func TestPackageDeclaredAt(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod": file("module example.com/v\n\ngo 1.22\n"),
		"a.go":   file("package v\n\n// A is a.\nfunc A() {}\n"),
		"doc.go": file("// Copyright notice.\n\n// Package v validates.\n//\n// # Singleton\n//\n// Share one.\npackage v\n"),
	}
	m, err := extractModule(context.Background(), fsys, "example.com/v", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range m.symbols {
		if s.Kind == docidx.KindPackage {
			if s.File != "doc.go" || s.Line != 8 {
				t.Errorf("package declared at %s:%d, want doc.go:8", s.File, s.Line)
			}
			return
		}
	}
	t.Fatal("no package symbol")
}

// TestFieldLineComment checks that a field or value keeps its line comment beside the comment
// above it: a comment that heads a run of fields does not hide what each one says on its line.
func TestFieldLineComment(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod": file("module example.com/p\n\ngo 1.21\n"),
		"p.go": file(`// Package p prints.
package p

// Config configures printing.
type Config struct {
	// Field and value options
	IncludeUnexported bool // Include unexported fields in output
	SkipZero          bool // Skip zero fields.

	// Compact is one line.
	Compact bool
}

const (
	// Sizes.
	Small = 1 // The smallest.
)
`),
	}
	md, err := extractModule(context.Background(), fsys, "example.com/p", "v1.0.0", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	syms := testutil.ByName(md.symbols)
	for q, want := range map[string]string{
		"p.Config.IncludeUnexported": "Field and value options\n\nInclude unexported fields in output\n",
		"p.Config.SkipZero":          "Skip zero fields.\n",
		"p.Config.Compact":           "Compact is one line.\n",
		"p.Small":                    "Sizes.\n\nThe smallest.\n",
	} {
		if s, ok := syms[q]; !ok || s.Doc != want {
			t.Errorf("%s: doc %q, want %q", q, s.Doc, want)
		}
	}
}

// TestSymbolLimitKeepsNewestVersion checks that a module over MaxSymbols whose packages are
// versions of one package side by side (otel's semconv/v1.4.0 to semconv/v1.43.0) keeps the
// newest versions, not the first by name, and still lists what it keeps in walk order; and that
// the newest version's symbols keep the package's bare name.
func TestSymbolLimitKeepsNewestVersion(t *testing.T) {
	fsys := fstest.MapFS{"go.mod": file("module example.com/conv\n\ngo 1.22\n")}
	versions := []string{"v1.10.0", "v1.4.0", "v1.9.0", "v1.43.0"} // walk order: by name
	for _, v := range versions {
		fsys["semconv/"+v+"/key.go"] = file("// Package semconv is " + v + ".\npackage semconv\n\n// Key is a key.\nconst Key = \"k\"\n")
	}
	fsys["semconv/v1.43.0/httpconv/http.go"] = file("// Package httpconv is HTTP.\npackage httpconv\n\n// Status is a key.\nconst Status = 1\n")
	m, err := extractModule(context.Background(), fsys, "example.com/conv", "v1.0.0",
		Limits{MaxSymbols: 6}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range m.symbols {
		got = append(got, s.QualifiedName)
	}
	// Two symbols a package; the limit of 6 holds v1.43.0, its httpconv and v1.10.0.
	want := []string{
		"example.com/conv/semconv/v1.10.0", "semconv/v1.10.0.Key",
		"example.com/conv/semconv/v1.43.0", "semconv.Key",
		"example.com/conv/semconv/v1.43.0/httpconv", "httpconv.Status",
	}
	if !slices.Equal(got, want) {
		t.Errorf("symbols\n%q\nwant\n%q", got, want)
	}
}

// TestDeprecatedDoc checks that a symbol whose doc comment holds a paragraph beginning
// "Deprecated: " is marked deprecated, and one that only mentions deprecation is not.
func TestDeprecatedDoc(t *testing.T) {
	syms := extractSource(t, "package v\n\n// Old does it.\n//\n// Deprecated: Use New.\nfunc Old() {}\n\n"+
		"// New does it; Old is deprecated.\nfunc New() {}\n\n// T is a type.\ntype T struct {\n"+
		"\t// F is a field.\n\t//\n\t// Deprecated: Use G.\n\tF int\n\t// G is a field.\n\tG int\n}\n")
	for name, want := range map[string]bool{"v.Old": true, "v.New": false, "v.T.F": true, "v.T.G": false} {
		if s, ok := syms[name]; !ok || s.Deprecated != want {
			t.Errorf("%s: deprecated %v (found %v), want %v", name, s.Deprecated, ok, want)
		}
	}
}
