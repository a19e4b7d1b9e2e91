package jsapi

import (
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzExtract runs the scanner and extractor over arbitrary JavaScript: they must not panic or
// hang, tokens must cover the input in order, and every symbol must be complete.
func FuzzExtract(f *testing.F) {
	for _, name := range []string{"cjs-function", "cjs-object", "express-like", "esm", "umd", "typescript-cjs", "cycles", "lexing"} {
		ar, err := txtar.ParseFile(filepath.Join("testdata", "fixtures", name+".txtar"))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if filepath.Ext(file.Name) != ".json" {
				f.Add(file.Data)
			}
		}
	}
	for _, s := range []string{"`${`${", "/[/", "a = /", "x = {", "module.exports = ", "exports.a = exports.a", "(function(){", "`\\", "/**/", "/**", "class { static {", "export {", "import {"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		toks, _ := tokenize(src, len(src)+1)
		if len(toks) == 0 || toks[len(toks)-1].kind != tEOF {
			t.Fatal("no tEOF token")
		}
		end := 0
		for _, tk := range toks {
			if tk.start < end || tk.end < tk.start || tk.end > len(src) {
				t.Fatalf("token %q at %d-%d overlaps or leaves the input (previous end %d)", tk.text, tk.start, tk.end, end)
			}
			end = tk.end
		}
		fsys := fstest.MapFS{
			"index.js": {Data: src},
			"a.js":     {Data: []byte("module.exports = require('./index')\nexports.b = require('./a')")},
		}
		res := Extract(fsys, []string{"index.js"}, Options{Package: "p", ExportName: "p", MaxSymbols: 500})
		for _, s := range res.Symbols {
			if s.Name == "" || s.QualifiedName == "" || s.File == "" {
				t.Fatalf("incomplete symbol %+v", s)
			}
		}
	})
}
