package index

// merge.go combines snapshots into one new generation: `docidx merge`, after the N parts of a
// sharded crawl (crawl.Shard) were crawled on N machines. It goes through the ordinary Writer,
// so the merged generation is built, checked and published exactly as a crawl's is.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
)

// Refs returns every package version the snapshot holds, in (ecosystem, name, version) byte
// order, with names as their ecosystem compares them (docidx.NormalizeName). A key of the store
// that does not name a package version is an error wrapping docidx.ErrFormat.
func (r *Reader) Refs() (refs []docidx.Ref, err error) {
	defer guard(&err, r.r.dir)()
	err = r.r.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPackages).ForEach(func(k, _ []byte) error {
			parts := bytes.SplitN(k, []byte{0}, 3)
			if len(parts) != 3 || len(parts[0]) == 0 || len(parts[1]) == 0 || len(parts[2]) == 0 {
				return fmt.Errorf("%w: %s: bad package key %q", docidx.ErrFormat, filepath.Join(r.r.dir, StoreFile), k)
			}
			refs = append(refs, docidx.Ref{Ecosystem: docidx.Ecosystem(parts[0]), Name: string(parts[1]), Version: string(parts[2])})
			return nil
		})
	})
	return refs, err
}

// PackageDocs returns everything the snapshot stores of the package version ref (an exact
// version): its metadata, documents and symbols, as a crawl Put them. It returns an error
// wrapping docidx.ErrNotFound when ref is not indexed.
func (r *Reader) PackageDocs(ref docidx.Ref) (*docidx.PackageDocs, error) {
	p, err := r.Package(ref)
	if err != nil {
		return nil, err
	}
	docs, err := r.Documents(p.Ref())
	if err != nil {
		return nil, err
	}
	syms, err := r.Symbols(p.Ref())
	if err != nil {
		return nil, err
	}
	return &docidx.PackageDocs{Package: *p, Documents: docs, Symbols: syms}, nil
}

// ContentHash returns the SHA-256 of what a package version says: its metadata, documents and
// symbols, without what depends on when and from where it was crawled (Package.Source,
// CrawledAt, and Versions, the versions its source knew at the time). Two crawls of one package
// version from the same sources give the same hash on any machine.
func ContentHash(d *docidx.PackageDocs) ([sha256.Size]byte, error) {
	p := d.Package
	p.Source, p.CrawledAt, p.Versions = "", time.Time{}, nil
	p.Name = docidx.NormalizeName(p.Ecosystem, p.Name)
	docs := d.Documents
	if docs == nil {
		docs = []docidx.Document{}
	}
	syms := d.Symbols
	if syms == nil {
		syms = []docidx.Symbol{}
	}
	data, err := json.Marshal(struct {
		P docidx.Package    `json:"p"`
		D []docidx.Document `json:"d"`
		S []docidx.Symbol   `json:"s"`
	}{p, sortedDocs(docs), syms})
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return sha256.Sum256(data), nil
}

// ErrConflict is returned by Merge when two inputs hold different copies of one package version.
var ErrConflict = errors.New("index: conflicting copies of a package version")

// MergeInput is what Merge did with one input.
type MergeInput struct {
	Path      string   `json:"path"`              // as given; for the index's own snapshot, the index directory
	Current   bool     `json:"current,omitempty"` // the snapshot the index directory held before the merge
	Format    int      `json:"format"`            // its snapshot format
	Versions  int      `json:"versions"`          // package versions it holds
	Added     int      `json:"added"`             // of those, versions no earlier input had
	Identical int      `json:"identical"`         // versions an earlier input had, with the same content
	Sources   []string `json:"sources,omitempty"` // its manifest's sources, recorded in the merged one
}

// MergeSummary is the outcome of Merge.
type MergeSummary struct {
	Inputs []MergeInput `json:"inputs"`
	// Versions is the number of package versions in the merged snapshot.
	Versions int `json:"versions"`
	// Changed is false when no input added anything to the index's current snapshot: then no
	// generation was written.
	Changed  bool              `json:"changed"`
	Counts   []EcosystemCounts `json:"counts"`
	Elapsed  time.Duration     `json:"elapsedNs"`
	Manifest *Manifest         `json:"-"` // of the published generation; nil when !Changed
}

// maxConflictsListed bounds the conflicting versions one Merge error lists.
const maxConflictsListed = 10

// Merge writes a new generation of the index directory dir holding every package version of
// its current snapshot (if any) and of each input: an index directory, a snapshot directory, or
// an archive made by Pack (unpacked into a temporary directory, removed afterwards; all inputs
// are open at once, so archives need their unpacked size in the temporary directory). The inputs
// are opened as Open opens them and checked as a first search checks them (Reader.Prepare: the
// checksum of every rank.idx, every search index), the current snapshot too, so a snapshot of a
// format this docidx cannot read is refused with an error wrapping docidx.ErrFormat that names
// it, and a damaged one with an error wrapping ErrCorrupt. A package version found in several
// inputs must have the same ContentHash in each (the first copy is kept); otherwise Merge fails
// with an error wrapping ErrConflict that lists the versions and inputs. The inputs' manifest sources are recorded in the new manifest. The
// generation is written through Create and published by Commit: on any error the current
// snapshot stays as it was.
func Merge(ctx context.Context, dir string, inputs []string) (*MergeSummary, error) {
	start := time.Now()
	if IsArchive(dir) {
		return nil, fmt.Errorf("index: merge: %s is an archive; merge into an index directory (unpack the archive, or give it as an input)", dir)
	}
	w, err := CreateFor(dir, "merge")
	if err != nil {
		return nil, err
	}
	defer w.Abort() // no-op after Commit
	sum := &MergeSummary{}
	var readers []*Reader
	defer func() {
		for _, r := range readers {
			r.Close()
		}
	}()

	// The index's own snapshot, read through a Reader of the generation the writer was seeded
	// from: the writer holds the index's lock, so no crawl can publish another one meanwhile.
	hadCurrent := false
	if cur, err := Open(dir); err == nil {
		hadCurrent = true
		readers = append(readers, cur)
		sum.Inputs = append(sum.Inputs, MergeInput{Path: dir, Current: true, Format: cur.Manifest().Format})
		if err := cur.Prepare(); err != nil {
			return nil, fmt.Errorf("index: merge: the current snapshot of %s: %w", dir, err)
		}
	} else if !errors.Is(err, docidx.ErrNoSnapshot) {
		return nil, fmt.Errorf("index: merge: the current snapshot of %s: %w", dir, err)
	}
	for _, path := range inputs {
		r, cleanup, err := openInput(path)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		readers = append(readers, r)
		sum.Inputs = append(sum.Inputs, MergeInput{Path: path, Format: r.Manifest().Format})
	}

	// Every version of every input, in the store's key order: written in that order, the new
	// store's pages fill as one crawl's do (the inputs one after the other would interleave
	// their keys and leave a store a fifth larger), and the copies of one version come together.
	type entry struct {
		key   string
		ref   docidx.Ref
		input int
	}
	var all []entry
	for i, r := range readers {
		refs, err := r.Refs()
		if err != nil {
			return nil, fmt.Errorf("index: merge: %s: %w", sum.Inputs[i].Path, err)
		}
		sum.Inputs[i].Versions = len(refs)
		for _, ref := range refs {
			all = append(all, entry{string(versionKey(ref)), ref, i})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].key < all[j].key }) // inputs in order within a key

	adopted := make([]map[string]string, len(readers)) // per input: its segment -> the name linked here
	for i := range adopted {
		adopted[i] = map[string]string{}
	}
	var (
		conflicts  []string
		nConflicts int
		firstHash  [sha256.Size]byte
		firstIn    = -1
	)
	for n, e := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		in := &sum.Inputs[e.input]
		d, err := readers[e.input].PackageDocs(e.ref)
		if err != nil {
			return nil, fmt.Errorf("index: merge: %s: reading %s: %w", in.Path, e.ref, err)
		}
		h, err := ContentHash(d)
		if err != nil {
			return nil, fmt.Errorf("index: merge: %s: %w", in.Path, err)
		}
		if n > 0 && all[n-1].key == e.key { // a later copy of the version firstIn holds
			if h == firstHash {
				in.Identical++
				continue
			}
			nConflicts++
			if len(conflicts) < maxConflictsListed {
				conflicts = append(conflicts, fmt.Sprintf("%s: %s has content %x, %s has %x",
					d.Package.Ref(), sum.Inputs[firstIn].Path, firstHash[:6], in.Path, h[:6]))
			}
			continue
		}
		firstHash, firstIn = h, e.input
		in.Added++
		if in.Current || nConflicts > 0 {
			continue // already in the writer; or nothing will be written
		}
		// The version's segment in its input is linked into the generation once, and the
		// version is searched there: merging indexes nothing again.
		r := readers[e.input]
		seg, err := r.r.segmentOf(e.ref)
		if err != nil {
			return nil, fmt.Errorf("index: merge: %s: %w", in.Path, err)
		}
		name, ok := adopted[e.input][seg]
		if !ok {
			if name, err = w.w.adopt(r.r.manifest.segmentPath(r.r.dir, seg)); err != nil {
				return nil, fmt.Errorf("index: merge: %s: %w", in.Path, err)
			}
			adopted[e.input][seg] = name
		}
		if err := w.w.putAt(ctx, d, name); err != nil {
			return nil, fmt.Errorf("index: merge: %s: storing %s: %w", in.Path, e.ref, err)
		}
	}
	if nConflicts > 0 {
		more := ""
		if nConflicts > len(conflicts) {
			more = fmt.Sprintf("\n… and %d more", nConflicts-len(conflicts))
		}
		return nil, fmt.Errorf("%w: %d package versions differ between inputs, nothing merged:\n%s%s\nmerge snapshots crawled from the same sources, or remove one copy first with 'docidx prune --index DIR ECOSYSTEM:NAME@VERSION'",
			ErrConflict, nConflicts, strings.Join(conflicts, "\n"), more)
	}
	for i, r := range readers {
		for _, s := range r.Manifest().Sources {
			sum.Inputs[i].Sources = append(sum.Inputs[i].Sources, redactedSource(s))
			w.AddSource(redactedSource(s))
		}
	}
	added := 0
	for _, in := range sum.Inputs {
		if !in.Current {
			added += in.Added
		}
		sum.Versions += in.Added
	}
	if added == 0 && hadCurrent {
		// Nothing new: a generation would only copy the current one, as a crawl that changes
		// nothing does not write one.
		sum.Counts = readers[0].Counts()
		sum.Elapsed = time.Since(start)
		return sum, w.Abort()
	}
	m, err := w.Commit(ctx)
	if err != nil {
		return nil, err
	}
	sum.Changed, sum.Manifest, sum.Counts = true, m, m.Counts
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// openInput opens one input of Merge: a directory as Open does, an archive unpacked into a
// temporary directory that cleanup removes; either is then prepared (see Reader.Prepare), which
// checks the segments Merge adopts. Errors name the input.
func openInput(path string) (r *Reader, cleanup func(), err error) {
	cleanup = func() {}
	dir := path
	if IsArchive(path) {
		tmp, err := os.MkdirTemp("", "docidx-merge-")
		if err != nil {
			return nil, nil, fmt.Errorf("index: merge: unpacking %s: %w", path, err)
		}
		cleanup = func() { os.RemoveAll(tmp) }
		f, err := os.Open(path)
		if err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("index: merge: %w", err)
		}
		dir = filepath.Join(tmp, "snapshot")
		_, err = Extract(f, dir)
		f.Close()
		if err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("index: merge: unpacking %s: %w", path, err)
		}
	} else if fi, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("index: merge: %w", err)
	} else if !fi.IsDir() {
		return nil, nil, fmt.Errorf("index: merge: %s is neither a snapshot directory, an index directory nor an archive made by 'docidx pack'", path)
	}
	r, err = Open(dir)
	if err == nil {
		if err = r.Prepare(); err != nil {
			r.Close()
		}
	}
	if err != nil {
		cleanup()
		if errors.Is(err, docidx.ErrNoSnapshot) {
			return nil, nil, fmt.Errorf("index: merge: %s holds no snapshot: %w", path, err)
		}
		return nil, nil, fmt.Errorf("index: merge: %s: %w", path, err)
	}
	return r, cleanup, nil
}

// sortedDocs returns docs in the order the store keeps them (see docRank), so that a hash does
// not depend on the order a source listed them in.
func sortedDocs(docs []docidx.Document) []docidx.Document {
	out := append([]docidx.Document(nil), docs...)
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := docRank(out[i].Kind), docRank(out[j].Kind); ri != rj {
			return ri < rj
		}
		return out[i].Path < out[j].Path
	})
	return out
}
