package index

import (
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

func TestMentionedName(t *testing.T) {
	for span, want := range map[string]string{
		"args": "args", "self.args": "args", "Request.args": "args", "wsgikit.Request.args": "args",
		"Self::len": "len", "len()": "len", "len(x)": "len", "Other.args": "", "#args": "args",
	} {
		if got := mentionedName(span, "Request"); got != want {
			t.Errorf("mentionedName(%q) = %q, want %q", span, got, want)
		}
	}
}

func TestSiblingMentionsLimits(t *testing.T) {
	syms := []docidx.Symbol{{Name: "target", Parent: "T", Package: "p"}}
	for i := 0; i < maxMentions+3; i++ {
		syms = append(syms, docidx.Symbol{Name: "m" + string(rune('a'+i)), Parent: "T", Package: "p", Doc: "Prefer `target`, which is faster. Then `target` again."})
	}
	// A member of another type, or of another package, with the same name is not mentioned.
	syms = append(syms, docidx.Symbol{Name: "other", Parent: "U", Package: "p", Doc: "Like `target`."},
		docidx.Symbol{Name: "self", Parent: "T", Package: "p", Doc: "Not `self`-mentions: `self`."})
	got := siblingMentions(syms)
	if n := len(got); n != 1 {
		t.Fatalf("%d members mentioned, want 1: %v", n, got)
	}
	if c := countLines(got[0]); c != 2*maxMentions {
		t.Errorf("target has %d lines of mentions, want %d (name and sentence, %d times):\n%s", c, 2*maxMentions, maxMentions, got[0])
	}
}

func countLines(s string) int {
	n := 0
	for _, c := range s {
		if c == '\n' {
			n++
		}
	}
	return n
}

// TestSiblingMentionsOncePerSibling: a doc that names a member many times does not crowd out the
// other siblings that name it (werkzeug's values names args three times before query_string).
func TestSiblingMentionsOncePerSibling(t *testing.T) {
	syms := []docidx.Symbol{
		{Name: "args", Parent: "Request", Package: "p"},
		{Name: "values", Parent: "Request", Package: "p", Doc: "Combines `args` and `form`. For GET, only `args`. Really, `args`; and `args` again, `args`."},
		{Name: "query_string", Parent: "Request", Package: "p", Doc: "The raw value, use `args` for the parsed values."},
	}
	if got := siblingMentions(syms)[0]; !strings.Contains(got, "raw value") {
		t.Errorf("args's mentions lack query_string's sentence:\n%s", got)
	}
}
