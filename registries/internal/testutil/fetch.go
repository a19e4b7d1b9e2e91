package testutil

import (
	"context"
	"testing"

	"github.com/docidx/docidx"
)

// FetchEvery fetches each of refs from r, in order, and hands each package version fetched to
// visit (when not nil). A failed Fetch is a test error naming the version, which visit does not
// see; the others are still fetched.
func FetchEvery(tb testing.TB, r docidx.Registry, refs []docidx.Ref, visit func(docidx.Ref, *docidx.PackageDocs)) {
	tb.Helper()
	ctx := context.Background()
	for _, ref := range refs {
		pd, err := r.Fetch(ctx, ref.Name, ref.Version)
		if err != nil {
			tb.Errorf("Fetch(%s): %v", ref, err)
			continue
		}
		if visit != nil {
			visit(ref, pd)
		}
	}
}

// Fetched returns name@version fetched from r, failing tb when Fetch returns an error.
func Fetched(tb testing.TB, r docidx.Registry, name, version string) *docidx.PackageDocs {
	tb.Helper()
	pd, err := r.Fetch(context.Background(), name, version)
	if err != nil {
		tb.Fatal(err)
	}
	return pd
}
