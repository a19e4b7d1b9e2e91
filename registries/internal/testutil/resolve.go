package testutil

import (
	"context"
	"fmt"
	"testing"
)

// Resolution is a row of a table of version resolutions: the package name and query asked, and
// the version wanted, or the error wanted (matched with errors.Is; Want is then ""). It names an
// unnamed struct type, so that a table in another package may give the fields by position.
type Resolution = struct {
	Name, Query, Want string
	Err               error
}

// Resolver is what CheckResolve asks: a docidx.Registry or docidx.Cache.
type Resolver interface {
	Resolve(ctx context.Context, name, query string) (string, error)
}

// CheckResolve asks r to resolve each row's name and query, in order, and checks the outcome
// against the row as Result does, naming the call as Resolve(<name>, <query>).
func CheckResolve(t testing.TB, r Resolver, rows []Resolution) {
	t.Helper()
	for _, row := range rows {
		got, err := r.Resolve(context.Background(), row.Name, row.Query)
		Result(t, fmt.Sprintf("Resolve(%s, %q)", row.Name, row.Query), got, err, row.Want, row.Err)
	}
}
