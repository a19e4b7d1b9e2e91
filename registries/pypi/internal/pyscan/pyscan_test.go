package pyscan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"

	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// render prints a Result in the golden-file format: one header line per symbol, then its
// signature lines, its doc, its parameters and its errors, indented.
func render(res Result) string {
	var b strings.Builder
	for _, s := range append(res.Symbols[:len(res.Symbols):len(res.Symbols)], res.Inherited...) {
		testutil.SymbolHeader(&b, s)
		for _, l := range strings.Split(s.Signature, "\n") {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
		if s.Doc != "" {
			fmt.Fprintf(&b, "\t# %s\n", strings.ReplaceAll(s.Doc, "\n", "\n\t# "))
		}
		for _, p := range s.Params {
			fmt.Fprintf(&b, "\t@param %s", p.Name)
			if p.Type != "" {
				fmt.Fprintf(&b, ": %s", p.Type)
			}
			if p.Default != "" {
				fmt.Fprintf(&b, " = %s", p.Default)
			}
			if p.Doc != "" {
				fmt.Fprintf(&b, " -- %s", strings.ReplaceAll(p.Doc, "\n", "\n\t\t"))
			}
			b.WriteByte('\n')
		}
		for _, e := range s.Errors {
			fmt.Fprintf(&b, "\t!error %s\n", e)
		}
	}
	if res.HasAll {
		fmt.Fprintf(&b, "-- __all__: %s\n", strings.Join(res.All, " "))
	}
	if res.Truncated {
		b.WriteString("-- truncated\n")
	}
	return b.String()
}

// TestGolden scans real files copied from installed distributions (testdata/third_party/README.md) and
// compares with testdata/golden/*.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tc := range []struct{ name, file, module string }{
		{"flask-app", "flask/app.py", "flask.app"},
		{"click-decorators", "click/decorators.py", "click.decorators"},
		{"requests-api", "requests/api.py", "requests.api"},
		{"yaml", "yaml/__init__.py", "yaml"},
		{"attr-stub", "attr/__init__.pyi", "attr"},
		{"typing_extensions", "typing_extensions/typing_extensions.py", "typing_extensions"},
		{"urllib3-retry", "urllib3/util/retry.py", "urllib3.util.retry"},
		{"requests-sessions", "requests/sessions.py", "requests.sessions"},
		{"networkx-generic", "networkx/generic.py", "networkx.algorithms.shortest_paths.generic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "third_party", filepath.FromSlash(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			res := Scan(src, Options{Module: tc.module, File: tc.file})
			testutil.CheckSymbols(t, append(res.Symbols, res.Inherited...))
			got := render(res)
			goldenPath := filepath.Join("testdata", "golden", tc.name+".golden")
			golden.Check(t, goldenPath, []byte(got))
		})
	}
}

func scanMap(t *testing.T, src string) (map[string]docidx.Symbol, Result) {
	t.Helper()
	res := Scan([]byte(src), Options{Module: "m", File: "m.py"})
	all := append(res.Symbols[:len(res.Symbols):len(res.Symbols)], res.Inherited...)
	testutil.CheckSymbols(t, all)
	m := map[string]docidx.Symbol{}
	for _, s := range all {
		m[strings.TrimPrefix(s.QualifiedName, "m.")] = s
	}
	return m, res
}

// symbolWant is what a test wants of one symbol: its kind, signature and doc.
type symbolWant struct {
	kind     docidx.SymbolKind
	sig, doc string
}

// checkSymbols checks that m (from scanMap) holds each symbol want names, with that kind,
// signature and doc; an empty sig takes any signature. With exact, a symbol of m that want does
// not name is an error too.
func checkSymbols(t *testing.T, m map[string]docidx.Symbol, want map[string]symbolWant, exact bool) {
	t.Helper()
	for q, w := range want {
		s, ok := m[q]
		if !ok {
			t.Errorf("%s missing", q)
			continue
		}
		if w.sig == "" {
			w.sig = s.Signature
		}
		if s.Kind != w.kind || s.Signature != w.sig || s.Doc != w.doc {
			t.Errorf("%s = %s %q %q, want %s %q %q", q, s.Kind, s.Signature, s.Doc, w.kind, w.sig, w.doc)
		}
	}
	for q := range m {
		if _, ok := want[q]; exact && !ok {
			t.Errorf("unexpected symbol %s", q)
		}
	}
}

// TestRealSpotChecks pins facts about the real files that a golden update could silently lose.
func TestRealSpotChecks(t *testing.T) {
	read := func(file, module string) map[string]docidx.Symbol {
		src, err := os.ReadFile(filepath.Join("testdata", "third_party", file))
		if err != nil {
			t.Fatal(err)
		}
		return testutil.ByName(Scan(src, Options{Module: module, File: file}).Symbols)
	}
	flask := read("flask/app.py", "flask.app")
	if s := flask["flask.app.Flask"]; s.Kind != docidx.KindClass || s.Signature != "class Flask(App)" || !strings.HasPrefix(s.Doc, "The flask object implements a WSGI application") {
		t.Errorf("Flask = %+v", s)
	}
	if s := flask["flask.app.Flask.__init__"]; s.Kind != docidx.KindMethod || !strings.HasPrefix(s.Signature, "def __init__(self, import_name: str, static_url_path: str | None = None,") || s.Parent != "Flask" {
		t.Errorf("Flask.__init__ = %+v", s)
	}
	if _, ok := flask["flask.app._make_timedelta"]; ok {
		t.Error("private function listed")
	}
	if s := flask["flask.app.Flask.run"]; s.Line != 546 || s.Package != "flask.app" {
		t.Errorf("Flask.run = %+v", s)
	}

	req := read("requests/api.py", "requests.api")
	if s := req["requests.api.get"]; s.Signature != "def get(url: _t.UriType, params: _t.ParamsType = None, **kwargs: Unpack[_t.GetKwargs]) -> Response" || !strings.HasPrefix(s.Doc, "Sends a GET request.\n\n:param url: URL") {
		t.Errorf("requests.api.get = %+v", s)
	}
	// Its own three, then those of request, to which it passes **kwargs, but method, which it
	// passes itself.
	if s := req["requests.api.get"]; len(s.Params) < 4 || s.Params[1] != (docidx.Param{Name: "params", Type: "_t.ParamsType", Default: "None", Doc: "(optional) Dictionary, list of tuples or bytes to send\nin the query string for the :class:`Request`."}) || s.Params[2].Name != "**kwargs" ||
		s.Params[3].Name != "data" || !strings.HasPrefix(s.Params[3].Doc, "passed on to request: (optional)") || slices.ContainsFunc(s.Params, func(p docidx.Param) bool { return p.Name == "method" }) {
		t.Errorf("requests.api.get params = %+v", s.Params)
	}
	if s := req["requests.api"]; s.Kind != docidx.KindPackage || !strings.Contains(s.Doc, "\n\nThis module implements the Requests API.\n\n:copyright:") {
		t.Errorf("requests.api module = %+v (the whole module docstring)", s)
	}

	yml := read("yaml/__init__.py", "yaml")
	testutil.Present(t, yml, "yaml", "yaml.load", "yaml.safe_load", "yaml.dump", "yaml.YAMLObject", "yaml.YAMLObject.from_yaml", "yaml.YAMLObjectMetaclass.__init__")
	if s := yml["yaml.YAMLObject.from_yaml"]; !strings.HasPrefix(s.Signature, "@classmethod def from_yaml(") {
		t.Errorf("from_yaml = %q", s.Signature)
	}

	attr := read("attr/__init__.pyi", "attr")
	if s := attr["attr.attrib"]; strings.Count(s.Signature, "\n") != 3 {
		t.Errorf("attr.attrib overloads = %q", s.Signature)
	}

	te := read("typing_extensions/typing_extensions.py", "typing_extensions")
	if _, ok := te["typing_extensions.SingletonMeta"]; ok {
		t.Error("SingletonMeta is not in typing_extensions.__all__")
	}
	if s, ok := te["typing_extensions.Protocol"]; !ok || s.Kind != docidx.KindClass {
		t.Errorf("Protocol (defined in an else branch) = %+v", s)
	}

	retry := read("urllib3/util/retry.py", "urllib3.util.retry")
	if s := retry["urllib3.util.retry.Retry.DEFAULT_BACKOFF_MAX"]; s.Kind != docidx.KindConst || s.Signature != "DEFAULT_BACKOFF_MAX = 120" || s.Parent != "Retry" || s.Doc != "Default maximum backoff time." {
		t.Errorf("Retry.DEFAULT_BACKOFF_MAX = %+v", s)
	}
	if s := retry["urllib3.util.retry.Retry"]; len(s.Params) != 17 || s.Params[0] != (docidx.Param{
		Name: "total", Type: "int", Default: "10",
		Doc: "Total number of retries to allow. Takes precedence over other counts.\n\nSet to ``None`` to remove this constraint and fall back on other\ncounts.\n\nSet to ``0`` to fail on the first retry.\n\nSet to ``False`` to disable and imply ``raise_on_redirect=False``.",
	}) || s.Params[9].Name != "backoff_max" || s.Params[9].Default != "DEFAULT_BACKOFF_MAX" {
		t.Errorf("Retry params = %+v", s.Params)
	}
	if s := retry["urllib3.util.retry.Retry"]; !strings.HasPrefix(s.Doc, "Retry configuration.\n\nEach retry attempt") || !strings.Contains(s.Doc, ":param int retry_after_max:") {
		t.Errorf("Retry doc = %q, want the whole docstring", s.Doc)
	}

	sess := read("requests/sessions.py", "requests.sessions")
	if s := sess["requests.sessions.Session.max_redirects"]; s.Kind != docidx.KindField || s.Signature != "max_redirects: int = DEFAULT_REDIRECT_LIMIT" || !strings.HasPrefix(s.Doc, "Maximum number of redirects allowed.") {
		t.Errorf("Session.max_redirects = %+v", s)
	}
	if s := sess["requests.sessions.Session.headers"]; s.Kind != docidx.KindField || !strings.HasPrefix(s.Doc, "A case-insensitive dictionary of headers") {
		t.Errorf("Session.headers = %+v", s)
	}

	nx := read("networkx/generic.py", "networkx.algorithms.shortest_paths.generic")
	if s := nx["networkx.algorithms.shortest_paths.generic.shortest_path"]; len(s.Params) != 5 || s.Params[4].Name != "method" || s.Params[4].Default != `"dijkstra"` || s.Params[4].Type != "string, optional" {
		t.Errorf("shortest_path params = %+v", s.Params)
	}

	click := read("click/decorators.py", "click.decorators")
	if s := click["click.decorators.command"]; !strings.Contains(s.Signature, "def command(") || strings.Count(s.Signature, "\n") < 2 {
		t.Errorf("click command overloads = %q", s.Signature)
	}
}

func TestDefinitionForms(t *testing.T) {
	src := `"""Module doc.

More.
"""
import os

def plain(a, b=1, *args, c: int = 2, **kw) -> None:
    """First line
    continues here.

    Second paragraph.
    """
    return None

async def fetch(
    url: str,  # the URL
    *,
    timeout: float = 1.0,
) -> bytes:
    ...

def one_liner(x): "Inline doc."

@decorator
@other.thing(arg=1)
def decorated(x): pass

def _private(): pass

class Base: pass

class Widget(Base, metaclass=Meta):
    '''A widget.'''

    size = 3

    def __init__(self, size: int = 3):
        """Make one."""
        def inner(): pass
        class Inner: pass

    def __call__(self): ...
    def __repr__(self): ...
    def _hidden(self): ...

    @property
    def area(self) -> int:
        """The area."""
        return 1

    @area.setter
    def area(self, v): ...

    @functools.cached_property
    def cached(self): ...

    @staticmethod
    def make() -> "Widget": ...

    @classmethod
    def from_dict(cls, d): ...

    class Nested:
        def hidden(self): ...

    if sys.version_info >= (3, 10):
        def modern(self): ...
    else:
        def modern(self, legacy=True): ...

    async def aclose(self): ...

def after_class(): ...

class Generic[T](Base):
    def get[U](self, u: U) -> T: ...
`
	m, _ := scanMap(t, src)
	want := map[string]symbolWant{
		"m":                {docidx.KindPackage, "module m", "Module doc.\n\nMore."},
		"plain":            {docidx.KindFunc, "def plain(a, b=1, *args, c: int = 2, **kw) -> None", "First line\ncontinues here.\n\nSecond paragraph."},
		"fetch":            {docidx.KindFunc, "async def fetch(url: str, *, timeout: float = 1.0) -> bytes", ""},
		"one_liner":        {docidx.KindFunc, "def one_liner(x)", "Inline doc."},
		"decorated":        {docidx.KindFunc, "def decorated(x)", ""},
		"Base":             {docidx.KindClass, "class Base", ""},
		"Widget":           {docidx.KindClass, "class Widget(Base, metaclass=Meta)", "A widget."},
		"Widget.size":      {docidx.KindField, "size = 3", ""},
		"Widget.__init__":  {docidx.KindMethod, "def __init__(self, size: int = 3)", "Make one."},
		"Widget.__call__":  {docidx.KindMethod, "def __call__(self)", ""},
		"Widget.area":      {docidx.KindProperty, "def area(self) -> int", "The area."},
		"Widget.cached":    {docidx.KindProperty, "def cached(self)", ""},
		"Widget.make":      {docidx.KindMethod, `@staticmethod def make() -> "Widget"`, ""},
		"Widget.from_dict": {docidx.KindMethod, "@classmethod def from_dict(cls, d)", ""},
		"Widget.modern":    {docidx.KindMethod, "def modern(self)\ndef modern(self, legacy=True)", ""},
		"Widget.aclose":    {docidx.KindMethod, "async def aclose(self)", ""},
		"after_class":      {docidx.KindFunc, "def after_class()", ""},
		"Generic":          {docidx.KindClass, "class Generic[T](Base)", ""},
		"Generic.get":      {docidx.KindMethod, "def get[U](self, u: U) -> T", ""},
	}
	checkSymbols(t, m, want, true)
	if s := m["Widget.area"]; s.Line != 47 || s.Parent != "Widget" || s.File != "m.py" || s.Package != "m" {
		t.Errorf("Widget.area = %+v", s)
	}
	if s := m["decorated"]; s.Line != 26 {
		t.Errorf("decorated line = %d, want the def line 26", s.Line)
	}
}

func TestAll(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // public top-level names
		hasAll    bool
	}{
		{"list", "__all__ = ['a', \"_b\"]\ndef a(): ...\ndef _b(): ...\ndef c(): ...\n", []string{"a", "_b"}, true},
		{"tuple and +=", "__all__ = ('a',)\n__all__ += ['c']\ndef a(): ...\ndef c(): ...\ndef d(): ...\n", []string{"a", "c"}, true},
		{"extend append remove", "__all__: list[str] = []\n__all__.extend(['a', 'b'])\n__all__.append('c')\n__all__.remove('b')\ndef a(): ...\ndef b(): ...\ndef c(): ...\n", []string{"a", "c"}, true},
		{"after the definitions", "def a(): ...\ndef b(): ...\nif True:\n    __all__ = ['b']\n", []string{"b"}, true},
		{"computed", "from x import __all__ as _x\n__all__ = _x + ['a']\ndef a(): ...\ndef b(): ...\n", []string{"a", "b"}, false},
		{"extended without a base", "__all__ += ['a']\ndef a(): ...\ndef b(): ...\n", []string{"a", "b"}, false},
		{"comprehension", "__all__ = [n for n in dir() if n]\ndef a(): ...\n", []string{"a"}, false},
		{"concatenated", "__all__ = ['a'] + ['b']\ndef a(): ...\ndef b(): ...\ndef c(): ...\n", []string{"a", "b"}, true},
		{"in a class is ignored", "class K:\n    __all__ = ['x']\n    def m(self): ...\n", []string{"K"}, false},
		{"empty", "__all__ = []\ndef a(): ...\n", nil, true},
		// sqlparse's: __all__ lists submodules only, so the module's own definitions are public
		// as without __all__ (its UPPER_CASE constants too), its private ones not.
		{"submodules only", "from sqlparse import sql, cli\n__all__ = ['sql', 'cli']\nVERSION = '1'\ndef parse(sql): ...\ndef _p(): ...\n", []string{"VERSION", "parse"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, res := scanMap(t, tc.src)
			var got []string
			for q, s := range m {
				if s.Parent == "" && s.Kind != docidx.KindPackage {
					got = append(got, q)
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if res.HasAll != tc.hasAll || !slices.Equal(got, want) {
				t.Errorf("public = %v (HasAll %v), want %v (HasAll %v)", got, res.HasAll, want, tc.hasAll)
			}
		})
	}
}

func TestLexerEdgeCases(t *testing.T) {
	src := "s1 = 'it\\'s # not a comment'\n" +
		"s2 = \"\"\"triple\n" +
		"def not_a_def(): pass\n" +
		"\"\"\"\n" +
		"s3 = f\"{x[\"key\"]} {y:{width}} {{literal}} {'def': 1}\"\n" +
		"s4 = rb'\\d' + Rb\"raw\"\n" +
		"s5 = f'''{\n" +
		"  a\n" +
		"}'''\n" +
		"x = [\n" +
		"  1,  # ) ] }\n" +
		"]\n" +
		"y = 1 + \\\n" +
		"    2\n" +
		"def after_strings(a='(', b=\")\", c='''\n" +
		"'''): ...\n" +
		"t = t'{x}'\n" +
		"if x:\n" +
		"\tdef tabbed(): ...\n" +
		"        def same_level_as_tab(): ...\n" +
		"def unicode_ñame(ü): ...\n" +
		"def last(): return f\"{'}'}\" # }\n"
	m, _ := scanMap(t, src)
	for q, line := range map[string]int{"after_strings": 15, "tabbed": 19, "same_level_as_tab": 20, "unicode_ñame": 21, "last": 22} {
		if s, ok := m[q]; !ok || s.Line != line {
			t.Errorf("%s = %+v, want line %d", q, s, line)
		}
	}
	if _, ok := m["not_a_def"]; ok {
		t.Error("def inside a string was scanned")
	}
	if s := m["after_strings"].Signature; s != "def after_strings(a='(', b=\")\", c=''' ''')" {
		t.Errorf("after_strings = %q", s)
	}
}

func TestDocstrings(t *testing.T) {
	src := "def a():\n    r'''Raw \\d doc.'''\n" +
		"def b():\n    'Escaped \\'quote\\' and \\\\ backslash.'\n" +
		"def c():\n    f'''not a docstring'''\n" +
		"def d():\n    x = 1\n    '''not first'''\n" +
		"def e():\n    \"\"\"\n    Title\n    =====\n\n    Body after a title.\n    \"\"\"\n" +
		"def f():\n    \"Implicit \" 'concatenation.'\n" +
		"def g():\n\t\"\"\"Tabs\n\tare expanded.\"\"\"\n"
	m, _ := scanMap(t, src)
	testutil.Docs(t, m, map[string]string{
		"a": `Raw \d doc.`, "b": `Escaped 'quote' and \ backslash.`, "c": "", "d": "",
		"e": "Title\n=====\n\nBody after a title.", "f": "Implicit concatenation.", "g": "Tabs\nare expanded.",
	})
}

// TestDefComments: a definition without a docstring is documented by the comment lines right
// above it, as pydoc shows them (inspect.getcomments): above its decorators, at its
// indentation, without a blank line between; a rule, a note to maintainers and a stub's
// comments are not documentation, and a docstring wins.
func TestDefComments(t *testing.T) {
	src := "# Encode unsafe characters.\n#\n#  - string - the string to encode\ndef encode(string): pass\n\n" +
		"# ------\n# TODO: document\ndef todo(): pass\n\n" +
		"# A note the blank line below parts from the def.\n\ndef apart(): pass\n\n" +
		"#\n# The thing.\n#\n@decorator\n@other(1)\nclass Thing:\n" +
		"    # Does the method.\n    def method(self): pass\n\n" +
		"# Not at the method's indentation.\n    def other(self): pass\n\n" +
		"# ======\n# Section\n# ======\ndef sectioned(): pass\n\n" +
		"# Not this one.\ndef documented():\n    \"\"\"The docstring.\"\"\"\n"
	m, _ := scanMap(t, src)
	testutil.Docs(t, m, map[string]string{
		"encode": "Encode unsafe characters.\n\n - string - the string to encode", "todo": "", "apart": "",
		"Thing": "The thing.", "Thing.method": "Does the method.", "Thing.other": "", "sectioned": "Section",
		"documented": "The docstring.",
	})
	stub := Scan([]byte("# A type checker's note.\ndef f() -> int: ...\n"), Options{Module: "m", File: "m.pyi"})
	for _, sym := range stub.Symbols {
		if sym.Doc != "" {
			t.Errorf("stub: %s has doc %q, want none", sym.QualifiedName, sym.Doc)
		}
	}
}

func TestDeprecated(t *testing.T) {
	src := `def a():
    """Do a.

    .. deprecated:: 2.0
        Use b.
    """

def b():
    """Deprecated: use c."""

def c():
    """Do c.

    .. versionchanged:: 2.0
        Deprecated the old argument.
    """

@deprecated("use e")
def d(): ...

def e():
    """Do e."""
    warnings.warn("e is going away", DeprecationWarning, stacklevel=2)
    return 1

def f():
    x = 1
    y = 2
    z = 3
    w = 4
    v = 5
    warnings.warn("too late to count", DeprecationWarning)

@typing_extensions.deprecated("old")
class Old:
    def __init__(self): ...
    def m(self): ...

def g(path, sep=","):
    """Read a file.

    Parameters
    ----------
    path : str
        Where to read.
    sep : str
        The delimiter.

        .. deprecated:: 3.1.0
            Pass delimiter instead.
    """
`
	m, _ := scanMap(t, src)
	for q, want := range map[string]bool{"a": true, "b": true, "c": false, "d": true, "e": true, "f": false, "Old": true, "Old.__init__": true, "Old.m": false, "g": false} {
		if m[q].Deprecated != want {
			t.Errorf("%s deprecated = %v, want %v", q, m[q].Deprecated, want)
		}
	}
	// The message of a warning or a decorator comes with the doc, unless the docstring says it
	// is deprecated itself; an undocumented item stays undocumented.
	for q, want := range map[string]string{"e": "Do e.\n\nDeprecated: e is going away", "d": "", "b": "Deprecated: use c.", "Old": ""} {
		if m[q].Doc != want {
			t.Errorf("%s doc = %q, want %q", q, m[q].Doc, want)
		}
	}
	m, _ = scanMap(t, `@deprecated("Use new_api()"
             " instead.")
def old_api():
    """Call the old API.

    Returns the answer.
    """

def formatted():
    """Do it."""
    warnings.warn(f"{NAME} is going away", DeprecationWarning)

def joined():
    """Do it."""
    warnings.warn("going away in " + VERSION, DeprecationWarning)
`)
	for q, want := range map[string]string{
		"old_api":   "Call the old API.\n\nDeprecated: Use new_api() instead.\n\nReturns the answer.",
		"formatted": "Do it.",
		"joined":    "Do it.",
	} {
		if m[q].Doc != want || !m[q].Deprecated {
			t.Errorf("%s doc = %q (deprecated %v), want %q", q, m[q].Doc, m[q].Deprecated, want)
		}
	}
}

func TestOverloadsUseImplementationDoc(t *testing.T) {
	src := `from typing import overload

@overload
def conv(x: int) -> int: ...
@overload
def conv(x: str) -> str: ...
def conv(x):
    """Convert x."""
    return x
`
	m, _ := scanMap(t, src)
	if s := m["conv"]; s.Signature != "def conv(x: int) -> int\ndef conv(x: str) -> str" || s.Doc != "Convert x." || s.Line != 4 {
		t.Errorf("conv = %+v", s)
	}
}

func TestLimits(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "def f%d(): ...\n", i)
	}
	res := Scan([]byte(b.String()), Options{Module: "m", MaxSymbols: 10})
	if len(res.Symbols) != 10 || !res.Truncated || res.Symbols[0].Kind != docidx.KindPackage {
		t.Errorf("%d symbols, truncated %v", len(res.Symbols), res.Truncated)
	}
	long := "def long(" + strings.Repeat("argument_name, ", 500) + "last): ...\n"
	res = Scan([]byte(long), Options{})
	if len(res.Symbols) != 1 || len(res.Symbols[0].Signature) > MaxSignature || !strings.HasSuffix(res.Symbols[0].Signature, "…") {
		t.Errorf("long signature: %d bytes", len(res.Symbols[0].Signature))
	}
	if res.Symbols[0].QualifiedName != "long" || res.Symbols[0].Package != "" {
		t.Errorf("no module: %+v", res.Symbols[0])
	}
}

// TestMalformed feeds broken source: nothing may panic, and what is well formed before the break
// is still found.
func TestMalformed(t *testing.T) {
	for _, src := range []string{
		"def ok(): ...\ns = 'unterminated\ndef after(): ...\n",
		"def ok(): ...\nx = (\ndef swallowed(): ...\n",
		"def ok(): ...\ns = f'{'\n",
		"def ok(): ...\n\"\"\"never closed\n",
		"def ok(): ...\nx = ]]]\ndef after(): ...\n",
		"def ok(): ...\n@\n",
		"def ok(): ...\n__all__.extend(\n",
		"def ok(): ...\n__all__ .\n",
		"def ok(): ...\ndef\n",
		"def ok(): ...\nclass:\n",
		"def ok(): ...\n" + strings.Repeat("f'{", 100) + "\n",
		"def ok(): ...\n" + strings.Repeat("if x:\n", 1) + strings.Repeat(" ", 3000) + "y\n",
		"def ok(): ...\r\nasync\r\n\\\r\n",
	} {
		m, _ := scanMap(t, src)
		if _, ok := m["ok"]; !ok {
			t.Errorf("%q: ok missing", src)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, file := range []string{"flask/app.py", "requests/api.py", "attr/__init__.pyi"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "third_party", file)); err == nil {
			f.Add(b[:min(len(b), 4000)])
		}
	}
	f.Add([]byte("class A:\n  def f(self, x=f'{y[\"}\"]:{w}}'):\n    '''d'''\n__all__ = ['A']\n"))
	f.Add([]byte("@overload\ndef f(): ...\n\tdef g(): pass\n\\\n"))
	f.Add([]byte("def g(a, b=1, c=True):\n  '''d'''\ndef f(x, **kw):\n  '''e'''\n  return g(x, b=(2,), **kw)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkScan(t, Scan(src, Options{Module: "m", File: "m.py", MaxSymbols: 100}), 100, "m.py")
	})
}

// checkScan checks what a scan of any input must satisfy: unique qualified names, signatures
// and docs within their limits, at most max symbols, each in a file whose path starts with
// prefix, at a line of 1 or more.
func checkScan(t *testing.T, res Result, max int, prefix string) {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range res.Symbols {
		if seen[s.QualifiedName] {
			t.Fatalf("duplicate %q", s.QualifiedName)
		}
		seen[s.QualifiedName] = true
		if len(s.Signature) > maxSignatureLines*(MaxSignature+1) || len(s.Doc) > MaxDoc {
			t.Fatalf("over limit: %d %d", len(s.Signature), len(s.Doc))
		}
		if s.Line < 1 || !strings.HasPrefix(s.File, prefix) {
			t.Fatalf("%s at %s:%d", s.QualifiedName, s.File, s.Line)
		}
	}
	if len(res.Symbols) > max {
		t.Fatalf("%d symbols", len(res.Symbols))
	}
}

func BenchmarkScan(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "third_party", "flask", "app.py"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	n := 0
	for b.Loop() {
		n += len(Scan(src, Options{Module: "flask.app", File: "flask/app.py"}).Symbols)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "symbols/s")
}

// TestPathological times hostile inputs against an ordinary file of about the same size scanned
// in the same run: no input may cost much more than linear time.
// numbered repeats format n times with the repetition's number as its %d.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

func TestPathological(t *testing.T) {
	ordinary, err := os.ReadFile(filepath.Join("testdata", "third_party", "flask", "app.py"))
	if err != nil {
		t.Fatal(err)
	}
	var base []byte
	for len(base) < 300<<10 {
		base = append(base, ordinary...)
	}
	scan := func(src string) { Scan([]byte(src), Options{Module: "m"}) }
	testutil.Linear(t, scan, string(base), map[string]string{
		"brackets":      strings.Repeat("(", 300000),
		"closers":       strings.Repeat(")]}", 100000),
		"fstrings":      strings.Repeat("f'{", 100000),
		"triple quotes": strings.Repeat(`"""`, 100000),
		"decorators":    strings.Repeat("@d\n", 100000),
		"indentation":   nestedIfs(2000),
		"defs":          strings.Repeat("def f(a, b=(1, [2, {3: 4}])) -> 'x': ...\n", 8000),
		"all":           "__all__ = [" + strings.Repeat("'a', ", 60000) + "]\n",
		"backslashes":   strings.Repeat("\\\n", 150000),
		"constants":     numbered("NAME_%d = [1, 2, 3]  #: doc\n", 20000),
		"doc comments":  strings.Repeat("#: doc\n", 100000) + "X_1 = 1\n",
		"class fields":  "class C:\n" + numbered("    field_%d: int = 1\n    \"\"\"Doc.\"\"\"\n", 15000),
		"param fields":  "def f():\n    \"\"\"Doc.\n\n" + numbered("    :param int p%d: doc\n", 20000) + "    \"\"\"\n",
		"google nested": "def f():\n    \"\"\"Doc.\n\n" + numbered("    Args:\n        x%d: y\n", 20000) + "    \"\"\"\n",
	})
}

func nestedIfs(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", depth) + "def deep(): ...\n")
	return b.String()
}

func TestImports(t *testing.T) {
	src := `"""Doc."""
from ._core import (
    open_nursery,
    Nursery as Nursery,  # comment
)
from .. import up
from ...far.away import x as y
from pkg._impl import absolute
from ._star import *
import os, sys
from __future__ import annotations
if TYPE_CHECKING:
    from ._types import Alias
try:
    from ._speedups import fast
except ImportError:
    pass

class C:
    from ._inner import not_module_level

def f():
    from ._local import not_module_level_either
from . import (a, b)
Copy = a.Copy
Writer = b.io.Writer
Local = C.attr
Plain = a
_hidden = a.Hidden
from .bad import (
`
	res := Scan([]byte(src), Options{Module: "m"})
	var got []string
	for _, im := range res.Imports {
		got = append(got, fmt.Sprintf("%d:%d %s %s %s", im.Line, im.Level, im.Module, im.Name, im.As))
	}
	want := []string{
		"2:1 _core open_nursery open_nursery",
		"2:1 _core Nursery Nursery",
		"6:2  up up",
		"7:3 far.away x y",
		"8:0 pkg._impl absolute absolute",
		"9:1 _star * ",
		"11:0 __future__ annotations annotations",
		"13:1 _types Alias Alias",
		"15:1 _speedups fast fast",
		"24:1  a a",
		"24:1  b b",
		// An attribute of an imported module, assigned, is an import of it.
		"25:1 a Copy Copy",
		"26:1 b.io Writer Writer",
		"29:1 a Hidden _hidden",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestAllDefinitions(t *testing.T) {
	src := "__all__ = ['a']\ndef a(): pass\ndef b(): pass\ndef _c(): pass\nclass _D:\n    def m(self): pass\n    def _n(self): pass\n"
	var got []string
	for _, s := range Scan([]byte(src), Options{Module: "m", AllDefinitions: true}).Symbols {
		got = append(got, s.QualifiedName)
	}
	if want := "m m.a m.b m._c m._D m._D.m"; strings.Join(got, " ") != want {
		t.Errorf("symbols = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestInheritedAttributes checks that a class's symbols include the class attributes it
// inherits from bases in the same file (a subclass's exit_code), nearest base first, and not
// those it assigns itself, private or undocumented instance attributes, or those of bases
// defined elsewhere.
func TestInheritedAttributes(t *testing.T) {
	src := `import enum
from other import Remote

class ClickException(Exception):
    exit_code = 1
    #: Shown before the message.
    PREFIX = "Error"
    _hidden = 3

    def __init__(self, message):
        self.message = message

    def show(self): pass

class UsageError(ClickException):
    """A usage error."""
    exit_code = 2

class BadArgumentUsage(UsageError):
    """Raised if an argument is wrong."""

class Quiet(UsageError, metaclass=type):
    exit_code = 0

class FromElsewhere(Remote):
    pass

class _Base:
    limit: int = 10

class Public(_Base):
    pass
`
	m, _ := scanMap(t, src)
	testutil.Signatures(t, m, map[string]string{
		"BadArgumentUsage.exit_code": "exit_code = 2",
		"BadArgumentUsage.PREFIX":    `PREFIX = "Error"`,
		"UsageError.PREFIX":          `PREFIX = "Error"`,
		"Quiet.exit_code":            "exit_code = 0",
		"Public.limit":               "limit: int = 10",
	})
	if d := m["BadArgumentUsage.PREFIX"].Doc; d != "Shown before the message.\n\nInherited from ClickException." {
		t.Errorf("inherited doc = %q", d)
	}
	if d := m["BadArgumentUsage.exit_code"].Doc; d != "Inherited from UsageError." {
		t.Errorf("inherited doc = %q", d)
	}
	testutil.Absent(t, m, "", "BadArgumentUsage._hidden", "BadArgumentUsage.message", "FromElsewhere.exit_code")
}

// TestOverrideDoc: a method or property without a docstring that overrides a documented one of
// a base in the same file (a generic one too: Outcome[T]) reads the base's doc, as inspect.getdoc
// does; one
// with its own docstring, one whose bases do not document it, and __init__ keep their own.
func TestOverrideDoc(t *testing.T) {
	src := `class Outcome:
    """An outcome."""

    def unwrap(self):
        """Return or raise the contained value or exception."""

    @property
    def ok(self):
        """Whether it holds a value."""

    def send(self, gen): pass

    def __init__(self):
        """Make one."""

class Value(Outcome[T], Generic[T]):
    def unwrap(self):
        return self.value

    @property
    def ok(self):
        return True

    def send(self, gen):
        return gen.send(self.value)

    def __init__(self, value):
        self.value = value

class Error(Outcome):
    def unwrap(self):
        """Raise the error."""
        raise self.error

class Final(Value):
    def unwrap(self):
        return 1
`
	m, _ := scanMap(t, src)
	testutil.Docs(t, m, map[string]string{
		"Value.unwrap": "Return or raise the contained value or exception.",
		"Value.ok":     "Whether it holds a value.",
		"Final.unwrap": "Return or raise the contained value or exception.",
		"Error.unwrap": "Raise the error.",
		"Value.send":   "",
	})
	if d := m["Value"].Doc; strings.Contains(d, "Make one.") {
		t.Errorf("Value's doc %q takes Outcome.__init__'s", d)
	}
}

// TestInheritedMethods checks that a public class lists the public methods, classmethods,
// staticmethods and properties it inherits from private bases in the same file, each with its
// base's signature, doc and parameters and "Inherited from <base>.", except those it or a
// nearer base overrides, private and dunder ones, those of a public base (its own symbols), and
// those of bases defined elsewhere.
func TestInheritedMethods(t *testing.T) {
	src := `from other import Remote

class _Finder:
    """Base class for finders."""

    @classmethod
    def find(cls, where='.', exclude=()):
        """Return the packages found within where.

        :param exclude: names to leave out; 'foo.*' excludes the subpackages of foo.
        """

    @staticmethod
    def pattern(p):
        """Compile p."""

    @property
    def root(self):
        """The directory searched."""

    def walk(self):
        """Walk the tree."""

    def _find_iter(self):
        """Private."""

    def __init__(self, x):
        """Make a finder."""

class PackageFinder(_Finder):
    """Find packages."""

    def walk(self, depth=2):
        """Walk packages only. Namespace packages are skipped.

        :param depth: how deep to go.
        """

class Namespaced(PackageFinder):
    pass

class FromElsewhere(Remote):
    pass
`
	m, res := scanMap(t, src)
	for _, sym := range res.Symbols {
		if strings.HasSuffix(sym.Doc, "Inherited from _Finder.") {
			t.Errorf("%s is among Symbols; want it in Inherited", sym.QualifiedName)
		}
	}
	want := map[string]symbolWant{
		"PackageFinder.find": {docidx.KindMethod, "@classmethod def find(cls, where='.', exclude=())",
			"Return the packages found within where.\n\n:param exclude: names to leave out; 'foo.*' excludes the subpackages of foo.\n\nInherited from _Finder."},
		"PackageFinder.pattern": {docidx.KindMethod, "@staticmethod def pattern(p)", "Compile p.\n\nInherited from _Finder."},
		"PackageFinder.root":    {docidx.KindProperty, "def root(self)", "The directory searched.\n\nInherited from _Finder."},
		"PackageFinder.walk":    {docidx.KindMethod, "def walk(self, depth=2)", "Walk packages only. Namespace packages are skipped.\n\n:param depth: how deep to go."},
		"Namespaced.find": {docidx.KindMethod, "@classmethod def find(cls, where='.', exclude=())",
			"Return the packages found within where.\n\n:param exclude: names to leave out; 'foo.*' excludes the subpackages of foo.\n\nInherited from _Finder."},
	}
	checkSymbols(t, m, want, false)
	for name := range want {
		if p := m[name].Parent; p != name[:strings.IndexByte(name, '.')] {
			t.Errorf("%s has parent %q", name, p)
		}
	}
	if p := m["PackageFinder.find"].Params; len(p) != 2 || p[0].Name != "exclude" || p[0].Default != "()" || p[1].Name != "where" || p[1].Default != "'.'" {
		t.Errorf("inherited params = %+v, want exclude=() and where='.'", p)
	}
	if l := m["PackageFinder.find"].Line; l != 7 {
		t.Errorf("inherited line = %d, want 7 (the base's def)", l)
	}
	// Namespaced.walk is PackageFinder's, a public class whose walk is a symbol; it hides
	// _Finder's walk too.
	testutil.Absent(t, m, "", "PackageFinder._find_iter", "PackageFinder.__init__", "_Finder.find", "FromElsewhere.find", "Namespaced.walk")

	// In a private module (a public module re-exports its classes), every base's methods are
	// inherited: none of them is a symbol of its own.
	res = Scan([]byte(src), Options{Module: "m", File: "m.py", AllDefinitions: true})
	found := false
	for _, sym := range res.Inherited {
		if sym.QualifiedName == "m.Namespaced.walk" {
			found = sym.Doc == "Walk packages only. Namespace packages are skipped.\n\n:param depth: how deep to go.\n\nInherited from PackageFinder."
		}
	}
	if !found {
		t.Errorf("with AllDefinitions, Namespaced.walk is not PackageFinder's: %+v", res.Inherited)
	}
}

// TestInheritedBound checks that a class inherits at most MaxInheritedMethods methods, the
// nearest base's first, and that a member the nearer base defines hides the farther one's even
// when the bound leaves it out.
func TestInheritedBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("class _Far:\n    def m0(self):\n        \"Far's m0.\"\n    def extra(self): pass\n")
	b.WriteString("class _Near(_Far):\n")
	for i := range MaxInheritedMethods + 5 {
		fmt.Fprintf(&b, "    def m%d(self): pass\n", i)
	}
	b.WriteString("class Leaf(_Near):\n    pass\n")
	m, _ := scanMap(t, b.String())
	n := 0
	for _, s := range m {
		if s.Parent == "Leaf" {
			n++
		}
	}
	if n != MaxInheritedMethods {
		t.Errorf("Leaf has %d inherited members, want %d", n, MaxInheritedMethods)
	}
	if d := m["Leaf.m0"].Doc; d != "Inherited from _Near." {
		t.Errorf("Leaf.m0 doc = %q, want Near's", d)
	}
	if _, ok := m["Leaf.extra"]; ok {
		t.Error("Leaf.extra is a symbol past the bound")
	}
}

// TestAliases checks that an assignment binding another name to a function or method defined
// in the file is documented as that function: "name = func", "name = Class.method" (the
// method inherited from a private base too), and in a class body "name = method"; and that an
// assignment to a name the file imports is reported in Result.Aliases for the caller.
func TestAliases(t *testing.T) {
	src := `from .discovery import PackageFinder as PF
from . import helpers

__all__ = ["PackageFinder", "find_packages", "find", "compat_get", "version", "DEFAULT"]

class _Finder:
    @classmethod
    def find(cls, where='.'):
        """Return the packages found within where."""

class PackageFinder(_Finder):
    """Find packages."""

    def get(self, key: str, default=None):
        """Return key's value."""

    fetch = get
    get_all = get_many

find = PackageFinder.find
compat_get = PackageFinder.get
find_packages = PF.find
version = helpers.version
DEFAULT = 3
value = DEFAULT

def _private(x=1):
    """A private helper."""

public_name = _private
`
	m, res := scanMap(t, src)
	checkSymbols(t, m, map[string]symbolWant{
		"find":                  {docidx.KindFunc, "find = PackageFinder.find\n@classmethod def find(cls, where='.')", "Return the packages found within where.\n\nAlias of PackageFinder.find."},
		"compat_get":            {docidx.KindFunc, "compat_get = PackageFinder.get\ndef get(self, key: str, default=None)", "Return key's value.\n\nAlias of PackageFinder.get."},
		"PackageFinder.fetch":   {docidx.KindMethod, "fetch = get\ndef get(self, key: str, default=None)", "Return key's value.\n\nAlias of get."},
		"find_packages":         {docidx.KindVar, "find_packages = PF.find", ""},
		"DEFAULT":               {docidx.KindConst, "DEFAULT = 3", ""},
		"PackageFinder.get_all": {docidx.KindField, "get_all = get_many", ""},
	}, false)
	if p := m["compat_get"].Params; len(p) != 0 {
		t.Errorf("compat_get params = %+v, want none (the doc documents none, no default is telling)", p)
	}
	testutil.Absent(t, m, "not in __all__", "value", "public_name")
	want := []Alias{{QualifiedName: "m.find_packages", Target: "PF.find"}, {QualifiedName: "m.version", Target: "helpers.version"}}
	if !reflect.DeepEqual(res.Aliases, want) {
		t.Errorf("Aliases = %+v, want %+v", res.Aliases, want)
	}

	// Without __all__, an alias of a function is public by its name, as the function would be.
	m, _ = scanMap(t, "def _impl(a=1):\n    \"Do it.\"\n\ndo = _impl\n_hidden = _impl\n")
	if s, ok := m["do"]; !ok || s.Kind != docidx.KindFunc || s.Doc != "Do it.\n\nAlias of _impl." {
		t.Errorf("do = %+v, want the function _impl", s)
	}
	if _, ok := m["_hidden"]; ok {
		t.Error("_hidden is a symbol")
	}
}

// TestForwardedKeywords: a function that passes its **kwargs on to another the file defines
// takes that one's keyword parameters as its own, described as passed on, but those the call
// passes itself, by position or by name. yaml.dump's sort_keys=True is in dump_all's signature,
// where nothing said dump had it.
func TestForwardedKeywords(t *testing.T) {
	src := `def dump_all(documents, stream=None, Dumper=None,
        default_style=None, default_flow_style=False, sort_keys=True):
    """
    Serialize a sequence of Python objects into a YAML stream.

    :param sort_keys: sort the keys of mappings.
    """

def dump(data, stream=None, Dumper=None, **kwds):
    """Serialize a Python object into a YAML stream."""
    if stream is None:
        pass
    return dump_all([data], stream, Dumper=Dumper, **kwds)

class Session:
    def request(self, method, url, timeout=30, verify=True):
        """Send a request.

        :param method: the HTTP method, which get passes itself.
        """

    def get(self, url, **kwargs):
        """Send a GET request."""
        return self.request("GET", url, **kwargs)

    def close(self, **kw):
        """Close."""
        super().close(**kw)
`
	m, _ := scanMap(t, src)
	got := func(name string) []string {
		var out []string
		for _, p := range m[name].Params {
			out = append(out, p.Name+"="+p.Default+" "+p.Doc)
		}
		return out
	}
	for name, want := range map[string][]string{
		"dump":          {"sort_keys=True passed on to dump_all: sort the keys of mappings.", "default_flow_style=False passed on to dump_all"},
		"Session.get":   {"timeout=30 passed on to self.request", "verify=True passed on to self.request"},
		"Session.close": nil,
	} {
		if g := got(name); !slices.Equal(g, want) {
			t.Errorf("%s params %q, want %q", name, g, want)
		}
	}
}

// TestRaisesInCode: a function whose docstring says nothing of what it raises names the errors
// its body raises with a literal message, nested blocks included, each once, documented or
// not; a message that goes on keeps its literal, and bare raises, f-strings and documented
// Raises add nothing.
func TestRaisesInCode(t *testing.T) {
	src := `def connect(host, port):
    """Connect to host."""
    if not host:
        raise ValueError("host is required")
    for p in ports:
        if p < 0:
            raise errors.InvalidPort('port %d is negative' % p)
    if port > 65535:
        raise ValueError(f"port {port} too large")
    try:
        pass
    except OSError:
        raise
    raise ValueError("host is required")

def parse(s):
    """Parse s.

    Raises:
        ValueError: when s is empty.
    """
    raise ValueError("empty")

def quiet():
    return 1

def bare(x):
    raise ValueError("no")
`
	syms := map[string]docidx.Symbol{}
	for _, sym := range Scan([]byte(src), Options{Module: "m", File: "m.py"}).Symbols {
		syms[sym.Name] = sym
	}
	want := []string{`raise ValueError("host is required")`, `raise errors.InvalidPort("port %d is negative …")`}
	if c := syms["connect"]; !slices.Equal(c.Errors, want) || c.Doc != "Connect to host." {
		t.Errorf("connect: doc %q, errors %q; want its docstring and %q", c.Doc, c.Errors, want)
	}
	if p, q, b := syms["parse"], syms["quiet"], syms["bare"]; p.Errors != nil || q.Errors != nil ||
		!slices.Equal(b.Errors, []string{`raise ValueError("no")`}) || !b.Undocumented() {
		t.Errorf("parse %q, quiet %q, bare %q: documented raises and none add nothing, no docstring its raises", p.Errors, q.Errors, b.Errors)
	}
}

// TestDocAssignments: a docstring assigned after the definition, f.__doc__ = "…", is
// the item's when it has none, and so is one a loop over names assigns to each, with
// .format(name=var.__name__) filled in for each (mypy_extensions' i64, i32 …); a docstring of
// the item's own stands.
func TestDocAssignments(t *testing.T) {
	src := `class Meta(type):
    pass

def helper():
    pass
helper.__doc__ = \
    """Help with things."""

class i64(metaclass=Meta):
    def __new__(cls, x=0):
        return int(x)

class u8(metaclass=Meta):
    """Own docstring."""

for _t in i64, u8:
    _t.__doc__ = \
        """A native integer type when used with mypyc.

        {name}(x) converts to 'int'.
        """.format(name=_t.__name__)
del _t

class K:
    def run(self):
        pass

K.run.__doc__ = "Run it."
`
	docs := map[string]string{}
	for _, sym := range Scan([]byte(src), Options{Module: "m", File: "m.py"}).Symbols {
		docs[sym.QualifiedName] = sym.Doc
	}
	for name, want := range map[string]string{
		"m.helper": "Help with things.",
		"m.i64":    "A native integer type when used with mypyc.\n\ni64(x) converts to 'int'.",
		"m.u8":     "Own docstring.",
		"m.K.run":  "Run it.",
	} {
		if docs[name] != want {
			t.Errorf("%s: doc %q, want %q", name, docs[name], want)
		}
	}
}
