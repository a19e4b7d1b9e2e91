package pyscan

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestFillDefaults(t *testing.T) {
	for _, tc := range []struct{ name, sig, source, want string }{
		{
			name:   "overload takes the implementation's values",
			sig:    "def __call__(self, function: _F, tryfirst: bool = ..., specname: str | None = ...) -> _F\ndef __call__(self, function: None = ..., tryfirst: bool = ...) -> Callable[[_F], _F]",
			source: "def __call__(self, function: _F | None = None, tryfirst: bool = False, specname: str | None = None) -> _F",
			want:   "def __call__(self, function: _F, tryfirst: bool = False, specname: str | None = None) -> _F\ndef __call__(self, function: None = None, tryfirst: bool = False) -> Callable[[_F], _F]",
		},
		{
			name:   "no space around =, strings and brackets in the way",
			sig:    `def get(key: Literal["a,b"], default: Callable[..., T]=..., sep: str = ...) -> T`,
			source: `def get(key, default=lambda: {"x": 1}, sep=", ")`,
			want:   `def get(key: Literal["a,b"], default: Callable[..., T]=lambda: {"x": 1}, sep: str = ", ") -> T`,
		},
		{
			name:   "a parameter the source does not know keeps its stub default",
			sig:    "def dumps(obj: Any, option: int | None = ...) -> bytes",
			source: "def dumps(obj, **kwargs)",
			want:   "def dumps(obj: Any, option: int | None = ...) -> bytes",
		},
		{
			name: "no source",
			sig:  "def dumps(obj: Any, option: int | None = ...) -> bytes",
			want: "def dumps(obj: Any, option: int | None = ...) -> bytes",
		},
		{
			name:   "unbalanced source line",
			sig:    "def f(x: int = ...)",
			source: "def f(x=(1",
			want:   "def f(x: int = ...)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FillDefaults(tc.sig, tc.source); got != tc.want {
				t.Errorf("FillDefaults =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestOverloadDefaults checks that a symbol with overloads shows its implementation's defaults,
// and that its parameters never take a stub default.
func TestOverloadDefaults(t *testing.T) {
	m, _ := scanMap(t, `
@overload
def lookup(name: str, call: Literal[True] = True) -> Any: ...
@overload
def lookup(name: str, call: Literal[False] = ...) -> Any: ...
def lookup(name, call=True, timeout=30):
    """Look it up.

    :param call: Call it.
    """
`)
	s := m["lookup"]
	if want := "def lookup(name: str, call: Literal[True] = True) -> Any\ndef lookup(name: str, call: Literal[False] = True) -> Any"; s.Signature != want {
		t.Errorf("signature =\n%s\nwant\n%s", s.Signature, want)
	}
	want := []docidx.Param{{Name: "call", Default: "True", Doc: "Call it."}, {Name: "timeout", Default: "30"}}
	if !reflect.DeepEqual(s.Params, want) {
		t.Errorf("params =\n%s\nwant\n%s", fmtParams(s.Params), fmtParams(want))
	}

	m, _ = scanMap(t, "def dumps(obj: Any, option: int | None = ...) -> bytes:\n    \"\"\"Serialize.\n\n    :param option: Flags.\n    \"\"\"\n")
	if p := m["dumps"].Params; len(p) != 1 || p[0].Default != "" {
		t.Errorf("stub params = %+v, want option without a default", p)
	}
}

// TestSignatureDefaults checks that a documented function or class lists the parameters of its
// signature that its docstring does not document when their default tells a value, with the
// sentence of the docstring that names them, and that a stated default yields to a literal one
// in the signature but not to None.
func TestSignatureDefaults(t *testing.T) {
	m, _ := scanMap(t, `
class spawn:
    '''The main class.'''

    def __init__(self, command, args=[], timeout=30, maxread=2000, searchwindowsize=None,
                 ignore_sighup=False, encoding=None, codec_errors='strict', retries=MAX_RETRIES,
                 _hidden=1, *extra, **kwargs):
        '''This is the constructor.

        The maxread attribute sets the read buffer size::

            child = spawn('ls', maxread=1, ignore_sighup=True)

        When the keyword argument `+"``timeout``"+` is specified as a number,
        (default: *30*), then TIMEOUT will be raised. When None, it blocks.

        If ignore_sighup is True, the child process will ignore SIGHUP signals.
        '''

def undocumented(x=1):
    pass

def run(timeout=None, mode="r", level=0):
    """Run.

    :param timeout: Defaults to 60 seconds.
    :param mode: Defaults to `+"``'w'``"+`.
    """
`)
	want := []docidx.Param{
		{Name: "timeout", Default: "30", Doc: "When the keyword argument ``timeout`` is specified as a number, (default: *30*), then TIMEOUT will be raised."},
		{Name: "maxread", Default: "2000"},
		{Name: "ignore_sighup", Default: "False", Doc: "If ignore_sighup is True, the child process will ignore SIGHUP signals."},
		{Name: "codec_errors", Default: "'strict'"},
		{Name: "retries", Default: "MAX_RETRIES"},
	}
	for _, q := range []string{"spawn", "spawn.__init__"} {
		if got := m[q].Params; !reflect.DeepEqual(got, want) {
			t.Errorf("%s params =\n%s\nwant\n%s", q, fmtParams(got), fmtParams(want))
		}
	}
	if got := m["undocumented"].Params; got != nil {
		t.Errorf("undocumented params = %+v, want none: the signature says it all", got)
	}
	want = []docidx.Param{
		{Name: "timeout", Default: "60", Doc: "Defaults to 60 seconds."},
		{Name: "mode", Default: `"r"`, Doc: "Defaults to ``'w'``."},
		{Name: "level", Default: "0"},
	}
	if got := m["run"].Params; !reflect.DeepEqual(got, want) {
		t.Errorf("run params =\n%s\nwant\n%s", fmtParams(got), fmtParams(want))
	}
}

func FuzzFillDefaults(f *testing.F) {
	f.Add("def f(a: int = ..., *, b=...) -> X", "def f(a=1, *, b='x')")
	f.Add(`def f(a: Literal["(", ")"] = ...)`, `def f(a="),(")`)
	f.Add("def f(a=...\ndef f(b: int = ...)", "def f(a=(1, 2), b=[)")
	f.Fuzz(func(t *testing.T, sig, source string) {
		got := FillDefaults(sig, source)
		if !strings.Contains(sig, stubDefault) && got != sig {
			t.Fatalf("FillDefaults(%q, %q) = %q: a signature without stub defaults changed", sig, source, got)
		}
		if strings.Count(got, "\n") != strings.Count(sig, "\n") {
			t.Fatalf("FillDefaults(%q, %q) = %q: lines added or lost", sig, source, got)
		}
	})
}

func TestIsLiteral(t *testing.T) {
	testutil.Mapping(t, "isLiteral", isLiteral, map[string]bool{
		"30": true, "-1": true, "0.25": true, "1e-3": true, "0x1F": true, "10_000": true,
		"'utf-8'": true, `"r"`: true, `b"\x00"`: true, `rb'\d'`: true, "True": true, "False": true,
		"None": false, "": false, `f"{x}"`: false, "DEFAULT": false, "2 ** 16": false, "[]": false,
		"'unclosed": false, "30s": false,
	})
}

// TestMethodTakesClassParams checks that a method's parameters its docstring leaves to the class
// (prompt_toolkit's PromptSession.prompt) take the class's and __init__'s descriptions, with the
// method's own type and default, and that parameters it documents itself keep their own.
func TestMethodTakesClassParams(t *testing.T) {
	m, _ := scanMap(t, `
class PromptSession:
    """
    :param is_password: Show asterisks instead of the actual typed characters.
    :param message: Text to be shown before the prompt.
    """
    def __init__(self, message="", *, is_password=False, wrap_lines=True):
        """:param wrap_lines: Wrap long lines."""

    def prompt(self, message=None, *, is_password: bool | None = None, wrap_lines=None, in_thread=False):
        """Display the prompt. For the other arguments, refer to the class documentation.

        :param message: The message of this prompt only.
        :param in_thread: Run in a background thread.
        """
`)
	want := []docidx.Param{
		{Name: "message", Default: "None", Doc: "The message of this prompt only."},
		{Name: "in_thread", Default: "False", Doc: "Run in a background thread."},
		{Name: "is_password", Type: "bool | None", Default: "None", Doc: "Show asterisks instead of the actual typed characters."},
		{Name: "wrap_lines", Default: "None", Doc: "Wrap long lines."},
	}
	if got := m["PromptSession.prompt"].Params; !reflect.DeepEqual(got, want) {
		t.Errorf("prompt's params =\n%+v\nwant\n%+v", got, want)
	}
}

// TestDefinitionLines: an undocumented parameter takes the line that defines it at the
// docstring's margin, PEP 257's "name -- description" and the single dash or colon written the
// same way, with its deeper-indented continuation; a literal block's line is not a definition.
func TestDefinitionLines(t *testing.T) {
	m, _ := scanMap(t, `
def complex(real=0.0, imag=0.0, *, mode="fast", limit=100, limit_per_host=0, note=None):
    """Form a complex number.

    Keyword arguments:
    real -- the real part (default 0.0)
    imag -- the imaginary part
        of the number
    limit - The total number of simultaneous connections.
    limit_per_host - Number of simultaneous connections to one host.
    - note - a list item, not a definition

    Example::

        mode: slow
    """
`)
	want := []docidx.Param{
		{Name: "real", Default: "0.0", Doc: "the real part (default 0.0)"},
		{Name: "imag", Default: "0.0", Doc: "the imaginary part of the number"},
		{Name: "mode", Default: `"fast"`},
		{Name: "limit", Default: "100", Doc: "The total number of simultaneous connections."},
		{Name: "limit_per_host", Default: "0", Doc: "Number of simultaneous connections to one host."},
	}
	if got := m["complex"].Params; !reflect.DeepEqual(got, want) {
		t.Errorf("complex params =\n%s\nwant\n%s", fmtParams(got), fmtParams(want))
	}
}
