package pystr

import (
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestExpandTabs checks ExpandTabs against Python's str.expandtabs() (the wants are its results).
func TestExpandTabs(t *testing.T) {
	testutil.Mapping(t, "ExpandTabs", ExpandTabs, map[string]string{
		"":                    "",
		"no tabs":             "no tabs",
		"ab\tc":               "ab      c",
		"abcdefgh\tx":         "abcdefgh        x", // at a tab stop, a tab takes a whole width
		"a\tb\tc":             "a       b       c",
		"\t\n\tx":             "        \n        x", // a line feed starts again at column 0
		"ab\r\tx":             "ab\r        x",       // and so does a carriage return
		"é\tx":                "é       x",           // a column a character, not a byte
		"\f\tx":               "\f       x",          // a form feed is one column
		"    \t  def f():\t#": "          def f():      #",
	})
}
