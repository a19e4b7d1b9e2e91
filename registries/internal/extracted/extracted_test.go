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
