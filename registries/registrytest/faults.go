package registrytest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
)

// FetchFault is a row of a table of failing fetches (FetchFaults): Setup, when not nil, changes
// the fake S (injects a fault, adds a hostile archive); Mod, when not nil, changes the registry's
// configuration C (lowers a limit); fetching Name must then fail with Want (errors.Is).
type FetchFault[S, C any] struct {
	Case  string
	Setup func(S)
	Mod   func(*C)
	Name  string
	Want  error
}

// FetchFaults runs each row of rows as a subtest named by its Case: start returns a registry
// configured through the row's Mod and its fake, the row's Setup changes the fake, and
// Fetch(Name, version) must fail with the row's Want, in an error that starts with prefix (such
// as "npm: "). after, when not nil, checks more of each row, given the fake after the fetch.
func FetchFaults[R docidx.Registry, S, C any](t *testing.T, prefix, version string,
	start func(t *testing.T, mod func(*C)) (R, S), after func(t *testing.T, row FetchFault[S, C], srv S),
	rows []FetchFault[S, C]) {
	t.Helper()
	for _, row := range rows {
		t.Run(row.Case, func(t *testing.T) {
			r, srv := start(t, row.Mod)
			if row.Setup != nil {
				row.Setup(srv)
			}
			_, err := r.Fetch(context.Background(), row.Name, version)
			if !errors.Is(err, row.Want) {
				t.Errorf("Fetch(%s, %s) = %v, want %v", row.Name, version, err, row.Want)
			}
			if err != nil && !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error does not start with %q: %v", prefix, err)
			}
			if after != nil {
				after(t, row, srv)
			}
		})
	}
}

// QuickClient returns the client the registries' tests request their fakes through: over hc,
// retrying once after a millisecond, so a test of an exhausted retry takes no time.
func QuickClient(hc *http.Client) *fetch.Client {
	return &fetch.Client{HTTP: hc, Retries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
}
