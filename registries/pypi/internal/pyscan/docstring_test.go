package pyscan

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []docidx.Param
	}{
		{
			name: "rest urllib3 Retry",
			doc: `Retry configuration.

:param int total:
    Total number of retries to allow. Takes precedence over other counts.

    Set to ` + "``None``" + ` to remove this constraint.

:param Collection allowed_methods:
    Set of uppercased HTTP method verbs that we should retry on.

:param bool raise_on_redirect: Whether, if the number of redirects is
    exhausted, to raise a MaxRetryError.
:returns: nothing`,
			want: []docidx.Param{
				{Name: "total", Type: "int", Doc: "Total number of retries to allow. Takes precedence over other counts.\n\nSet to ``None`` to remove this constraint."},
				{Name: "allowed_methods", Type: "Collection", Doc: "Set of uppercased HTTP method verbs that we should retry on."},
				{Name: "raise_on_redirect", Type: "bool", Doc: "Whether, if the number of redirects is\nexhausted, to raise a MaxRetryError."},
			},
		},
		{
			name: "rest with type fields and synonyms",
			doc: `Send it.

:param url: URL for the new request.
:type url: str
:type timeout: float or tuple
:keyword timeout: How long to wait.
:arg \*\*kwargs: Optional arguments.
:raises ValueError: never a parameter
:param:no name`,
			want: []docidx.Param{
				{Name: "url", Type: "str", Doc: "URL for the new request."},
				{Name: "timeout", Type: "float or tuple", Doc: "How long to wait."},
				{Name: "**kwargs", Doc: "Optional arguments."},
			},
		},
		{
			name: "google",
			doc: `Fetches rows.

Args:
    table_handle: An open Table instance.
    keys (Sequence[str]): A sequence of strings representing the key of each
        table row to fetch.

        String keys will be UTF-8 encoded.
    *args: Passed on.
    **kwargs (Any): Passed on too.

Keyword Args:
    require_all_keys (bool, optional): If True only rows with values set
        for all keys will be returned.

Returns:
    A dict mapping keys to the corresponding table row data.
    not_a_param: because Returns is not a parameter section.`,
			want: []docidx.Param{
				{Name: "table_handle", Doc: "An open Table instance."},
				{Name: "keys", Type: "Sequence[str]", Doc: "A sequence of strings representing the key of each\ntable row to fetch.\n\nString keys will be UTF-8 encoded."},
				{Name: "*args", Doc: "Passed on."},
				{Name: "**kwargs", Type: "Any", Doc: "Passed on too."},
				{Name: "require_all_keys", Type: "bool, optional", Doc: "If True only rows with values set\nfor all keys will be returned."},
			},
		},
		{
			name: "numpy",
			doc: `Compute a path.

Parameters
----------
G : NetworkX graph
source : node, optional
    Starting node for path.
method : string, optional (default = 'dijkstra')
    The algorithm to use.
x1, x2 : int, default 0
    Coordinates.
start : node, optional (default ` + "`None`" + `)
    Where to start.
keys : (default None) sort key(s)
    How to sort.
flag
    A flag without a type.

Returns
-------
path : list
    Not a parameter.`,
			want: []docidx.Param{
				{Name: "G", Type: "NetworkX graph"},
				{Name: "source", Type: "node, optional", Doc: "Starting node for path."},
				{Name: "method", Type: "string, optional", Default: "'dijkstra'", Doc: "The algorithm to use."},
				{Name: "x1", Type: "int", Default: "0", Doc: "Coordinates."},
				{Name: "x2", Type: "int", Default: "0", Doc: "Coordinates."},
				{Name: "start", Type: "node, optional", Default: "None", Doc: "Where to start."},
				{Name: "keys", Type: "(default None) sort key(s)", Default: "None", Doc: "How to sort."},
				{Name: "flag", Doc: "A flag without a type."},
			},
		},
		{
			name: "numpy other parameters and default forms",
			doc: `Other Parameters
----------------
copy : bool, default=True
    Copy first.
mode : str, default: "r"
    Open mode.`,
			want: []docidx.Param{
				{Name: "copy", Type: "bool", Default: "True", Doc: "Copy first."},
				{Name: "mode", Type: "str", Default: `"r"`, Doc: "Open mode."},
			},
		},
		{
			name: "numpy section ended by a heading underlined with =",
			doc: `Apply a hinge.

Parameters
----------
loc : Sympifyable
    Location of the hinge.

Returns
=======
Symbol
    The unknown jump.

Examples
========
>>> E = Symbol('E')
True`,
			want: []docidx.Param{{Name: "loc", Type: "Sympifyable", Doc: "Location of the hinge."}},
		},
		{
			name: "google Default line belongs to the entry above",
			doc: `Pull the image digest.

Args:
    platform (str): The platform to pull the image for.
    Default: ` + "`None`" + `
    tag (str): The tag.
    Default: ` + "``'latest'``" + `

Returns:
    (Image): A reference to the pulled image.`,
			want: []docidx.Param{
				{Name: "platform", Type: "str", Default: "None", Doc: "The platform to pull the image for.\nDefault: `None`"},
				{Name: "tag", Type: "str", Default: "'latest'", Doc: "The tag.\nDefault: ``'latest'``"},
			},
		},
		{
			name: "defaults stated in descriptions",
			doc: `Spawn it.

:param timeout: When specified as a number, (default: *30*), TIMEOUT is raised.
:param encoding: Defaults to ` + "``'utf-8'``" + `.
:param retries: The default is 3 tries.
:param level: Default value is -1.
:param verify: Whether to verify; defaults to True.
:param locale: Defaults to the system locale.
:param default: If given, default is returned when nothing matches.
:param json: Serialized as JSON; also defaults ` + "``content_type``" + ` to JSON.
:param size: The size (default 10).`,
			want: []docidx.Param{
				{Name: "timeout", Default: "30", Doc: "When specified as a number, (default: *30*), TIMEOUT is raised."},
				{Name: "encoding", Default: "'utf-8'", Doc: "Defaults to ``'utf-8'``."},
				{Name: "retries", Default: "3", Doc: "The default is 3 tries."},
				{Name: "level", Default: "-1", Doc: "Default value is -1."},
				{Name: "verify", Default: "True", Doc: "Whether to verify; defaults to True."},
				{Name: "locale", Doc: "Defaults to the system locale."},
				{Name: "default", Doc: "If given, default is returned when nothing matches."},
				{Name: "json", Doc: "Serialized as JSON; also defaults ``content_type`` to JSON."},
				{Name: "size", Default: "10", Doc: "The size (default 10)."},
			},
		},
		{name: "no parameters", doc: "Just prose.\n\nArgs are explained elsewhere: see below.", want: nil},
		{name: "empty", doc: "", want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Params(tc.doc)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Params =\n%s\nwant\n%s", fmtParams(got), fmtParams(tc.want))
			}
		})
	}
}

func fmtParams(ps []docidx.Param) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("\t" + p.Name + " | " + p.Type + " | " + p.Default + " | " + strings.ReplaceAll(p.Doc, "\n", `\n`) + "\n")
	}
	return b.String()
}

// TestParamsFromSignature checks that documented parameters take the annotation and default
// of the signature when the docstring gives none, and that a class takes its __init__'s.
func TestParamsFromSignature(t *testing.T) {
	m, _ := scanMap(t, `
def get(url: str, params: dict | None = None, *, timeout=3.5, **kwargs) -> int:
    """Get it.

    :param url: Where.
    :param float timeout: How long.
    :param \*\*kwargs: More.
    """

class Retry:
    """Retry configuration.

    :param int total:
        Total number of retries to allow.
    :param backoff_max:
        The maximum backoff time.
    """

    DEFAULT_BACKOFF_MAX = 120

    def __init__(self, total: bool | int | None = 10, backoff_max: float = DEFAULT_BACKOFF_MAX) -> None:
        self.total = total

class Client:
    """A client."""

    def __init__(self, base_url: str = "/", retries: int = 3):
        """Make one.

        Args:
            base_url: Prefix of every request.
            retries: How often to try again.
        """

class Bare:
    """No parameters documented."""

    def __init__(self, x=1): ...
`)
	for q, want := range map[string][]docidx.Param{
		"get": {
			{Name: "url", Type: "str", Doc: "Where."},
			{Name: "timeout", Type: "float", Default: "3.5", Doc: "How long."},
			{Name: "**kwargs", Doc: "More."},
		},
		"Retry": {
			{Name: "total", Type: "int", Default: "10", Doc: "Total number of retries to allow."},
			{Name: "backoff_max", Type: "float", Default: "DEFAULT_BACKOFF_MAX", Doc: "The maximum backoff time."},
		},
		"Client": {
			{Name: "base_url", Type: "str", Default: `"/"`, Doc: "Prefix of every request."},
			{Name: "retries", Type: "int", Default: "3", Doc: "How often to try again."},
		},
		"Client.__init__": {
			{Name: "base_url", Type: "str", Default: `"/"`, Doc: "Prefix of every request."},
			{Name: "retries", Type: "int", Default: "3", Doc: "How often to try again."},
		},
		"Bare": {{Name: "x", Default: "1"}},
	} {
		if got := m[q].Params; !reflect.DeepEqual(got, want) {
			t.Errorf("%s params =\n%s\nwant\n%s", q, fmtParams(got), fmtParams(want))
		}
	}
	if d := m["Client"].Doc; d != "A client.\n\nMake one.\n\nArgs:\n    base_url: Prefix of every request.\n    retries: How often to try again." {
		t.Errorf("Client doc = %q, want the class's docstring and __init__'s", d)
	}
	if d := m["Retry"].Doc; !strings.HasPrefix(d, "Retry configuration.\n\n:param int total:\n    Total number") {
		t.Errorf("Retry doc = %q, want the whole docstring", d)
	}
}

func TestBoundDoc(t *testing.T) {
	para := strings.Repeat("word ", 30) // 150 bytes
	long := strings.Repeat(para+"\n\n", 2*MaxDoc/len(para))
	for _, tc := range []struct {
		name, in string
		limit    int
		want     string
	}{
		{"short", "One.\n\nTwo.", 100, "One.\n\nTwo."},
		{"paragraph cut", "First paragraph here.\n\nSecond paragraph that is long enough to cross.", 40, "First paragraph here.\n\n…"},
		{"line cut", "A line of text\nanother line of text\nand a third one", 40, "A line of text\nanother line of text\n…"},
		{"rune cut", strings.Repeat("é", 30), 21, strings.Repeat("é", 9) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := boundDoc(tc.in, tc.limit); got != tc.want {
				t.Errorf("boundDoc = %q, want %q", got, tc.want)
			}
		})
	}
	got := boundDoc(long, MaxDoc)
	if len(got) > MaxDoc || !strings.HasSuffix(got, "\n\n…") || !utf8.ValidString(got) {
		t.Errorf("boundDoc(long) = %d bytes ending %q", len(got), got[len(got)-10:])
	}
}

func FuzzParams(f *testing.F) {
	for _, s := range []string{
		":param int total:\n    Total.\n:type x: int",
		"Args:\n    x (int): X.\n        more\n",
		"Parameters\n----------\nx : int, default 3\n    X.\n",
		":param:\n:type:\nArgs:\nParameters\n---",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		ps := Params(cleandoc(doc))
		if len(ps) > maxParams {
			t.Fatalf("%d params, limit %d", len(ps), maxParams)
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if p.Name == "" || seen[p.Name] || len(p.Doc) > MaxParamDoc {
				t.Fatalf("bad param %+v", p)
			}
			seen[p.Name] = true
		}
	})
}

// TestParamsOfFieldClasses checks a dataclass documenting its parameters: they take the
// fields' annotations and defaults, as the generated __init__ does; and a class documented
// only in __init__ takes that docstring.
func TestParamsOfFieldClasses(t *testing.T) {
	m, _ := scanMap(t, `
@dataclass
class Config:
    """Settings.

    Args:
        host: Where to connect.
        port: Which port.
    """
    host: str = "localhost"
    port: int = 8080

class OnlyInit:
    def __init__(self, n=1):
        """Make one from n."""
`)
	want := []docidx.Param{
		{Name: "host", Type: "str", Default: `"localhost"`, Doc: "Where to connect."},
		{Name: "port", Type: "int", Default: "8080", Doc: "Which port."},
	}
	if got := m["Config"].Params; !reflect.DeepEqual(got, want) {
		t.Errorf("Config params =\n%s\nwant\n%s", fmtParams(got), fmtParams(want))
	}
	if d := m["OnlyInit"].Doc; d != "Make one from n." {
		t.Errorf("OnlyInit doc = %q, want __init__'s", d)
	}
}

// TestCleandoc checks cleandoc against Python's inspect.cleandoc: the common indentation of the
// lines after the first goes, and with none (a module docstring at the left edge) every line
// keeps its own, so an indented code block stays indented.
func TestCleandoc(t *testing.T) {
	testutil.Mapping(t, "cleandoc", cleandoc, map[string]string{
		"Summary.\n\n    Body.\n\n        code()\n    ":                            "Summary.\n\nBody.\n\n    code()",
		"Tagged JSON\n\n.. code-block:: python\n\n    class T:\n        key = 1\n": "Tagged JSON\n\n.. code-block:: python\n\n    class T:\n        key = 1",
		"  Lead.\n  \n  Next.": "Lead.\n\nNext.",
	})
}
