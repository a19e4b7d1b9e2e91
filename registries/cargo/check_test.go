package cargo

import (
	"fmt"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// checkEachOK is testutil.Mapping for a function that can fail: every key must give its value
// and a nil error.
func checkEachOK[V comparable](t *testing.T, name string, f func(string) (V, error), cases map[string]V) {
	t.Helper()
	for in, want := range cases {
		got, err := f(in)
		testutil.Result(t, fmt.Sprintf("%s(%q)", name, in), got, err, want, nil)
	}
}
