// Package testutil holds the assertion helpers the registries' tests share: a table of inputs
// mapped to wanted outputs, the check of one call's value-or-error against a table row, and the
// report of a pathologically slow input. Only tests import it. It imports the standard library.
package testutil

import (
	"errors"
	"os"
	"testing"
)

// Mapping checks that f(in) equals want for every in, want of cases, reporting each mismatch as
// a test error that names the call as name(in).
func Mapping[In, Out comparable](t testing.TB, name string, f func(In) Out, cases map[In]Out) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%#v) = %#v, want %#v", name, in, got, want)
		}
	}
}

// Result checks one call's outcome against a table row: when wantErr is not nil, err must wrap
// it (errors.Is); otherwise err must be nil and got must equal want. call names the call in the
// error, such as `Resolve("1.x")`. It reports whether the outcome was as wanted.
func Result[T comparable](t testing.TB, call string, got T, err error, want T, wantErr error) bool {
	t.Helper()
	if wantErr != nil {
		if !errors.Is(err, wantErr) {
			t.Errorf("%s = %#v, %v; want error %v", call, got, err, wantErr)
			return false
		}
		return true
	}
	if err != nil || got != want {
		t.Errorf("%s = %#v, %v; want %#v", call, got, err, want)
		return false
	}
	return true
}

// TimingError reports input that took pathologically long: a test error when the environment
// variable DOCIDX_TIMING_TESTS is set, a log line otherwise. Wall-clock limits fail on shared,
// noisy machines, so `make test` does not enforce them; `make bench` measures speed.
func TimingError(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("DOCIDX_TIMING_TESTS") != "" {
		t.Errorf(format, args...)
		return
	}
	t.Logf("not enforced (set DOCIDX_TIMING_TESTS=1): "+format, args...)
}
