package testutil

import (
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/extracted"
)

// CutShort checks an extraction that a limit stopped early: the names of its symbols, joined by
// spaces, are names; it is Truncated; and it has problems problems, each holding reason's text.
// It reports a mismatch as one test error.
func CutShort(t testing.TB, res extracted.Result, names string, reason error, problems int) {
	t.Helper()
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.Name)
	}
	ok := strings.Join(got, " ") == names && res.Truncated && len(res.Problems) == problems
	for _, p := range res.Problems {
		ok = ok && strings.Contains(p, reason.Error())
	}
	if !ok {
		t.Errorf("symbols %q, truncated %v, problems %q; want symbols %q, truncated, %d problems for %v", got, res.Truncated, res.Problems, names, problems, reason)
	}
}
