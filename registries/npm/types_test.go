package npm

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestTypesPackageName(t *testing.T) {
	testutil.Mapping(t, "typesPackageName", typesPackageName, map[string]string{
		"ws": "@types/ws", "@vue/shared": "@types/vue__shared", "@types/node": "", "lodash.merge": "@types/lodash.merge",
	})
}

func TestTypesVersion(t *testing.T) {
	versions := []string{"1.0.2", "2.3.0", "2.3.5", "2.4.0", "2.5.0-beta.1", "3.0.0-rc.1"}
	testutil.Mapping(t, "typesVersion", func(v string) string { return typesVersion(versions, v) }, map[string]string{
		"2.3.1": "2.3.5", // same major.minor, the highest
		"2.5.0": "2.4.0", // no 2.5 release: the highest of the major (not the beta)
		"1.7.0": "1.0.2",
		"3.0.0": "3.0.0-rc.1", // only a prerelease matches
		"4.1.0": "",
		"x":     "",
	})
}

func TestSplitSpecifier(t *testing.T) {
	for in, want := range map[string]string{
		"x": "x|", "x/a/b": "x|a/b", "@s/x": "@s/x|", "@s/x/a/b": "@s/x|a/b", "@s": "|", "..": "|",
	} {
		name, sub := splitSpecifier(in)
		if got := name + "|" + sub; got != want {
			t.Errorf("splitSpecifier(%q) = %q, want %q", in, got, want)
		}
	}
}

// fromTypes reports whether any symbol was read from an @types package. (Tests say this rather
// than "no symbols": without declarations, a package's JavaScript may still give an API.)
func fromTypes(syms []docidx.Symbol) bool {
	for _, s := range syms {
		if strings.HasPrefix(s.File, "@types/") {
			return true
		}
	}
	return false
}

// checkUntypedAPI checks the API of untyped@2.3.1 taken from @types/untyped@2.3.5.
func checkUntypedAPI(t *testing.T, pd *docidx.PackageDocs) {
	t.Helper()
	syms := testutil.FirstByName(pd.Symbols)
	var send []string
	for _, s := range pd.Symbols {
		if s.QualifiedName == "untyped.Handle.send" {
			send = append(send, s.Signature)
		}
	}
	if s := syms["untyped"]; s.Kind != docidx.KindFunc || s.Package != "untyped" || s.File != "@types/untyped/index.d.ts" {
		t.Errorf("untyped = %+v", s)
	}
	if s := syms["untyped.Options.maxPayload"]; s.Kind != docidx.KindField || s.Parent != "untyped.Options" ||
		s.Signature != "maxPayload?: number | undefined" || !strings.Contains(s.Doc, "@default 1048576") {
		t.Errorf("untyped.Options.maxPayload = %+v", s)
	}
	if got := fmt.Sprint(send); got != "[send(data: string, cb?: (err?: Error) => void): void send(data: Uint8Array): void]" {
		t.Errorf("send overloads = %s", got)
	}
	if p := syms["untyped.Handle.send"].Params; len(p) != 2 || p[1].Name != "cb" || p[1].Type != "(err?: Error) => void" || p[1].Doc != "called once sent" {
		t.Errorf("send params = %+v", p)
	}
	for q := range syms {
		if strings.HasPrefix(q, "untyped.only") {
			t.Errorf("%s comes from another @types version", q)
		}
	}
}

func TestRegistryTypesFallback(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, "untyped", "2.3.1")
	checkUntypedAPI(t, pd)
	if len(pd.Documents) != 1 || pd.Package.Description != "A package without declaration files" {
		t.Errorf("the package's own documents and metadata: %+v", pd)
	}

	pd = testutil.Fetched(t, r, "@acme/plain", "0.1.4")
	if syms := testutil.FirstByName(pd.Symbols); syms["plain"].File != "@types/acme__plain/index.d.ts" || syms["plain"].Doc != "The plain value." {
		t.Errorf("@acme/plain symbols = %+v", pd.Symbols)
	}

	// No @types package, or one that fails: the package is still fetched, without API.
	pd = testutil.Fetched(t, r, "quiet", "1.0.0")
	if len(pd.Symbols) != 1 { // quiet ships main.d.ts
		t.Errorf("quiet: %d symbols", len(pd.Symbols))
	}
	r1, srv1 := newTestRegistry(t, nil)
	srv1.TamperIntegrity("@types/untyped", "2.3.5")
	pd = testutil.Fetched(t, r1, "untyped", "2.3.1")
	if fromTypes(pd.Symbols) {
		t.Errorf("@types tarball failing its integrity: %d symbols; want the package without @types API", len(pd.Symbols))
	}
	r2, srv2 := newTestRegistry(t, nil)
	srv2.Inject(registrytest.Fault{Path: "/@types%2funtyped", Status: http.StatusInternalServerError})
	pd = testutil.Fetched(t, r2, "untyped", "2.3.1")
	if fromTypes(pd.Symbols) || len(pd.Documents) != 1 {
		t.Errorf("@types packument failing: %d symbols, %d documents", len(pd.Symbols), len(pd.Documents))
	}
	// untyped 1.0.0 takes @types/untyped 1.0.2, the only 1.x.
	pd = testutil.Fetched(t, r, "untyped", "1.0.0")
	if syms := testutil.FirstByName(pd.Symbols); syms["untyped.only1_0_2"].Doc != "Only in 1.0.2." {
		t.Errorf("untyped 1.0.0: %+v", pd.Symbols)
	}
}

// TestNodeModulesTypesFallback checks that a package without declarations takes the API of the
// @types package Node.js resolution finds from its directory: the nearest one first.
func TestNodeModulesTypesFallback(t *testing.T) {
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			nmDir := layout.write(t, t.TempDir(),
				npmtest.Installed{Name: "untyped", Version: "2.3.1", Files: fixture(t, "untyped", "2.3.1")},
				npmtest.Installed{Name: "@types/untyped", Version: "2.3.5", Files: fixture(t, "@types/untyped", "2.3.5")},
				npmtest.Installed{Name: "@acme/plain", Version: "0.1.4", Files: fixture(t, "@acme/plain", "0.1.4")},
				npmtest.Installed{Name: "@types/acme__plain", Version: "0.1.0", Files: fixture(t, "@types/acme__plain", "0.1.0")},
				npmtest.Installed{Name: "app", Version: "1.0.0", Nested: []npmtest.Installed{
					{Name: "untyped", Version: "1.0.0", Files: fixture(t, "untyped", "1.0.0")},
					{Name: "@types/untyped", Version: "1.0.2", Files: fixture(t, "@types/untyped", "1.0.2")},
				}},
				npmtest.Installed{Name: "quiet", Version: "1.0.0", Files: fixture(t, "quiet", "1.0.0")},
			)
			nm, err := NewNodeModules(nmDir, NodeModulesConfig{})
			if err != nil {
				t.Fatal(err)
			}
			pd := testutil.Fetched(t, nm, "untyped", "2.3.1")
			checkUntypedAPI(t, pd)
			pd = testutil.Fetched(t, nm, "@acme/plain", "0.1.4")
			if syms := testutil.FirstByName(pd.Symbols); syms["plain"].File != "@types/acme__plain/index.d.ts" {
				t.Errorf("@acme/plain: %+v", pd.Symbols)
			}
			// The @types package stays a package of its own, with its own name on its symbols.
			pd = testutil.Fetched(t, nm, "@types/untyped", "2.3.5")
			if syms := testutil.FirstByName(pd.Symbols); syms["untyped.Handle"].Package != "@types/untyped" || syms["untyped.Handle"].File != "index.d.ts" {
				t.Errorf("@types/untyped: %+v", syms["untyped.Handle"])
			}
			if layout.name == "hoisted" {
				// app/node_modules/untyped resolves app/node_modules/@types/untyped, not the top one.
				pd = testutil.Fetched(t, nm, "untyped", "1.0.0")
				if syms := testutil.FirstByName(pd.Symbols); syms["untyped.only1_0_2"].Kind != docidx.KindConst {
					t.Errorf("nested untyped: %+v", pd.Symbols)
				}
			}
			if pd := testutil.Fetched(t, nm, "app", "1.0.0"); fromTypes(pd.Symbols) {
				t.Errorf("app (no types anywhere): %+v", pd.Symbols)
			}
		})
	}
}

// TestNodeModulesReexports checks that `export * from "pkg"` is followed into another installed
// package, its own declarations or its @types package's, and that a re-export cycle stops.
func TestNodeModulesReexports(t *testing.T) {
	nmDir := npmtest.Hoisted(t, t.TempDir(),
		npmtest.Installed{Name: "meta", Version: "3.0.0", Files: map[string]string{
			"package.json": `{"types":"index.d.ts"}`,
			"index.d.ts":   "export * from '@demo/core';\nexport * as u from 'untyped';\nexport { x } from 'absent';\nexport declare const own: 1;\n",
		}},
		npmtest.Installed{Name: "@demo/core", Version: "3.0.0", Files: map[string]string{
			"package.json":   `{"types":"dist/core.d.ts"}`,
			"dist/core.d.ts": "/** Creates an app. */\nexport declare function createApp(): App;\nexport interface App { mount(el: string): void }\nexport * from 'meta';\n",
		}},
		npmtest.Installed{Name: "untyped", Version: "2.3.1", Files: fixture(t, "untyped", "2.3.1")},
		npmtest.Installed{Name: "@types/untyped", Version: "2.3.5", Files: fixture(t, "@types/untyped", "2.3.5")},
	)
	pd := fetchInstalled(t, nmDir, "meta", "3.0.0")
	syms := testutil.FirstByName(pd.Symbols)
	if s := syms["createApp"]; s.Package != "@demo/core" || s.File != "@demo/core/dist/core.d.ts" || s.Doc != "Creates an app." {
		t.Errorf("createApp = %+v", s)
	}
	if s := syms["App.mount"]; s.Kind != docidx.KindMethod {
		t.Errorf("App.mount = %+v", s)
	}
	if _, ok := syms["u.untyped.Handle.send"]; !ok {
		t.Errorf("export * as u from an untyped package with @types: %v", pd.Symbols)
	}
	if s := syms["own"]; s.File != "index.d.ts" || s.Package != "meta" {
		t.Errorf("own = %+v", s)
	}
	if len(pd.Symbols) > 20 {
		t.Errorf("%d symbols: the cycle meta -> @demo/core -> meta was followed again", len(pd.Symbols))
	}
}

// TestNodeModulesInherited checks that interfaces of an @types package that extend interfaces
// of another installed @types package (express's `interface Application extends
// core.Application {}`) get the base's members, with the base's file, line and doc.
func TestNodeModulesInherited(t *testing.T) {
	nmDir := npmtest.Hoisted(t, t.TempDir(),
		npmtest.Installed{Name: "web", Version: "1.0.0", Files: map[string]string{"package.json": `{"main":"index.js"}`, "index.js": ""}},
		npmtest.Installed{Name: "@types/web", Version: "1.0.1", Files: map[string]string{
			"package.json": `{"types":"index.d.ts"}`,
			"index.d.ts": "import * as core from 'web-core';\ndeclare function e(): core.Express;\n" +
				"declare namespace e {\n  interface Application extends core.Application {}\n  interface Response extends core.Response { own(): void }\n}\nexport = e;\n",
		}},
		npmtest.Installed{Name: "@types/web-core", Version: "1.0.2", Files: map[string]string{
			"package.json": `{"types":"index.d.ts"}`,
			"index.d.ts": "export interface Express extends Application {}\nexport interface Application extends Router {\n" +
				"  /** Starts listening. */\n  listen(port: number): void;\n}\nexport interface Router { get(path: string): this }\n" +
				"export interface Response {\n  /** Sends JSON. */\n  json(body: unknown): this;\n  own(): number;\n}\n",
		}},
	)
	pd := fetchInstalled(t, nmDir, "web", "1.0.0")
	syms := testutil.FirstByName(pd.Symbols)
	for _, tc := range []struct {
		qname, parent, file, doc string
		line                     int
	}{
		{"web.Application.listen", "web.Application", "@types/web-core/index.d.ts", "Starts listening.", 4},
		{"web.Application.get", "web.Application", "@types/web-core/index.d.ts", "", 6},
		{"web.Response.json", "web.Response", "@types/web-core/index.d.ts", "Sends JSON.", 9},
		{"web.Response.own", "web.Response", "@types/web/index.d.ts", "", 5},
	} {
		s, ok := syms[tc.qname]
		if !ok || s.Parent != tc.parent || s.File != tc.file || s.Doc != tc.doc || s.Line != tc.line || s.Package != "web" {
			t.Errorf("%s = %+v (found %v); want parent %s, %s:%d, doc %q", tc.qname, s, ok, tc.parent, tc.file, tc.line, tc.doc)
		}
	}
}

// TestTypesFromScopedRegistry checks that an @types:registry line of .npmrc sends the @types
// requests to that registry.
func TestTypesFromScopedRegistry(t *testing.T) {
	main := npmtest.NewServer(t, filepath.Join("testdata", "registry"))
	types := npmtest.NewServer(t, filepath.Join("testdata", "registry"))
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, ".npmrc"), fmt.Sprintf("registry=%s\n@types:registry=%s\n", main.URL, types.URL))
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: dir, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	r := registryOver(t, cfg, &fetch.Client{HTTP: main.Client(), Retries: -1}, nil)
	pd := testutil.Fetched(t, r, "untyped", "2.3.1")
	checkUntypedAPI(t, pd)
	for _, req := range main.Requests() {
		if strings.Contains(req.Path, "@types") {
			t.Errorf("@types request sent to the default registry: %s", req.Path)
		}
	}
	if len(types.Requests()) != 2 { // packument and tarball
		t.Errorf("@types registry requests: %+v", types.Requests())
	}
}

// TestEngines: package.json's engines are the package's requirements, sorted by name, from the
// object npm documents or the array of "name range" strings old packages wrote; a range of "*"
// or of another type says nothing.
func TestEngines(t *testing.T) {
	for _, tc := range []struct {
		engines string
		want    []docidx.Requirement
	}{
		{`{"node": ">= 18", "npm": ">=8"}`, []docidx.Requirement{{Name: "node", Range: ">= 18"}, {Name: "npm", Range: ">=8"}}},
		{`{"node": "*", "vscode": "^1.80.0", "bun": 1}`, []docidx.Requirement{{Name: "vscode", Range: "^1.80.0"}}},
		{`["node >= 0.4.0"]`, []docidx.Requirement{{Name: "node", Range: ">= 0.4.0"}}},
		{`"node"`, nil},
	} {
		m, err := parseManifest([]byte(`{"name": "x", "version": "1.0.0", "engines": ` + tc.engines + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.engines(); !slices.Equal(got, tc.want) {
			t.Errorf("engines %s: %v, want %v", tc.engines, got, tc.want)
		}
	}
}
