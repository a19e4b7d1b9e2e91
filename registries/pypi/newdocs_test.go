package pypi

import (
	"maps"
	"slices"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestNewDocsAttached: the docstrings a private module gives with add_newdoc reach the symbols
// of an extension module's stub (re-exported by the package), a class the enclosing package's
// stub declares, and its members; a symbol with a doc of its own keeps it.
func TestNewDocsAttached(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.pyi": "from pkg._core.multiarray import array as array, kept as kept\n" +
			"class ndarray:\n    @property\n    def T(self) -> ndarray: ...\n    def copy(self) -> ndarray: ...\n",
		"pkg/_core/__init__.py":      "",
		"pkg/_core/multiarray.pyi":   "def array(object: Any) -> ndarray: ...\ndef kept() -> None:\n    \"\"\"Its own doc.\"\"\"\n",
		"pkg/_core/_add_newdocs.pyi": "",
		"pkg/_core/_add_newdocs.py": "from pkg._core.function_base import add_newdoc\n" +
			"add_newdoc('pkg._core.multiarray', 'array', \"\"\"\n    array(object)\n    --\n\n    Create an array.\n\n    :param object: what to copy.\n    \"\"\")\n" +
			"add_newdoc('pkg._core.multiarray', 'kept', 'Another doc.')\n" +
			"add_newdoc('pkg._core', 'ndarray', 'An array object.')\n" +
			"add_newdoc('pkg._core', 'ndarray', [('T', 'The transposed array.'), ('copy', 'Return a copy.')])\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	paths := slices.Collect(maps.Keys(srcs))
	files, _ := chooseModules(paths, "")
	syms := testutil.ByName(extractAPI(files, read, Limits{}.withDefaults(), nil).symbols)
	testutil.Docs(t, syms, map[string]string{
		"pkg.array":        "Create an array.\n\n:param object: what to copy.",
		"pkg.kept":         "Its own doc.",
		"pkg.ndarray":      "An array object.",
		"pkg.ndarray.T":    "The transposed array.",
		"pkg.ndarray.copy": "Return a copy.",
	})
	if p := syms["pkg.array"].Params; len(p) != 1 || p[0].Name != "object" || p[0].Doc != "what to copy." {
		t.Errorf("pkg.array params %+v, want object's from the doc", p)
	}
}
