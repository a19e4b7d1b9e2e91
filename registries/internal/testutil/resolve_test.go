package testutil

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

// latestOnly resolves "" and "latest" to 1.0.0 for the package p and finds nothing else.
type latestOnly struct{}

func (latestOnly) Resolve(_ context.Context, name, query string) (string, error) {
	if name == "p" && (query == "" || query == "latest") {
		return "1.0.0", nil
	}
	return "", docidx.ErrNotFound
}

func TestCheckResolve(t *testing.T) {
	r := &recorder{TB: t}
	CheckResolve(r, latestOnly{}, []Resolution{
		{"p", "", "1.0.0", nil},
		{"p", "latest", "1.0.0", nil},
		{"p", "^2", "", docidx.ErrNotFound},
		{"q", "", "", docidx.ErrNotFound},
		{"p", "1.0.0", "1.0.0", nil},      // reported: not found
		{"p", "", "", docidx.ErrNotFound}, // reported: found
		{"q", "", "", docidx.ErrBadSpec},  // reported: another error
		{"p", "latest", "2.0.0", nil},     // reported: another version
	})
	var calls []string
	for _, e := range r.errs {
		call, _, _ := strings.Cut(e, " = ")
		calls = append(calls, call)
	}
	if want := []string{`Resolve(p, "1.0.0")`, `Resolve(p, "")`, `Resolve(q, "")`, `Resolve(p, "latest")`}; !slices.Equal(calls, want) {
		t.Errorf("reported %q, want errors for %q", r.errs, want)
	}
}
