package extracted

import (
	"fmt"
	"testing"
)

func TestProblemBounded(t *testing.T) {
	var r Result
	for i := range MaxProblems + 5 {
		r.Problem(fmt.Sprintf("f%d.js", i), "too large")
	}
	if len(r.Problems) != MaxProblems || r.Problems[0] != "f0.js: too large" {
		t.Errorf("Problems = %d, first %q; want %d, first %q", len(r.Problems), r.Problems[0], MaxProblems, "f0.js: too large")
	}
}

// TestWithErrors: the errors paragraph follows the doc, each call one code span (fenced past
// the backticks it holds), and no call leaves the doc as it is.
func TestWithErrors(t *testing.T) {
	got := WithErrors("Load reads.\n", []string{`raise TypeError("use ` + "`open()`" + `")`, `errors.New("x")`})
	if want := "Load reads.\n\nErrors in its code: ``raise TypeError(\"use `open()`\")``, `errors.New(\"x\")`."; got != want {
		t.Errorf("WithErrors = %q, want %q", got, want)
	}
	if got := WithErrors("Doc.", nil); got != "Doc." {
		t.Errorf("WithErrors without calls = %q", got)
	}
}
