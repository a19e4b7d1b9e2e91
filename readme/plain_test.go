package readme

import (
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

func TestPlain(t *testing.T) {
	for _, tc := range []struct {
		name, path, text      string
		title, summary, plain string
		sections              int
	}{
		{"paragraphs are lines", "README.txt", "Widgets\n=======\n\nA widget\nwraps its lines.\n\nSecond  paragraph.\r\n", "README",
			"A widget wraps its lines.", "Widgets =======\nA widget wraps its lines.\nSecond paragraph.", 1},
		{"no title", "docs/guide.rst.txt", "\n\nPlain.", "guide.rst", "Plain.", "Plain.", 1},
		{"no words", "README", " \n\n\t", "README", "", "", 0},
		{"invalid UTF-8", "README", "caf\xe9 au lait", "README", "caf\uFFFD au lait", "caf\uFFFD au lait", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Plain(tc.path, docidx.DocGuide, tc.text)
			if d.Path != tc.path || d.Kind != docidx.DocGuide || d.Title != tc.title || d.Summary != tc.summary || len(d.Sections) != tc.sections {
				t.Fatalf("Plain(%q) = path %q, kind %q, title %q, summary %q, %d sections; want %q, %q, %d",
					tc.text, d.Path, d.Kind, d.Title, d.Summary, len(d.Sections), tc.title, tc.summary, tc.sections)
			}
			if tc.sections > 0 && d.Sections[0].Plain != tc.plain {
				t.Errorf("Plain text %q, want %q", d.Sections[0].Plain, tc.plain)
			}
		})
	}
	// A long first paragraph is cut as Summary cuts it.
	if d := Plain("NOTES", docidx.DocGuide, strings.Repeat("word ", 100)); len(d.Summary) > MaxSummary || !strings.HasSuffix(d.Summary, "word…") {
		t.Errorf("summary of a long paragraph: %q", d.Summary)
	}
	// A text longer than MaxInput is cut there, never inside a character, whether the cut falls
	// between two characters or inside one.
	for _, long := range []string{strings.Repeat("é", MaxInput), "x" + strings.Repeat("é", MaxInput)} {
		text := Plain("README", docidx.DocReadme, long).Sections[0].Text
		if len(text) > MaxInput || len(text) < MaxInput-1 || !strings.HasSuffix(text, "é") {
			t.Errorf("a long text is cut to %d bytes, ending %q", len(text), text[len(text)-4:])
		}
	}
}

// TestHTMLLines lays out the text of HTML blocks as lines: fecha's token table a row a line
// with its cells joined, paragraphs and breaks apart, scripts, styles, comments and images out.
func TestHTMLLines(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`<table class="t">
  <tbody>
    <tr><th></th><th>Token</th><th>Output</th></tr>
    <tr>
      <td><b>Month</b></td>
      <td>M</td>
      <td>1 2 ... 11 12</td>
    </tr>
    <tr><td></td><td>MM</td><td>01 02 &hellip; 11 12</td></tr>
  </tbody>
</table>`, []string{"Token | Output", "Month | M | 1 2 ... 11 12", "MM | 01 02 … 11 12"}},
		{`<p align="center"><img src="logo.svg"></p><!-- a comment -->`, nil},
		{`<p>Fast <code>and</code> small.<br>Really.</p><script>var x = "<p>no</p>";</script><style>p{}</style><p>End</p>`,
			[]string{"Fast and small.", "Really.", "End"}},
		{`<details><summary>Click to show Cargo.toml.</summary>`, []string{"Click to show Cargo.toml."}},
		{`a < b and <unclosed`, []string{"a < b and"}},
	} {
		if got := htmlLines(tc.src); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("htmlLines(%.40q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
