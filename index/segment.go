package index

// segment.go builds a generation's segments at Commit: one new segment of the package versions
// the crawl put, and, as the merge policy asks, one segment rewritten from several.
//
// A segment is immutable: a directory (seg-NNNNNN, beside the generations) holding the Bleve
// index (search.bleve), the ranking index (rank.idx) and the document store (docs.dat) of the
// package versions it was built from, every version of them, latest or not. The store's where
// bucket says which segment searches each version; a version crawled again, or pruned, is no
// longer searched in its old segment, whose copy stays until a merge rewrites that segment.
// Which versions a search sees is decided when a snapshot is opened (see newRankIndex), so that
// a new latest version needs no change to the segment of the one it replaces.
//
// The merge policy is logarithmic, as Lucene's LogMergePolicy: a segment's level is the base
// mergeFactor logarithm of its live documents, and when mergeFactor segments share a level they
// are merged into one of the next. A document is then rewritten about log(D) times over the
// life of the index, not at every crawl. As Lucene's maxMergedSegmentMB, a segment holds at
// most maxSegmentDocs documents, and one of more than half that many is not merged by level: a
// snapshot of D documents holds about D/maxSegmentDocs full segments and at most
// (mergeFactor-1)·log(maxSegmentDocs) smaller ones. A crawl's new versions are built into as
// many segments at once as there are cores (see partCount); a build holds one Bleve batch and
// the ranking index of at most maxBufferedDocs documents in memory, writing a larger segment's
// ranking index in runs that it merges (rankmerge.go), so memory does not grow with the
// segment. A segment of which fewer than half the documents are still searched is rewritten.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
	"golang.org/x/sync/errgroup"
)

// segPrefix starts a segment directory's name; six digits follow.
const segPrefix = "seg-"

// mergeFactor is how many segments of a level are merged into one.
const mergeFactor = 8

// maxSegmentDocs bounds the documents of a segment a crawl or merge builds (a package version
// larger alone gets a segment of its own), as Lucene's TieredMergePolicy bounds a merged
// segment at 5 GB: segments of more than half this many live documents are not merged by level,
// so that no merge rewrites more than this many documents at once (a build analyses some
// 8,000 documents a second on one core: a full segment is about four minutes of a commit).
// 2,097,152 documents are about 1 GB of Bleve index, rank.idx and docs.dat (485 bytes a
// document at 16N); the real corpus of 749 versions is two segments, one per core of a first
// crawl.
// What a build holds in memory is bounded by maxBufferedDocs, not by this.
const maxSegmentDocs = 1 << 21

// segName returns the name of segment n.
func segName(n int) string { return fmt.Sprintf("%s%06d", segPrefix, n) }

// validSegmentName reports whether name is a segment directory's name: a manifest naming
// anything else ("../x") is damaged.
func validSegmentName(name string) bool {
	n, ok := strings.CutPrefix(name, segPrefix)
	if !ok || len(n) != 6 {
		return false
	}
	_, err := strconv.Atoi(n)
	return err == nil && !strings.ContainsAny(n, "+-")
}

// Compact makes Commit merge every segment into one, dropping the copies of package versions
// that no segment searches any more: the snapshot then ranks and reads as one written at once,
// and is as small as it can be. See docidx compact.
//
// It first checks every segment the new generation would keep in full, as a Reader's first search
// (see Reader.Prepare) and Verify do (a crawl checks only their shape, see keepSegment): a segment whose search index or ranking index
// is damaged is rewritten from its documents, whatever its size. That mends a snapshot whose
// derived files went bad without crawling it from scratch; damaged documents are an error of
// Commit. It returns whether Commit has anything to write (false for a snapshot of the current
// format that is compact already and undamaged), and what it found of each damaged segment (an
// error wrapping ErrCorrupt naming the file).
func (w *Writer) Compact() (changed bool, damaged []error) {
	w.w.mu.Lock()
	defer w.w.mu.Unlock()
	w.w.compact = true
	for _, st := range w.w.linked {
		if st.damage == nil {
			st.damage = checkSearchFiles(filepath.Join(w.w.dir, st.Name))
		}
		if st.damage != nil {
			damaged = append(damaged, st.damage)
		}
	}
	b := w.w.base
	return b == nil || b.Format != FormatVersion || len(damaged) > 0 || !Compacted(b.Segments), damaged
}

// checkSearchFiles checks the search index and the ranking index of the segment at dir in full,
// as a Reader's first search does: every zap segment opens, and rank.idx's checksum matches.
func checkSearchFiles(dir string) error {
	if err := checkBleve(filepath.Join(dir, SearchDir)); err != nil {
		return err
	}
	rs, err := openRankSegment(filepath.Join(dir, RankFile))
	if err != nil {
		return err
	}
	rs.close()
	return nil
}

// segNumber returns the number of segment name, or 0 for a name that is not a segment's.
func segNumber(name string) int {
	if !validSegmentName(name) {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(name, segPrefix))
	return n
}

// newSegmentName returns the name of a segment not yet beside the generations: the number after
// the highest there when the writer was created and of those named since.
func (w *writer) newSegmentName() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	name := segName(w.nextSeg)
	w.nextSeg++
	return name
}

// adopt links the segment directory src (of another snapshot) beside the generations under a
// new name, which it returns: the versions put with putAt in that name are then searched in it
// without being indexed again (see Merge).
func (w *writer) adopt(src string) (string, error) {
	if err := w.check(); err != nil {
		return "", err
	}
	name := w.newSegmentName()
	st, err := readSegment(src, name)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(w.dir, name)
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("index: adopting segment %s: %s is there already", src, dst)
	}
	w.mu.Lock()
	w.built = append(w.built, name)
	w.mu.Unlock()
	if err := linkTree(src, dst); err != nil {
		return "", fmt.Errorf("index: adopting segment %s: %w", src, err)
	}
	w.mu.Lock()
	w.linked = append(w.linked, st)
	w.mu.Unlock()
	return name, nil
}

// segmentParts cuts keys, in order, into runs of at most limit documents by sizes (a key larger
// alone makes a run of its own).
func segmentParts(keys []string, sizes map[string]int, limit int) [][]string {
	var out [][]string
	for len(keys) > 0 {
		n, docs := 0, 0
		for n < len(keys) && (n == 0 || docs+sizes[keys[n]] <= limit) {
			docs += sizes[keys[n]]
			n++
		}
		out = append(out, keys[:n])
		keys = keys[n:]
	}
	return out
}

// minPartDocs is about the fewest documents partCount gives a segment of its own: below that,
// a segment's build is too short for a second core to gain much, and its ranking index adds a
// segment to every search.
const minPartDocs = batchSize

// partCount returns how many segments a crawl's new versions of docs documents are built into
// on cores cores: as many as maxSegmentDocs asks for, rounded up to a multiple of cores so that
// every core builds one at a time, but none of fewer than about minPartDocs.
func partCount(docs, cores int) int {
	cores = max(1, cores)
	n := (docs + maxSegmentDocs - 1) / maxSegmentDocs
	n = (n + cores - 1) / cores * cores
	return max(1, min(n, docs/minPartDocs))
}

// balancedParts cuts keys, in order, into at most n runs of about equal documents by sizes,
// each cut after the key that reaches the next n-th of the documents, and then each run into
// runs of at most maxSegmentDocs (see segmentParts): runs built at once end at about the same
// time.
func balancedParts(keys []string, sizes map[string]int, n int) [][]string {
	total := 0
	for _, k := range keys {
		total += sizes[k]
	}
	var runs [][]string
	start, cum := 0, 0
	for i, k := range keys {
		cum += sizes[k]
		if len(runs) < n-1 && cum*n >= (len(runs)+1)*total {
			runs = append(runs, keys[start:i+1])
			start = i + 1
		}
	}
	if start < len(keys) {
		runs = append(runs, keys[start:])
	}
	var out [][]string
	for _, run := range runs {
		out = append(out, segmentParts(run, sizes, maxSegmentDocs)...)
	}
	return out
}

// segState is what the writer knows of a segment while it commits.
type segState struct {
	Segment
	dir      string   // its directory
	versions []string // version keys it holds, in order; nil until load reads them
	docs     []int    // the documents of each of versions
	// damage is what was found wrong with its search or ranking index (see readSegment and
	// Writer.Compact), nil for nothing: the segment is rewritten from its documents.
	damage error
}

// level is the merge level of a segment of docs live documents.
func level(docs int) int {
	if docs <= 1 {
		return 0
	}
	return int(math.Log(float64(docs)) / math.Log(mergeFactor))
}

// buildSegments indexes the versions put since the writer was seeded into a new segment, merges
// segments as the merge policy says, updates the where bucket and returns the generation's
// segments and counts.
func (w *writer) buildSegments(ctx context.Context) ([]Segment, []EcosystemCounts, error) {
	// The segments kept from the previous generation and adopted from merged snapshots, read
	// as they were linked.
	w.mu.Lock()
	segs := slices.Clone(w.linked)
	w.mu.Unlock()
	// where holds the segment of the versions whose segment the commit reads or sets: those it
	// indexes and those of the segments it merges; all of them when no previous generation is
	// built on (see scanWhere), which indexes every version anew.
	where := map[string]string{}
	var fresh []string
	var err error
	if w.prev == nil {
		fresh, err = w.scanWhere(where, segs)
	} else {
		fresh, err = w.changedLive(segs)
	}
	if err != nil {
		return nil, nil, err
	}
	// add builds segments of keys, each of at most limit documents (but for a version larger
	// alone), as many at once as there are cores: what a build holds in memory is bounded by
	// that, not by the snapshot. moved records the versions it indexed, whose where entries
	// change.
	moved := map[string]string{}
	add := func(keys []string, cut func(keys []string, sizes map[string]int, docs int) [][]string) error {
		sizes, err := w.versionDocs(keys)
		if err != nil {
			return err
		}
		docs := 0
		for _, k := range keys {
			docs += sizes[k]
		}
		w.progress.addTotal(docs)
		parts := cut(keys, sizes, docs)
		// Names are taken in key order, so that the manifest lists the segments in the order
		// of the versions they hold, whichever build ends first.
		built := make([]*segState, len(parts))
		names := make([]string, len(parts))
		for i := range parts {
			names[i] = w.newSegmentName()
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i, part := range parts {
			g.Go(func() (err error) {
				built[i], err = w.buildSegment(gctx, names[i], part, where)
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		for i, st := range built {
			for _, k := range parts[i] {
				where[k] = st.Name
				moved[k] = st.Name
			}
			segs = append(segs, st)
		}
		return nil
	}
	// A crawl's new versions are cut for the cores; a merge's, as the merge policy decides.
	forCores := func(keys []string, sizes map[string]int, docs int) [][]string {
		return balancedParts(keys, sizes, partCount(docs, runtime.GOMAXPROCS(0)))
	}
	merged := func(keys []string, sizes map[string]int, _ int) [][]string {
		return segmentParts(keys, sizes, maxSegmentDocs)
	}
	if err := add(fresh, forCores); err != nil {
		return nil, nil, err
	}

	// Segments no version is searched in any more go (their directories once no generation
	// lists them, see removeUnused); then the merge policy.
	segs = slices.DeleteFunc(segs, func(st *segState) bool { return st.Live == 0 })
	if merge := w.mergePlan(segs); len(merge) > 0 {
		var keys []string
		err := w.db.View(func(tx *bolt.Tx) error {
			wb := tx.Bucket(bucketWhere)
			for _, st := range merge {
				if err := st.load(); err != nil {
					return err
				}
				for _, k := range st.versions {
					seg, ok := where[k] // the versions indexed above are not in the bucket yet
					if !ok {
						seg = string(wb.Get([]byte(k)))
					}
					if seg == st.Name {
						keys = append(keys, k)
						where[k] = seg
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		slices.Sort(keys)
		segs = slices.DeleteFunc(segs, func(st *segState) bool { return slices.Contains(merge, st) })
		// The merged segments' document stores are read as the new ones are written.
		if err := add(keys, merged); err != nil {
			return nil, nil, err
		}
		w.closeDocStores() // only merged segments' stores are opened
	}

	err = w.db.Update(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bucketWhere)
		for _, k := range slices.Sorted(maps.Keys(moved)) { // in order, as bbolt writes best
			if err := wb.Put([]byte(k), []byte(moved[k])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var counts []EcosystemCounts
	if w.prev == nil {
		counts, err = w.counts()
	} else {
		counts, err = w.changedCounts(w.prev.Counts)
	}
	if err != nil {
		return nil, nil, err
	}
	out := make([]Segment, 0, len(segs))
	for _, st := range segs {
		out = append(out, st.Segment)
	}
	return out, counts, nil
}

// compactable reports whether compaction rewrites seg: every segment but a full one (more than
// half maxSegmentDocs live documents) of the current format holding nothing dead, which it would
// write again as is.
func compactable(seg Segment) bool {
	return seg.Live < seg.Documents || 2*seg.Live <= maxSegmentDocs || seg.Format < FormatVersion
}

// Compacted reports whether a snapshot of segments segs is as compact as Writer.Compact makes
// it: no segment holds documents no longer searched or is of an older format, and at most one
// is not full.
func Compacted(segs []Segment) bool {
	n := 0
	for _, seg := range segs {
		if seg.Live < seg.Documents || seg.Format < FormatVersion {
			return false
		}
		if compactable(seg) {
			n++
		}
	}
	return n <= 1
}

// readSegment reads what the segment at dir holds from the table of its document store
// (checking the table's checksum, not the whole segment's: that is read by a Reader's first
// search, by Merge and by docidx verify): its versions and the search documents of each. The segment is named name in the new
// generation. Damage to the table is an error: what the segment holds is lost. See keepSegment
// for the check of its ranking index.
func readSegment(dir, name string) (*segState, error) {
	st := &segState{Segment: Segment{Name: name}, dir: dir}
	if err := st.load(); err != nil {
		return nil, err
	}
	st.Versions = len(st.versions)
	for _, n := range st.docs {
		st.Documents += n
	}
	st.checkRank()
	return st, nil
}

// keepSegment returns the segment seg, at dir, of the generation a writer was seeded from, as
// that generation's manifest describes it, having checked only the shape of its document store
// and ranking index, in time that does not grow with the segment (as Lucene's IndexWriter reads
// a segment's info and checks a file's checksum when a merge reads it): its table is read when
// the commit needs it (see load). A document store out of shape is an error; a ranking index is
// marked damaged, and the commit rewrites the segment from its documents.
func keepSegment(dir string, seg Segment) (*segState, error) {
	st := &segState{Segment: seg, dir: dir}
	if err := checkDocsShape(filepath.Join(dir, DocsFile)); err != nil {
		return nil, err
	}
	st.checkRank()
	return st, nil
}

// checkRank checks the shape of the segment's ranking index (see loadRank) and that it ranks
// as many documents as the segment holds, and records what is wrong in st.damage; else it
// records the format the file shows.
func (st *segState) checkRank() {
	path := filepath.Join(st.dir, RankFile)
	rs, err := openRank(path, true)
	switch {
	case err != nil:
		st.damage = err
	case rs.docs != st.Documents:
		rs.close()
		st.damage = damaged(path, "it ranks %d documents, %s holds versions of %d", rs.docs, DocsFile, st.Documents)
	default:
		st.Format = rs.format()
		rs.close()
	}
}

// load reads the segment's versions and their search documents from its document store's
// table, once. The table must agree with the segment's description.
func (st *segState) load() error {
	if st.versions != nil {
		return nil
	}
	path := filepath.Join(st.dir, DocsFile)
	ds, err := openDocStore(path)
	if err != nil {
		return err
	}
	defer ds.close()
	versions, docs, total := make([]string, 0, len(ds.keys)), make([]int, 0, len(ds.keys)), 0
	for _, k := range ds.keys {
		n := ds.entries[k].searchDocs
		versions, docs, total = append(versions, k), append(docs, n), total+n
	}
	if st.Versions != 0 && (len(versions) != st.Versions || total != st.Documents) {
		return damaged(path, "it holds %d versions of %d documents, the manifest says %d of %d", len(versions), total, st.Versions, st.Documents)
	}
	st.versions, st.docs = versions, docs
	return nil
}

// countLive sets st.Live: the documents of the versions where says st searches.
func (st *segState) countLive(where map[string]string) {
	st.Live = 0
	for i, k := range st.versions {
		if where[k] == st.Name {
			st.Live += st.docs[i]
		}
	}
}

// scanWhere reads the segment of every version into where, sets the live documents of segs
// from it, and returns the versions no segment searches (in key order): the commit indexes them.
// It reads the whole catalog, which a commit with no previous generation to build on does
// anyway, indexing every version.
func (w *writer) scanWhere(where map[string]string, segs []*segState) (fresh []string, err error) {
	err = w.db.View(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bucketWhere)
		return tx.Bucket(bucketPackages).ForEach(func(k, _ []byte) error {
			if seg := wb.Get(k); seg != nil {
				where[string(k)] = string(seg)
			} else {
				fresh = append(fresh, string(k))
			}
			return nil
		})
	})
	for _, st := range segs {
		st.countLive(where)
	}
	return fresh, err
}

// changedLive returns the versions the crawl put that no segment searches yet (in key order),
// and sets the live documents of segs from the changes the writer remembered (see remember),
// in time that grows with the changes and not with the snapshot: a segment kept from the
// previous generation has the live documents its manifest says, less those of the versions
// the crawl put again or deleted; an adopted segment those of the versions put in it.
func (w *writer) changedLive(segs []*segState) (fresh []string, err error) {
	byName := make(map[string]*segState, len(segs))
	for _, st := range segs {
		byName[st.Name] = st
	}
	live := make(map[string]int, len(w.prev.Segments))
	for _, seg := range w.prev.Segments {
		live[seg.Name] = seg.Live
	}
	for name := range w.renamed {
		delete(live, name) // adopted under another name, below
	}
	lost := map[string]int{} // documents no longer searched, by segment
	for k, t := range w.touched {
		if st := byName[t.seg]; st != nil && t.seg != "" {
			if err := st.load(); err != nil {
				return nil, err
			}
			if i, ok := slices.BinarySearch(st.versions, k); ok {
				lost[t.seg] += st.docs[i]
			}
		}
	}
	err = w.db.View(func(tx *bolt.Tx) error {
		pkgs, wb := tx.Bucket(bucketPackages), tx.Bucket(bucketWhere)
		for k := range w.touched {
			if pkgs.Get([]byte(k)) != nil && wb.Get([]byte(k)) == nil {
				fresh = append(fresh, k)
			}
		}
		for _, st := range segs {
			if n, ok := live[st.Name]; ok {
				st.Live = n - lost[st.Name]
				continue
			}
			st.Live = 0
			for i, k := range st.versions {
				if string(wb.Get([]byte(k))) == st.Name {
					st.Live += st.docs[i]
				}
			}
		}
		return nil
	})
	slices.Sort(fresh)
	return fresh, err
}

// mergePlan returns the segments to merge (into as few as maxSegmentDocs allows): with Compact
// every segment but the full ones (more than half maxSegmentDocs) that hold nothing dead, unless
// that is one segment holding nothing dead; else the segments of any level that mergeFactor of
// them share and the segments fewer than half of whose documents are searched. Segments found
// damaged are always rewritten.
func (w *writer) mergePlan(segs []*segState) []*segState {
	if w.compact {
		var out []*segState
		for _, st := range segs {
			if compactable(st.Segment) || st.damage != nil {
				out = append(out, st)
			}
		}
		if len(out) == 1 && out[0].Live == out[0].Documents && out[0].damage == nil {
			return nil
		}
		return out
	}
	byLevel := map[int][]*segState{}
	var out []*segState
	for _, st := range segs {
		switch {
		case 2*st.Live < st.Documents, st.damage != nil:
			out = append(out, st)
		case 2*st.Live <= maxSegmentDocs:
			byLevel[level(st.Live)] = append(byLevel[level(st.Live)], st)
		}
	}
	for _, group := range byLevel {
		if len(group) >= mergeFactor {
			out = append(out, group...)
		}
	}
	// In the generation's order, so that a merge names its inputs alike every time.
	slices.SortFunc(out, func(a, b *segState) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// buildSegment indexes the package versions keys (version keys, sorted) of the store into the
// new segment name, with their documents and symbols: those the crawl staged, else the copy in
// the segment where names (one being merged). It records each version's counts.
func (w *writer) buildSegment(ctx context.Context, name string, keys []string, where map[string]string) (*segState, error) {
	dir := filepath.Join(w.dir, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	w.mu.Lock()
	w.built = append(w.built, name)
	w.mu.Unlock()
	w.progress.report(StepIndex, name, 0)
	dw, err := createDocStore(filepath.Join(dir, DocsFile))
	if err != nil {
		return nil, err
	}
	defer func() {
		if dw != nil {
			dw.abort()
		}
	}()
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, SearchDir)
	// Bleve's offline builder writes a batch at a time to a zap file of its own (in dir, so
	// that the last rename stays on one file system) and merges them all once at Close: no
	// background merging rewrites documents while the segment grows.
	sm, err := newStoredMapping(im)
	if err != nil {
		return nil, err
	}
	build, err := bleve.NewBuilder(path, sm, map[string]any{
		"buildPathPrefix": dir,
		"batchSize":       batchSize,
		"mergeMax":        builderMergeMax,
	})
	if err != nil {
		return nil, fmt.Errorf("index: creating %s: %w", path, err)
	}
	rr, err := newRankRuns(im, dir, maxBufferedDocs)
	if err != nil {
		return nil, err
	}
	// A store of format 3 or older may lack counts (formats 1 and 2), or hold them as JSON: they
	// are written again from the values. Any other version's counts were written by its put.
	counts := map[string]versionCounts{}
	var staged []byte // storage for the staged values of one version at a time
	err = w.db.View(func(tx *bolt.Tx) error {
		pkgs := tx.Bucket(bucketPackages)
		for _, k := range keys {
			var p docidx.Package
			if _, err := getJSON(pkgs, []byte(k), &p); err != nil {
				return err
			}
			// The values are decoded and copied into the document store before the next
			// version's are read into the same storage.
			rawDocs, rawSyms, err := w.values(tx, k, where[k], &staged)
			if err != nil {
				return err
			}
			var docs []docidx.Document
			var syms []docidx.Symbol
			if err := decodeJSON([]byte(k), rawDocs, &docs); err != nil {
				return err
			}
			if err := decodeJSON([]byte(k), rawSyms, &syms); err != nil {
				return err
			}
			vc := countsOf(docs, len(syms))
			if w.legacy {
				counts[k] = vc
			}
			n := 0
			for sd := range searchDocs(&p, docs, syms) {
				if err := rr.add(&sd); err != nil {
					return err
				}
				if err := build.Index(sd.id, storedValuesOf(sd.fields)); err != nil {
					return fmt.Errorf("index: %w", err)
				}
				n++
			}
			if err := dw.add(k, rawDocs, rawSyms, n); err != nil {
				return err
			}
			if err := rr.versionDone(); err != nil {
				return err
			}
			// Counted as versionDocs counts them (empty sections too), as the total was.
			w.progress.report(StepIndex, name, 1+vc.Sections+vc.Symbols)
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		// Close merges the batches' files into one and writes the index's root; after an
		// error the half-built files go with the segment's directory (see removeNew).
		w.progress.report(StepMerge, name, 0)
		if err = build.Close(); err != nil {
			err = fmt.Errorf("index: writing %s: %w", path, err)
		}
	}
	if err != nil {
		return nil, err
	}
	// The ranking index numbers documents as it likes; it maps them to the search index's
	// numbers, which Bleve gives in the order the builder merged its files.
	w.progress.report(StepRank, name, 0)
	docs, err := rr.finish(ctx, path, filepath.Join(dir, RankFile))
	if err == nil {
		err = dw.close()
		dw = nil
	}
	if err != nil {
		return nil, err
	}
	err = w.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketCounts)
		for _, k := range slices.Sorted(maps.Keys(counts)) {
			if err := b.Put([]byte(k), counts[k].encode()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &segState{Segment: Segment{Name: name, Versions: len(keys), Documents: int(docs), Live: int(docs), Format: FormatVersion}, versions: keys}, nil
}

// values returns the stored documents and symbols values of version key: those the crawl
// staged (w.stage, read into *buf's storage, see stage.get), else those of a store of format 3
// or older (store, a transaction of it), else those of the document store of segment seg.
func (w *writer) values(store *bolt.Tx, key, seg string, buf *[]byte) (docs, syms []byte, err error) {
	if w.stage != nil {
		if docs, syms, found, err := w.stage.get(key, buf); err != nil || found {
			return docs, syms, err
		}
	}
	if b := store.Bucket(bucketDocuments); b != nil {
		if docs = b.Get([]byte(key)); docs != nil {
			if syms = store.Bucket(bucketSymbols).Get([]byte(key)); syms == nil {
				return nil, nil, fmt.Errorf("%w: %s has documents and no symbols", docidx.ErrFormat, keyRef(key))
			}
			return docs, syms, nil
		}
	}
	if seg == "" {
		return nil, nil, fmt.Errorf("%w: %s has no documents", docidx.ErrFormat, keyRef(key))
	}
	w.mu.Lock()
	ds := w.stores[seg]
	w.mu.Unlock()
	if ds == nil {
		if ds, err = openDocStore(filepath.Join(w.dir, seg, DocsFile)); err != nil {
			return nil, nil, err
		}
		w.mu.Lock()
		w.stores[seg] = ds
		w.mu.Unlock()
	}
	for which, out := range []*[]byte{&docs, &syms} {
		data, found, err := ds.raw(key, which)
		if err != nil {
			return nil, nil, err
		}
		if !found {
			return nil, nil, damaged(ds.path, "it does not hold %s, which the store says it searches", keyRef(key))
		}
		*out = data
	}
	return docs, syms, nil
}

// closeDocStores closes the document stores values opened.
func (w *writer) closeDocStores() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for seg, ds := range w.stores {
		ds.close()
		delete(w.stores, seg)
	}
}

// versionDocs returns the number of search documents of the package versions keys, by version
// key, from the counts bucket: its sections and symbols and the overview.
func (w *writer) versionDocs(keys []string) (map[string]int, error) {
	out := make(map[string]int, len(keys))
	err := w.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketCounts)
		for _, k := range keys {
			if v := b.Get([]byte(k)); v != nil {
				c, err := decodeCounts([]byte(k), v)
				if err != nil {
					return err
				}
				out[k] = 1 + c.Sections + c.Symbols
			}
		}
		return nil
	})
	return out, err
}

// versionCounts is the value of the counts bucket: what one package version holds, for the
// manifest's counts without reading its documents. Since format 4 it is stored as three
// uvarints (documents, sections, symbols): every commit reads all of them, and decoding JSON
// was most of what a crawl adding one version spent on a large snapshot's catalog. Format 3
// stored JSON ({"d":…,"s":…,"y":…}), which decodeCounts still reads.
type versionCounts struct {
	Documents int `json:"d"`
	Sections  int `json:"s"`
	Symbols   int `json:"y"`
}

// countsOf returns the counts of a version of documents docs and nsyms symbols.
func countsOf(docs []docidx.Document, nsyms int) versionCounts {
	c := versionCounts{Documents: len(docs), Symbols: nsyms}
	for _, d := range docs {
		c.Sections += len(d.Sections)
	}
	return c
}

// encode returns c as the counts bucket stores it.
func (c versionCounts) encode() []byte {
	b := binary.AppendUvarint(nil, uint64(c.Documents))
	b = binary.AppendUvarint(b, uint64(c.Sections))
	return binary.AppendUvarint(b, uint64(c.Symbols))
}

// decodeCounts decodes the counts bucket's value v of key k; a malformed value is an error
// wrapping docidx.ErrFormat.
func decodeCounts(k, v []byte) (versionCounts, error) {
	var c versionCounts
	if len(v) > 0 && v[0] == '{' {
		return c, decodeJSON(k, v, &c)
	}
	var f [3]uint64
	rest := v
	for i := range f {
		n := 0
		if f[i], n = binary.Uvarint(rest); n <= 0 || f[i] > math.MaxInt32 {
			return c, fmt.Errorf("%w: %s: bad counts of %s", docidx.ErrFormat, StoreFile, keyRef(string(k)))
		}
		rest = rest[n:]
	}
	if len(rest) != 0 {
		return c, fmt.Errorf("%w: %s: bad counts of %s", docidx.ErrFormat, StoreFile, keyRef(string(k)))
	}
	return versionCounts{Documents: int(f[0]), Sections: int(f[1]), Symbols: int(f[2])}, nil
}

// counts adds up the counts bucket per ecosystem, in docidx.Ecosystems order.
func (w *writer) counts() (counts []EcosystemCounts, err error) {
	err = w.db.View(func(tx *bolt.Tx) error {
		counts, err = catalogCounts(tx)
		return err
	})
	return counts, err
}

// ecoCounts adds up counts by ecosystem.
type ecoCounts map[docidx.Ecosystem]*EcosystemCounts

// of returns the counts of eco, zero at first.
func (e ecoCounts) of(eco docidx.Ecosystem) *EcosystemCounts {
	c := e[eco]
	if c == nil {
		c = &EcosystemCounts{Ecosystem: eco}
		e[eco] = c
	}
	return c
}

// addVersion adds a version of counts vc to eco's counts, or with sign -1 takes it away.
func (e ecoCounts) addVersion(eco docidx.Ecosystem, vc versionCounts, sign int) {
	c := e.of(eco)
	c.Versions += sign
	c.Documents += sign * vc.Documents
	c.Sections += sign * vc.Sections
	c.Symbols += sign * vc.Symbols
}

// catalogCounts counts what the catalog read in tx holds, by ecosystem.
func catalogCounts(tx *bolt.Tx) ([]EcosystemCounts, error) {
	byEco := ecoCounts{}
	err := tx.Bucket(bucketNames).ForEach(func(k, _ []byte) error {
		eco, _ := parseNameKey(k)
		byEco.of(eco).Packages++
		return nil
	})
	if err != nil {
		return nil, err
	}
	cb := tx.Bucket(bucketCounts)
	err = tx.Bucket(bucketPackages).ForEach(func(k, _ []byte) error {
		ref, err := parseVersionKey(k)
		if err != nil {
			return err
		}
		var vc versionCounts
		if v := cb.Get(k); v != nil {
			if vc, err = decodeCounts(k, v); err != nil {
				return err
			}
		}
		byEco.addVersion(ref.Ecosystem, vc, 1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return orderedCounts(byEco), nil
}

// orderedCounts returns the counts of byEco in the order of docidx.Ecosystems, others after in
// name order. It changes byEco.
func orderedCounts(byEco ecoCounts) []EcosystemCounts {
	out := []EcosystemCounts{}
	for _, eco := range docidx.Ecosystems {
		if c := byEco[eco]; c != nil {
			out = append(out, *c)
			delete(byEco, eco)
		}
	}
	for _, eco := range slices.Sorted(maps.Keys(byEco)) {
		out = append(out, *byEco[eco])
	}
	return out
}

// changedCounts returns prev, the counts of the generation the writer was seeded from, changed
// by what the writer changed (see remember): what counts computes from the whole catalog, in
// time that grows with the changes. An ecosystem left with no package goes.
func (w *writer) changedCounts(prev []EcosystemCounts) ([]EcosystemCounts, error) {
	byEco := ecoCounts{}
	for _, c := range prev {
		byEco[c.Ecosystem] = &c
	}
	err := w.db.View(func(tx *bolt.Tx) error {
		pkgs, cb, names := tx.Bucket(bucketPackages), tx.Bucket(bucketCounts), tx.Bucket(bucketNames)
		for k, t := range w.touched {
			ref, err := parseVersionKey([]byte(k))
			if err != nil {
				return err
			}
			if t.existed {
				byEco.addVersion(ref.Ecosystem, t.counts, -1)
			}
			if pkgs.Get([]byte(k)) == nil {
				continue
			}
			var vc versionCounts
			if v := cb.Get([]byte(k)); v != nil {
				if vc, err = decodeCounts([]byte(k), v); err != nil {
					return err
				}
			}
			byEco.addVersion(ref.Ecosystem, vc, 1)
		}
		for nk, existed := range w.names {
			eco, _ := parseNameKey([]byte(nk))
			switch now := names.Get([]byte(nk)) != nil; {
			case now && !existed:
				byEco.of(eco).Packages++
			case !now && existed:
				byEco.of(eco).Packages--
			}
		}
		return nil
	})
	for eco, c := range byEco {
		if c.Packages == 0 && c.Versions == 0 {
			delete(byEco, eco)
		}
	}
	return orderedCounts(byEco), err
}
