package npm

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/docidx/docidx/registries/internal/docpath"
	"github.com/docidx/docidx/registries/npm/internal/jsapi"
)

// jsAPI returns the API of a package from its JavaScript entry point (package.json "exports",
// "main", index.js) and its JSDoc: the last source packageAPI tries, for packages whose API no
// declaration file gave. A package without an entry point has none.
func jsAPI(fsys fs.FS, m *manifest, pkgName string, lim Limits) api {
	entries := jsapi.Entries(fsys, m.Exports, string(m.Main))
	if len(entries) == 0 {
		return api{}
	}
	res := jsapi.Extract(fsys, entries, jsapi.Options{
		Package:     pkgName,
		ExportName:  exportName(pkgName),
		Exports:     m.Exports,
		MaxSymbols:  lim.MaxSymbols,
		MaxFileSize: lim.MaxFile,
	})
	a := api{symbols: res.Symbols, problems: res.Problems}
	if res.Truncated {
		a.problems = append(a.problems, fmt.Sprintf("JavaScript API truncated at %d symbols / %d files", len(res.Symbols), len(res.Files)))
	}
	return a
}

// keepTarballScript says which tarball entries the JavaScript API extraction may read, beside
// those keepTarballFile keeps: .js, .cjs and .mjs files outside bundled node_modules, tests and
// minified bundles.
func keepTarballScript(p string) bool {
	switch path.Ext(p) {
	case ".js", ".cjs", ".mjs":
	default:
		return false
	}
	if strings.Contains("/"+p+"/", "/node_modules/") || strings.HasSuffix(p, ".min.js") {
		return false
	}
	return !docpath.FirstComponentFold(p, "test", "tests", "__tests__", "spec", "benchmark", "benchmarks", "coverage")
}
