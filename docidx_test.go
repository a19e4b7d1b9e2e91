package docidx_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{"PyYAML": "pyyaml", "Flask_Cors": "flask-cors", "zope.interface": "zope-interface", "a--b__c": "a-b-c", "_x": "x"} {
		if got := docidx.NormalizeName(docidx.PyPI, in); got != want {
			t.Errorf("NormalizeName(pypi, %q) = %q, want %q", in, got, want)
		}
	}
	if got := docidx.NormalizeName(docidx.NPM, "@Types/Node"); got != "@Types/Node" {
		t.Errorf("npm names are kept as written, got %q", got)
	}
}

func TestDocWithParams(t *testing.T) {
	for _, tc := range []struct {
		name string
		sym  docidx.Symbol
		want string
	}{
		{"no params", docidx.Symbol{Doc: "Sign a token."}, "Sign a token."},
		{"jsdoc params listed", docidx.Symbol{Doc: "Sign a token.", Params: []docidx.Param{
			{Name: "options.expiresIn", Type: "string|number", Doc: "expressed in seconds"},
			{Name: "options.algorithm", Default: "HS256"}}},
			"Sign a token.\n\nParameters:\n- `options.expiresIn` (string|number): expressed in seconds\n- `options.algorithm` (default `HS256`)\n"},
		{"a default the doc does not give is listed", docidx.Symbol{Doc: "Adapter.\n\n:param pool_connections: The number of urllib3 connection pools to cache.", Params: []docidx.Param{
			{Name: "pool_connections", Default: "DEFAULT_POOLSIZE = 10", Doc: "The number of urllib3 connection pools to cache."},
			{Name: "max_retries", Default: "None"}}},
			"Adapter.\n\n:param pool_connections: The number of urllib3 connection pools to cache.\n\nParameters:\n- `pool_connections` (default `DEFAULT_POOLSIZE = 10`): The number of urllib3 connection pools to cache.\n- `max_retries` (default `None`)\n"},
		{"docstring params not repeated", docidx.Symbol{Doc: "Retry.\n\n:param int total:\n    Total number of ``retries`` to allow. Defaults to 10.", Params: []docidx.Param{
			{Name: "total", Type: "int", Default: "10", Doc: "Total number of retries to allow. Defaults to 10."}}},
			"Retry.\n\n:param int total:\n    Total number of ``retries`` to allow. Defaults to 10."},
		{"some listed: the list says so", docidx.Symbol{Doc: "Connect.\n\n:param weak: Track the receiver with a weakref.\n:param sender: Any object or ANY.", Params: []docidx.Param{
			{Name: "sender", Default: `ANY = Symbol("ANY")`, Doc: "Any object or ANY."},
			{Name: "weak", Type: "bool", Default: "True", Doc: "Track the receiver with a weakref."}}},
			"Connect.\n\n:param weak: Track the receiver with a weakref.\n:param sender: Any object or ANY.\n\nMore on the parameters:\n- `sender` (default `ANY = Symbol(\"ANY\")`): Any object or ANY.\n"},
		{"a name is a word of the doc, not letters across words", docidx.Symbol{Doc: "Replace the target. Cannot set root in place.", Params: []docidx.Param{{Name: "inplace", Default: "True"}}},
			"Replace the target. Cannot set root in place.\n\nParameters:\n- `inplace` (default `True`)\n"},
		{"a variadic or dotted name documented", docidx.Symbol{Doc: "Run.\n\n:param args: extra values.\n@param options.maxPayload the largest message", Params: []docidx.Param{
			{Name: "*args", Doc: "extra values."}, {Name: "options.maxPayload", Doc: "the largest message"}}},
			"Run.\n\n:param args: extra values.\n@param options.maxPayload the largest message"},
		{"errors follow the doc", docidx.Symbol{Doc: "Load reads.\n", Errors: []string{`raise TypeError("use ` + "`open()`" + `")`, `errors.New("x")`}},
			"Load reads.\n\nErrors in its code: ``raise TypeError(\"use `open()`\")``, `errors.New(\"x\")`.\n"},
		{"errors alone", docidx.Symbol{Errors: []string{`raise ValueError("bad key")`}},
			"Errors in its code: `raise ValueError(\"bad key\")`.\n"},
	} {
		if got := tc.sym.DocWithParams(); got != tc.want {
			t.Errorf("%s: DocWithParams() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestIsReleaseHistory(t *testing.T) {
	for p, want := range map[string]bool{
		"CHANGELOG.md": true, "History.md": true, "changes.markdown": true, "RELEASES.md": true, "NEWS.md": true,
		"CHANGELOG.txt": false, "CHANGELOG": false, "docs/CHANGELOG.md": false, "README.md": false, "changelog.old.md": false,
	} {
		if got := docidx.IsReleaseHistory(p); got != want {
			t.Errorf("IsReleaseHistory(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestUndocumented: errors found in a symbol's code are no documentation of it; a doc comment,
// a parameter or a value is.
func TestUndocumented(t *testing.T) {
	for _, tc := range []struct {
		sym  docidx.Symbol
		want bool
	}{
		{docidx.Symbol{}, true},
		{docidx.Symbol{Doc: " \n"}, true},
		{docidx.Symbol{Errors: []string{`raise ValueError("x")`}}, true},
		{docidx.Symbol{Doc: "Sign."}, false},
		{docidx.Symbol{Params: []docidx.Param{{Name: "key"}}}, false},
		{docidx.Symbol{Values: []string{"const Max = 4"}}, false},
	} {
		if got := tc.sym.Undocumented(); got != tc.want {
			t.Errorf("%+v: Undocumented() = %v, want %v", tc.sym, got, tc.want)
		}
	}
}

func TestCommandNames(t *testing.T) {
	got := docidx.CommandNames([]string{" tsc", "tsserver", "tsc", "", "a/b", "two words", "x\x00", strings.Repeat("x", 65)})
	if want := []string{"tsc", "tsserver"}; !slices.Equal(got, want) {
		t.Errorf("CommandNames = %q, want %q", got, want)
	}
	if got := docidx.CommandNames(nil); got != nil {
		t.Errorf("CommandNames(nil) = %q, want nil", got)
	}
	many := make([]string, docidx.MaxCommands+5)
	for i := range many {
		many[i] = fmt.Sprintf("cmd%03d", i)
	}
	if got := docidx.CommandNames(many); len(got) != docidx.MaxCommands || got[0] != "cmd000" {
		t.Errorf("CommandNames of %d names kept %d, first %q", len(many), len(got), got[0])
	}
}
