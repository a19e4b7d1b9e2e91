package index

// prune.go removes package versions from the generation being written: `docidx prune` and
// `docidx crawl --prune`. The search index needs no change here, since Commit builds it from the
// store.

import (
	"bytes"
	"fmt"

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
		for _, b := range [][]byte{bucketPackages, bucketDocuments, bucketSymbols} {
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
