package pypi

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestVendoredDir(t *testing.T) {
	testutil.Mapping(t, "vendoredDir", vendoredDir, map[string]string{
		"pip/_vendor/requests/api.py":                              "pip/_vendor",
		"botocore/vendored/six.py":                                 "botocore/vendored",
		"jedi/third_party/typeshed/stdlib/os/__init__.pyi":         "jedi/third_party",
		"jedi/third_party/django-stubs/django-stubs/db/models.pyi": "jedi/third_party",
		"mypy/typeshed/stdlib/builtins.pyi":                        "mypy/typeshed",
		"pkg/extras/foo-stubs/mod.pyi":                             "pkg/extras/foo-stubs",
		"setuptools/_vendor/packaging/version.py":                  "setuptools/_vendor",
		"sklearn/externals/_packaging/version.py":                  "sklearn/externals",
		"pkg/_vendored/x.py":                                       "pkg/_vendored",
		"pkg/_vendorized/x.py":                                     "pkg/_vendorized",
		"requests-stubs/api.pyi":                                   "", // a stub-only distribution's own package
		"requests/api.py":                                          "",
		"vendor.py":                                                "", // a module named vendor, not a directory of vendored code
		"pkg/vendor.py":                                            "",
		"pkg/vendors/x.py":                                         "",
	})
}

func TestChooseModulesSkipsVendored(t *testing.T) {
	files, vendored := chooseModules([]string{
		"jedi/__init__.py",
		"jedi/api/__init__.py",
		"jedi/third_party/typeshed/stdlib/os/__init__.pyi",
		"jedi/third_party/typeshed/stdlib/sys.pyi",
		"jedi/third_party/django-stubs/django-stubs/db/models.pyi",
		"jedi/_vendor/parso.py",
	}, "src/")
	var mods []string
	for _, f := range files {
		mods = append(mods, f.module)
	}
	if want := []string{"jedi", "jedi.api"}; !reflect.DeepEqual(mods, want) {
		t.Errorf("modules = %q, want %q", mods, want)
	}
	if want := []string{"src/jedi/_vendor", "src/jedi/third_party"}; !reflect.DeepEqual(vendored, want) {
		t.Errorf("vendored = %q, want %q", vendored, want)
	}
}

func TestPlainParams(t *testing.T) {
	in := []docidx.Param{
		{Name: "url", Type: ":class:`~urllib3.util.Url`", Doc: "Where, a ``str`` or :class:`Url`."},
		{Name: "n", Type: "int", Default: "1", Doc: "How many."},
	}
	want := []docidx.Param{
		{Name: "url", Type: "Url", Doc: "Where, a str or Url."},
		{Name: "n", Type: "int", Default: "1", Doc: "How many."},
	}
	got := plainParams(in)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plainParams = %+v, want %+v", got, want)
	}
	if in[0].Doc != "Where, a ``str`` or :class:`Url`." {
		t.Error("plainParams changed its input")
	}
}

// TestStubTakesSourceDocs: a .pyi stub beside its .py source is the module's API, and its
// symbols without a docstring take the source's (attrs ships both), in either listing order;
// the errors its code raises are the source's.
func TestStubTakesSourceDocs(t *testing.T) {
	srcs := map[string]string{
		"pkg/exceptions.pyi": "class FrozenError(AttributeError): ...\nclass Other(Exception):\n    \"\"\"The stub's own doc.\"\"\"\n" +
			"def around(a: float, decimals: int = ...) -> float: ...\nround = around\n" +
			"class Cache:\n    def __init__(self, maxsize: float) -> None: ...\n",
		"pkg/exceptions.py": "class FrozenError(AttributeError):\n    \"\"\"\n    A frozen instance has been attempted to be modified.\n    \"\"\"\n" +
			"class Other(Exception):\n    \"\"\"The source's doc.\"\"\"\nclass OnlyInSource: pass\n" +
			"def round(a, decimals=0):\n    \"\"\"Evenly round.\n\n    Halves round to the nearest even value.\n    \"\"\"\n" +
			"def around(a, decimals=0):\n    \"\"\"Round an array.\n\n    An alias of round.\n    \"\"\"\n" +
			"class Cache:\n    def __init__(self, maxsize):\n        if maxsize < 0:\n            raise ValueError(\"maxsize must be non-negative\")\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	for _, order := range [][]string{{"pkg/exceptions.pyi", "pkg/exceptions.py"}, {"pkg/exceptions.py", "pkg/exceptions.pyi"}} {
		files, _ := chooseModules(order, "")
		if len(files) != 1 || files[0].path != "pkg/exceptions.pyi" || files[0].docs != "pkg/exceptions.py" {
			t.Fatalf("%q: chose %+v", order, files)
		}
		docs := map[string]string{}
		errs := map[string][]string{}
		for _, s := range extractAPI(files, read, Limits{}.withDefaults(), nil).symbols {
			docs[s.QualifiedName] = s.Doc
			errs[s.QualifiedName] = s.Errors
		}
		// What the source's code raises, the stub's symbols name: the class its __init__'s.
		for _, q := range []string{"pkg.exceptions.Cache", "pkg.exceptions.Cache.__init__"} {
			if want := []string{`raise ValueError("maxsize must be non-negative")`}; !slices.Equal(errs[q], want) {
				t.Errorf("%q: %s errors %q, want %q", order, q, errs[q], want)
			}
		}
		want := map[string]string{
			"pkg.exceptions.FrozenError": "A frozen instance has been attempted to be modified.",
			"pkg.exceptions.Other":       "The stub's own doc.",
			// The stub's "round = around" is documented as the source defines round.
			"pkg.exceptions.round":  "Evenly round.\n\nHalves round to the nearest even value.",
			"pkg.exceptions.around": "Round an array.\n\nAn alias of round.",
		}
		for q, d := range want {
			if docs[q] != d {
				t.Errorf("%q: %s doc %q, want %q", order, q, docs[q], d)
			}
		}
		if _, ok := docs["pkg.exceptions.OnlyInSource"]; ok {
			t.Errorf("%q: a name only the source declares is in the API", order)
		}
	}
}

// TestStubTakesReexportedSourceDocs: a stub symbol whose source beside it imports the name from
// a private module (attr/__init__.py's "from ._make import attrib") takes the docstring and the
// defaults of the private definition.
func TestStubTakesReexportedSourceDocs(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.pyi": "def attrib(default: Any = ..., repr: bool = ..., kw_only: bool = ...) -> Any: ...\n",
		"pkg/__init__.py":  "from ._make import attrib\n",
		"pkg/_make.py": "def attrib(default=NOTHING, repr=True, kw_only=False):\n" +
			"    \"\"\"Create a new field.\n\n    :param repr: Include this attribute in the repr.\n    \"\"\"\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	files, _ := chooseModules([]string{"pkg/__init__.pyi", "pkg/__init__.py", "pkg/_make.py"}, "")
	var got *docidx.Symbol
	syms := extractAPI(files, read, Limits{}.withDefaults(), nil).symbols
	for i := range syms {
		if syms[i].QualifiedName == "pkg.attrib" {
			got = &syms[i]
		}
	}
	if got == nil {
		t.Fatalf("no pkg.attrib among %+v", syms)
	}
	if want := "def attrib(default: Any = NOTHING, repr: bool = True, kw_only: bool = False) -> Any"; got.Signature != want || got.File != "pkg/__init__.pyi" {
		t.Errorf("signature %q in %s, want %q in the stub", got.Signature, got.File, want)
	}
	if got.Doc != "Create a new field.\n\n:param repr: Include this attribute in the repr." {
		t.Errorf("doc %q, want the private definition's", got.Doc)
	}
}

// TestStubTakesAliasedSourceDocs: a class a stub declares that the source beside it imports
// from a private module under a private alias (loguru/__init__.py's "from ._logger import
// Logger as _Logger", for the Logger of loguru/__init__.pyi) takes the private class's
// docstrings, its methods' too; a name the stub does not declare is not brought in.
func TestStubTakesAliasedSourceDocs(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.pyi": "class Logger:\n    def add(self, sink: Any, *, level: str = ...) -> int: ...\n\nlogger: Logger\n",
		"pkg/__init__.py":  "from ._logger import Core as _Core\nfrom ._logger import Logger as _Logger\n\nlogger = _Logger(_Core())\n",
		"pkg/_logger.py": "class Core:\n    \"\"\"The core.\"\"\"\n\n" +
			"class Logger:\n    \"\"\"An object to dispatch logging messages.\"\"\"\n\n" +
			"    def add(self, sink, *, level=\"DEBUG\"):\n        \"\"\"Add a handler sending log messages to a sink.\n\n        The retention keeps files.\n        \"\"\"\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	files, _ := chooseModules([]string{"pkg/__init__.pyi", "pkg/__init__.py", "pkg/_logger.py"}, "")
	syms := testutil.ByName(extractAPI(files, read, Limits{}.withDefaults(), nil).symbols)
	for q, want := range map[string]string{
		"pkg.Logger":     "An object to dispatch logging messages.",
		"pkg.Logger.add": "Add a handler sending log messages to a sink.\n\nThe retention keeps files.",
	} {
		if s, ok := syms[q]; !ok || s.Doc != want || s.File != "pkg/__init__.pyi" {
			t.Errorf("%s: doc %q in %s, want %q in the stub", q, s.Doc, s.File, want)
		}
	}
	if s := syms["pkg.Logger.add"]; !strings.Contains(s.Signature, `level: str = "DEBUG"`) {
		t.Errorf("pkg.Logger.add: signature %q, want the source's default", s.Signature)
	}
	testutil.Absent(t, syms, "", "pkg.Core", "pkg._Core", "pkg._Logger")
}

// TestPrivateStubTakesSourceDocs: a public module that re-exports a name from a private module
// whose stub sits beside its source (numpy/__init__.pyi imports atleast_1d from
// numpy/_core/shape_base.pyi, documented in shape_base.py) takes the source's docstring.
func TestPrivateStubTakesSourceDocs(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.pyi":      "from pkg._core.shape import atleast_1d as atleast_1d\n",
		"pkg/_core/__init__.py": "",
		"pkg/_core/shape.pyi":   "def atleast_1d(*arys: Any) -> Any: ...\n",
		"pkg/_core/shape.py":    "def atleast_1d(*arys):\n    \"\"\"Convert inputs to arrays with at least one dimension.\"\"\"\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	paths := slices.Sorted(maps.Keys(srcs))
	files, _ := chooseModules(paths, "")
	syms := extractAPI(files, read, Limits{}.withDefaults(), nil).symbols
	var got *docidx.Symbol
	for i := range syms {
		if syms[i].QualifiedName == "pkg.atleast_1d" {
			got = &syms[i]
		}
	}
	if got == nil {
		t.Fatalf("no pkg.atleast_1d among %+v", syms)
	}
	if got.Doc != "Convert inputs to arrays with at least one dimension." || got.Signature != "def atleast_1d(*arys: Any) -> Any" {
		t.Errorf("pkg.atleast_1d = %q, doc %q; want the stub's signature and the source's doc", got.Signature, got.Doc)
	}
}

// TestConstantDefaults: a parameter default that names a constant shows the constant's value,
// resolved in the module that defines the symbol: its own private constant (h11's
// Connection in h11._connection), a constant it imports from a private module (httpx._client's
// DEFAULT_TIMEOUT_CONFIG from httpx._config), a class's constant ("Timeout.DEFAULT") but not a string
// Enum member's ("Mode.EMACS"), the public
// constant of that name when the module binds none; a name two modules bind to two values
// stays as written, and so does a sentinel.
func TestConstantDefaults(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.py": "from ._conn import Connection\nfrom ._client import Client\n\nDEFAULT_POOLSIZE = 10\nAMBIGUOUS = 1\n",
		"pkg/other.py":    "AMBIGUOUS = 2\n",
		"pkg/_conn.py": "DEFAULT_MAX_EVENT_SIZE = 16 * 1024\n_MISSING = object()\nNOT_GIVEN = NotGiven()\n\n" +
			"class Connection:\n    \"\"\"A connection.\"\"\"\n\n" +
			"    def __init__(self, max_event_size: int = DEFAULT_MAX_EVENT_SIZE, pool=DEFAULT_POOLSIZE, x=AMBIGUOUS, y=_MISSING, w=NOT_GIVEN):\n        pass\n",
		"pkg/_config.py": "json_codec = JSONCodec(indent=2)\n\nclass Timeout:\n    DEFAULT = 5.0\n\nclass Mode(Enum):\n    EMACS = \"EMACS\"\n\nDEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0)\nDEFAULT_RETRIES = 3\n",
		"pkg/_client.py": "from ._config import DEFAULT_TIMEOUT_CONFIG, Mode, Timeout, json_codec\nfrom ._config import DEFAULT_RETRIES as RETRIES\n\n" +
			"class Client:\n    \"\"\"A client. Waits as DEFAULT_TIMEOUT_CONFIG says unless told otherwise.\"\"\"\n\n" +
			"    limit: float = RETRIES\n    codec = json_codec\n\n" +
			"    def __init__(self, timeout=DEFAULT_TIMEOUT_CONFIG, read=Timeout.DEFAULT, mode=Mode.EMACS):\n        pass\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	files, _ := chooseModules(slices.Sorted(maps.Keys(srcs)), "")
	syms := testutil.ByName(extractAPI(files, read, Limits{}.withDefaults(), nil).symbols)
	defaults := func(q string) map[string]string {
		out := map[string]string{}
		for _, p := range syms[q].Params {
			out[p.Name] = p.Default
		}
		return out
	}
	for q, want := range map[string]map[string]string{
		"pkg.Connection": {"max_event_size": "DEFAULT_MAX_EVENT_SIZE = 16 * 1024", "pool": "DEFAULT_POOLSIZE = 10", "x": "AMBIGUOUS", "y": "_MISSING", "w": "NOT_GIVEN"},
		"pkg.Client":     {"timeout": "DEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0)", "read": "Timeout.DEFAULT = 5.0", "mode": "Mode.EMACS"},
	} {
		got := defaults(q)
		for name, def := range want {
			if got[name] != def {
				t.Errorf("%s: parameter %s default %q, want %q", q, name, got[name], def)
			}
		}
	}
	if got := syms["pkg.Client"].Values; !slices.Equal(got, []string{"DEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0)"}) {
		t.Errorf("pkg.Client: values %q, want the constant its docstring names", got)
	}
	if got := syms["pkg.Client.limit"].Values; !slices.Equal(got, []string{"RETRIES = 3"}) {
		t.Errorf("pkg.Client.limit: values %q, want the constant it is assigned", got)
	}
	if codec, ok := syms["pkg.Client.codec"]; !ok || len(codec.Values) != 0 {
		got := codec.Values
		t.Errorf("pkg.Client.codec: values %q (found %v), want the field, without values for a name not written as a constant", got, ok)
	}
	conn := syms["pkg.Connection"]
	if doc := conn.DocWithParams(); !strings.Contains(doc, "default `DEFAULT_MAX_EVENT_SIZE = 16 * 1024`") {
		t.Errorf("pkg.Connection: doc\n%s\nwant the default's value", doc)
	}
}

// TestInlineOutsideFences: a symbol's reST inline markup is converted in its docstring's prose
// but not inside its markdown fenced blocks, whose backquotes reST takes for inline literals.
func TestInlineOutsideFences(t *testing.T) {
	// Without the fences kept apart, reST read each fence as the edge of an inline literal.
	doc := "Use ``skip`` or :func:`eager`:\n\n- `'skip'`: the default:\n  ```pycon\n  >>> f(``x``)\n  ```\n\nThen ``done``.\n"
	want := "Use `skip` or `eager`:\n\n- `'skip'`: the default:\n  ```pycon\n  >>> f(``x``)\n  ```\n\nThen `done`.\n"
	if got := plainSymbol(docidx.Symbol{Doc: doc}).Doc; got != want {
		t.Errorf("plainSymbol's doc:\n got %q\nwant %q", got, want)
	}
}

// TestWithoutSphinxMarkup: what only instructs Sphinx leaves a docstring (autodoc directives and
// their options, a code directive's line, a title's underline); a note keeps its words.
func TestWithoutSphinxMarkup(t *testing.T) {
	doc := "Tagged JSON\n~~~~~~~~~~~\n\nA compact representation.\n\n.. autoclass:: TaggedJSONSerializer\n    :members:\n\n.. code-block:: python\n\n    class T:\n        key = 1\n\n.. note:: Keys are sorted.\n\n.. versionadded:: 2.0\n"
	want := "Tagged JSON\n\nA compact representation.\n\n\n\n    class T:\n        key = 1\n\nNote: Keys are sorted.\n\nAdded in version 2.0.\n"
	if got := withoutSphinxMarkup(doc); got != want {
		t.Errorf("withoutSphinxMarkup:\n got %q\nwant %q", got, want)
	}
	// An mkdocs-material admonition is its title (or kind) as a label, its body dedented.
	doc = "!!! abstract \"Usage Documentation\"\n    [Aliases](../alias.md)\n\nA data class.\n\n!!! note\n    Keys are\n      sorted.\nDone.\n"
	want = "Usage Documentation:\n[Aliases](../alias.md)\n\nA data class.\n\nNote:\nKeys are\n  sorted.\nDone.\n"
	if got := withoutSphinxMarkup(doc); got != want {
		t.Errorf("withoutSphinxMarkup of admonitions:\n got %q\nwant %q", got, want)
	}
	// Version directives read as Sphinx words them; literal block markers and doctest
	// directives leave their code blocks.
	doc = "Wait for ECHO off::\n\n    child.waitnoecho()\n\nThese are equal ::\n\n    a()\n\n::\n\n    b()\n\n.. doctest::\n\n    >>> f()\n\n.. versionchanged:: 1.1 Takes a path.\n.. deprecated:: 3.0\n   Use g.\n\n.. attribute:: method\n\n   The request method.\n"
	want = "Wait for ECHO off:\n\n    child.waitnoecho()\n\nThese are equal\n\n    a()\n\n\n    b()\n\n\n    >>> f()\n\nChanged in version 1.1: Takes a path.\nDeprecated since version 3.0:\n   Use g.\n\n`method`\n\n   The request method.\n"
	if got := withoutSphinxMarkup(doc); got != want {
		t.Errorf("withoutSphinxMarkup of versions and literal blocks:\n got %q\nwant %q", got, want)
	}
	// A NumPy-style title keeps a line of its own: a blank line takes its underline's place.
	doc = "Round.\n\nNotes\n-----\nNumPy rounds to the nearest even value.\n"
	want = "Round.\n\nNotes\n\nNumPy rounds to the nearest even value.\n"
	if got := withoutSphinxMarkup(doc); got != want {
		t.Errorf("withoutSphinxMarkup of a NumPy section:\n got %q\nwant %q", got, want)
	}
}

// TestReexportedModuleAttribute: a public module that binds a name to an attribute of a private
// module it imports ("from . import _copy", "Copy = _copy.Copy", as psycopg.copy does)
// re-exports it, and so does the package that declares the name in __all__ and imports it from
// that public module.
func TestReexportedModuleAttribute(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.py": "from .copy import Copy\n\n__all__ = [\"Copy\"]\n",
		"pkg/copy.py":     "from . import _copy\n\nCopy = _copy.Copy\n",
		"pkg/_copy.py":    "class Copy:\n    \"\"\"Manage a COPY operation.\"\"\"\n\n    def write(self, data):\n        \"\"\"Write data.\"\"\"\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	files, _ := chooseModules([]string{"pkg/__init__.py", "pkg/copy.py", "pkg/_copy.py"}, "")
	syms := testutil.ByName(extractAPI(files, read, Limits{}.withDefaults(), nil).symbols)
	for _, q := range []string{"pkg.Copy", "pkg.copy.Copy"} {
		if s := syms[q]; s.Kind != docidx.KindClass || s.Doc != "Manage a COPY operation." || s.File != "pkg/_copy.py" {
			t.Errorf("%s = %+v, want the class pkg/_copy.py defines", q, s)
		}
		if s := syms[q+".write"]; s.Doc != "Write data." {
			t.Errorf("%s.write = %+v, want its method", q, s)
		}
	}
}

// TestCythonModules: a .pyx is the module named like a .py, with the .pxi files it includes
// (which are no modules of their own); a .py or .pyi of the same module wins and takes the
// .pyx's docstrings for names it leaves undocumented, in any listing order; a private .pyx
// documents the names its package re-exports; an include that is missing is a problem naming
// it, the rest of the module still read.
func TestCythonModules(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.py": "from ._speedups import Counter\n",
		"pkg/_speedups.pyx": "cdef class Counter:\n    \"\"\"Counts things.\"\"\"\n    cpdef int add(self, int n=1):\n" +
			"        \"\"\"Add n.\"\"\"\n        return n\n",
		"pkg/etree.pyx":       "\"\"\"Trees.\"\"\"\ninclude \"parts/nodes.pxi\"\ninclude \"parts/gone.pxi\"\n\ncdef int _helper():\n    pass\n\ndef parse(source, *, bint strict=True):\n    \"\"\"Parse source.\"\"\"\n",
		"pkg/parts/nodes.pxi": "cdef class Node:\n    \"\"\"A node of a tree.\"\"\"\n    def text(self):\n        \"\"\"The text.\"\"\"\n",
		"pkg/fast.py":         "def scan(data, limit=0):\n    pass\n",
		"pkg/fast.pyx":        "def scan(bytes data, int limit=0):\n    \"\"\"Scan data, at most limit bytes.\"\"\"\n",
		"pkg/typed.pyi":       "def run(x: int = ...) -> None: ...\n",
		"pkg/typed.pyx":       "def run(int x=3):\n    \"\"\"Run x times.\"\"\"\n",
	}
	read := func(p string, _ int64) ([]byte, error) {
		s, ok := srcs[p]
		if !ok {
			return nil, fmt.Errorf("%s: not in the archive", p)
		}
		return []byte(s), nil
	}
	paths := []string{"pkg/__init__.py", "pkg/_speedups.pyx", "pkg/etree.pyx", "pkg/parts/nodes.pxi", "pkg/fast.pyx", "pkg/fast.py", "pkg/typed.pyx", "pkg/typed.pyi"}
	reversed := slices.Clone(paths)
	slices.Reverse(reversed)
	for _, order := range [][]string{paths, reversed} {
		files, _ := chooseModules(order, "")
		var chosen []string
		for _, f := range files {
			chosen = append(chosen, f.module+" "+f.path+" "+f.docs)
		}
		want := []string{"pkg pkg/__init__.py ", "pkg.etree pkg/etree.pyx ", "pkg.fast pkg/fast.py pkg/fast.pyx", "pkg.typed pkg/typed.pyi pkg/typed.pyx", "pkg._speedups pkg/_speedups.pyx "}
		if !slices.Equal(chosen, want) {
			t.Fatalf("%q: chose %q, want %q", order, chosen, want)
		}
		api := extractAPI(files, read, Limits{}.withDefaults(), nil)
		got := map[string]docidx.Symbol{}
		for _, s := range api.symbols {
			got[s.QualifiedName] = s
		}
		for q, w := range map[string]struct{ sig, doc, file string }{
			"pkg.Counter":         {"class Counter", "Counts things.", "pkg/_speedups.pyx"},
			"pkg.Counter.add":     {"def add(self, int n=1)", "Add n.", "pkg/_speedups.pyx"},
			"pkg.etree":           {"module pkg.etree", "Trees.", "pkg/etree.pyx"},
			"pkg.etree.Node":      {"class Node", "A node of a tree.", "pkg/parts/nodes.pxi"},
			"pkg.etree.Node.text": {"def text(self)", "The text.", "pkg/parts/nodes.pxi"},
			"pkg.etree.parse":     {"def parse(source, *, bint strict=True)", "Parse source.", "pkg/etree.pyx"},
			"pkg.fast.scan":       {"def scan(data, limit=0)", "Scan data, at most limit bytes.", "pkg/fast.py"},
			"pkg.typed.run":       {"def run(x: int = 3) -> None", "Run x times.", "pkg/typed.pyi"},
		} {
			s, ok := got[q]
			if !ok {
				t.Errorf("%q: %s missing", order, q)
				continue
			}
			if s.Signature != w.sig || s.Doc != w.doc || s.File != w.file {
				t.Errorf("%q: %s = %q %q in %s, want %q %q in %s", order, q, s.Signature, s.Doc, s.File, w.sig, w.doc, w.file)
			}
		}
		for q := range got {
			if strings.Contains(q, "nodes") || strings.Contains(q, "_helper") {
				t.Errorf("%q: %s is no API", order, q)
			}
		}
		if !slices.ContainsFunc(api.problems, func(p string) bool {
			return strings.Contains(p, "pkg/etree.pyx:3") && strings.Contains(p, "pkg/parts/gone.pxi")
		}) {
			t.Errorf("%q: problems %q do not name the missing include", order, api.problems)
		}
	}
}

// TestReexportedVariable: a variable a private module assigns is re-exported by the names
// __all__ lists (pytest's hookimpl, which _pytest.config binds to HookimplMarker("pytest")) or
// an explicit "import x as x"; one imported without either is the module's state, and a star
// import brings no variable.
func TestReexportedVariable(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.py": "from ._config import hookimpl\nfrom ._config import log\n\n__all__ = [\"hookimpl\"]\n",
		"pkg/plain.py":    "from ._config import hookimpl as hookimpl\nfrom ._config import log\nfrom ._stars import *\n",
		"pkg/_config.py":  "#: Marks a hook implementation.\nhookimpl = HookimplMarker(\"pkg\")\nlog = getLogger(__name__)\n",
		"pkg/_stars.py":   "cache = {}\n\ndef helper():\n    \"\"\"Helps.\"\"\"\n",
	}
	read := func(p string, _ int64) ([]byte, error) { return []byte(srcs[p]), nil }
	files, _ := chooseModules([]string{"pkg/__init__.py", "pkg/plain.py", "pkg/_config.py", "pkg/_stars.py"}, "")
	syms := testutil.ByName(extractAPI(files, read, Limits{}.withDefaults(), nil).symbols)
	for _, q := range []string{"pkg.hookimpl", "pkg.plain.hookimpl"} {
		if s := syms[q]; s.Kind != docidx.KindVar || s.Doc != "Marks a hook implementation." || s.Signature != `hookimpl = HookimplMarker("pkg")` {
			t.Errorf("%s = %+v, want _config's variable", q, s)
		}
	}
	if s := syms["pkg.plain.helper"]; s.Doc != "Helps." {
		t.Errorf("pkg.plain.helper = %+v, want the star import's function", s)
	}
	testutil.Absent(t, syms, "module state", "pkg.log", "pkg.plain.log", "pkg.plain.cache")
}

// TestConstantDefaultsReadProblem: a module read only to resolve a default's constant (imported
// under a private alias, so that no re-export reads it) that cannot be read is a problem of
// the extraction, as any other unreadable module, and the default stays as written.
func TestConstantDefaultsReadProblem(t *testing.T) {
	srcs := map[string]string{
		"pkg/__init__.py": "from ._config import TIMEOUT as _TIMEOUT\n\ndef fetch(url, timeout=_TIMEOUT):\n    \"\"\"Fetch url.\"\"\"\n",
		"pkg/_config.py":  "TIMEOUT = 30\n",
	}
	read := func(p string, _ int64) ([]byte, error) {
		if p == "pkg/_config.py" {
			return nil, fmt.Errorf("%s: %w", p, docidx.ErrIntegrity)
		}
		return []byte(srcs[p]), nil
	}
	files, _ := chooseModules(slices.Sorted(maps.Keys(srcs)), "")
	api := extractAPI(files, read, Limits{}.withDefaults(), nil)
	if !slices.ContainsFunc(api.problems, func(p string) bool { return strings.Contains(p, "pkg/_config.py") }) {
		t.Errorf("problems %q, want the unreadable pkg/_config.py", api.problems)
	}
	fetch := testutil.ByName(api.symbols)["pkg.fetch"]
	if i := slices.IndexFunc(fetch.Params, func(p docidx.Param) bool { return p.Name == "timeout" }); i < 0 || fetch.Params[i].Default != "_TIMEOUT" {
		t.Errorf("pkg.fetch: params %+v, want timeout with its default as written", fetch.Params)
	}
}
