package index

// rankmerge.go builds the ranking index of a segment larger than a build holds in memory: the
// segment's documents are accumulated in runs of at most maxBufferedDocs (rankRuns), each run
// written as a rank.idx of its own into the segment's directory, and the runs merged into the
// segment's rank.idx in one pass over their sorted dictionaries (mergeRuns), as Lucene flushes
// a segment whenever its RAM buffer fills and merges the flushed segments. A merged file is
// the file a build of all the documents at once would write, but for the order of its
// documents: run by run, each run's in ID order. Scores do not depend on that order, and
// equal scores are ranked by rankIndex.order, which does not either.
//
// What the merge holds in memory is per document (its package, kind, flags and number in
// search.bleve: 9 bytes and a bit, and 40 bytes of ID hashes while the numbers are found), per
// package version, per term of a run (its merged ordinal) and per block of terms; the postings,
// the dictionary, the package terms and the spelling dictionaries go to temporary files of
// the segment's directory and are copied into rank.idx once their sizes are known.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/vellum"
)

// maxBufferedDocs bounds the documents whose ranking index a segment's build holds in memory
// at once, as Lucene's IndexWriterConfig.setMaxBufferedDocs bounds a writer's: a segment of
// more is built in runs of at most this many (a package version larger alone is one run) and
// the runs merged. 131,072 documents is the most a segment held before segments grew past it,
// so a crawl's heap stays what it was: its peak RssAnon is 565 MB at the default budget, for the
// real corpus and for 16 times it alike.
const maxBufferedDocs = 1 << 17

// rankRuns accumulates a segment's ranking index in runs of at most max documents.
type rankRuns struct {
	im   mapping.IndexMapping
	dir  string // the segment's directory, where runs are written
	max  int
	acc  *rankAcc
	runs []string // the files of the runs written, in order
	// hashes holds the hash of the ID of every document of the runs written, in their order
	// (see idHash), by which finish finds each one's number in search.bleve without holding
	// the IDs.
	hashes [][2]uint64
	seeds  [2]maphash.Seed
}

// newRankRuns returns an empty rankRuns analysing with im's analyzers, writing its runs into
// dir, of at most max documents each.
func newRankRuns(im mapping.IndexMapping, dir string, max int) (*rankRuns, error) {
	acc, err := newRankAcc(im)
	if err != nil {
		return nil, err
	}
	return &rankRuns{im: im, dir: dir, max: max, acc: acc, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}, nil
}

// add adds a search document, as rankAcc.add does.
func (rr *rankRuns) add(sd *searchDoc) error { return rr.acc.add(sd) }

// versionDone marks the end of a package version's documents: a run of max documents or more
// is written. A version's documents are never split between runs, so that a run's package
// versions are whole.
func (rr *rankRuns) versionDone() error {
	if len(rr.acc.ids) < rr.max {
		return nil
	}
	return rr.flush()
}

// flush writes the documents accumulated as the next run and starts another.
func (rr *rankRuns) flush() error {
	b, err := rr.acc.build(nil)
	if err != nil {
		return err
	}
	for _, id := range b.ids {
		rr.hashes = append(rr.hashes, rr.idHash(id))
	}
	path := filepath.Join(rr.dir, fmt.Sprintf("rank-run-%04d.tmp", len(rr.runs)))
	rr.runs = append(rr.runs, path) // removed by finish or, after an error, with the directory
	if err := b.write(path); err != nil {
		return err
	}
	rr.acc, err = newRankAcc(rr.im)
	return err
}

// idHash returns a 128-bit hash of a document ID: two IDs of one segment share one with a
// chance of about n²/2¹²⁹ for n documents, and finish reports it if they do.
func (rr *rankRuns) idHash(id string) [2]uint64 {
	return [2]uint64{maphash.String(rr.seeds[0], id), maphash.String(rr.seeds[1], id)}
}

// finish writes the segment's ranking index to path, its documents numbered in search.bleve
// (searchPath, the segment's search index, built) as Bleve numbered them, and returns the
// number of documents search.bleve holds. It removes the run files. A merge of runs stops with
// ctx's error when ctx is done.
func (rr *rankRuns) finish(ctx context.Context, searchPath, path string) (docs uint64, err error) {
	idx, err := bleve.OpenUsing(searchPath, map[string]any{"read_only": true})
	if err != nil {
		return 0, fmt.Errorf("index: opening %s: %w", searchPath, err)
	}
	// The search index is closed before the ranking index is built: its mapped file is not
	// held meanwhile.
	var nums map[string]uint32
	var pairs []hashNum
	if len(rr.runs) == 0 {
		nums = map[string]uint32{}
		err = eachBleveNumber(idx, func(id string, num uint32) { nums[id] = num })
	} else {
		err = eachBleveNumber(idx, func(id string, num uint32) { pairs = append(pairs, hashNum{rr.idHash(id), num}) })
	}
	if err == nil {
		docs, err = idx.DocCount()
	}
	if cerr := idx.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("index: closing search index: %w", cerr)
	}
	if err != nil {
		return 0, err
	}
	if len(rr.runs) == 0 {
		rb, err := rr.acc.build(nums)
		if err != nil {
			return 0, err
		}
		return docs, rb.write(path)
	}
	defer func() {
		for _, run := range rr.runs {
			os.Remove(run)
		}
	}()
	if len(rr.acc.ids) > 0 {
		if err := rr.flush(); err != nil {
			return 0, err
		}
	}
	numbers, err := joinNumbers(rr.hashes, pairs)
	if err != nil {
		return 0, fmt.Errorf("index: %s: %w", searchPath, err)
	}
	rr.hashes = nil
	runs := make([]*rankSegment, 0, len(rr.runs))
	defer func() {
		for _, seg := range runs {
			seg.close()
		}
	}()
	for _, p := range rr.runs {
		seg, err := openRankSegment(p)
		if err != nil {
			return 0, err
		}
		runs = append(runs, seg)
	}
	return docs, mergeRuns(ctx, runs, numbers, path)
}

// hashNum is a document of search.bleve: its ID's hash (idHash) and its number.
type hashNum struct {
	hash [2]uint64
	num  uint32
}

// joinNumbers returns the number in search.bleve of each document of hashes (by its ID's
// hash), from pairs, every document of search.bleve. It is an error for the two not to hold
// the same documents, or for two documents to share a hash.
func joinNumbers(hashes [][2]uint64, pairs []hashNum) ([]uint32, error) {
	if len(pairs) != len(hashes) {
		return nil, fmt.Errorf("the search index holds %d documents, the ranking index %d", len(pairs), len(hashes))
	}
	cmpHash := func(a, b [2]uint64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }
	slices.SortFunc(pairs, func(a, b hashNum) int { return cmpHash(a.hash, b.hash) })
	for i := 1; i < len(pairs); i++ {
		if pairs[i].hash == pairs[i-1].hash {
			return nil, errors.New("two document IDs share a 128-bit hash; build the segment again")
		}
	}
	nums := make([]uint32, len(hashes))
	for d, h := range hashes {
		i, ok := slices.BinarySearchFunc(pairs, h, func(p hashNum, h [2]uint64) int { return cmpHash(p.hash, h) })
		if !ok {
			return nil, fmt.Errorf("document %d of the ranking index is not in the search index", d)
		}
		nums[d] = pairs[i].num
	}
	return nums, nil
}

// spillFile is a temporary file a section of a merged rank.idx is written to, and its length
// in bytes.
type spillFile struct {
	f *os.File
	w *bufio.Writer
	n int64
}

// newSpill creates an empty spill file in dir.
func newSpill(dir string) (*spillFile, error) {
	f, err := os.CreateTemp(dir, "rank-spill-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return &spillFile{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// Write appends p; it is an io.Writer for vellum's builder.
func (s *spillFile) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.n += int64(n)
	return n, err
}

// remove closes and removes the file.
func (s *spillFile) remove() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// dictCursor reads a rank index's dictionary term by term, in order.
type dictCursor struct {
	rest []byte // the entries after term
	ord  uint32 // term's ordinal
	term []byte // the current term, a view of the mapped file; nil when done
	ref  postingsRef
}

// next moves to the next term and reports whether the dictionary was well formed up to it.
func (c *dictCursor) next(seg *rankSegment) bool {
	if c.term != nil {
		c.ord++
	}
	if len(c.rest) == 0 {
		c.term = nil
		return int(c.ord) == seg.nterms
	}
	var ok bool
	c.term, c.ref, c.rest, ok = dictEntry(c.rest)
	return ok && int(c.ord) < seg.nterms && seg.postingsAt+c.ref.off+c.ref.size <= seg.postingsEnd
}

// appendList appends the postings of the list ref of seg to dst, their documents raised by
// base, and reports whether the list was well formed.
func appendList(dst []posting, seg *rankSegment, ref postingsRef, base uint32) ([]posting, bool) {
	list := seg.read(ref)
	if list == nil {
		return dst, false
	}
	if ref.dense {
		ok := forEachDense(list, seg.docs, func(doc uint32, impact uint8) { dst = append(dst, posting{base + doc, impact}) })
		return dst, ok
	}
	var doc uint32
	var impact uint8
	i, ok := 0, true
	for i < len(list)-1 {
		if doc, impact, i, ok = nextPosting(list, i, doc); !ok || int(doc) >= seg.docs {
			return dst, false
		}
		dst = append(dst, posting{base + doc, impact})
	}
	return dst, i == len(list)
}

// mergeRuns writes to path the ranking index of the documents of runs, loaded rank indexes of
// disjoint package versions, in their order: run r's document d is document d plus the
// documents of the runs before it, whose number in search.bleve is nums of it. A run that is
// malformed is an error naming it. It stops with ctx's error when ctx is done.
func mergeRuns(ctx context.Context, runs []*rankSegment, nums []uint32, path string) (err error) {
	dir := filepath.Dir(path)
	le := binary.LittleEndian
	base := make([]uint32, len(runs)+1)
	for r, seg := range runs {
		if uint64(base[r])+uint64(seg.docs) > 1<<32-1 {
			return fmt.Errorf("index: more than %d documents in a segment", uint32(1<<32-1))
		}
		base[r+1] = base[r] + uint32(seg.docs)
	}
	total := int(base[len(runs)])
	if len(nums) != total {
		return fmt.Errorf("index: %d document numbers for %d documents", len(nums), total)
	}
	malformed := func(seg *rankSegment, what string) error {
		return damaged(seg.f.Name(), "merging it: its %s is malformed", what)
	}

	b := &rankBuilder{nums: nums, undoc: make([]uint64, (total+63)/64), docPkg: make([]uint32, 0, total), docKind: make([]uint8, 0, total)}
	kindOrd := map[string]uint8{}
	for r, seg := range runs {
		kinds := make([]uint8, seg.nkinds)
		for k := range kinds {
			name := string(seg.kinds.at(k))
			ord, ok := kindOrd[name]
			if !ok {
				if len(b.kinds) >= 127 {
					return errors.New("index: more than 127 document kinds")
				}
				ord = uint8(len(b.kinds))
				kindOrd[name] = ord
				b.kinds = append(b.kinds, name)
			}
			kinds[k] = ord
		}
		pkgBase := uint32(len(b.pkgs))
		for p := range seg.npkgs {
			b.pkgs = append(b.pkgs, string(seg.pkgs.at(p)))
		}
		for d := range seg.docs {
			p, k := le.Uint32(seg.docPkg[4*d:]), seg.docKind[d]
			if int(p) >= seg.npkgs || int(k&0x7f) >= seg.nkinds {
				return malformed(seg, "document table")
			}
			b.docPkg = append(b.docPkg, pkgBase+p)
			b.docKind = append(b.docKind, k&0x80|kinds[k&0x7f])
			if seg.docFlags != nil && seg.docFlags[d/8]&(1<<(d%8)) != 0 {
				g := base[r] + uint32(d)
				b.undoc[g/64] |= 1 << (g % 64)
			}
		}
	}
	identity := true
	for d, n := range nums {
		identity = identity && n == uint32(d)
	}
	if identity {
		b.nums = nil // the table says nothing
	}

	b.spilled = map[string]*spillFile{}
	defer func() {
		for _, f := range b.spilled {
			f.remove()
		}
	}()
	for _, name := range []string{secDict, secPostings, secPkgTerms, secFuzzAll, secFuzzName} {
		if b.spilled[name], err = newSpill(dir); err != nil {
			return err
		}
	}
	dict, postings := b.spilled[secDict], b.spilled[secPostings]

	// The dictionaries, merged: a term's lists, one after another, are its list.
	cursors := make([]dictCursor, len(runs))
	ords := make([][]uint32, len(runs)) // a run's term ordinal -> the merged one
	for r, seg := range runs {
		cursors[r].rest = seg.view(seg.dictAt, seg.dictEnd, 0, seg.dictEnd-seg.dictAt)
		if cursors[r].rest == nil || !cursors[r].next(seg) {
			return malformed(seg, "dictionary")
		}
		ords[r] = make([]uint32, seg.nterms)
	}
	var list []posting
	var enc, entry []byte
	for {
		var least []byte
		for _, c := range cursors {
			if c.term != nil && (least == nil || bytes.Compare(c.term, least) < 0) {
				least = c.term
			}
		}
		if least == nil {
			break
		}
		if b.nterms%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		list = list[:0]
		for r := range cursors {
			c := &cursors[r]
			if c.term == nil || !bytes.Equal(c.term, least) {
				continue
			}
			ords[r][c.ord] = uint32(b.nterms)
			var ok bool
			if list, ok = appendList(list, runs[r], c.ref, base[r]); !ok || !c.next(runs[r]) {
				return malformed(runs[r], "dictionary or postings")
			}
		}
		if b.nterms%termBlock == 0 {
			b.blockOffs = append(b.blockOffs, uint64(dict.n))
			b.blockFirst = append(b.blockFirst, string(least))
		}
		b.nterms++
		var size uint64
		enc, size = encodeList(enc[:0], list, total)
		entry = appendDictEntry(entry[:0], least, len(list), uint64(postings.n), size)
		if _, err := postings.Write(enc); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if _, err := dict.Write(entry); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	b.blockOffs = append(b.blockOffs, uint64(dict.n))

	// Each package version's terms, run by run, in the merged ordinals (which keep their
	// order).
	pairs := b.spilled[secPkgTerms]
	for r, seg := range runs {
		for p := range seg.npkgs {
			b.pkgTermOffs = append(b.pkgTermOffs, uint64(pairs.n))
			enc = enc[:0]
			prev := uint32(0)
			if !seg.pkgTerms(p, func(ord, docs uint32) {
				m := ords[r][ord]
				enc = binary.AppendUvarint(enc, uint64(m-prev))
				enc = binary.AppendUvarint(enc, uint64(docs))
				prev = m
			}) {
				return malformed(seg, "package terms")
			}
			if _, err := pairs.Write(enc); err != nil {
				return fmt.Errorf("index: %w", err)
			}
		}
	}
	b.pkgTermOffs = append(b.pkgTermOffs, uint64(pairs.n))

	// The exact names, after the terms' lists, as a build writes them.
	for _, seg := range runs {
		for i := range seg.nexact {
			b.exact = append(b.exact, string(seg.exact.at(i)))
		}
	}
	slices.Sort(b.exact)
	b.exact = slices.Compact(b.exact)
	for _, name := range b.exact {
		list = list[:0]
		for r, seg := range runs {
			i := seg.exact.find([]byte(name))
			if i < 0 {
				continue
			}
			raw := seg.exactPostings(i)
			if raw == nil {
				return malformed(seg, "exact names")
			}
			var ok bool
			if list, ok = appendList(list, seg, postingsRef{off: int64(le.Uint64(seg.exactOffs[8*i:])), size: int64(len(raw))}, base[r]); !ok {
				return malformed(seg, "exact names")
			}
		}
		b.exactOffs = append(b.exactOffs, uint64(postings.n))
		if _, err := postings.Write(appendPostings(enc[:0], list)); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	b.exactOffs = append(b.exactOffs, uint64(postings.n))

	// The spelling dictionaries: each word with the documents holding it in every run.
	for i, name := range fuzzySections {
		if err := mergeFuzzy(runs, i, b.spilled[name]); err != nil {
			return err
		}
	}
	for _, f := range b.spilled {
		if err := f.w.Flush(); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return b.write(path)
}

// mergeFuzzy writes to out the spelling dictionary i (of fuzzySections) of the documents of
// runs: every word of theirs, with the sum of the documents holding it in each.
func mergeFuzzy(runs []*rankSegment, i int, out *spillFile) error {
	var itrs []vellum.Iterator
	for _, seg := range runs {
		if !seg.hasFuzzy() {
			return damaged(seg.f.Name(), "merging it: it has no spelling dictionaries")
		}
		fst, err := seg.fuzzy(i)
		if err != nil {
			return err
		}
		itr, err := fst.Iterator(nil, nil)
		if errors.Is(err, vellum.ErrIteratorDone) {
			continue
		}
		if err != nil {
			return damaged(seg.f.Name(), "merging section %s: %v", fuzzySections[i], err)
		}
		itrs = append(itrs, itr)
	}
	fb, err := vellum.New(out, nil)
	if err != nil {
		return err
	}
	if len(itrs) > 0 {
		sum := func(vals []uint64) (n uint64) {
			for _, v := range vals {
				n += v
			}
			return n
		}
		mi, err := vellum.NewMergeIterator(itrs, sum)
		for err == nil {
			if err = fb.Insert(mi.Current()); err != nil {
				return fmt.Errorf("index: spelling dictionary: %w", err)
			}
			err = mi.Next()
		}
		if !errors.Is(err, vellum.ErrIteratorDone) {
			return fmt.Errorf("index: merging spelling dictionaries: %w", err)
		}
	}
	if err := fb.Close(); err != nil {
		return fmt.Errorf("index: spelling dictionary: %w", err)
	}
	return nil
}
