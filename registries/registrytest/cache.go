package registrytest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

// CacheSubject is one ecosystem's local cache (a module cache, node_modules, site-packages, a
// cargo home, SwiftPM checkouts), for CacheConformance.
type CacheSubject struct {
	Cache docidx.Cache
	// Name and Version name a package version the cache holds; Missing a package it does not.
	Name, Version, Missing string
}

// CacheConformance checks a local cache, docidx's offline mode, against the contract of
// docidx.Cache and docidx.Registry:
//
//   - List returns refs of the cache's ecosystem, sorted by name, Name@Version among them;
//   - Resolve(Name, Version) returns Version, and Resolve(Name, "") a version List holds;
//   - Fetch(Name, Version) returns that package version;
//   - a missing package or version: Resolve and Fetch return errors wrapping docidx.ErrNotFound;
//   - a cancelled context: List and Fetch return errors wrapping context.Canceled. (Every cache
//     resolves from the listing it holds in memory, at once, so Resolve may answer regardless.)
func CacheConformance(t *testing.T, s CacheSubject) {
	ctx := context.Background()
	c := s.Cache
	refs, err := c.List(ctx)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var versions []string
	for i, r := range refs {
		if r.Ecosystem != c.Ecosystem() {
			t.Errorf("List: %+v is not of ecosystem %s", r, c.Ecosystem())
		}
		if i > 0 && refs[i-1].Name > r.Name {
			t.Errorf("List: %s before %s, not sorted by name", refs[i-1].Name, r.Name)
		}
		if r.Name == s.Name {
			versions = append(versions, r.Version)
		}
	}
	if !slices.Contains(versions, s.Version) {
		t.Errorf("List holds versions %q of %s, not %s", versions, s.Name, s.Version)
	}
	if v, err := c.Resolve(ctx, s.Name, s.Version); err != nil || v != s.Version {
		t.Errorf("Resolve(%s, %s) = %q, %v", s.Name, s.Version, v, err)
	}
	if v, err := c.Resolve(ctx, s.Name, ""); err != nil || !slices.Contains(versions, v) {
		t.Errorf("Resolve(%s, latest) = %q, %v; want one of %q", s.Name, v, err, versions)
	}
	if pd, err := c.Fetch(ctx, s.Name, s.Version); err != nil || pd.Package.Version != s.Version ||
		docidx.NormalizeName(c.Ecosystem(), pd.Package.Name) != docidx.NormalizeName(c.Ecosystem(), s.Name) {
		t.Errorf("Fetch(%s, %s) = %v, %v", s.Name, s.Version, pd, err)
	}
	notFound := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, docidx.ErrNotFound) {
			t.Errorf("%s: err = %v, want one wrapping %v", op, err, docidx.ErrNotFound)
		}
	}
	_, err = c.Resolve(ctx, s.Missing, "")
	notFound("Resolve(missing)", err)
	_, err = c.Fetch(ctx, s.Missing, s.Version)
	notFound("Fetch(missing)", err)
	_, err = c.Resolve(ctx, s.Name, "999.0.0")
	notFound("Resolve(name, a version it does not hold)", err)
	_, err = c.Fetch(ctx, s.Name, "999.0.0")
	notFound("Fetch(name, a version it does not hold)", err)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	canceled := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want one wrapping %v", op, err, context.Canceled)
		}
	}
	_, err = c.List(cctx)
	canceled("List", err)
	_, err = c.Fetch(cctx, s.Name, s.Version)
	canceled("Fetch", err)
}
