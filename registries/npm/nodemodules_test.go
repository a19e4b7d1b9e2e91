package npm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// fixture returns the files of testdata/registry/<name>/<version>.
func fixture(t *testing.T, name, version string) map[string]string {
	t.Helper()
	return testutil.Must(t, registrytest.ReadTree, filepath.Join("testdata", "registry", filepath.FromSlash(name), version))
}

// listTree opens the node_modules tree (or project directory) dir with cfg and lists its
// packages, failing the test or benchmark on either error.
func listTree(tb testing.TB, dir string, cfg NodeModulesConfig) (*NodeModules, []docidx.Ref) {
	tb.Helper()
	nm, err := NewNodeModules(dir, cfg)
	return nm, testutil.Listed(tb, nm, err)
}

// fetchInstalled opens the node_modules tree nmDir with the zero configuration and fetches
// name@version from it, failing the test on either error.
func fetchInstalled(t *testing.T, nmDir, name, version string) *docidx.PackageDocs {
	t.Helper()
	nm, err := NewNodeModules(nmDir, NodeModulesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return testutil.Fetched(t, nm, name, version)
}

// layouts are the two shapes of node_modules the tests install packages in: npm's hoisted tree
// and pnpm's store of links.
var layouts = []struct {
	name  string
	write func(testing.TB, string, ...npmtest.Installed) string
}{{"hoisted", npmtest.Hoisted}, {"pnpm", npmtest.PNPM}}

// installedTree is the package set both layouts are tested with: widget 1.1.0 at the top, an
// app that needs widget 1.0.0 (nested), and a scoped package.
func installedTree(t *testing.T) []npmtest.Installed {
	return []npmtest.Installed{
		{Name: "widget", Version: "1.1.0", Files: fixture(t, "widget", "1.1.0")},
		{Name: "app", Version: "0.0.1", Files: map[string]string{"README.md": "# app\n"}, Nested: []npmtest.Installed{
			{Name: "widget", Version: "1.0.0", Files: fixture(t, "widget", "1.0.0"), Nested: []npmtest.Installed{
				{Name: "deep", Version: "3.0.0"},
			}},
		}},
		{Name: "@acme/tools", Version: "0.1.0", Files: fixture(t, "@acme/tools", "0.1.0")},
		{Name: "quiet", Version: "1.0.0", Files: fixture(t, "quiet", "1.0.0")},
	}
}

var wantRefs = "@acme/tools@0.1.0 app@0.0.1 deep@3.0.0 quiet@1.0.0 widget@1.0.0 widget@1.1.0"

func refsString(refs []docidx.Ref) string {
	parts := testutil.RefNames(refs)
	for _, r := range refs {
		if r.Ecosystem != docidx.NPM {
			parts = append(parts, "bad ecosystem "+string(r.Ecosystem))
		}
	}
	return strings.Join(parts, " ")
}

func TestNodeModulesLayouts(t *testing.T) {
	ctx := context.Background()
	for _, layout := range layouts {
		t.Run(layout.name, func(t *testing.T) {
			root := t.TempDir()
			nmDir := layout.write(t, root, installedTree(t)...)
			// Junk a real tree has: a package without version, a stray file, a broken symlink.
			testutil.WriteFile(t, filepath.Join(nmDir, "noversion", "package.json"), `{"name":"noversion"}`)
			testutil.WriteFile(t, filepath.Join(nmDir, "stray.txt"), "x")
			if err := os.Symlink("missing-target", filepath.Join(nmDir, "broken")); err != nil {
				t.Fatal(err)
			}

			for _, dir := range []string{nmDir, root} { // a project directory works too
				_, refs := listTree(t, dir, NodeModulesConfig{})
				if got := refsString(refs); got != wantRefs {
					t.Errorf("List(%s) = %s\nwant %s", dir, got, wantRefs)
				}
			}

			nm, _ := NewNodeModules(nmDir, NodeModulesConfig{Now: func() time.Time { return testNow }})
			testutil.CheckResolve(t, nm, []testutil.Resolution{
				{"widget", "", "1.1.0", nil},
				{"widget", "latest", "1.1.0", nil},
				{"widget", "1.0.0", "1.0.0", nil},
				{"widget", "^1.0.0", "1.1.0", nil},
				{"widget", "~1.0", "1.0.0", nil},
				{"widget", "1.2.0", "", docidx.ErrNotFound},
				{"widget", "^2", "", docidx.ErrNotFound},
				{"widget", "next", "", docidx.ErrNotFound},
				{"absent", "", "", docidx.ErrNotFound},
			})

			pd := testutil.Fetched(t, nm, "widget", "1.1.0")
			p := pd.Package
			if p.Description != "Widgets for docidx tests" || p.License != "MIT" || p.Repository != "https://github.com/example/widget" ||
				fmt.Sprint(p.Versions) != "[1.0.0 1.1.0]" || !p.CrawledAt.Equal(testNow) || !strings.HasPrefix(p.Source, "/") {
				t.Errorf("Package = %+v", p)
			}
			if real, _ := filepath.EvalSymlinks(p.Source); real != p.Source {
				t.Errorf("Source %s is not a real path", p.Source)
			}
			// The top-level copy is the one the project resolves; a nested one, and the only
			// version of a package, are not marked.
			if !p.Root || testutil.Fetched(t, nm, "widget", "1.0.0").Package.Root || testutil.Fetched(t, nm, "quiet", "1.0.0").Package.Root {
				t.Errorf("Root: widget 1.1.0 %v, widget 1.0.0 and quiet 1.0.0 marked too", p.Root)
			}
			if len(pd.Documents) != 6 || len(pd.Symbols) != 19 {
				t.Errorf("%d documents, %d symbols; want 6 and 19 as from the registry", len(pd.Documents), len(pd.Symbols))
			}
			for _, s := range pd.Symbols {
				if s.QualifiedName == "bundled" {
					t.Error("a bundled node_modules declaration leaked in")
				}
			}

			if pd := testutil.Fetched(t, nm, "@acme/tools", "0.1.0"); len(pd.Symbols) != 2 {
				t.Errorf("@acme/tools: %+v", pd)
			}
			pd, err := nm.Fetch(ctx, "widget", "9.9.9")
			testutil.Result(t, "Fetch(widget, 9.9.9)", pd, err, nil, docidx.ErrNotFound)
		})
	}
}

func TestNodeModulesSymlinkCycleAndDepth(t *testing.T) {
	root := t.TempDir()
	nmDir := npmtest.Hoisted(t, root, npmtest.Installed{Name: "a", Version: "1.0.0"})
	// a/node_modules/self -> a: a cycle through a symlink.
	if err := os.MkdirAll(filepath.Join(nmDir, "a", "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(nmDir, "a", "node_modules", "self")); err != nil {
		t.Fatal(err)
	}
	// A chain deeper than MaxNesting.
	dir := nmDir
	for i := range 5 {
		dir = filepath.Join(dir, fmt.Sprintf("d%d", i))
		testutil.WriteFile(t, filepath.Join(dir, "package.json"), fmt.Sprintf(`{"name":"d%d","version":"1.0.0"}`, i))
		dir = filepath.Join(dir, "node_modules")
	}
	_, refs := listTree(t, nmDir, NodeModulesConfig{MaxNesting: 2})
	if got := refsString(refs); got != "a@1.0.0 d0@1.0.0 d1@1.0.0 d2@1.0.0" {
		t.Errorf("List = %s", got)
	}
}

func TestNewNodeModulesErrors(t *testing.T) {
	if _, err := NewNodeModules(filepath.Join(t.TempDir(), "missing"), NodeModulesConfig{}); err == nil {
		t.Error("missing directory accepted")
	}
	f := filepath.Join(t.TempDir(), "file")
	testutil.WriteFile(t, f, "x")
	if _, err := NewNodeModules(f, NodeModulesConfig{}); err == nil {
		t.Error("a file accepted")
	}
}

func TestPnpmStoreName(t *testing.T) {
	testutil.Mapping(t, "pnpmStoreName", pnpmStoreName, map[string]string{
		"lodash@4.17.21":                "lodash",
		"@babel+core@7.24.0":            "@babel/core",
		"react-dom@18.2.0_react@18.2.0": "react-dom",
		"@types+node@20.1.0(peer@1)":    "@types/node",
		"noversion":                     "",
		"@scope+x":                      "",
	})
}

func TestNodeModulesReadmeFromPackageJSON(t *testing.T) {
	root := t.TempDir()
	nmDir := npmtest.Hoisted(t, root, npmtest.Installed{Name: "old", Version: "1.0.0", Files: map[string]string{
		"package.json": `{"readme": "# old\n\n## Usage\n\nStored by npm 6.\n", "readmeFilename": "README.md"}`,
	}})
	pd := fetchInstalled(t, nmDir, "old", "1.0.0")
	if len(pd.Documents) != 1 || !strings.Contains(testutil.Text(pd.Documents[0]), "Stored by npm 6") {
		t.Errorf("documents = %+v", pd.Documents)
	}
}
