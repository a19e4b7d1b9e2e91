package index

// prune.go removes package versions from the generation being written: `docidx prune` and
// `docidx crawl --prune`. The search index needs no change here, since Commit builds it from the
// store.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
)

// Refs returns every package version in the generation being written, in (ecosystem, name,
// version) byte order.
func (w *Writer) Refs() ([]docidx.Ref, error) { return w.w.refs() }

// Delete removes the package version ref from the generation being written: its metadata,
// documents and symbols, and its entry in the package's version list (the package itself when
// no version is left). It returns an error wrapping docidx.ErrNotFound when ref is not there.
// Like Put, it shows only once Commit publishes the generation.
func (w *Writer) Delete(ref docidx.Ref) error { return w.w.delete(ref) }

func (w *writer) refs() ([]docidx.Ref, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	var out []docidx.Ref
	err := w.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPackages).ForEach(func(k, _ []byte) error {
			parts := bytes.SplitN(k, []byte{0}, 3)
			if len(parts) != 3 {
				return fmt.Errorf("%w: store.db: bad package key %q", docidx.ErrFormat, k)
			}
			out = append(out, docidx.Ref{Ecosystem: docidx.Ecosystem(parts[0]), Name: string(parts[1]), Version: string(parts[2])})
			return nil
		})
	})
	return out, err
}

func (w *writer) delete(ref docidx.Ref) error {
	if err := w.check(); err != nil {
		return err
	}
	key := versionKey(ref)
	return w.db.Update(func(tx *bolt.Tx) error {
		pkgs := tx.Bucket(bucketPackages)
		if pkgs.Get(key) == nil {
			return fmt.Errorf("%w: %s is not indexed", docidx.ErrNotFound, ref)
		}
		if err := w.remember(tx, key, nameKey(ref.Ecosystem, ref.Name)); err != nil {
			return err
		}
		// Its documents and symbols stay where they are (a segment, or the staging file), no
		// longer read: only the versions of the packages bucket are indexed or searched.
		for _, b := range [][]byte{bucketPackages, bucketWhere, bucketCounts} {
			if err := tx.Bucket(b).Delete(key); err != nil {
				return err
			}
		}
		names := tx.Bucket(bucketNames)
		nk := nameKey(ref.Ecosystem, ref.Name)
		var e nameEntry
		if _, err := getJSON(names, nk, &e); err != nil {
			return err
		}
		kept := e.Versions[:0]
		for _, v := range e.Versions {
			if v != ref.Version {
				kept = append(kept, v)
			}
		}
		if len(kept) == 0 {
			return names.Delete(nk)
		}
		e.Versions = kept
		if e.Root == ref.Version {
			e.Root = ""
		}
		if latest := latestVersion(ref.Ecosystem, kept); latest != e.Latest {
			e.Latest = latest
			var p docidx.Package
			if _, err := getJSON(pkgs, versionKey(docidx.Ref{Ecosystem: ref.Ecosystem, Name: ref.Name, Version: latest}), &p); err != nil {
				return err
			}
			e.Description = p.Description
		}
		return putJSON(names, nk, e)
	})
}

// PruneOptions selects the package versions Writer.Prune removes. Scopes combine: a version is
// removed when it is in every scope given and is not among the KeepLatest newest of its package.
type PruneOptions struct {
	// Ecosystem limits pruning to one ecosystem; empty means all.
	Ecosystem docidx.Ecosystem
	// Packages limits pruning to these packages: a Ref with a Version selects that version
	// only, one without selects every version of the package. Empty means every package.
	Packages []docidx.Ref
	// KeepLatest keeps the newest KeepLatest indexed versions of each package (by the
	// ecosystem's version order) and removes the older ones; 0 removes every version in scope.
	KeepLatest int
	// DryRun reports what would be removed and removes nothing.
	DryRun bool
}

// Prune removes the package versions opts selects from the generation being written and returns
// them in (ecosystem, name, version order). A package in opts.Packages that is not indexed at
// all gives an error wrapping docidx.ErrNotFound and removes nothing.
func (w *Writer) Prune(opts PruneOptions) ([]docidx.Ref, error) {
	refs, err := w.Refs()
	if err != nil {
		return nil, err
	}
	type pkgKey struct {
		eco  docidx.Ecosystem
		name string
	}
	versions := map[pkgKey][]string{}
	var order []pkgKey
	for _, r := range refs {
		k := pkgKey{r.Ecosystem, r.Name}
		if versions[k] == nil {
			order = append(order, k)
		}
		versions[k] = append(versions[k], r.Version)
	}
	wantPkg := map[pkgKey]bool{}
	wantVer := map[docidx.Ref]bool{}
	for _, p := range opts.Packages {
		k := pkgKey{p.Ecosystem, p.Name}
		if versions[k] == nil {
			return nil, fmt.Errorf("%w: %s is not indexed", docidx.ErrNotFound, docidx.Ref{Ecosystem: p.Ecosystem, Name: p.Name})
		}
		if p.Version == "" {
			wantPkg[k] = true
			continue
		}
		if !slices.Contains(versions[k], p.Version) {
			return nil, fmt.Errorf("%w: %s is not indexed (indexed: %s)", docidx.ErrNotFound, p, strings.Join(versions[k], ", "))
		}
		wantVer[p] = true
	}
	var out []docidx.Ref
	for _, k := range order {
		if opts.Ecosystem != "" && k.eco != opts.Ecosystem {
			continue
		}
		vs := versions[k]
		docidx.SortVersions(k.eco, vs) // oldest first
		keepFrom := max(len(vs)-opts.KeepLatest, 0)
		for i, v := range vs {
			ref := docidx.Ref{Ecosystem: k.eco, Name: k.name, Version: v}
			if len(opts.Packages) > 0 && !wantPkg[k] && !wantVer[ref] {
				continue
			}
			if i >= keepFrom {
				continue
			}
			out = append(out, ref)
		}
	}
	if opts.DryRun {
		return out, nil
	}
	for _, ref := range out {
		if err := w.Delete(ref); err != nil {
			return nil, err
		}
	}
	return out, nil
}
