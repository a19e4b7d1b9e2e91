package testutil

import (
	"context"
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

// fixedRegistry serves the versions it holds and fails every other with ErrNotFound.
type fixedRegistry map[string]*docidx.PackageDocs

func (fixedRegistry) Ecosystem() docidx.Ecosystem { return docidx.NPM }

func (fixedRegistry) Resolve(context.Context, string, string) (string, error) {
	return "", docidx.ErrNotFound
}

func (f fixedRegistry) Fetch(_ context.Context, name, version string) (*docidx.PackageDocs, error) {
	if pd, ok := f[name+"@"+version]; ok {
		return pd, nil
	}
	return nil, docidx.ErrNotFound
}

func TestFetchEvery(t *testing.T) {
	r := fixedRegistry{"a@1": {Package: docidx.Package{Name: "a"}}, "c@3": {Package: docidx.Package{Name: "c"}}}
	refs := []docidx.Ref{{Name: "a", Version: "1"}, {Name: "b", Version: "2"}, {Name: "c", Version: "3"}}
	var visited []string
	rec := &recorder{TB: t}
	FetchEvery(rec, r, refs, func(ref docidx.Ref, pd *docidx.PackageDocs) {
		visited = append(visited, ref.Name+"="+pd.Package.Name)
	})
	if !slices.Equal(visited, []string{"a=a", "c=c"}) || len(rec.errs) != 1 {
		t.Errorf("visited %q, errors %q; want a and c, one error for b", visited, rec.errs)
	}
	rec = &recorder{TB: t}
	FetchEvery(rec, r, refs, nil)
	if len(rec.errs) != 1 {
		t.Errorf("without visit: errors %q, want one for b", rec.errs)
	}
}
