package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
)

// batchSize is the number of Bleve documents per index batch while committing.
const batchSize = 2000

type writer struct {
	dir  string // index directory
	gen  string // generation directory being written
	lock *os.File
	db   *bolt.DB

	mu      sync.Mutex
	sources map[string]bool
	done    bool
}

func create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index: creating %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return nil, fmt.Errorf("%w: %s is a single snapshot (it holds %s), not an index directory: crawl into another directory",
			docidx.ErrFormat, dir, ManifestFile)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	w := &writer{dir: dir, lock: lock, sources: map[string]bool{}}
	if err := w.init(); err != nil {
		w.release()
		if w.gen != "" {
			os.RemoveAll(w.gen)
		}
		return nil, err
	}
	return &Writer{w: w}, nil
}

func (w *writer) init() error {
	err := w.seed()
	if errors.Is(err, ErrCorrupt) {
		// Crawling again is the usual remedy for damage, but a crawl starts from the current
		// snapshot: say how to start from nothing instead.
		return fmt.Errorf("%w\na crawl adds to the current snapshot, which is damaged: to crawl from scratch, remove %s (the damaged generation goes at the next crawl) or crawl into a new --index directory",
			err, filepath.Join(w.dir, currentFile))
	}
	return err
}

// seed starts the new generation from the current one.
func (w *writer) seed() error {
	cur, err := currentGen(w.dir)
	if err != nil && !errors.Is(err, docidx.ErrNoSnapshot) {
		return err
	}
	var prev *Manifest
	if cur != "" {
		if prev, err = readManifest(cur); err != nil {
			return err
		}
	}
	gens, err := generations(w.dir)
	if err != nil {
		return err
	}
	curN := -1
	if cur != "" {
		curN = parseGen(filepath.Base(cur))
	}
	next := 1
	for _, g := range gens {
		if g >= next {
			next = g + 1
		}
	}
	// Generations left by crawls that did not finish (we hold the lock, so no one is writing
	// them) and old ones no server reads any more.
	removeUnused(w.dir, curN)
	w.gen = filepath.Join(w.dir, genName(next))
	if err := os.Mkdir(w.gen, 0o755); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	storePath := filepath.Join(w.gen, StoreFile)
	if cur != "" {
		if err := copyStore(filepath.Join(cur, StoreFile), storePath); err != nil {
			return err
		}
		for _, s := range prev.Sources {
			w.sources[redactedSource(s)] = true
		}
	}
	db, err := bolt.Open(storePath, 0o644, &bolt.Options{Timeout: 5 * time.Second, NoFreelistSync: true})
	if err != nil {
		return fmt.Errorf("index: opening %s: %w", storePath, err)
	}
	db.NoSync = true // synced once at Commit
	w.db = db
	return db.Update(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put([]byte("format"), []byte(strconv.Itoa(FormatVersion)))
	})
}

// copyStore copies the current generation's store into the new one through a read-only
// transaction, so running servers are not disturbed.
func copyStore(from, to string) (err error) {
	src, err := openStore(from)
	if err != nil {
		return err
	}
	defer guard(&err, from)()
	defer src.Close()
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	err = src.View(func(tx *bolt.Tx) error {
		_, err := tx.WriteTo(f)
		return err
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("index: copying %s: %w", from, err)
	}
	return nil
}

func (w *writer) check() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return ErrClosed
	}
	return nil
}

func (w *writer) has(ref docidx.Ref) bool {
	if w.check() != nil {
		return false
	}
	found := false
	w.db.View(func(tx *bolt.Tx) error {
		found = tx.Bucket(bucketPackages).Get(versionKey(ref)) != nil
		return nil
	})
	return found
}

func (w *writer) put(ctx context.Context, d *docidx.PackageDocs) error {
	if err := w.check(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := d.Package
	if p.Ecosystem == "" || p.Name == "" || p.Version == "" {
		return fmt.Errorf("index: package record needs ecosystem, name and version, got %q", p.Ref())
	}
	if strings.ContainsRune(p.Name, 0) || strings.ContainsRune(p.Version, 0) {
		return fmt.Errorf("index: NUL byte in %q", p.Ref())
	}
	docs := append([]docidx.Document(nil), d.Documents...)
	sort.SliceStable(docs, func(i, j int) bool {
		if ri, rj := docRank(docs[i].Kind), docRank(docs[j].Kind); ri != rj {
			return ri < rj
		}
		return docs[i].Path < docs[j].Path
	})
	key := versionKey(p.Ref())
	return w.db.Update(func(tx *bolt.Tx) error {
		if err := putJSON(tx.Bucket(bucketPackages), key, p); err != nil {
			return err
		}
		if err := putJSON(tx.Bucket(bucketDocuments), key, docs); err != nil {
			return err
		}
		syms := d.Symbols
		if syms == nil {
			syms = []docidx.Symbol{}
		}
		if err := putJSON(tx.Bucket(bucketSymbols), key, syms); err != nil {
			return err
		}
		names := tx.Bucket(bucketNames)
		nk := nameKey(p.Ecosystem, p.Name)
		var e nameEntry
		if _, err := getJSON(names, nk, &e); err != nil {
			return err
		}
		seen := false
		for _, v := range e.Versions {
			seen = seen || v == p.Version
		}
		if !seen {
			e.Versions = append(e.Versions, p.Version)
			docidx.SortVersions(p.Ecosystem, e.Versions)
		}
		e.Latest = latestVersion(p.Ecosystem, e.Versions)
		if e.Latest == p.Version {
			e.Description = p.Description
		}
		return putJSON(names, nk, e)
	})
}

// redactedSource returns a source carried over from the previous generation's manifest without
// the crawling machine's directories: snapshots written before crawl recorded local caches by
// label ("go module cache") recorded their absolute paths, which every client of a shipped
// snapshot would read in docidx://snapshot. An absolute path keeps its last element only.
func redactedSource(s string) string {
	if filepath.IsAbs(s) {
		return "local directory " + filepath.Base(s)
	}
	return s
}

func (w *writer) addSource(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s != "" {
		w.sources[s] = true
	}
}

func (w *writer) finish() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return ErrClosed
	}
	w.done = true
	return nil
}

func (w *writer) commit(ctx context.Context) (*Manifest, error) {
	if err := w.finish(); err != nil {
		return nil, err
	}
	m, err := w.publish(ctx)
	if err != nil {
		if w.db != nil {
			w.db.Close()
		}
		os.RemoveAll(w.gen)
	}
	w.release()
	return m, err
}

func (w *writer) publish(ctx context.Context) (*Manifest, error) {
	counts, err := w.buildSearch(ctx)
	if err != nil {
		return nil, err
	}
	if err := w.db.Sync(); err != nil {
		return nil, fmt.Errorf("index: syncing store: %w", err)
	}
	if err := w.db.Close(); err != nil {
		return nil, fmt.Errorf("index: closing store: %w", err)
	}
	w.db = nil
	if err := shareTree(w.gen); err != nil {
		return nil, fmt.Errorf("index: setting the permissions of %s: %w", w.gen, err)
	}
	if err := syncTree(w.gen); err != nil {
		return nil, fmt.Errorf("index: syncing %s: %w", w.gen, err)
	}
	sums, err := checksums(w.gen)
	if err != nil {
		return nil, fmt.Errorf("index: checksums: %w", err)
	}
	m := &Manifest{
		Format:        FormatVersion,
		DocidxVersion: docidx.Version,
		Created:       time.Now().UTC().Truncate(time.Second),
		Counts:        counts,
		Files:         sums,
	}
	w.mu.Lock()
	for s := range w.sources {
		m.Sources = append(m.Sources, s)
	}
	w.mu.Unlock()
	sort.Strings(m.Sources)
	if err := writeManifest(w.gen, m); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The new generation's directory entry reaches the disk before CURRENT can name it.
	if err := syncDir(w.dir); err != nil {
		return nil, fmt.Errorf("index: syncing %s: %w", w.dir, err)
	}
	// The switch: one rename of the pointer file.
	if err := writeFileSync(filepath.Join(w.dir, currentFile), []byte(filepath.Base(w.gen)+"\n")); err != nil {
		return nil, fmt.Errorf("index: publishing %s: %w", w.gen, err)
	}
	removeUnused(w.dir, parseGen(filepath.Base(w.gen)))
	return m, nil
}

// writeManifest writes manifest.json into snap.
func writeManifest(snap string, m *Manifest) error {
	data, err := marshalManifest(m)
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(snap, ManifestFile), data)
}

func (w *writer) abort() error {
	if err := w.finish(); err != nil {
		return err
	}
	var err error
	if w.db != nil {
		err = w.db.Close()
	}
	if rmErr := os.RemoveAll(w.gen); err == nil {
		err = rmErr
	}
	w.release()
	return err
}

func (w *writer) release() {
	if w.lock != nil {
		unlockDir(w.lock)
		w.lock = nil
	}
}

// buildSearch indexes every section and symbol of every package version in the store and counts
// them. Each package's latest version goes to search.bleve, older versions to search-old.bleve:
// searches without a version, nearly all of them, then need no filter on "latest", which would
// cost a pass over most of the index.
func (w *writer) buildSearch(ctx context.Context) ([]EcosystemCounts, error) {
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	var idxs [2]bleve.Index // latest, old
	for i, name := range []string{SearchDir, OldSearchDir} {
		path := filepath.Join(w.gen, name)
		if idxs[i], err = bleve.NewUsing(path, im, scorch.Name, scorch.Name, nil); err != nil {
			for _, idx := range idxs[:i] {
				idx.Close()
			}
			return nil, fmt.Errorf("index: creating %s: %w", path, err)
		}
	}
	// The stored fields of the latest versions' documents go to rank.idx too, in Bleve's
	// document order, which is known only once the index is merged: spool them until then.
	spool, err := newHitSpool(w.gen)
	if err != nil {
		for _, idx := range idxs {
			idx.Close()
		}
		return nil, err
	}
	defer spool.close()
	counts := map[docidx.Ecosystem]*EcosystemCounts{}
	batches := [2]*bleve.Batch{idxs[0].NewBatch(), idxs[1].NewBatch()}
	flush := func(i int) error {
		if batches[i].Size() == 0 {
			return nil
		}
		if err := idxs[i].Batch(batches[i]); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		batches[i].Reset()
		return ctx.Err()
	}
	err = w.db.View(func(tx *bolt.Tx) error {
		names := tx.Bucket(bucketNames)
		docsB, symsB := tx.Bucket(bucketDocuments), tx.Bucket(bucketSymbols)
		latest := map[string]string{} // name key -> latest version
		err := names.ForEach(func(k, v []byte) error {
			var e nameEntry
			if err := decodeJSON(k, v, &e); err != nil {
				return err
			}
			latest[string(k)] = e.Latest
			eco, _ := parseNameKey(k)
			c := counts[eco]
			if c == nil {
				c = &EcosystemCounts{Ecosystem: eco}
				counts[eco] = c
			}
			c.Packages++
			return nil
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketPackages).ForEach(func(k, v []byte) error {
			var p docidx.Package
			if err := decodeJSON(k, v, &p); err != nil {
				return err
			}
			var docs []docidx.Document
			var syms []docidx.Symbol
			if _, err := getJSON(docsB, k, &docs); err != nil {
				return err
			}
			if _, err := getJSON(symsB, k, &syms); err != nil {
				return err
			}
			which := 1
			if latest[string(nameKey(p.Ecosystem, p.Name))] == p.Version {
				which = 0
			}
			c := counts[p.Ecosystem]
			if c == nil {
				c = &EcosystemCounts{Ecosystem: p.Ecosystem}
				counts[p.Ecosystem] = c
			}
			c.Versions++
			c.Documents += len(docs)
			c.Symbols += len(syms)
			for _, d := range docs {
				c.Sections += len(d.Sections)
			}
			for _, bd := range searchDocs(&p, docs, syms) {
				if err := batches[which].Index(bd.id, bd.fields); err != nil {
					return err
				}
				if which == 0 {
					if err := spool.add(bd.id, bd.fields); err != nil {
						return err
					}
				}
				if batches[which].Size() >= batchSize {
					if err := flush(which); err != nil {
						return err
					}
				}
			}
			return nil
		})
	})
	for i, idx := range idxs {
		if err == nil {
			err = flush(i)
		}
		if err == nil {
			err = forceMerge(ctx, idx)
		}
		if err == nil && i == 0 {
			err = buildRank(ctx, idx, spool, filepath.Join(w.gen, RankFile))
		}
		if cerr := idx.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("index: closing search index: %w", cerr)
		}
	}
	if err != nil {
		return nil, err
	}
	var out []EcosystemCounts
	for _, eco := range docidx.Ecosystems {
		if c := counts[eco]; c != nil {
			out = append(out, *c)
			delete(counts, eco)
		}
	}
	var rest []docidx.Ecosystem
	for eco := range counts {
		rest = append(rest, eco)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
	for _, eco := range rest {
		out = append(out, *counts[eco])
	}
	if out == nil {
		out = []EcosystemCounts{}
	}
	return out, nil
}

// forceMerge merges the index into one segment: a snapshot is written once and read many times,
// and a search over one segment is several times faster than over the dozens a bulk load leaves.
func forceMerge(ctx context.Context, idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	if s, ok := adv.(*scorch.Scorch); ok {
		if err := s.ForceMerge(ctx, nil); err != nil {
			return fmt.Errorf("index: merging search segments: %w", err)
		}
	}
	return nil
}

// shareTree gives every directory under root the mode 0777 and every file 0666, less the
// process's umask, as files created with os.Create get. Bleve writes its directories 0700 and
// its files 0600: a snapshot crawled by one user (root, a CI job) would be unreadable to the
// others that serve it. The umask is learnt from a file and a directory created here, rather
// than with umask(2), which sets it for the whole process while it reads it.
func shareTree(root string) error {
	probe := filepath.Join(root, ".mode-probe")
	if err := os.Mkdir(probe, 0o777); err != nil {
		return err
	}
	defer os.RemoveAll(probe)
	f, err := os.OpenFile(filepath.Join(probe, "f"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if err != nil {
		return err
	}
	f.Close()
	dfi, err := os.Stat(probe)
	if err != nil {
		return err
	}
	ffi, err := os.Stat(filepath.Join(probe, "f"))
	if err != nil {
		return err
	}
	dirMode, fileMode := dfi.Mode().Perm(), ffi.Mode().Perm()
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == probe {
			if err == nil {
				return filepath.SkipDir
			}
			return err
		}
		switch {
		case d.IsDir():
			return os.Chmod(p, dirMode)
		case d.Type().IsRegular():
			return os.Chmod(p, fileMode)
		}
		return nil
	})
}
