package pypi

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/pypitest"
	"github.com/docidx/docidx/registries/registrytest"
)

// sphinxSdist is an sdist laid out as Sphinx projects are: conf.py naming .txt as a source
// suffix, an index of toctrees, pages in reStructuredText, markdown and .txt, an autodoc stub,
// build output and static files, a changelog, and examples.
var sphinxSdist = map[string]string{
	"src/sphinxy/__init__.py": "def greet(name):\n    \"\"\"Greet name.\"\"\"\n",
	"README.rst":              "Sphinxy\n=======\n\nGreets.\n",
	"docs/conf.py":            "project = 'sphinxy'\nsource_suffix = {\n    '.rst': 'restructuredtext',\n    '.txt': 'restructuredtext',\n}\n",
	"docs/Makefile":           "html:\n\tsphinx-build . _build\n",
	"docs/index.rst":          "Sphinxy\n=======\n\n.. toctree::\n   :maxdepth: 2\n\n   quickstart\n   api\n",
	"docs/quickstart.rst":     "Quickstart\n==========\n\nCall :func:`~sphinxy.greet` to greet.\n\n.. code-block:: python\n\n   sphinxy.greet(\"ada\")\n\nOptions\n-------\n\nThere are none.\n",
	"docs/api.rst":            "API\n===\n\n.. automodule:: sphinxy\n   :members:\n\n.. autofunction:: sphinxy.greet\n",
	"docs/topics/howto.md":    "# How to greet twice\n\nCall it twice.\n",
	"docs/topics/legacy.txt":  "Legacy greetings\n================\n\nOld style *greetings* still work.\n",
	"docs/requirements.txt":   "sphinx>=7\n",
	"docs/changelog.rst":      "Changelog\n=========\n\n1.0\n---\n\n- greet added.\n",
	"docs/change_log/v1.md":   "# Release 1.0\n\ngreet added.\n",
	"docs/_build/html/x.txt":  "Built\n=====\n\nbuild output\n",
	"docs/_static/custom.md":  "# Static\n\nnot a page\n",
	"docs/build/text/y.txt":   "Built\n=====\n\nbuild output\n",
	"examples/hello.py":       "import sphinxy\n\nsphinxy.greet(\"world\")\n",
	"examples/README.md":      "# Examples\n\nRun hello.py.\n",
	"tests/test_greet.rst":    "Tests\n=====\n\nnot docs\n",
}

func docPaths(pd *docidx.PackageDocs) []string {
	var ps []string
	for _, d := range pd.Documents {
		ps = append(ps, string(d.Kind)+":"+d.Path)
	}
	sort.Strings(ps)
	return ps
}

func fileRequests(srv *pypitest.Server) []string {
	var files []string
	for _, req := range srv.Requests() {
		if strings.HasPrefix(req.Path, "/files/") {
			files = append(files, strings.TrimPrefix(req.Path, "/files/"))
		}
	}
	return files
}

// fetchNewRelease publishes name@version on the fake index (pypitest.Server.AddRelease's
// arguments), fetches it through a new Registry and returns what Fetch read and the fake; a
// failed Fetch is fatal.
func fetchNewRelease(t *testing.T, name, version, metadata string, wheelFiles, sdistFiles map[string]string) (*docidx.PackageDocs, *pypitest.Server) {
	t.Helper()
	r, srv := newTestRegistry(t, nil)
	srv.AddRelease(name, version, metadata, wheelFiles, sdistFiles)
	return testutil.Fetched(t, r, name, version), srv
}

func TestFetchWheelReadsSdistDocs(t *testing.T) {
	pd, srv := fetchNewRelease(t, "sphinxy", "1.0", "Summary: greets\nDescription-Content-Type: text/x-rst\n\nSphinxy\n=======\n\nGreets.\n",
		map[string]string{"sphinxy/__init__.py": "def greet(name):\n    \"\"\"Greet name.\"\"\"\n"}, sphinxSdist)
	want := []string{
		"doc:docs/quickstart.rst", "doc:docs/topics/howto.md", "doc:docs/topics/legacy.txt",
		"example:examples/README.md", "example:examples/hello.py", "readme:README.rst",
	}
	if got := docPaths(pd); !slices.Equal(got, want) {
		t.Errorf("documents = %v\nwant %v (no toctree-only index, autodoc stub, changelog, requirements, build output or static files)", got, want)
	}
	if got := fileRequests(srv); !slices.Equal(got, []string{"sphinxy-1.0-py3-none-any.whl", "sphinxy-1.0.tar.gz"}) {
		t.Errorf("downloads = %v, want the wheel, then the sdist", got)
	}
	docs := testutil.Documents(t, pd, nil)
	qs := docs["docs/quickstart.rst"]
	if qs.Title != "Quickstart" || len(qs.Sections) != 2 || !strings.Contains(qs.Sections[0].Text, "Call `greet` to greet") ||
		qs.Sections[0].Code[0].Lang != "python" || !slices.Equal(qs.Sections[1].Heading, []string{"Quickstart", "Options"}) {
		t.Errorf("docs/quickstart.rst = %+v", qs)
	}
	if legacy := docs["docs/topics/legacy.txt"]; legacy.Title != "Legacy greetings" || !strings.Contains(allText(legacy), "Old style *greetings*") {
		t.Errorf("docs/topics/legacy.txt (reStructuredText, as conf.py says) = %+v", legacy)
	}
	if howto := docs["docs/topics/howto.md"]; howto.Title != "How to greet twice" {
		t.Errorf("docs/topics/howto.md = %+v", howto)
	}
	// The API is the wheel's: the sdist read for its docs adds no symbols.
	if syms := testutil.ByName(pd.Symbols); len(syms) != 2 || syms["sphinxy.greet"].File != "sphinxy/__init__.py" {
		t.Errorf("symbols = %v", syms)
	}
}

func TestFetchSdistOnlyMkDocs(t *testing.T) {
	pd, srv := fetchNewRelease(t, "mkdocsy", "2.0", "Summary: s\n", nil, map[string]string{
		"mkdocsy.py":                  "def run():\n    \"\"\"Run.\"\"\"\n",
		"mkdocs.yml":                  "site_name: mkdocsy\ndocs_dir: 'documentation'  # not docs/\nnav:\n  - Home: index.md\n",
		"documentation/index.md":      "# mkdocsy\n\nRuns things.\n",
		"documentation/user/usage.md": "# Usage\n\nCall `run()`.\n",
		"documentation/notes.txt":     "plain notes, no Sphinx conf.py\n",
		"documentation/license.md":    "# License\n\nMIT\n",
	})
	want := []string{"doc:documentation/index.md", "doc:documentation/user/usage.md"}
	if got := docPaths(pd); !slices.Equal(got, want) {
		t.Errorf("documents = %v\nwant %v", got, want)
	}
	if got := fileRequests(srv); len(got) != 1 {
		t.Errorf("downloads = %v, want the sdist once", got)
	}
}

func TestSdistDocsLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int64
		fault func(*pypitest.Server)
		want  []string
	}{
		{"over the limit", 100, nil, []string{"sphinxy-1.0-py3-none-any.whl"}},
		{"never", -1, nil, []string{"sphinxy-1.0-py3-none-any.whl"}},
		{"wrong digest", 0, func(s *pypitest.Server) { s.TamperDigest("sphinxy-1.0.tar.gz") }, []string{"sphinxy-1.0-py3-none-any.whl", "sphinxy-1.0.tar.gz"}},
		{"not found", 0, func(s *pypitest.Server) {
			s.Inject(registrytest.Fault{Path: "/files/sphinxy-1.0.tar.gz", Status: http.StatusNotFound})
		}, []string{"sphinxy-1.0-py3-none-any.whl", "sphinxy-1.0.tar.gz"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, srv := newTestRegistry(t, func(rc *RegistryConfig) { rc.Limits.MaxDocsSdist = tc.limit })
			srv.AddRelease("sphinxy", "1.0", "Summary: greets\n", map[string]string{"sphinxy/__init__.py": "def greet(name): ...\n"}, sphinxSdist)
			if tc.fault != nil {
				tc.fault(srv)
			}
			pd := testutil.Fetched(t, r, "sphinxy", "1.0") // the docs sdist is optional

			if got := docPaths(pd); len(got) != 0 {
				t.Errorf("documents = %v, want none", got)
			}
			if len(pd.Symbols) == 0 {
				t.Error("no API from the wheel")
			}
			if got := fileRequests(srv); !slices.Equal(got, tc.want) {
				t.Errorf("downloads = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMkdocsDocsDir(t *testing.T) {
	testutil.Mapping(t, "mkdocsDocsDir", func(src string) string { return mkdocsDocsDir([]byte(src)) }, map[string]string{
		"site_name: x\n":                          "",
		"docs_dir: docs\n":                        "",
		"docs_dir: Doc\n":                         "",
		"docs_dir: docs/src\n":                    "docs/src",
		"docs_dir: \"site/content\"  # pages\n":   "site/content",
		"docs_dir: ../elsewhere\n":                "",
		"docs_dir: /abs\n":                        "",
		"docs_dir: .\n":                           "",
		"docs_dir: _private\n":                    "",
		"nav:\n  docs_dir: nested\ndocs_dir: d\n": "d",
	})
}

func TestSphinxTxt(t *testing.T) {
	testutil.Mapping(t, "sphinxTxt", func(src string) bool { return sphinxTxt([]byte(src)) }, map[string]bool{
		"":                                       false,
		"source_suffix = '.rst'\n":               false,
		"source_suffix = ['.rst', '.txt']\n":     true,
		"source_suffix = {\n  '.txt': 'rst',\n}": true,
		"source_suffix = {\n  '.rst': 'rst',\n}\nhtml_extra = ['.txt']\n": false,
		"# source_suffix = '.txt'\n":                                      false,
		"source_suffix = \".txt\"\n":                                      true,
	})
}

// FuzzDocsConfig checks that untrusted mkdocs.yml and conf.py never panic the readers, and that
// a docs_dir found stays inside the sdist.
func FuzzDocsConfig(f *testing.F) {
	for _, s := range []string{"docs_dir: site\n", "docs_dir: '../x'\n", "source_suffix = ['.txt'", "source_suffix\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_ = sphinxTxt([]byte(src))
		if d := mkdocsDocsDir([]byte(src)); d != "" && (strings.HasPrefix(d, "/") || d == ".." || strings.HasPrefix(d, "../")) {
			t.Errorf("docs_dir %q leaves the sdist", d)
		}
	})
}

// TestFetchWheelReadsCython: a wheel that ships its Cython sources (a .pyx and the .pxi it
// includes, beside the compiled module) has their API, each symbol in the file defining it.
func TestFetchWheelReadsCython(t *testing.T) {
	pd, _ := fetchNewRelease(t, "cytree", "1.0", "Summary: trees\n", map[string]string{
		"cytree/__init__.py":                "",
		"cytree/tree.cpython-311-x86_64.so": "\x7fELF",
		"cytree/tree.pyx":                   "\"\"\"Trees.\"\"\"\ninclude \"nodes.pxi\"\n\ncpdef int depth(Node node not None):\n    \"\"\"The depth of node.\"\"\"\n",
		"cytree/nodes.pxi":                  "cdef class Node:\n    \"\"\"A node.\"\"\"\n    cdef object _parent\n",
	}, nil)
	syms := testutil.ByName(pd.Symbols)
	for q, file := range map[string]string{"cytree.tree.Node": "cytree/nodes.pxi", "cytree.tree.depth": "cytree/tree.pyx"} {
		if s, ok := syms[q]; !ok || s.File != file || s.Doc == "" {
			t.Errorf("%s = %+v, want it documented in %s", q, s, file)
		}
	}
	if _, ok := syms["cytree.nodes"]; ok {
		t.Error("a .pxi is no module")
	}
}
