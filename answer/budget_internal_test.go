package answer

import (
	"strings"
	"testing"
)

// TestLineCut cuts an overlong unit at the widest boundary that fills half the page: a line, a
// sentence, an item of a value, a word, and only then a character.
func TestLineCut(t *testing.T) {
	const value = "SettingsConfigDict(extra='forbid', arbitrary_types_allowed=True, validate_default=True, env_prefix='')"
	for _, tc := range []struct {
		s    string
		room int
		want string
	}{
		{"first line\nsecond line is long", 25, "first line\n"},
		{"One sentence here. Another one that goes on and on.", 36, "One sentence here. "},
		{value, 70, "SettingsConfigDict(extra='forbid', arbitrary_types_allowed=True, "},
		{"words and more words without any punctuation at all", 30, "words and more words without "},
		{"averyveryverylongidentifierwithoutanybreak", 10, "averyveryv"},
		{"é", 1, "é"}, // at least one character
		{"short", 10, "short"},
	} {
		if got := tc.s[:LineCut(tc.s, tc.room)]; got != tc.want {
			t.Errorf("LineCut(%q, %d) keeps %q, want %q", tc.s, tc.room, got, tc.want)
		}
	}
}

// TestCutPageWhole pages a text of long lines and sentences at several budgets: the pages
// concatenated are the text, whatever the boundaries chosen.
func TestCutPageWhole(t *testing.T) {
	text := strings.Repeat("A sentence of a few words, and a clause; then more. ", 40) + "\n- item one\n- item two, longer\n"
	units := textUnits{text, "## Next\n\nshort\n"}
	for _, budget := range []int{7, 33, 100, 512} {
		var b strings.Builder
		p := pos{}
		for range 10000 {
			page, _, _, next, more := cutPage(units, p, budget)
			if len(page) > budget && len(page) > 4 {
				t.Fatalf("budget %d: a page of %d bytes", budget, len(page))
			}
			b.WriteString(page)
			p = next
			if !more {
				break
			}
		}
		if b.String() != text+units[1] {
			t.Errorf("budget %d: pages joined differ from the text", budget)
		}
	}
}

// TestSearchResultJSONSize holds SearchResult.jsonSize, which search weighs its hits by, to the
// size encoding/json writes, for text that needs every kind of escape.
func TestSearchResultJSONSize(t *testing.T) {
	for _, r := range []SearchResult{
		{PURL: "pkg:npm/%40acme/x@1.0.0", Title: "x", Section: "A › B", Kind: "section", Snippet: "plain", Score: 23.51, URI: "docidx://npm/@acme/x@1.0.0/readme#b"},
		{PURL: "pkg:golang/a/b@v1.0.0", Title: "b.F", Section: "func F(s string) <-chan int", Kind: "symbol",
			Snippet: "say \"hi\"\\n\tthen\r\n\b\f\x01\x1f — 日本\u2028\u2029 \xff end & <tag>", Score: 0.18, URI: "docidx://golang/a/b@v1.0.0/symbol/b.F",
			Also: []string{"b.G", "c.\"F\""}},
		{Score: 100},
		{Score: 12.3, Also: []string{"one"}},
	} {
		if got, want := r.jsonSize(), jsonSize(r); got != want {
			t.Errorf("%+v: jsonSize %d, encoding/json %d", r, got, want)
		}
	}
}
