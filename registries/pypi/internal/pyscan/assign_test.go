package pyscan

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestAssignments(t *testing.T) {
	src := `"""Module."""
import enum
from typing import Final, TypedDict, TypeVar

#: Seconds to wait.
#: Before giving up.
TIMEOUT = 30

# a plain comment is no doc
#: The limit.
LIMIT: Final[int] = 10
VERSION: Final = "1.0"
MAX_SIZE = 1024 * 1024  #: bytes
DEFAULTS = {
    "a": 1,
    "b": 2,
}
"""The defaults."""
HUGE = [` + strings.Repeat(`"item", `, 300) + `]
T = TypeVar("T")
lowercase_var = 1
_PRIVATE = 2
MIN = LOW = 7
x, y = 1, 2
if TYPE_CHECKING:
    IN_BLOCK = True
else:
    IN_BLOCK = False

def later(): ...
later = later  # an alias of a def keeps the def

class Retry:
    """Retry configuration."""

    #: Default maximum backoff time.
    DEFAULT_BACKOFF_MAX = 120
    DEFAULT: typing.ClassVar[Retry]
    total: int = 10
    """How many retries."""
    name = "retry"
    _hidden = 1

    def __init__(self): ...

class Color(enum.Enum):
    """A color."""
    RED = 1
    """The red one."""
    GREEN = enum.auto()
    _ignore_ = ["x"]

    def describe(self): ...

class Movie(TypedDict, total=False):
    title: str
    year: int
    type: Literal["movie"]

@dataclass
class Point:
    x: float = 0.0
    y: float = field(default=0.0, description="Not pydantic, still documents it.")

class Model(BaseModel):
    name: str = Field(..., description="The model's name.")
    model_config = ConfigDict(frozen=True)

class Outer:
    class Inner:
        HIDDEN = 1
`
	m, _ := scanMap(t, src)
	want := map[string]symbolWant{
		"TIMEOUT":                   {docidx.KindConst, "TIMEOUT = 30", "Seconds to wait.\nBefore giving up."},
		"LIMIT":                     {docidx.KindConst, "LIMIT: Final[int] = 10", "The limit."},
		"VERSION":                   {docidx.KindConst, `VERSION: Final = "1.0"`, ""},
		"MAX_SIZE":                  {docidx.KindConst, "MAX_SIZE = 1024 * 1024", "bytes"},
		"DEFAULTS":                  {docidx.KindConst, `DEFAULTS = {"a": 1, "b": 2}`, "The defaults."},
		"HUGE":                      {docidx.KindConst, "", ""},
		"MIN":                       {docidx.KindConst, "MIN = 7", ""},
		"IN_BLOCK":                  {docidx.KindConst, "IN_BLOCK = True", ""},
		"later":                     {docidx.KindFunc, "def later()", ""},
		"Retry":                     {docidx.KindClass, "class Retry", "Retry configuration."},
		"Retry.DEFAULT_BACKOFF_MAX": {docidx.KindConst, "DEFAULT_BACKOFF_MAX = 120", "Default maximum backoff time."},
		"Retry.DEFAULT":             {docidx.KindConst, "DEFAULT: typing.ClassVar[Retry]", ""},
		"Retry.total":               {docidx.KindField, "total: int = 10", "How many retries."},
		"Retry.name":                {docidx.KindField, `name = "retry"`, ""},
		"Retry.__init__":            {docidx.KindMethod, "def __init__(self)", ""},
		"Color":                     {docidx.KindClass, "class Color(enum.Enum)", "A color."},
		"Color.RED":                 {docidx.KindConst, "RED = 1", "The red one."},
		"Color.GREEN":               {docidx.KindConst, "GREEN = enum.auto()", ""},
		"Color.describe":            {docidx.KindMethod, "def describe(self)", ""},
		"Movie":                     {docidx.KindClass, "class Movie(TypedDict, total=False)", ""},
		"Movie.title":               {docidx.KindField, "title: str", ""},
		"Movie.year":                {docidx.KindField, "year: int", ""},
		"Movie.type":                {docidx.KindField, `type: Literal["movie"]`, ""},
		"Point":                     {docidx.KindClass, "class Point", ""},
		"Point.x":                   {docidx.KindField, "x: float = 0.0", ""},
		"Point.y":                   {docidx.KindField, `y: float = field(default=0.0, description="Not pydantic, still documents it.")`, "Not pydantic, still documents it."},
		"Model":                     {docidx.KindClass, "class Model(BaseModel)", ""},
		"Model.name":                {docidx.KindField, `name: str = Field(..., description="The model's name.")`, "The model's name."},
		"Model.model_config":        {docidx.KindField, "model_config = ConfigDict(frozen=True)", ""},
		"Outer":                     {docidx.KindClass, "class Outer", ""},
		"m":                         {docidx.KindPackage, "module m", "Module."},
	}
	checkSymbols(t, m, want, true)
	if s := m["HUGE"].Signature; !strings.HasPrefix(s, `HUGE = ["item", "item",`) || !strings.HasSuffix(s, `"item", …]`) || len(s) > len("HUGE = ")+MaxValue {
		t.Errorf("HUGE = %q, want its value cut after an item within %d bytes", s, MaxValue)
	}
	if s := m["Retry.DEFAULT_BACKOFF_MAX"]; s.Parent != "Retry" || s.QualifiedName != "m.Retry.DEFAULT_BACKOFF_MAX" || s.Line != 37 {
		t.Errorf("Retry.DEFAULT_BACKOFF_MAX = %+v", s)
	}
}

// TestAssignmentsAll checks that a module-level variable is API when __all__ lists it, and
// that __all__ filters constants too.
func TestAssignmentsAll(t *testing.T) {
	m, _ := scanMap(t, `__all__ = ["listed", "SHOWN"]
listed = object()
unlisted = 1
SHOWN = 1
HIDDEN = 2
`)
	if s := m["listed"]; s.Kind != docidx.KindVar || s.Signature != "listed = object()" {
		t.Errorf("listed = %+v", s)
	}
	if s := m["SHOWN"]; s.Kind != docidx.KindConst {
		t.Errorf("SHOWN = %+v", s)
	}
	testutil.Absent(t, m, "__all__ leaves it out", "unlisted", "HIDDEN")
}

// TestAssignmentsStub checks a .pyi stub's declarations without values.
func TestAssignmentsStub(t *testing.T) {
	m, _ := scanMap(t, `MAX: int
class Response:
    status_code: int
    headers: CaseInsensitiveDict[str]
    def json(self, **kwargs: Any) -> Any: ...
`)
	testutil.Signatures(t, m, map[string]string{
		"MAX": "MAX: int", "Response.status_code": "status_code: int", "Response.headers": "headers: CaseInsensitiveDict[str]",
	})

	// A stub's lower-case module variable is its interface (loguru's "logger: Logger"), as
	// its other declarations are; in source, without __all__, it is module state.
	src0 := []byte("logger: Logger\n_core: Core\n")
	for file, want := range map[string][]string{"m.pyi": {"m.logger logger: Logger"}, "m.py": nil} {
		var got []string
		for _, s := range Scan(src0, Options{Module: "m", File: file}).Symbols {
			if s.Kind != docidx.KindPackage {
				got = append(got, s.QualifiedName+" "+s.Signature)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}

	// In a stub "= ..." only says a value exists; in source, Ellipsis is the value.
	src := []byte("class FrozenError:\n    msg: str = ...\n    LIMIT: int = ...\nMISSING = ...\n")
	for file, want := range map[string][]string{
		"m.pyi": {"m.FrozenError.msg msg: str", "m.FrozenError.LIMIT LIMIT: int", "m.MISSING MISSING"},
		"m.py":  {"m.FrozenError.msg msg: str = ...", "m.FrozenError.LIMIT LIMIT: int = ...", "m.MISSING MISSING = ..."},
	} {
		var got []string
		for _, s := range Scan(src, Options{Module: "m", File: file}).Symbols {
			if s.Kind != docidx.KindClass && s.Kind != docidx.KindPackage {
				got = append(got, s.QualifiedName+" "+s.Signature)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}

// TestAttributeSections checks that fields without a docstring of their own take the
// description the class docstring gives them.
func TestAttributeSections(t *testing.T) {
	m, _ := scanMap(t, `
@dataclass
class Google:
    """A record.

    Attributes:
        likes_spam (bool): A boolean indicating if we like SPAM or not.
        eggs: An integer count of the eggs we have laid.
    """
    likes_spam: bool = False
    eggs: int = 0
    own: int = 1
    """Its own doc wins."""

class Numpy:
    """A record.

    Attributes
    ----------
    size : int
        How big.
    """
    size: int

class Rest:
    """A record.

    :ivar name: What it is called.
    :cvar KIND: The kind of every record.
    """
    name = ""
    KIND = "rest"
`)
	testutil.Docs(t, m, map[string]string{
		"Google.likes_spam": "A boolean indicating if we like SPAM or not.",
		"Google.eggs":       "An integer count of the eggs we have laid.",
		"Google.own":        "Its own doc wins.",
		"Numpy.size":        "How big.",
		"Rest.name":         "What it is called.",
		"Rest.KIND":         "The kind of every record.",
	})
	// A dataclass's fields are its generated __init__'s parameters; a plain class's attributes
	// are not parameters.
	want := []docidx.Param{
		{Name: "likes_spam", Type: "bool", Default: "False", Doc: "A boolean indicating if we like SPAM or not."},
		{Name: "eggs", Type: "int", Default: "0", Doc: "An integer count of the eggs we have laid."},
		{Name: "own", Type: "int", Default: "1", Doc: "Its own doc wins."},
	}
	if p := m["Google"].Params; !reflect.DeepEqual(p, want) {
		t.Errorf("Google params =\n%s\nwant\n%s", fmtParams(p), fmtParams(want))
	}
	for _, q := range []string{"Numpy", "Rest"} {
		if p := m[q].Params; p != nil {
			t.Errorf("%s params = %+v, want none (attributes of a plain class are not parameters)", q, p)
		}
	}
}

// TestGeneratedInitParams checks that a class whose __init__ is generated from its fields
// carries them as parameters: dataclasses, attrs classes (annotated or with attr.ib), pydantic
// models and their subclasses in the same file; a field specifier's default is the default,
// and ClassVars, constants and fields without a telling default are left out.
func TestGeneratedInitParams(t *testing.T) {
	m, _ := scanMap(t, `
@attr.s
class Old:
    """Old style."""
    retries = attr.ib(default=3)
    name = attr.ib()

class Settings(pydantic.BaseModel):
    """Settings."""
    timeout: float = Field(30.0, description="Seconds.")
    host: str = Field(default="localhost")
    token: str = Field(...)
    tags: list[str] = Field(default_factory=list)
    registry: ClassVar[dict] = {}
    LIMIT = 10

class Local(Settings):
    """More settings."""
    port: int = 8080
    """The port to listen on. Use 0 for any."""

class Plain:
    """Not generated."""
    size: int = 5
`)
	for q, want := range map[string][]docidx.Param{
		"Old": {{Name: "retries", Default: "3"}},
		"Settings": {
			{Name: "timeout", Type: "float", Default: "30.0", Doc: "Seconds."},
			{Name: "host", Type: "str", Default: `"localhost"`},
		},
		"Local": {{Name: "port", Type: "int", Default: "8080", Doc: "The port to listen on."}},
		"Plain": nil,
	} {
		if got := m[q].Params; !reflect.DeepEqual(got, want) {
			t.Errorf("%s params =\n%s\nwant\n%s", q, fmtParams(got), fmtParams(want))
		}
	}
}

// TestInstanceAttributes checks attributes __init__ assigns: documented ones are fields, a
// declaration in the class body takes __init__'s value, undocumented ones are left out.
func TestInstanceAttributes(t *testing.T) {
	m, _ := scanMap(t, `
class Session:
    """A session.

    Attributes:
        trust_env: Whether to read the environment.
    """

    max_redirects: int

    def __init__(self, verify=True):
        #: Whether to verify certificates.
        self.verify = verify

        #: A case-insensitive dictionary of headers to be sent on each
        #: request sent.
        self.headers = default_headers()

        self.stream = False
        """Stream response content default."""

        #: Maximum number of redirects allowed.
        self.max_redirects = DEFAULT_REDIRECT_LIMIT

        self.undocumented = 1
        self._private = 2
        self.trust_env = True
        if x:
            #: Set in a branch.
            self.branch: int = 3

    def other(self):
        #: Not in __init__.
        self.elsewhere = 1
`)
	want := map[string][2]string{
		"Session.headers":       {"headers = default_headers()", "A case-insensitive dictionary of headers to be sent on each\nrequest sent."},
		"Session.stream":        {"stream = False", "Stream response content default."},
		"Session.max_redirects": {"max_redirects: int = DEFAULT_REDIRECT_LIMIT", "Maximum number of redirects allowed."},
		"Session.trust_env":     {"trust_env = True", "Whether to read the environment."},
		"Session.branch":        {"branch: int = 3", "Set in a branch."},
		"Session.verify":        {"verify", "Whether to verify certificates."},
	}
	for q, w := range want {
		s, ok := m[q]
		if !ok {
			t.Errorf("%s missing", q)
			continue
		}
		if s.Kind != docidx.KindField || s.Signature != w[0] || s.Doc != w[1] || s.Parent != "Session" {
			t.Errorf("%s = %s %q %q, want field %q %q", q, s.Kind, s.Signature, s.Doc, w[0], w[1])
		}
	}
	testutil.Absent(t, m, "", "Session.undocumented", "Session._private", "Session.elsewhere")
}

// TestInstanceAttributeBeforeDeclaration checks that a class-level declaration after __init__
// stands even when __init__ assigned the same name first.
func TestInstanceAttributeBeforeDeclaration(t *testing.T) {
	m, _ := scanMap(t, `
class C:
    def __init__(self):
        self.plain = 1
        #: Documented in __init__.
        self.documented = 2

    plain = 0
    documented: int = 0
`)
	if s := m["C.plain"]; s.Kind != docidx.KindField || s.Signature != "plain = 0" || s.Line != 8 {
		t.Errorf("C.plain = %+v", s)
	}
	if s := m["C.documented"]; s.Signature != "documented: int = 0" || s.Doc != "Documented in __init__." {
		t.Errorf("C.documented = %+v", s)
	}
}

// TestCutValue cuts a long value after an item or argument, never inside one, and closes what
// it leaves open.
func TestCutValue(t *testing.T) {
	for _, tc := range []struct {
		s     string
		limit int
		want  string
	}{
		{"Config(a=1, b='x', c=[1, 2])", 100, "Config(a=1, b='x', c=[1, 2])"},
		{"Config(a=1, b='x', c=[1, 2])", 24, "Config(a=1, b='x', …)"},
		{"Config(extra='forbid', env_prefix='a, b, c, d')", 40, "Config(extra='forbid', …)"},
		{`{"A": {"x": 1, "y": 2}, "B": 3}`, 22, `{"A": {"x": 1, …}}`},
		{"f(a, [1, 2, 3, 4, 5, 6, 7, 8])", 20, "f(a, [1, 2, 3, …])"},
		{`"` + strings.Repeat("long string ", 20) + `"`, 30, `"long string long string lo…`},
	} {
		got := cutValue(tc.s, tc.limit)
		if got != tc.want || len(got) > tc.limit {
			t.Errorf("cutValue(%q, %d) = %q, want %q", tc.s, tc.limit, got, tc.want)
		}
	}
}

// TestUnpackedConstants: the UPPER_CASE names of a module-level tuple assignment are constants
// (paramiko's "(MSG_OK, MSG_FAIL) = range(2)"); lower-case ones, attributes and subscripts are
// not, and a name defined before keeps its definition.
func TestUnpackedConstants(t *testing.T) {
	src := `FIRST = 0
(
    MSG_OK,
    MSG_FAIL,
) = range(50, 52)
AA, BB = 1, 2
FIRST, SECOND = 9, 10
lower, UPPER_TOO = 3, 4
obj.attr, OTHER = 5, 6
`
	res := Scan([]byte(src), Options{Module: "m", File: "m.py"})
	got := map[string]string{}
	for _, s := range res.Symbols {
		if s.Kind == docidx.KindConst {
			got[s.Name] = s.Signature
		}
	}
	want := map[string]string{
		"FIRST": "FIRST = 0", "MSG_OK": "(MSG_OK, MSG_FAIL) = range(50, 52)", "MSG_FAIL": "(MSG_OK, MSG_FAIL) = range(50, 52)",
		"AA": "AA, BB = 1, 2", "BB": "AA, BB = 1, 2", "SECOND": "FIRST, SECOND = 9, 10", "UPPER_TOO": "lower, UPPER_TOO = 3, 4",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("constants %q\nwant %q", got, want)
	}
}
