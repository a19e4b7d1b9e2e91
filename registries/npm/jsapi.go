package npm

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/docidx/docidx/registries/npm/internal/jsapi"
)

// addJSAPI fills c.symbols from the package's JavaScript entry point (package.json "exports",
// "main", index.js) and its JSDoc, for packages whose API no declaration file gave.
func addJSAPI(c contents, fsys fs.FS, m *manifest, pkgName string, lim contentLimits) contents {
	entries := jsapi.Entries(fsys, m.Exports, string(m.Main))
	if len(entries) == 0 {
		return c
	}
	res := jsapi.Extract(fsys, entries, jsapi.Options{
		Package:     pkgName,
		ExportName:  exportName(pkgName),
		Exports:     m.Exports,
		MaxSymbols:  lim.maxSymbols,
		MaxFileSize: lim.maxFile,
	})
	c.symbols = append(c.symbols, res.Symbols...)
	c.problems = append(c.problems, res.Problems...)
	if res.Truncated {
		c.problems = append(c.problems, fmt.Sprintf("JavaScript API truncated at %d symbols / %d files", len(res.Symbols), len(res.Files)))
	}
	return c
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
	return !firstComponentFold(p, "test", "tests", "__tests__", "spec", "benchmark", "benchmarks", "coverage")
}
