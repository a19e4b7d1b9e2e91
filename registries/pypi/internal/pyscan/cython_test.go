package pyscan

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// scanCython scans testdata/cython/shapes/canvas.pyx (a fixture written for these tests) as
// module shapes.canvas, its includes read from testdata/cython.
func scanCython(t *testing.T) Result {
	t.Helper()
	root := filepath.Join("testdata", "cython")
	src, err := os.ReadFile(filepath.Join(root, "shapes", "canvas.pyx"))
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) }
	return Scan(src, Options{Module: "shapes.canvas", File: "shapes/canvas.pyx", Cython: true, Include: read})
}

// TestCython: cdef classes, cpdef functions and def functions with C-typed parameters are API,
// from the .pyx and from the .pxi files it includes (each symbol placed in its own file);
// cdef functions, private cdef attributes, ctypedef, extern blocks, DEF, IF blocks, cimport and
// @cython.internal classes are not, and none of them derails the scan.
func TestCython(t *testing.T) {
	res := scanCython(t)
	all := append(res.Symbols[:len(res.Symbols):len(res.Symbols)], res.Inherited...)
	testutil.CheckSymbols(t, all)
	golden.Check(t, filepath.Join("testdata", "golden", "cython-canvas.golden"), []byte(render(res)))

	syms := map[string]docidx.Symbol{}
	for _, s := range res.Symbols {
		syms[strings.TrimPrefix(s.QualifiedName, "shapes.canvas.")] = s
	}
	for _, name := range []string{
		"Shape", "Shape.width", "Shape.name", "Shape.label", "Shape.area", "Shape.move", "Shape.outline",
		"Shape.fill", "Shape.corners", "Canvas", "Canvas.clear", "Circle", "draw", "scale", "Palette",
		"Palette.pick", "Square", "Square.side", "after_includes", "ORIGIN",
	} {
		if _, ok := syms[name]; !ok {
			t.Errorf("%s missing", name)
		}
	}
	for _, name := range []string{
		"_clip", "Shape._grow", "Shape.npoints", "Shape._points", "Hidden", "Hidden.shown", "hidden_global",
		"point_t", "coord_t", "canvas_t", "canvas_draw", "not_api", "windows_only", "posix_only", "MAX_POINTS",
	} {
		if _, ok := syms[name]; ok {
			t.Errorf("%s is not Python API", name)
		}
	}
	for name, want := range map[string]struct {
		kind       docidx.SymbolKind
		sig, doc   string
		file       string
		line       int
		paramTypes map[string]string
	}{
		"Canvas":         {docidx.KindClass, "class Canvas", "A canvas to draw on.", "shapes/canvas.pyx", 93, nil},
		"Circle":         {docidx.KindClass, "class Circle(Shape)", "A round shape.", "shapes/canvas.pyx", 106, nil},
		"draw":           {docidx.KindFunc, "def draw(Shape shape, char* target=NULL, int times=1)", "Draw shape on target.", "shapes/canvas.pyx", 110, map[string]string{"target": "char*", "times": "int"}},
		"Shape.area":     {docidx.KindMethod, "def area(self, bint exact=False)", "The area enclosed, in square units.", "shapes/canvas.pyx", 66, map[string]string{"exact": "bint"}},
		"Shape.move":     {docidx.KindMethod, "def move(self, Shape other not None, int dx=0, *, bint relative=True)", "Move the shape.", "shapes/canvas.pyx", 70, map[string]string{"dx": "int", "relative": "bint"}},
		"Shape.outline":  {docidx.KindProperty, "property outline", "The outline's colour.", "shapes/canvas.pyx", 74, nil},
		"Shape.fill":     {docidx.KindProperty, "property fill", "The fill colour.", "shapes/canvas.pyx", 81, nil},
		"Shape.width":    {docidx.KindField, "width: double", "", "shapes/canvas.pyx", 49, nil},
		"Palette":        {docidx.KindClass, "class Palette", "A set of colours.", "shapes/parts/colors.pxi", 3, nil},
		"Square.side":    {docidx.KindMethod, "def side(self)", "The length of a side.", "shapes/parts/square.pxi", 3, nil},
		"after_includes": {docidx.KindFunc, "def after_includes()", "Still scanned.", "shapes/canvas.pyx", 123, nil},
	} {
		s := syms[name]
		if s.Kind != want.kind || s.Signature != want.sig || s.Doc != want.doc || s.File != want.file || s.Line != want.line {
			t.Errorf("%s = %s %q %q %s:%d, want %s %q %q %s:%d", name, s.Kind, s.Signature, s.Doc, s.File, s.Line,
				want.kind, want.sig, want.doc, want.file, want.line)
		}
		for p, typ := range want.paramTypes {
			i := slices.IndexFunc(s.Params, func(x docidx.Param) bool { return x.Name == p })
			if i < 0 || s.Params[i].Type != typ {
				t.Errorf("%s: parameter %s missing or not of type %s: %+v", name, p, typ, s.Params)
			}
		}
	}
	init := syms["Shape"]
	if i := slices.IndexFunc(init.Params, func(p docidx.Param) bool { return p.Name == "name" }); i < 0 || init.Params[i].Type != "" {
		t.Errorf("Shape's parameter name (object name) should be untyped: %+v", init.Params)
	}

	wantProblems := []string{
		`shapes/parts/loop.pxi:1: include "colors.pxi": includes itself`,
		`shapes/canvas.pyx:120: include "parts/missing.pxi": `,
		`shapes/canvas.pyx:121: include "canvas.pyx": includes itself`,
	}
	if len(res.Problems) != len(wantProblems) {
		t.Fatalf("problems = %q, want %d", res.Problems, len(wantProblems))
	}
	for i, p := range res.Problems {
		if !strings.HasPrefix(p, wantProblems[i]) {
			t.Errorf("problem %d = %q, want it to start with %q", i, p, wantProblems[i])
		}
	}
}

// TestCythonIncludeBounds: an include outside the distribution is refused without a read, an
// indented include keeps its block's indentation, and a file without includes is scanned as it
// is.
func TestCythonIncludeBounds(t *testing.T) {
	var reads []string
	read := func(p string) ([]byte, error) {
		reads = append(reads, p)
		return []byte("def helper():\n    \"\"\"Help.\"\"\"\n"), nil
	}
	src := "include \"../../etc/passwd\"\ninclude \"/abs.pxi\"\ncdef class Box:\n    include \"body.pxi\"\n    def after(self):\n        \"\"\"After.\"\"\"\n"
	res := Scan([]byte(src), Options{Module: "pkg.box", File: "pkg/box.pyx", Cython: true, Include: read})
	if !slices.Equal(reads, []string{"pkg/body.pxi"}) {
		t.Errorf("reads = %q, want only pkg/body.pxi", reads)
	}
	if len(res.Problems) != 2 {
		t.Errorf("problems = %q, want the two includes outside the distribution", res.Problems)
	}
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.QualifiedName+" "+s.File)
	}
	want := []string{"pkg.box pkg/box.pyx", "pkg.box.Box pkg/box.pyx", "pkg.box.Box.helper pkg/body.pxi", "pkg.box.Box.after pkg/box.pyx"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols = %q, want %q", got, want)
	}
}

// FuzzScanCython scans arbitrary source as Cython, each include reading the source itself
// under the name it gives: the result stays within its limits, names are unique, lines are
// positive, and every symbol's file is the module or a file it included.
func FuzzScanCython(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "cython", "shapes", "canvas.pyx")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("include \"a.pxi\"\ncdef class A:\n    include \"b.pxi\"\n    cpdef int f(self, int x=0):\n        '''d'''\n"))
	f.Add([]byte("cdef public class B [object X, type Y]:\n  property p:\n    def __get__(self):\n      '''p'''\nIF X:\n  def g(): pass\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		reads := 0
		read := func(p string) ([]byte, error) {
			reads++
			return src, nil
		}
		res := Scan(src, Options{Module: "m", File: "pkg/m.pyx", MaxSymbols: 100, Cython: true, Include: read})
		if reads > MaxIncludes {
			t.Fatalf("%d includes read", reads)
		}
		checkScan(t, res, 100, "pkg/")
	})
}
