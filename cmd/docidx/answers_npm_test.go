package main

// The npm API coverage report (issue 14): of the corpus's npm packages that ship a JavaScript
// entry point, the share that have at least one API symbol in the snapshot. `make answers`
// prints it (TestNPMCoverage), `make bench` reports it (BenchmarkNPMCoverage); both skip without
// a corpus.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// npmInstalled is one package version of the corpus's node_modules tree with a JavaScript entry
// point.
type npmInstalled struct {
	Name, Version string
	Entry         string // the entry file, relative to the package directory
}

// npmPackageJSON is what npmEntry reads of a package.json.
type npmPackageJSON struct {
	Name    string          `json:"name"`
	Version string          `json:"version"`
	Main    string          `json:"main"`
	Exports json.RawMessage `json:"exports"`
}

// maxNodeModulesDepth bounds the walk through nested node_modules directories.
const maxNodeModulesDepth = 16

// npmWithEntries walks the node_modules tree at dir, nested and scoped packages included, and
// returns each package version (once, sorted by name and version) whose package.json `exports` or
// `main` resolves to a .js, .cjs or .mjs file, or that has an index.js.
func npmWithEntries(dir string) ([]npmInstalled, error) {
	seen := map[string]bool{}
	var out []npmInstalled
	var walk func(nm string, depth int) error
	walk = func(nm string, depth int) error {
		if depth > maxNodeModulesDepth {
			return fmt.Errorf("%s: node_modules nested deeper than %d", nm, maxNodeModulesDepth)
		}
		entries, err := os.ReadDir(nm)
		if err != nil {
			return err
		}
		var pkgDirs []string
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || !isDir(filepath.Join(nm, name)) {
				continue
			}
			if strings.HasPrefix(name, "@") {
				scoped, err := os.ReadDir(filepath.Join(nm, name))
				if err != nil {
					return err
				}
				for _, s := range scoped {
					if isDir(filepath.Join(nm, name, s.Name())) {
						pkgDirs = append(pkgDirs, filepath.Join(nm, name, s.Name()))
					}
				}
				continue
			}
			pkgDirs = append(pkgDirs, filepath.Join(nm, name))
		}
		for _, pd := range pkgDirs {
			if p, ok := npmEntry(pd); ok && !seen[p.Name+"@"+p.Version] {
				seen[p.Name+"@"+p.Version] = true
				out = append(out, p)
			}
			if nested := filepath.Join(pd, "node_modules"); isDir(nested) {
				if err := walk(nested, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(dir, 0); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b npmInstalled) int {
		return strings.Compare(a.Name+"@"+a.Version, b.Name+"@"+b.Version)
	})
	return out, nil
}

// npmEntry reads dir/package.json and returns the package with its JavaScript entry point, or
// false when it has none (a types-only package, a package without package.json).
func npmEntry(dir string) (npmInstalled, bool) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return npmInstalled{}, false
	}
	var pj npmPackageJSON
	if json.Unmarshal(data, &pj) != nil || pj.Name == "" || pj.Version == "" {
		return npmInstalled{}, false
	}
	p := npmInstalled{Name: pj.Name, Version: pj.Version}
	var candidates []string
	var exports any
	if len(pj.Exports) > 0 && json.Unmarshal(pj.Exports, &exports) == nil {
		candidates = append(candidates, exportTargets(exports, true)...)
	}
	if pj.Main != "" {
		candidates = append(candidates, pj.Main, pj.Main+".js", pj.Main+"/index.js")
	}
	candidates = append(candidates, "index.js")
	for _, c := range candidates {
		rel := path.Clean(strings.TrimPrefix(c, "./"))
		if !isJS(rel) || strings.HasPrefix(rel, "..") || path.IsAbs(rel) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err == nil && fi.Mode().IsRegular() {
			p.Entry = rel
			return p, true
		}
	}
	return npmInstalled{}, false
}

// exportTargets returns the file targets of a package.json "exports" value for the package's
// main entry ("."): a string, an array of fallbacks, or an object of conditions (import,
// require, node, default, …) nested to any depth. At the top level, an object whose keys start
// with "." is a subpath map, of which only "." is followed
// (https://nodejs.org/api/packages.html#package-entry-points).
func exportTargets(v any, top bool) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, exportTargets(e, false)...)
		}
		return out
	case map[string]any:
		if top {
			if main, ok := v["."]; ok {
				return exportTargets(main, false)
			}
			for k := range v {
				if strings.HasPrefix(k, ".") {
					return nil // subpaths only, no main entry
				}
			}
		}
		keys := slices.Sorted(maps.Keys(v)) // a stable choice among conditions
		var out []string
		for _, k := range keys {
			if k != "types" {
				out = append(out, exportTargets(v[k], false)...)
			}
		}
		return out
	}
	return nil
}

func isJS(p string) bool {
	switch path.Ext(p) {
	case ".js", ".cjs", ".mjs":
		return true
	}
	return false
}

// npmCoverage is the report: the packages with a JavaScript entry point, and those of them with
// no API symbol in the snapshot (Missing holds whether the snapshot lacks the version itself).
type npmCoverage struct {
	Total       int
	WithSymbols int
	Without     []npmInstalled
	Missing     map[string]bool // name@version not in the snapshot at all
}

func (c npmCoverage) share() float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.WithSymbols) / float64(c.Total)
}

// measureNPMCoverage checks each package of pkgs in r: it has API symbols when the symbols of its
// version hold one of another kind than docidx.KindPackage.
func measureNPMCoverage(r *index.Reader, pkgs []npmInstalled) npmCoverage {
	c := npmCoverage{Total: len(pkgs), Missing: map[string]bool{}}
	for _, p := range pkgs {
		syms, err := r.Symbols(docidx.Ref{Ecosystem: docidx.NPM, Name: p.Name, Version: p.Version})
		if err != nil {
			if _, perr := r.Package(docidx.Ref{Ecosystem: docidx.NPM, Name: p.Name, Version: p.Version}); perr != nil {
				c.Missing[p.Name+"@"+p.Version] = true
			}
		}
		if slices.ContainsFunc(syms, func(s docidx.Symbol) bool { return s.Kind != docidx.KindPackage }) {
			c.WithSymbols++
		} else {
			c.Without = append(c.Without, p)
		}
	}
	return c
}

// npmCorpus walks the corpus's node_modules and opens the corpus snapshot, or skips tb without a
// corpus. The reader is closed when tb ends.
func npmCorpus(tb testing.TB) (*index.Reader, []npmInstalled) {
	tb.Helper()
	corpusCaches(tb) // skips without the corpus
	pkgs, err := npmWithEntries(filepath.Join(os.Getenv("DOCIDX_CORPUS"), "npmproject", "node_modules"))
	if err != nil {
		tb.Fatal(err)
	}
	r, err := index.Open(corpusSnapshot(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.Close() })
	return r, pkgs
}

// TestNPMCoverage prints the share of the corpus's npm packages with a JavaScript entry point
// that have API symbols, and (with -v) those without. `make answers` runs it; it skips without
// DOCIDX_ANSWERS=1 and a corpus.
func TestNPMCoverage(t *testing.T) {
	if os.Getenv("DOCIDX_ANSWERS") == "" {
		t.Skip("set DOCIDX_ANSWERS=1 (make answers) to measure npm API coverage over the corpus")
	}
	c := measureNPMCoverage(npmCorpus(t))
	for _, p := range c.Without {
		note := ""
		if c.Missing[p.Name+"@"+p.Version] {
			note = "  (version not in the snapshot)"
		}
		t.Logf("npm without API symbols: %s@%s (entry %s)%s", p.Name, p.Version, p.Entry, note)
	}
	t.Logf("npm API coverage: %d of %d packages with a JavaScript entry point have API symbols (%.3f); %d not in the snapshot",
		c.WithSymbols, c.Total, c.share(), len(c.Missing))
}

// BenchmarkNPMCoverage reports npm API coverage as metrics: npm-api-share (0 to 1) and
// npm-js-pkgs (the packages with a JavaScript entry point it is a share of).
func BenchmarkNPMCoverage(b *testing.B) {
	r, pkgs := npmCorpus(b)
	var c npmCoverage
	for b.Loop() {
		c = measureNPMCoverage(r, pkgs)
	}
	b.ReportMetric(c.share(), "npm-api-share")
	b.ReportMetric(float64(c.Total), "npm-js-pkgs")
}

func TestExportTargets(t *testing.T) {
	tests := []struct {
		name    string
		exports string
		want    []string
	}{
		{"string", `"./index.js"`, []string{"./index.js"}},
		{"subpath map", `{".": "./main.cjs", "./package.json": "./package.json"}`, []string{"./main.cjs"}},
		{"conditions", `{"types": "./index.d.ts", "require": "./a.cjs", "import": "./a.mjs"}`, []string{"./a.mjs", "./a.cjs"}},
		{"nested conditions", `{".": {"node": {"import": "./n.mjs"}, "default": "./d.js"}}`, []string{"./d.js", "./n.mjs"}},
		{"fallback array", `{".": ["./x.js", {"default": "./y.js"}]}`, []string{"./x.js", "./y.js"}},
		{"subpaths only", `{"./feature": "./f.js"}`, nil},
		{"not a target", `42`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tt.exports), &v); err != nil {
				t.Fatal(err)
			}
			if got := exportTargets(v, true); !slices.Equal(got, tt.want) {
				t.Errorf("exportTargets(%s) = %q, want %q", tt.exports, got, tt.want)
			}
		})
	}
}

func TestNPMEntry(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // entry, "" for none
	}{
		{"main", map[string]string{"package.json": `{"name":"a","version":"1.0.0","main":"lib/a"}`, "lib/a.js": ""}, "lib/a.js"},
		{"exports before main", map[string]string{"package.json": `{"name":"a","version":"1.0.0","main":"old.js","exports":{".":{"import":"./new.mjs"}}}`, "old.js": "", "new.mjs": ""}, "new.mjs"},
		{"index.js", map[string]string{"package.json": `{"name":"a","version":"1.0.0"}`, "index.js": ""}, "index.js"},
		{"types only", map[string]string{"package.json": `{"name":"@types/a","version":"1.0.0","types":"index.d.ts"}`, "index.d.ts": ""}, ""},
		{"missing target", map[string]string{"package.json": `{"name":"a","version":"1.0.0","main":"gone.js"}`}, ""},
		{"outside the package", map[string]string{"package.json": `{"name":"a","version":"1.0.0","main":"../x.js"}`}, ""},
		{"no version", map[string]string{"package.json": `{"name":"a"}`, "index.js": ""}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := npmEntry(dir)
			if ok != (tt.want != "") || got.Entry != tt.want {
				t.Errorf("npmEntry = %+v, %v; want entry %q", got, ok, tt.want)
			}
		})
	}
}
