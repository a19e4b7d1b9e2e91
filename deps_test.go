package docidx_test

// This test states docidx's import policy (docs/ARCHITECTURE.md §1), the way the standard library's
// go/build/deps_test.go does: each package may depend only on what its rule allows, so that
// serving can never reach a registry and the root package stays dependency-free.

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/docidx/docidx"

// rules maps a package pattern to module packages it must never depend on, directly or not.
var rules = []struct {
	pkg       string
	forbidden []string // module-relative prefixes, standard packages ("net/http"), or other modules with all their packages
	stdOnly   bool     // nothing outside the standard library
	noDirect  []string // standard packages it must not import itself (fmt imports os, so only direct use is checked)
}{
	{pkg: ".", stdOnly: true},
	{pkg: "./internal/redact", stdOnly: true}, // every package may import it
	{pkg: "./serve/...", forbidden: []string{"registries", "crawl", "readme", "web", "github.com/yuin/goldmark"}},
	// The answer layer: docidx and index, no transport — no MCP SDK, no HTML, no registry.
	{pkg: "./answer/...", forbidden: []string{"registries", "crawl", "readme", "serve", "web", "github.com/modelcontextprotocol/go-sdk"}},
	{pkg: "./web/...", forbidden: []string{"registries", "crawl", "readme", "serve"}}, // docidx, index, answer, goldmark
	// chroma's styles and lexers packages parse the XML of their seventy styles and three hundred
	// lexers when a program starts, 4 and 5 ms of every start of serve --stdio: the pages take
	// their colours from static/chroma.css and their lexers from web/lexers.zip, which
	// web/internal/gencss and genlexers (not part of docidx) write from them.
	{pkg: "./cmd/docidx", forbidden: []string{"github.com/alecthomas/chroma/v2/styles", "github.com/alecthomas/chroma/v2/lexers"}},
	// Bleve imports expvar, which imports net/http, so index may only not import it itself.
	{pkg: "./index/...", forbidden: []string{"registries", "crawl", "readme", "serve"}, noDirect: []string{"net/http"}},
	{pkg: "./readme/...", forbidden: []string{"registries", "crawl", "index", "serve", "net/http"}, noDirect: []string{"os"}},
	{pkg: "./crawl/...", forbidden: []string{"registries", "index", "serve"}},
	{pkg: "./registries/...", forbidden: []string{"crawl", "index", "serve"}},
	// Package URLs: the purl project's library, the root package and the standard library.
	{pkg: "./internal/purl", forbidden: []string{"registries", "crawl", "index", "serve", "web", "readme", "internal/budget", "net/http"}},
	// The fake-registry kit sits under every registry's tests, so it imports none of them.
	{pkg: "./registries/registrytest", forbidden: []string{"registries/gomod", "registries/npm", "registries/pypi", "registries/cargo", "registries/swift"}},
	// Signatures: x/crypto/ssh and the standard library, nothing of docidx, no network client.
	// The schemas of the JSON documents: from the Go types, with the SDK's schema library only.
	{pkg: "./internal/docschema", forbidden: []string{"registries", "crawl", "readme", "index", "answer", "serve", "web", "cmd", "github.com/modelcontextprotocol/go-sdk"}},
	{pkg: "./internal/sshsig/...", forbidden: []string{"registries", "crawl", "index", "serve", "web", "readme", "net/http"}},
}

func TestImportRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not found")
	}
	for _, r := range rules {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", r.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", r.pkg, err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			path, std, _ := strings.Cut(line, " ")
			if r.stdOnly {
				if std != "true" && path != module+strings.TrimPrefix(r.pkg, ".") {
					t.Errorf("%s imports %s; it may use the standard library only", r.pkg, path)
				}
				continue
			}
			for _, f := range r.forbidden {
				bad := path == f
				switch first, _, _ := strings.Cut(f, "/"); {
				case !strings.Contains(f, "/"): // a directory of this module
					bad = bad || path == module+"/"+f || strings.HasPrefix(path, module+"/"+f+"/")
				case strings.Contains(first, "."): // another module: all its packages
					bad = bad || strings.HasPrefix(path, f+"/")
				}
				if bad {
					t.Errorf("%s depends on %s, which docs/ARCHITECTURE.md §1 forbids", r.pkg, path)
				}
			}
		}
		if len(r.noDirect) == 0 {
			continue
		}
		out, err = exec.Command("go", "list", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", r.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", r.pkg, err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			pkg, imports, _ := strings.Cut(line, ": ")
			for _, imp := range strings.Fields(imports) {
				for _, f := range r.noDirect {
					if imp == f {
						t.Errorf("%s imports %s, which docs/ARCHITECTURE.md §1 forbids", pkg, imp)
					}
				}
			}
		}
	}
}
