package npm

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/npm/internal/jsapi"
)

// TestCorpusJSAPI measures the JavaScript API extraction on the real corpus tree: the share of
// packages with a JavaScript entry point and no declaration files that get at least one symbol,
// and the API of well-known packages that ship no types.
func TestCorpusJSAPI(t *testing.T) {
	dir := corpusNodeModules(t)
	nm, refs := listTree(t, dir, NodeModulesConfig{})
	withEntry, withAPI, jsOnly, jsOnlyAPI := 0, 0, 0, 0
	var empty []string
	counts := map[string]int{}
	testutil.FetchEvery(t, nm, refs, func(r docidx.Ref, pd *docidx.PackageDocs) {
		counts[r.Name] = len(pd.Symbols)
		pdir := pd.Package.Source
		m, err := readManifestFile(filepath.Join(pdir, "package.json"))
		if err != nil {
			return
		}
		fsys := os.DirFS(pdir)
		if len(jsapi.Entries(fsys, m.Exports, string(m.Main))) == 0 {
			return
		}
		withEntry++
		if len(pd.Symbols) > 0 {
			withAPI++
		}
		if len(typesEntries(fsys, m)) == 0 {
			jsOnly++
			if len(pd.Symbols) > 0 {
				jsOnlyAPI++
			} else {
				empty = append(empty, r.Name)
			}
		}
	})
	sort.Strings(empty)
	t.Logf("%d packages; %d with a JavaScript entry point, %d of them with API symbols (%.1f%%)",
		len(refs), withEntry, withAPI, 100*float64(withAPI)/float64(max(withEntry, 1)))
	t.Logf("without declaration files: %d, %d with API symbols (%.1f%%); empty: %v",
		jsOnly, jsOnlyAPI, 100*float64(jsOnlyAPI)/float64(max(jsOnly, 1)), empty)
	for _, name := range []string{"express", "lodash", "react", "ws", "jsonwebtoken", "pg", "koa", "yargs", "semver", "uuid", "cors"} {
		t.Logf("%-14s %d symbols", name, counts[name])
		if c, ok := counts[name]; ok && c == 0 {
			t.Errorf("%s: no API symbols", name)
		}
	}
}
