package index

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

func TestStoreDoc(t *testing.T) {
	for _, c := range []struct {
		name, doc, want string
	}{
		{
			name: "Go paragraphs and code",
			doc:  "Retry retries a call.\nIt waits between attempts.\n\nExample:\n\n\tr := Retry(3)\n\tr.Do(f)\n\nThe default is 3.",
			want: "Retry retries a call. It waits between attempts.\nExample:\n```\n\tr := Retry(3)\n\tr.Do(f)\n```\nThe default is 3.",
		},
		{
			name: "Python parameters after a colon",
			doc:  "Retry configuration.\n\n    Args:\n        total: Total number of retries.\n        backoff_max (float): Maximum backoff\n            in seconds.\n    ",
			want: "Retry configuration.\nArgs:\ntotal: Total number of retries.\nbackoff_max (float): Maximum backoff in seconds.",
		},
		{
			// structlog's configure: entries apart by blank lines, each named on a line of
			// its own with its description below, are entries, not a code block.
			name: "Python parameters named alone, apart",
			doc: "Configures the defaults.\n\nArgs:\n    processors: The processor chain.\n\n    wrapper_class:\n        Class to use for\n        wrapping loggers.\n\n" +
				"    cache_logger_on_first_use:\n        If this option is set to\n        True, this assembled logger is cached.\n\nExample:\n\n    configure(x=1)\n",
			want: "Configures the defaults.\nArgs:\nprocessors: The processor chain.\nwrapper_class: Class to use for wrapping loggers.\n" +
				"cache_logger_on_first_use: If this option is set to True, this assembled logger is cached.\nExample:\n```\n    configure(x=1)\n```",
		},
		{
			// jsonschema's validators.create: a blank line after "Arguments:" and after each
			// entry's name, a description of two paragraphs, a nested numbered list.
			name: "Python parameters apart from their section and their descriptions",
			doc: "Create a new validator class.\n\n    Arguments:\n\n        meta_schema:\n\n            the meta schema\n\n" +
				"        validators:\n\n            a mapping from names to callables.\n\n            Each callable should take 2 arguments:\n\n" +
				"                1. a validator instance,\n                2. the schema\n\n        version:\n\n            an identifier\n            for the version.\n\n" +
				"    Example:\n\n        create(meta_schema={})\n",
			want: "Create a new validator class.\nArguments:\nmeta_schema: the meta schema\nvalidators: a mapping from names to callables.\n" +
				"Each callable should take 2 arguments:\n1. a validator instance,\n2. the schema\nversion: an identifier for the version.\n" +
				"Example:\n```\n        create(meta_schema={})\n```",
		},
		{
			// pluggy's HookspecMarker: a reStructuredText field named alone, its
			// description wrapped below it.
			name: "reStructuredText field named alone",
			doc:  "Marks a hook.\n\n:param firstresult:\n    If ``True``, the hook call will stop\n    at the first result.\n\n:param historic:\n    If ``True``, calls are replayed.\n",
			want: "Marks a hook.\n:param firstresult: If ``True``, the hook call will stop at the first result.\n:param historic: If ``True``, calls are replayed.",
		},
		{
			// numpy.round as pypi hands it over: section titles over a blank line (their
			// underlines gone), entries at the left margin with their descriptions below,
			// a description's second paragraph, and a doctest.
			name: "NumPy style",
			doc: "Evenly round.\n\nReturns\n\nrounded_array : ndarray\n    An array of the same type.\n\n    Complex parts are rounded\n    separately.\nout : ndarray, optional\n    Output array.\n\n" +
				"Examples\n\n>>> np.round([0.37, 1.64])\narray([0., 2.])\n>>> np.round(2.5)\n2.0\n\nDone.\n",
			want: "Evenly round.\nReturns\nrounded_array : ndarray An array of the same type.\nComplex parts are rounded separately.\nout : ndarray, optional Output array.\n" +
				"Examples\n```pycon\n>>> np.round([0.37, 1.64])\narray([0., 2.])\n>>> np.round(2.5)\n2.0\n```\nDone.",
		},
		{
			name: "underlined title",
			doc:  "Round.\n\nNotes\n-----\nNumPy rounds half to even.\nThus 2.5 rounds to 2.0.\n",
			want: "Round.\nNotes\nNumPy rounds half to even. Thus 2.5 rounds to 2.0.",
		},
		{
			// date-fns' addDays: each @example's text, to the next tag, is code; a fenced
			// example is its fence, where a decorator is code, not a tag; a caption names it.
			name: "JSDoc examples",
			doc: "Add days.\n@returns The new date\n@example // Add 10 days:\nconst r = addDays(d, 10)\n" +
				"@example\n```ts\n@Injectable()\nclass X {}\n```\n@example <caption>Basic</caption>\nparse('x')\n@see other",
			want: "Add days.\n@returns The new date\n@example\n```\n// Add 10 days:\nconst r = addDays(d, 10)\n```\n" +
				"@example\n```ts\n@Injectable()\nclass X {}\n```\n@example Basic\n```\nparse('x')\n```\n@see other",
		},
		{
			name: "JSDoc tags and lists",
			doc:  "Signs a token.\n@param payload the claims\n@param options how to sign\n- one\n- two",
			want: "Signs a token.\n@param payload the claims\n@param options how to sign\n- one\n- two",
		},
		{
			name: "fenced block",
			doc:  "Use it so:\n```ts\nsign(p)\n\n```\nDone.",
			want: "Use it so:\n```ts\nsign(p)\n```\nDone.",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := storeDoc(c.doc, maxStoreDoc); got != c.want {
				t.Errorf("storeDoc:\n got %q\nwant %q", got, c.want)
			}
		})
	}
	long := strings.Repeat("word ", 2000)
	if got := storeDoc(long, 300); len(got) > 300 || !strings.HasPrefix(got, "word word") {
		t.Errorf("storeDoc of a long doc: %d bytes", len(got))
	}
}

func TestStoreSection(t *testing.T) {
	s := &docidx.Section{
		Plain: "First   paragraph.\nA | table | row",
		Code:  []docidx.CodeBlock{{Lang: "go", Code: "x := 1\n\n\ty := 2\n"}},
	}
	want := "First paragraph.\nA | table | row\n```go\nx := 1\n\ty := 2\n```"
	if got := storeSection(s, maxStoreSection); got != want {
		t.Errorf("storeSection:\n got %q\nwant %q", got, want)
	}
	if got := storeSection(s, 60); len(got) > 60 {
		t.Errorf("storeSection over its bound: %d bytes: %q", len(got), got)
	}
	// Code blocks with a place (CodeBlock.At) stand where the section had them: after the
	// sentence that introduces them, before the next line; one without a place comes last.
	s = &docidx.Section{
		Plain: "Start it:\nThen stop it:\nDone.",
		Code: []docidx.CodeBlock{{Code: "start()", At: 2}, {Code: "stop()", At: 3}, {Code: "x()"},
			{Code: "end()", At: 9}},
	}
	want = "Start it:\n```\nstart()\n```\nThen stop it:\n```\nstop()\n```\nDone.\n```\nx()\n```\n```\nend()\n```"
	if got := storeSection(s, maxStoreSection); got != want {
		t.Errorf("storeSection in order:\n got %q\nwant %q", got, want)
	}
}

func TestCompactSignature(t *testing.T) {
	block := "const (\n\t// EX sets expiration in seconds\n\tEX ExpirationMode = \"EX\"\n\t// PX sets expiration in milliseconds\n\tPX ExpirationMode = \"PX\"\n" + strings.Repeat("\t// filler\n", 30) + ")"
	for _, c := range []struct {
		sig, name string
		want      string
		clipped   bool
	}{
		{"func (g *Group) SetLimit(n int)", "SetLimit", "func (g *Group) SetLimit(n int)", false},
		{"def f(\n    a: int = 1,\n    b: str = 'x',\n)", "f", "def f( a: int = 1, b: str = 'x', )", false},
		{block, "PX", `const PX ExpirationMode = "PX"`, true},
		{"type Options struct {\n" + strings.Repeat("\tField int\n", 40) + "}", "Options", "type Options struct { … }", true},
		{"type Pool struct {\n\t// contains filtered or unexported fields\n}", "Pool", "type Pool struct { … }", true},
		{"def __init__(self, " + strings.Repeat("arg: int = 1, ", 30) + ")", "__init__", "", true},
		// Cut after whole parameters, never between a name and its default.
		{"def from_bytes(sequences: bytes | bytearray, steps: int = 5, chunk_size: int = 512, threshold: float = 0.2, " +
			"cp_isolation: list[str] | None = None, cp_exclusion: list[str] | None = None, preemptive_behaviour: bool = True, " +
			"explain: bool = False, language_threshold: float = 0.1, enable_fallback: bool = True) -> CharsetMatches", "from_bytes",
			"def from_bytes(sequences: bytes | bytearray, steps: int = 5, chunk_size: int = 512, threshold: float = 0.2, " +
				"cp_isolation: list[str] | None = None, cp_exclusion: list[str] | None = None, preemptive_behaviour: bool = True, …", true},
	} {
		got, clipped := compactSignature(c.sig, c.name, maxSectionSignature)
		if c.want != "" && got != c.want || clipped != c.clipped || len(got) > maxSectionSignature+4 {
			t.Errorf("compactSignature(%.40q, %q) = %q, %v; want %q, %v", c.sig, c.name, got, clipped, c.want, c.clipped)
		}
	}
}

func TestParamLines(t *testing.T) {
	long := "def prompt(text: str, default: t.Any | None = None, hide_input: bool = False, confirmation_prompt: bool | str = False, " +
		"type: ParamType[t.Any] | t.Any | None = None, value_proc: t.Callable[[str], t.Any] | None = None, prompt_suffix: str = \": \", " +
		"show_default: bool = True) -> t.Any"
	want := "def prompt(\n    text: str,\n    default: t.Any | None = None,\n    hide_input: bool = False,\n" +
		"    confirmation_prompt: bool | str = False,\n    type: ParamType[t.Any] | t.Any | None = None,\n" +
		"    value_proc: t.Callable[[str], t.Any] | None = None,\n    prompt_suffix: str = \": \",\n    show_default: bool = True,\n) -> t.Any"
	goMethod := "func (c *Client) Do(ctx context.Context, " + strings.Repeat("argument string, ", 14) + "last map[string]int) (int, error)"
	for _, c := range []struct{ sig, want string }{
		{long, want},
		{"def short(a: int = 1)", "def short(a: int = 1)"},
		{"type T struct {\n" + strings.Repeat("\tF int\n", 40) + "}", "type T struct {\n" + strings.Repeat("\tF int\n", 40) + "}"},
		{goMethod, "func (c *Client) Do(\n    ctx context.Context,\n" + strings.Repeat("    argument string,\n", 14) + "    last map[string]int,\n) (int, error)"},
		{"def broken(" + strings.Repeat("a, ", 100) + "))", "def broken(" + strings.Repeat("a, ", 100) + "))"},
	} {
		if got := paramLines(c.sig); got != c.want {
			t.Errorf("paramLines(%.40q…) =\n%s\nwant\n%s", c.sig, got, c.want)
		}
	}
}

func TestNormalizeKind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"section", "section"}, {"sections", "section"}, {"Symbols", "symbol"},
		{"func", "func"}, {"funcs", "func"}, {"classes", "class"}, {"properties", "property"},
		{"readme", "readme"}, {"examples", "example"}, {" method ", "method"},
		{"function", "func"}, {"Functions", "func"}, {"FUNCTION", "func"}, {"constant", "const"},
		{"variables", "var"}, {"module", "package"}, {"attributes", "field"}, {"Guides", "doc"},
	} {
		got, err := NormalizeKind(c.in)
		if err != nil || got != c.want {
			t.Errorf("NormalizeKind(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"sectionz", "functionz", "x"} {
		_, err := NormalizeKind(bad)
		if !errors.Is(err, ErrUnknownKind) || !strings.Contains(err.Error(), "symbol, overview") || !strings.Contains(err.Error(), "function, fn, constant") {
			t.Errorf("NormalizeKind(%q): %v, want ErrUnknownKind listing the kinds", bad, err)
		}
	}
}

// FuzzStoreDoc checks that any doc comment (a package's source is untrusted input) is stored
// within its bound, as valid UTF-8 when it was, and reads back as passages without panicking.
func FuzzStoreDoc(f *testing.F) {
	f.Add("Retry retries.\n\n\tcode()\n\nArgs:\n    x: one\n        more\n- item\n```go\nx\n```", 200)
	f.Add("\t\t\n```", 50)
	f.Add("a:\n  b", 1)
	f.Fuzz(func(t *testing.T, doc string, n int) {
		n = 1 + abs(n)%(4<<10)
		got := storeDoc(doc, n)
		if len(got) > n {
			t.Errorf("storeDoc: %d bytes over a bound of %d", len(got), n)
		}
		if utf8.ValidString(doc) && !utf8.ValidString(got) {
			t.Errorf("storeDoc made invalid UTF-8 of valid: %q", got)
		}
		// Within its bound, storeDoc reshapes a doc but loses none of its words (those of
		// fence lines aside: a fence's language is the block's label).
		if whole := storeDoc(doc, 4*len(doc)+64); len(doc) <= 4<<10 {
			for _, l := range strings.Split(doc, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "```") {
					continue
				}
				for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
					if !strings.Contains(whole, w) {
						t.Fatalf("storeDoc lost the word %q: %q", w, whole)
					}
				}
			}
		}
		sec := storeSection(&docidx.Section{Plain: doc, Code: []docidx.CodeBlock{{Lang: doc, Code: doc}}}, n)
		if len(sec) > n {
			t.Errorf("storeSection: %d bytes over a bound of %d", len(sec), n)
		}
		passage(got, newPassageQuery(doc, nil), minPassageBytes)
	})
}

// TestStoreDocNestedList checks that an indented list after a blank line (a docstring's "Can be
// one of:" list, a Go doc comment's list) is prose, one unit an item, and that a fenced block
// inside an item loses the item's indentation.
func TestStoreDocNestedList(t *testing.T) {
	doc := "Inspect it.\n\nIndented code stays code:\n\n    x := 1\n\nArgs:\n    mode: What to do. Can be one of:\n\n        - `'skip'`: Do not parse (the default):\n          ```pycon\n          >>> f(x)\n          ```\n\n        - `'eager'`: Parse.\n"
	got := storeDoc(doc, 1<<10)
	for _, want := range []string{"\n- `'skip'`: Do not parse (the default):\n```pycon\n>>> f(x)\n```\n", "\n- `'eager'`: Parse.", "```\n    x := 1\n```"} {
		if !strings.Contains(got, want) {
			t.Errorf("storeDoc lacks %q:\n%s", want, got)
		}
	}
	goDoc := "Modes:\n\n  - Fast skips checks.\n  - Full runs them.\n"
	if got := storeDoc(goDoc, 1<<10); strings.Contains(got, "```") {
		t.Errorf("a Go doc comment's list became code:\n%s", got)
	}
}

// TestStoreDocListAtBase checks that after a list a lead-in introduced at the doc's own
// indentation ("In practice this means:"), the paragraphs that follow still join their lines,
// while the entries of an indented list after "Args:" stay units of their own.
func TestStoreDocListAtBase(t *testing.T) {
	doc := "The bound is generational. In practice this means:\n- total retention is bounded\n- unused results are dropped,\n  in one batch\n\nMust be a positive integer. There is no cost to the memoized function\nwhen this option is not passed.\n"
	got := storeDoc(doc, 1<<10)
	for _, want := range []string{"\n- unused results are dropped, in one batch\n", "\nMust be a positive integer. There is no cost to the memoized function when this option is not passed."} {
		if !strings.Contains(got, want) {
			t.Errorf("storeDoc lacks %q:\n%s", want, got)
		}
	}
	args := "Do it.\n\nArgs:\n    a: The first\n        of two.\n    b: The second.\n"
	if got := storeDoc(args, 1<<10); !strings.Contains(got, "\na: The first of two.\nb: The second.") {
		t.Errorf("Args entries:\n%s", got)
	}
}
