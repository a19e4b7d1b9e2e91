package jsapi

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestHostileInput runs the extractor over inputs built to make a naive scanner quadratic or
// recursive: deep nesting, long assignment chains and member paths. Each must finish; a
// quadratic scan of these would take minutes and trip the test's timeout.
func TestHostileInput(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"chain", strings.Repeat("a=", 100000) + "1"},
		{"parens", strings.Repeat("(", 100000)},
		{"templates", strings.Repeat("`${", 100000)},
		{"member path", "x" + strings.Repeat(".y", 100000) + " = 1"},
		{"objects", "module.exports = " + strings.Repeat("{a:", 100000)},
		{"declarators", strings.Repeat("var a = b, c = d\n", 20000)},
		{"exports", strings.Repeat("exports.a = exports.b = exports.c\n", 20000)},
		{"functions", strings.Repeat("function f(a=b=c=d){ return f }\n", 20000) + "module.exports = f()"},
		{"regex", strings.Repeat("/a/ / ", 100000)},
		{"dotted chain", strings.Repeat("a.b = c.d = ", 50000) + "1"},
		{"classes", "module.exports = " + strings.Repeat("class { static x = class { ", 5000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res := Extract(fstest.MapFS{"index.js": {Data: []byte(tc.src)}}, []string{"index.js"}, Options{Package: "p", ExportName: "p"})
			t.Logf("%d bytes: %d symbols in %v", len(tc.src), len(res.Symbols), time.Since(start))
		})
	}
}

// TestTokenBound: the files one extraction scans hold at most maxTokens tokens in all; a file
// that would pass the bound is not read, nor any after it, and says why, while the files before
// it still count.
func TestTokenBound(t *testing.T) {
	dense := func(s string) string { return strings.Repeat(s, maxTokens*6/10/2) } // 60% of the bound
	fsys := fstest.MapFS{
		"index.js": {Data: []byte("export const first = 1;\nexport * from \"./b.js\";\nexport * from \"./c.js\";\n" + dense("x;"))},
		"b.js":     {Data: []byte("export const second = 2;\n" + dense("y;"))},
		"c.js":     {Data: []byte("export const third = 3;\n")},
	}
	res := Extract(fsys, []string{"index.js"}, Options{Package: "p", ExportName: "p"})
	// b and c are not read, each with a problem naming the bound.
	testutil.CutShort(t, res.Result, "first", ErrTooManyTokens, 2)
}
