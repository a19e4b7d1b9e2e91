package testutil

import (
	"context"
	"testing"

	"github.com/docidx/docidx"
)

// FetchEvery fetches each of refs from r, in order, and hands each package version fetched to
// visit (when not nil). A failed Fetch is a test error naming the version, which visit does not
// see; the others are still fetched.
func FetchEvery(tb testing.TB, r Fetcher, refs []docidx.Ref, visit func(docidx.Ref, *docidx.PackageDocs)) {
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
