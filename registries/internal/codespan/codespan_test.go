package codespan

import (
	"testing"

	"github.com/docidx/docidx"
)

func TestEnd(t *testing.T) {
	for _, tc := range []struct {
		line string
		i    int
		want int
	}{
		{"a `b` c", 2, 5},
		{"``a ` b`` c", 0, 9},    // a shorter run inside does not close it
		{"`a ``b`` c` d", 0, 11}, // nor a longer one
		{"`open", 0, 5},
		{"x ```", 2, 5},
	} {
		if got := End(tc.line, tc.i); got != tc.want {
			t.Errorf("End(%q, %d) = %d, want %d", tc.line, tc.i, got, tc.want)
		}
	}
}

// TestEndOfCodeSpan: End finds the close of every span docidx.CodeSpan writes, whatever
// backticks the code holds.
func TestEndOfCodeSpan(t *testing.T) {
	for _, code := range []string{"raise ValueError(\"x\")", "raise TypeError(\"use `open()`\")", "`a`", "a ``b`` c"} {
		if span := docidx.CodeSpan(code); End(span, 0) != len(span) {
			t.Errorf("CodeSpan(%q) = %q is not one span", code, span)
		}
	}
}
