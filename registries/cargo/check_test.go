package cargo

import (
	"errors"
	"testing"
)

// checkEach calls f with each key of cases and reports, under name, every result that is not the
// key's value.
func checkEach[V comparable](t *testing.T, name string, f func(string) V, cases map[string]V) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %#v, want %#v", name, in, got, want)
		}
	}
}

// checkEachOK is checkEach for a function that can fail: every key must give its value and a nil
// error.
func checkEachOK[V comparable](t *testing.T, name string, f func(string) (V, error), cases map[string]V) {
	t.Helper()
	for in, want := range cases {
		if got, err := f(in); err != nil || got != want {
			t.Errorf("%s(%q) = %#v, %v; want %#v", name, in, got, err, want)
		}
	}
}

// checkResolved reports a resolution of query that did not give want, or, where wantErr is not
// nil, that did not fail with an error matching wantErr (errors.Is).
func checkResolved(t *testing.T, query, got string, err error, want string, wantErr error) {
	t.Helper()
	if wantErr != nil {
		if !errors.Is(err, wantErr) {
			t.Errorf("resolving %q = %q, %v; want error %v", query, got, err, wantErr)
		}
		return
	}
	if err != nil || got != want {
		t.Errorf("resolving %q = %q, %v; want %q", query, got, err, want)
	}
}
