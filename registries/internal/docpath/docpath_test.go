package docpath

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestFirstComponentFold(t *testing.T) {
	testutil.Mapping(t, "FirstComponentFold", func(p string) bool { return FirstComponentFold(p, "docs", "examples") }, map[string]bool{
		"docs/a.md": true, "Docs/guide/b.md": true, "docs": true, "examples/x.js": true,
		"src/docs/a.md": false, "documentation/a.md": false, "": false,
	})
}

func TestRootFiles(t *testing.T) {
	for _, tc := range []struct {
		files           []string
		readme, license string
	}{
		{[]string{"README", "README.md", "LICENSE-MIT", "LICENSE.txt"}, "README.md", "LICENSE.txt"},
		{[]string{"readme.rst", "COPYING", "LICENSE_APACHE"}, "readme.rst", "COPYING"},
		{[]string{"README.adoc", "README.html", "UNLICENSE"}, "README.adoc", "UNLICENSE"},
		{[]string{"Readme.markdown", "README.txt", "licence"}, "Readme.markdown", "licence"},
		{[]string{"README.html", "READMEFIRST.md", "LICENSES/x", "NOTICE"}, "", ""},
		{[]string{"README.md/x", "README.txt"}, "README.txt", ""}, // a directory is no README
	} {
		fsys := fstest.MapFS{}
		for _, f := range tc.files {
			fsys[f] = &fstest.MapFile{}
		}
		root, err := fs.ReadDir(fsys, ".")
		if err != nil {
			t.Fatal(err)
		}
		if readme, license := RootFiles(root); readme != tc.readme || license != tc.license {
			t.Errorf("RootFiles(%q) = %q, %q; want %q, %q", tc.files, readme, license, tc.readme, tc.license)
		}
	}
}
