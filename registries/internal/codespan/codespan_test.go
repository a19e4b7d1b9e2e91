package codespan

import "testing"

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

func TestOf(t *testing.T) {
	for code, want := range map[string]string{
		"raise ValueError(\"x\")":           "`raise ValueError(\"x\")`",
		"raise TypeError(\"use `open()`\")": "``raise TypeError(\"use `open()`\")``",
		"`a`":                               "`` `a` ``",
		"a ``b`` c":                         "```a ``b`` c```",
	} {
		if got := Of(code); got != want {
			t.Errorf("Of(%q) = %q, want %q", code, got, want)
		}
		if End(Of(code), 0) != len(Of(code)) {
			t.Errorf("Of(%q) = %q is not one span", code, Of(code))
		}
	}
}
