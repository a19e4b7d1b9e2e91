package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	bolt "go.etcd.io/bbolt"
)

// batchSize is the number of Bleve documents the builder of a segment analyses and writes to a
// zap file at a time while committing: what a segment's build holds in memory besides its
// ranking index is about one batch. 8,192 documents of the real corpus are some 40 MB.
const batchSize = 8192

// builderMergeMax is how many of a segment's zap files Bleve's builder merges at once: the most
// a segment's build writes (maxSegmentDocs/batchSize), so every document is merged once.
const builderMergeMax = maxSegmentDocs / batchSize

type writer struct {
	dir  string // index directory
	gen  string // generation directory being written
	lock *os.File
	db   *bolt.DB
	// prev is the manifest of the generation the writer was seeded from when it is of a format
	// whose segments the new generation keeps (4 or later), nil otherwise.
	prev *Manifest
	// base is the manifest of the generation the writer was seeded from, of any format; nil
	// for none.
	base *Manifest

	mu      sync.Mutex
	sources map[string]bool
	compact bool
	nextSeg int         // the number of the next new segment
	linked  []*segState // segments kept from the previous generation and adopted by adopt
	// built names the segment directories this writer made beside the generations (built, or
	// linked by adopt): removed if it does not commit, synced and hashed if it does.
	built []string
	// renamed maps the segments of a previous generation that held them itself to the names
	// they were adopted under (see keepSegments).
	renamed map[string]string
	// sums are the known checksums of the files of the segments kept and of those linked from
	// a previous generation, by segment name and then slash path in the segment.
	sums map[string]map[string]string
	// touched holds, by version key, what the catalog said of each version before the writer
	// first changed it, and names, by name key, whether the package was there: Commit derives
	// the segments' live documents and the counts from them (see remember).
	touched map[string]touch
	names   map[string]bool
	stores  map[string]*docStore // document stores of segments being merged, by segment name
	// stage holds the documents and symbols the crawl put, until Commit writes them into the
	// new segments' document stores: stagingFile in the generation, created at the first put
	// and removed before the generation is published.
	stage *stage
	// legacy is set when the store was seeded from a snapshot of format 3 or older, whose
	// store holds every version's documents and symbols.
	legacy bool
	done   bool
	// progress receives Commit's reports (see Writer.SetProgress); nil for none.
	progress *progressCounter
}

func create(dir, command string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index: creating %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return nil, fmt.Errorf("%w: %s is a single snapshot (it holds %s), not an index directory: crawl into another directory",
			docidx.ErrFormat, dir, ManifestFile)
	}
	lock, err := lockDir(dir, command)
	if err != nil {
		return nil, err
	}
	w := &writer{dir: dir, lock: lock, nextSeg: 1, sources: map[string]bool{}, stores: map[string]*docStore{},
		renamed: map[string]string{}, sums: map[string]map[string]string{}, touched: map[string]touch{}, names: map[string]bool{}}
	if err := w.init(); err != nil {
		if w.db != nil {
			w.db.Close()
		}
		w.removeNew()
		w.release()
		return nil, err
	}
	return &Writer{w: w}, nil
}

func (w *writer) init() error { return w.fromScratch(w.seed()) }

// fromScratch explains err, met reading the current snapshot to build on it: crawling again is
// the usual remedy for damage, but a crawl starts from the current snapshot, so it says how to
// start from nothing instead.
func (w *writer) fromScratch(err error) error {
	if errors.Is(err, ErrCorrupt) {
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
	// New segments are numbered after every segment beside the generations.
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	for _, e := range entries {
		if n := segNumber(e.Name()); n >= w.nextSeg {
			w.nextSeg = n + 1
		}
	}
	w.gen = filepath.Join(w.dir, genName(next))
	if err := os.Mkdir(w.gen, 0o755); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	storePath := filepath.Join(w.gen, StoreFile)
	if cur != "" {
		if err := copyStore(filepath.Join(cur, StoreFile), storePath); err != nil {
			return err
		}
		w.base = prev
		for _, s := range prev.Sources {
			w.sources[redactedSource(s)] = true
		}
		if prev.Format >= oldestReadFormat {
			w.prev = prev
			if err := w.keepSegments(cur, prev); err != nil {
				return err
			}
		}
	}
	// The freelist is synced: without it, opening the copy for writing walks every page of
	// the store to rebuild it, which a crawl adding one package paid in time and memory in
	// proportion to the snapshot (33 MB of 92 at 4N versions).
	db, err := bolt.Open(storePath, 0o644, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return fmt.Errorf("index: opening %s: %w", storePath, err)
	}
	db.NoSync = true // synced once at Commit
	w.db = db
	return db.Update(func(tx *bolt.Tx) error {
		if w.prev == nil && tx.Bucket(bucketWhere) != nil {
			// A store of an older format has no segments to keep: every version is indexed
			// anew, its documents and symbols read from the store's staging buckets.
			if err := tx.DeleteBucket(bucketWhere); err != nil {
				return err
			}
		}
		if err := renameWhere(tx.Bucket(bucketWhere), w.renamed); err != nil {
			return err
		}
		// A store of format 3 or older holds every version's documents and symbols (see
		// store.go): the versions' values for the new segments, dropped at Commit.
		w.legacy = tx.Bucket(bucketDocuments) != nil
		for _, b := range catalogBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put([]byte("format"), []byte(strconv.Itoa(FormatVersion)))
	})
}

// keepSegments makes the segments of prev, the manifest of the current generation at cur, the
// segments the new generation starts from. Segments beside the generations (format 5) are kept
// where they are, their shape checked (see keepSegment), so that damage to it is named before
// anything is built on them. The segments of a snapshot that holds them itself (format 4, or
// unpacked from an archive) are linked beside the generations once, under names no segment
// there has.
func (w *writer) keepSegments(cur string, prev *Manifest) error {
	for _, seg := range prev.Segments {
		if !validSegmentName(seg.Name) {
			return damaged(filepath.Join(cur, ManifestFile), "it lists a segment named %q", seg.Name)
		}
		src := prev.segmentPath(cur, seg.Name)
		if prev.SegmentDir == "" {
			name, err := w.adopt(src)
			if err != nil {
				return err
			}
			w.renamed[seg.Name] = name
			continue
		}
		st, err := keepSegment(src, seg)
		if err != nil {
			return err
		}
		w.linked = append(w.linked, st)
	}
	// The segments' files are the same, kept or linked: so are their checksums.
	for path, sum := range prev.Files {
		seg, rest, ok := strings.Cut(path, "/")
		if to, renamed := w.renamed[seg]; renamed {
			seg = to
		}
		if ok && validSegmentName(seg) {
			if w.sums[seg] == nil {
				w.sums[seg] = map[string]string{}
			}
			w.sums[seg][rest] = sum
		}
	}
	return nil
}

// renameWhere changes the segment names of the where bucket b as renamed says (old -> new).
func renameWhere(b *bolt.Bucket, renamed map[string]string) error {
	if len(renamed) == 0 || b == nil {
		return nil
	}
	var keys, vals [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if to, ok := renamed[string(v)]; ok {
			keys, vals = append(keys, k), append(vals, []byte(to))
		}
		return nil
	})
	for i := range keys {
		if err == nil {
			err = b.Put(keys[i], vals[i])
		}
	}
	return err
}

// touch is what the catalog said of a package version before a writer first changed it.
type touch struct {
	existed bool          // it was in the packages bucket
	seg     string        // the segment that searched it, "" for none
	counts  versionCounts // its counts, when it existed
}

// remember records what the catalog in tx says of version key and package name key nk, the
// first time the writer changes them (tx is the transaction that will): Commit then updates
// the segments' live documents and the counts from the changes alone, in time that grows with
// them and not with the snapshot (see changedLive and changedCounts).
func (w *writer) remember(tx *bolt.Tx, key, nk []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.touched[string(key)]; !ok {
		t := touch{seg: string(tx.Bucket(bucketWhere).Get(key))}
		if tx.Bucket(bucketPackages).Get(key) != nil {
			t.existed = true
			if v := tx.Bucket(bucketCounts).Get(key); v != nil {
				c, err := decodeCounts(key, v)
				if err != nil {
					return err
				}
				t.counts = c
			}
		}
		w.touched[string(key)] = t
	}
	if _, ok := w.names[string(nk)]; !ok {
		w.names[string(nk)] = tx.Bucket(bucketNames).Get(nk) != nil
	}
	return nil
}

// copyStore copies the current generation's store into the new one, byte for byte: no crawl
// writes a published store (the crawl holding the index's lock writes its own copy), and
// servers only read it. The copy goes through the kernel (copy_file_range on Linux, a reflink
// where the file system shares extents), so its pages do not pass through this process.
func copyStore(from, to string) error {
	src, _, err := openRegular(from)
	if err != nil {
		return fileError(from, err)
	}
	defer src.Close()
	if fi, err := src.Stat(); err == nil {
		if err := checkBolt(src, fi.Size()); err != nil {
			return damaged(from, "%v", err)
		}
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	_, err = dst.ReadFrom(src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("index: copying %s: %w", from, err)
	}
	return nil
}

// linkTree recreates the directory tree src at dst with hard links to src's files: a segment
// is immutable, so generations share its files rather than copy them. Where the file system
// refuses links, the files are copied.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(to, 0o755)
		case !d.Type().IsRegular():
			return damaged(p, "not a regular file (%v)", d.Type())
		}
		if err := os.Link(p, to); err == nil {
			return nil
		}
		return copyFile(p, to)
	})
}

// copyFile copies the regular file from to the new file to.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = dst.ReadFrom(src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
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

func (w *writer) put(ctx context.Context, d *docidx.PackageDocs) error { return w.putAt(ctx, d, "") }

// putAt stores d as searched in segment seg (one adopted from another snapshot), or, for "", in
// the new segment Commit builds.
func (w *writer) putAt(ctx context.Context, d *docidx.PackageDocs, seg string) error {
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
	// Two documents of one path would be one page of the search index and two of the ranking
	// index, and the commit would fail on the difference: refuse the version here, by name.
	paths := make(map[string]bool, len(docs))
	for _, doc := range docs {
		if paths[doc.Path] {
			return fmt.Errorf("index: %s holds two documents at %s", p.Ref(), doc.Path)
		}
		paths[doc.Path] = true
	}
	key := versionKey(p.Ref())
	if seg == "" { // an adopted segment's document store holds them
		if err := w.stageValues(key, docs, d.Symbols); err != nil {
			return err
		}
	}
	return w.db.Update(func(tx *bolt.Tx) error {
		if err := w.remember(tx, key, nameKey(p.Ecosystem, p.Name)); err != nil {
			return err
		}
		if err := putJSON(tx.Bucket(bucketPackages), key, p); err != nil {
			return err
		}
		if err := tx.Bucket(bucketCounts).Put(key, countsOf(docs, len(d.Symbols)).encode()); err != nil {
			return err
		}
		// Not in any segment yet: Commit indexes it in a new one, and the segment that held
		// an earlier copy no longer searches it.
		if seg == "" {
			if err := tx.Bucket(bucketWhere).Delete(key); err != nil {
				return err
			}
		} else if err := tx.Bucket(bucketWhere).Put(key, []byte(seg)); err != nil {
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
		if p.Root {
			e.Root = p.Version
		}
		if e.Latest == p.Version {
			e.Description = p.Description
		}
		return putJSON(names, nk, e)
	})
}

// stageValues stores the documents and symbols of version key in the staging file, creating it
// at the first call.
func (w *writer) stageValues(key []byte, docs []docidx.Document, syms []docidx.Symbol) error {
	if syms == nil {
		syms = []docidx.Symbol{}
	}
	rawDocs, rawSyms, err := encodeValues(docs, syms)
	if err != nil {
		return err
	}
	w.mu.Lock()
	if w.stage == nil {
		// Not synced: a crawl that does not finish drops the whole generation.
		if w.stage, err = createStage(filepath.Join(w.gen, stagingFile)); err != nil {
			w.mu.Unlock()
			return fmt.Errorf("index: creating the staging file: %w", err)
		}
	}
	stage := w.stage
	w.mu.Unlock()
	return stage.put(key, rawDocs, rawSyms)
}

// dropStage closes and removes the staging file, if any.
func (w *writer) dropStage() error {
	if w.stage == nil {
		return nil
	}
	err := w.stage.remove()
	w.stage = nil
	return err
}

// redactedSource returns a source carried over from the previous generation's manifest (or
// from a merged snapshot's) without the crawling machine's directories or credentials: snapshots
// written before crawl recorded local caches by label ("go module cache") recorded their absolute
// paths, which every client of a shipped snapshot would read in docidx://snapshot, and a registry
// URL with credentials that an older docidx failed to redact must not travel on. An absolute path
// keeps its last element only; URLs lose their user information and query (see redact.Text).
func redactedSource(s string) string {
	if filepath.IsAbs(s) {
		return "local directory " + filepath.Base(s)
	}
	return redact.Text(s)
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
		w.closeDocStores()
		w.dropStage()
		if w.db != nil {
			w.db.Close()
		}
		w.removeNew()
	}
	w.release()
	return m, err
}

// shareAndSync makes the files under dir readable as the umask allows (see shareTree) and syncs
// them.
func shareAndSync(dir string) error {
	if err := shareTree(dir); err != nil {
		return fmt.Errorf("index: setting the permissions of %s: %w", dir, err)
	}
	if err := syncTree(dir); err != nil {
		return fmt.Errorf("index: syncing %s: %w", dir, err)
	}
	return nil
}

// removeNew removes what the writer made: its generation and the segments it built or adopted.
func (w *writer) removeNew() error {
	var err error
	if w.gen != "" {
		err = os.RemoveAll(w.gen)
	}
	for _, name := range w.built {
		if rerr := os.RemoveAll(filepath.Join(w.dir, name)); err == nil {
			err = rerr
		}
	}
	return err
}

func (w *writer) publish(ctx context.Context) (*Manifest, error) {
	segs, counts, err := w.buildSegments(ctx)
	if err != nil {
		return nil, err
	}
	w.progress.report(StepPublish, "", 0)
	if err := w.closeStore(); err != nil {
		return nil, err
	}
	// The generation's files and the segments this writer made are shared and synced; the
	// segments it kept were when they were written. Files are hashed but for those of segments
	// whose checksums the writer knows, kept or linked.
	made := map[string]bool{}
	for _, name := range w.built {
		made[name] = true
	}
	if err := shareAndSync(w.gen); err != nil {
		return nil, err
	}
	sums, err := checksums(w.gen)
	if err != nil {
		return nil, fmt.Errorf("index: checksums: %w", err)
	}
	for _, seg := range segs {
		dir := filepath.Join(w.dir, seg.Name)
		if made[seg.Name] {
			if err := shareAndSync(dir); err != nil {
				return nil, err
			}
		}
		segSums := w.sums[seg.Name]
		if segSums == nil {
			if segSums, err = checksums(dir); err != nil {
				return nil, fmt.Errorf("index: checksums: %w", err)
			}
		}
		for path, sum := range segSums {
			sums[seg.Name+"/"+path] = sum
		}
	}
	m := &Manifest{
		Format:        FormatVersion,
		DocidxVersion: docidx.Version,
		Created:       time.Now().UTC().Truncate(time.Second),
		Counts:        counts,
		Segments:      segs,
		SegmentDir:    "..",
		Files:         sums,
	}
	w.mu.Lock()
	m.Sources = slices.Collect(maps.Keys(w.sources))
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

// closeStore removes the staging file, whose values the segments' document stores now hold,
// and syncs and closes the store. A store seeded from format 3 or older, which held every
// version's documents and symbols, drops them and is compacted: a published store is the
// catalog alone (see store.go), which the next crawl copies.
func (w *writer) closeStore() error {
	if err := w.dropStage(); err != nil {
		return fmt.Errorf("index: removing the staging file: %w", err)
	}
	var err error
	if w.legacy {
		err = w.db.Update(func(tx *bolt.Tx) error {
			for _, b := range stagingBuckets {
				if err := tx.DeleteBucket(b); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err == nil {
		err = w.db.Sync()
	}
	if cerr := w.db.Close(); err == nil {
		err = cerr
	}
	w.db = nil
	if err != nil {
		return fmt.Errorf("index: closing store: %w", err)
	}
	if w.legacy {
		return compactStore(filepath.Join(w.gen, StoreFile))
	}
	return nil
}

// compactStore rewrites the closed store at path with its live pages only.
func compactStore(path string) error {
	tmp := path + ".compact"
	src, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("index: opening %s: %w", path, err)
	}
	defer src.Close()
	dst, err := bolt.Open(tmp, 0o644, &bolt.Options{NoSync: true, NoGrowSync: true})
	if err != nil {
		return fmt.Errorf("index: compacting store: %w", err)
	}
	err = bolt.Compact(dst, src, 4<<20)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("index: compacting store: %w", err)
	}
	return nil
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
	w.dropStage()
	var err error
	if w.db != nil {
		err = w.db.Close()
	}
	if rmErr := w.removeNew(); err == nil {
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
		want := fileMode
		switch {
		case d.IsDir():
			want = dirMode
		case !d.Type().IsRegular():
			return nil
		}
		// A file linked from another snapshot has its mode already: a chmod would still
		// dirty its inode, for syncTree to write again.
		if fi, err := d.Info(); err == nil && fi.Mode().Perm() == want {
			return nil
		}
		return os.Chmod(p, want)
	})
}
