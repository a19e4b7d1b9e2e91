package docidx_test

import (
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

func TestQuote(t *testing.T) {
	long := "docidx://golang/" + strings.Repeat("a", 1<<20)
	for _, c := range []struct {
		in, quote, clip string
	}{
		{"", `""`, ""},
		{"example.com/x", `"example.com/x"`, "example.com/x"},
		{"a\x1b[2Jb\n", `"a\x1b[2Jb\n"`, "a\x1b[2Jb\n"},
		{strings.Repeat("x", docidx.MaxQuoted), `"` + strings.Repeat("x", docidx.MaxQuoted) + `"`, strings.Repeat("x", docidx.MaxQuoted)},
		{long, `"` + long[:docidx.MaxQuoted] + `"… (1048592 bytes)`, long[:docidx.MaxQuoted] + "… (1048592 bytes)"},
		// A rune that straddles the limit is left out whole.
		{strings.Repeat("x", docidx.MaxQuoted-1) + "é" + "tail", `"` + strings.Repeat("x", docidx.MaxQuoted-1) + `"… (261 bytes)`, strings.Repeat("x", docidx.MaxQuoted-1) + "… (261 bytes)"},
	} {
		if got := docidx.Quote(c.in); got != c.quote {
			t.Errorf("Quote(%.40q) = %.80q, want %.80q", c.in, got, c.quote)
		}
		if got := docidx.Clip(c.in); got != c.clip {
			t.Errorf("Clip(%.40q) = %.80q, want %.80q", c.in, got, c.clip)
		}
	}
}

// TestCodeSpan: code becomes one code span whatever backticks it holds.
func TestCodeSpan(t *testing.T) {
	for code, want := range map[string]string{
		"raise ValueError(\"x\")":           "`raise ValueError(\"x\")`",
		"raise TypeError(\"use `open()`\")": "``raise TypeError(\"use `open()`\")``",
		"`a`":                               "`` `a` ``",
		"a ``b`` c":                         "```a ``b`` c```",
	} {
		if got := docidx.CodeSpan(code); got != want {
			t.Errorf("CodeSpan(%q) = %q, want %q", code, got, want)
		}
	}
}
