package index

// rankread.go reads rank.idx (see rank.go) and ranks documents with it: term at a time, adding
// each query term's idf·impact into a dense score array, then keeping the best.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/docidx/docidx"
)

// rankIndex is an opened rank.idx: the small sections in memory, the rest read with pread
// as searches need them.
type rankIndex struct {
	f *os.File

	docs, npkgs, nkinds, nterms, nexact, nblocks int

	docPkg     []byte // u32 per document
	docKind    []byte // u8 per document
	pkgs       strTable
	kinds      strTable
	exact      strTable
	exactOffs  []byte // u64 per name (+1), into postings
	blockOffs  []byte // u64 per block (+1), into dict
	blockFirst strTable
	// docNums is u32 per document, its number in search.bleve, or empty when the numbers are
	// the same (see rank.go).
	docNums []byte
	// hitOffs is u64 per document (+1), into hits, in the layouts that hold hit records
	// (rankMagicHits, rankMagicRawText); nil in the current one, whose hits are read from Bleve.
	hitOffs []byte
	// Where the sections read on demand start in the file; dictEnd is where the dictionary ends.
	dictAt, dictEnd, hitsAt, postingsAt, size int64

	// Priors derived once at open: per kind, and per package before the question is known
	// (priorSuperseded for a Go module whose newer major is indexed).
	kindPrior    [128]float32
	pkgPrior     []float32
	overviewKind int // the kind ordinal of package overviews, -1 when there are none
	// byName maps each name a question may call a package by (packageNames) to the packages of
	// that name; made on first use by packagesNamed.
	namedOnce sync.Once
	byName    map[string][]uint32
	// ownName remembers ownWord's verdicts, at most maxOwnNames of them.
	namedMu sync.Mutex
	ownName map[string]bool
	// rawText is set for the previous layout (rankMagicRawText).
	rawText bool

	// free holds accumulators for reuse, at most maxFreeAccumulators. Not a sync.Pool: an
	// accumulator is 5 bytes per document (1.5 MB for 300,000), and a pool emptied at every
	// garbage collection had each search every few allocate and clear one again — which in
	// turn brought the next collection sooner.
	mu   sync.Mutex
	free []*accumulator
}

// maxFreeAccumulators bounds the accumulators kept between searches: as many as searches that
// commonly run at once.
const maxFreeAccumulators = 4

// strTable is a string table section: count, offsets, bytes.
type strTable struct {
	n    int
	offs []byte
	data []byte
}

// at returns string i, or nil when the table's offsets are corrupt there.
func (t strTable) at(i int) []byte {
	le := binary.LittleEndian
	lo, hi := le.Uint32(t.offs[4*i:]), le.Uint32(t.offs[4*i+4:])
	if lo > hi || int(hi) > len(t.data) {
		return nil
	}
	return t.data[lo:hi]
}

// find returns the index of s in a sorted table, or -1.
func (t strTable) find(s []byte) int {
	i := sort.Search(t.n, func(i int) bool { return bytes.Compare(t.at(i), s) >= 0 })
	if i < t.n && bytes.Equal(t.at(i), s) {
		return i
	}
	return -1
}

var errRankFormat = errors.New("malformed rank index")

// openRank opens path. listed says whether the snapshot's manifest lists rank.idx: a snapshot
// written before rank.idx existed has none, and a rank index of another layout version (written
// by another docidx) is not read; both return nil, nil, and searches then go to Bleve, which
// every snapshot has. A listed file that is missing, unreadable, not a regular file or damaged is
// an error naming it (wrapping ErrCorrupt when damaged): searching without it would silently rank
// differently.
func openRank(path string, listed bool) (*rankIndex, error) {
	f, _, err := openRegular(path)
	if errors.Is(err, os.ErrNotExist) && !listed {
		return nil, nil
	}
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fileError(path, err)
	}
	magic := make([]byte, len(rankMagic))
	if _, err := f.ReadAt(magic, 0); err == nil && !knownRankMagic(string(magic)) &&
		string(magic[:len(rankMagic)-1]) == rankMagic[:len(rankMagic)-1] {
		f.Close()
		return nil, nil
	}
	ri, err := loadRank(f)
	if err != nil {
		f.Close()
		if errors.Is(err, errRankFormat) {
			return nil, damaged(path, "%v", err)
		}
		return nil, fileError(path, err)
	}
	ri.overviewKind = -1
	for k := range ri.nkinds {
		ri.kindPrior[k] = float32(kindPriorOf(string(ri.kinds.at(k))))
		if string(ri.kinds.at(k)) == "overview" {
			ri.overviewKind = k
		}
	}
	ri.pkgPrior = make([]float32, ri.npkgs)
	for p, superseded := range supersededModules(ri) {
		ri.pkgPrior[p] = 1
		if superseded {
			ri.pkgPrior[p] = priorSuperseded
		}
	}
	return ri, nil
}

// supersededModules marks the Go modules of ri whose newer major version is indexed too (see
// supersededNames).
func supersededModules(ri *rankIndex) []bool {
	names := make([]string, ri.npkgs)
	for p := range ri.npkgs {
		if eco, name, _ := bytes.Cut(ri.pkgKey(uint32(p)), []byte{0}); string(eco) == string(docidx.Go) {
			names[p] = string(name)
		}
	}
	set := supersededNames(names)
	out := make([]bool, ri.npkgs)
	for p, name := range names {
		out[p] = set[name]
	}
	return out
}

// knownRankMagic reports whether magic starts a rank index of a layout this docidx reads.
func knownRankMagic(magic string) bool {
	return magic == rankMagic || magic == rankMagicHits || magic == rankMagicRawText
}

// loadRank reads the header and the in-memory sections of f and checks them.
func loadRank(f *os.File) (ri *rankIndex, err error) {
	// Every slice below is bounds-checked by Go; a truncated or corrupt file panics inside this
	// function at worst, which becomes an error here.
	defer func() {
		if recover() != nil {
			ri, err = nil, errRankFormat
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	magic := make([]byte, len(rankMagic))
	if _, err := f.ReadAt(magic, 0); err != nil || !knownRankMagic(string(magic)) {
		return nil, errRankFormat
	}
	hits := string(magic) != rankMagic // a layout with hit records
	sections := rankSections
	if hits {
		sections = rankSectionsHits
	}
	head := make([]byte, 32+8*sections)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, errRankFormat
	}
	ri = &rankIndex{f: f, size: fi.Size(), rawText: string(magic) == rankMagicRawText}
	counts := head[8:]
	ri.docs = int(le.Uint32(counts[0:]))
	ri.npkgs = int(le.Uint32(counts[4:]))
	ri.nkinds = int(le.Uint32(counts[8:]))
	ri.nterms = int(le.Uint32(counts[12:]))
	ri.nexact = int(le.Uint32(counts[16:]))
	ri.nblocks = int(le.Uint32(counts[20:]))
	offs := make([]int64, sections+1)
	for i := range sections {
		offs[i] = int64(le.Uint64(head[32+8*i:]))
		if offs[i] < int64(len(head)) || offs[i] > ri.size || (i > 0 && offs[i] < offs[i-1]) {
			return nil, errRankFormat
		}
	}
	offs[sections] = ri.size
	// The in-memory sections come first in the file: one read.
	mem := make([]byte, offs[6]-offs[0])
	if _, err := f.ReadAt(mem, offs[0]); err != nil {
		return nil, errRankFormat
	}
	sec := func(i int) []byte { return mem[offs[i]-offs[0] : offs[i+1]-offs[0]] }
	table := func(b []byte) (strTable, []byte) {
		n := int(le.Uint32(b))
		offsEnd := 4 + 4*(n+1)
		t := strTable{n: n, offs: b[4:offsEnd]}
		size := int(le.Uint32(t.offs[4*n:]))
		t.data = b[offsEnd : offsEnd+size]
		return t, b[offsEnd+size:]
	}
	aligned := func(base, rest []byte) []byte {
		pos := len(base) - len(rest)
		return rest[(8-pos%8)%8:]
	}
	ri.docPkg = sec(0)[:4*ri.docs]
	ri.docKind = sec(1)[:ri.docs]
	ri.pkgs, _ = table(sec(2))
	ri.kinds, _ = table(sec(3))
	var rest []byte
	ri.exact, rest = table(sec(4))
	rest = aligned(sec(4), rest)
	ri.exactOffs = rest[:8*(ri.nexact+1)]
	ri.blockOffs = sec(5)[:8*(ri.nblocks+1)]
	ri.blockFirst, _ = table(sec(5)[8*(ri.nblocks+1):])
	ri.dictAt, ri.dictEnd, ri.postingsAt = offs[6], offs[7], offs[sections-1]
	// The section after the dictionary, in memory: the documents' Bleve numbers, or the hit
	// records' offsets (8 bytes a document: a hit then costs one read, not two).
	after := make([]byte, offs[8]-offs[7])
	if _, err := f.ReadAt(after, offs[7]); err != nil {
		return nil, errRankFormat
	}
	if hits {
		ri.hitOffs, ri.hitsAt = after, offs[8]
		if len(after) != 8*(ri.docs+1) {
			return nil, errRankFormat
		}
	} else {
		// The table, if any, is followed by up to 7 bytes of padding.
		if len(after) != 0 && (len(after) < 4*ri.docs || len(after)-4*ri.docs >= 8) {
			return nil, errRankFormat
		}
		if len(after) != 0 {
			ri.docNums = after[:4*ri.docs]
		}
	}
	if ri.pkgs.n != ri.npkgs || ri.kinds.n != ri.nkinds || ri.exact.n != ri.nexact || ri.blockFirst.n != ri.nblocks ||
		ri.nblocks != (ri.nterms+termBlock-1)/termBlock {
		return nil, errRankFormat
	}
	for d := range ri.docs {
		if int(le.Uint32(ri.docPkg[4*d:])) >= ri.npkgs || int(ri.docKind[d]&0x7f) >= ri.nkinds {
			return nil, errRankFormat
		}
	}
	return ri, nil
}

func (ri *rankIndex) close() error {
	if ri == nil {
		return nil
	}
	return ri.f.Close()
}

// readAt reads n bytes at off of the section starting at base and ending at end, or returns
// nil when they are not all inside it.
func (ri *rankIndex) readAt(base, end, off, n int64) []byte {
	return ri.readInto(nil, base, end, off, n)
}

// readScratch is readInto with *scratch as the storage, kept grown for the next read.
func (ri *rankIndex) readScratch(scratch *[]byte, base, end, off, n int64) []byte {
	b := ri.readInto(*scratch, base, end, off, n)
	if b != nil {
		*scratch = b[:0]
	}
	return b
}

// readInto is readAt reading into buf's storage when it is large enough.
func (ri *rankIndex) readInto(buf []byte, base, end, off, n int64) []byte {
	if off < 0 || n < 0 || base+off+n > end {
		return nil
	}
	if int64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := ri.f.ReadAt(buf, base+off); err != nil {
		return nil
	}
	return buf
}

// postingsRef locates a postings list in the postings section: its offset and size in bytes,
// how many documents it holds (for a list of gaps, estimated as half its bytes), and whether it
// is dense (see appendDense).
type postingsRef struct {
	off, size int64
	df        int
	dense     bool
}

// read reads the list into buf's storage when it is large enough.
func (ri *rankIndex) read(p postingsRef, buf []byte) []byte {
	return ri.readInto(buf, ri.postingsAt, ri.size, p.off, p.size)
}

// lookup finds term in the dictionary and returns its idf and where its postings are. The
// dictionary block is read into *scratch's storage, which grows as needed.
func (ri *rankIndex) lookup(term string, scratch *[]byte) (idf float32, list postingsRef, ok bool) {
	// The last block whose first term is <= term.
	blk := sort.Search(ri.nblocks, func(i int) bool { return string(ri.blockFirst.at(i)) > term }) - 1
	if blk < 0 {
		return 0, postingsRef{}, false
	}
	le := binary.LittleEndian
	lo, hi := int64(le.Uint64(ri.blockOffs[8*blk:])), int64(le.Uint64(ri.blockOffs[8*blk+8:]))
	b := ri.readScratch(scratch, ri.dictAt, ri.dictEnd, lo, hi-lo)
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return 0, postingsRef{}, false
		}
		t := b[k : k+int(n)]
		b = b[k+int(n):]
		if len(b) < 4 {
			return 0, postingsRef{}, false
		}
		idf = math.Float32frombits(le.Uint32(b))
		b = b[4:]
		off, k1 := binary.Uvarint(b)
		if k1 <= 0 {
			return 0, postingsRef{}, false
		}
		size, k2 := binary.Uvarint(b[k1:])
		if k2 <= 0 {
			return 0, postingsRef{}, false
		}
		b = b[k1+k2:]
		switch c := strings.Compare(string(t), term); {
		case c == 0:
			list = postingsRef{off: int64(off)}
			if ri.rawText { // the previous layout: lengths not shifted, no dense lists
				list.size, list.df = int64(size), int(size/2)
			} else {
				list.size, list.dense = int64(size>>1), size&1 == 1
				list.df = int(list.size / 2)
				if list.dense {
					list.df = int(list.size) - 8*denseWords(ri.docs) - 4*denseRanks(ri.docs)
				}
			}
			return idf, list, list.off >= 0 && list.size >= 0 && list.df >= 0 && ri.postingsAt+list.off+list.size <= ri.size
		case c > 0:
			return 0, postingsRef{}, false
		}
	}
	return 0, postingsRef{}, false
}

// exactPostings returns the postings of exact package name i.
func (ri *rankIndex) exactPostings(i int) []byte {
	le := binary.LittleEndian
	lo, hi := le.Uint64(ri.exactOffs[8*i:]), le.Uint64(ri.exactOffs[8*i+8:])
	if lo > hi {
		return nil
	}
	return ri.readAt(ri.postingsAt, ri.size, int64(lo), int64(hi-lo))
}

// accumulator holds one search's scores: a dense array per document and the list of documents
// touched, so that resetting costs what the search touched, not the whole array.
type accumulator struct {
	score   []float32
	matched []uint8 // how many of the question's terms a document holds
	touched []uint32
	scores  []float32 // best's scores of touched, by position
	buf     []byte    // a postings list being added
	scratch []byte    // a dictionary block or hit record being read
	flags   []uint64  // a bit per document, set by flag and cleared by unflag
}

func (a *accumulator) flag(doc uint32)   { a.flags[doc/64] |= 1 << (doc % 64) }
func (a *accumulator) unflag(doc uint32) { a.flags[doc/64] &^= 1 << (doc % 64) }
func (a *accumulator) flagged(doc uint32) bool {
	return a.flags[doc/64]&(1<<(doc%64)) != 0
}

func (ri *rankIndex) acquire() *accumulator {
	ri.mu.Lock()
	if n := len(ri.free); n > 0 {
		a := ri.free[n-1]
		ri.free = ri.free[:n-1]
		ri.mu.Unlock()
		return a
	}
	ri.mu.Unlock()
	return &accumulator{score: make([]float32, ri.docs), matched: make([]uint8, ri.docs), flags: make([]uint64, ri.docs/64+1)}
}

func (ri *rankIndex) release(a *accumulator) {
	for _, d := range a.touched {
		a.score[d] = 0
		a.matched[d] = 0
	}
	a.touched = a.touched[:0]
	ri.mu.Lock()
	if len(ri.free) < maxFreeAccumulators {
		ri.free = append(ri.free, a)
	}
	ri.mu.Unlock()
}

// add adds weight·impact/255 for every posting of list to a, for documents keep accepts
// (all when keep is nil). With grow false only documents a already holds are updated. It
// returns false on a malformed list.
func (ri *rankIndex) add(a *accumulator, list []byte, weight float32, keep func(doc uint32) bool, grow bool) bool {
	scale := weight / 255
	matched := a.matched[:ri.docs]
	score := a.score[:len(matched)]
	var doc uint32 // the first gap is the first document itself
	i, n := 0, len(list)
	for i < n-1 {
		// Indexing rather than re-slicing list, and a one-byte gap read inline: this loop is most
		// of a search's time.
		gap := uint32(list[i])
		i++
		if gap >= 0x80 {
			g, k := binary.Uvarint(list[i-1:])
			if k <= 0 || g > math.MaxUint32 || i-1+k >= n {
				return false
			}
			gap, i = uint32(g), i-1+k
		}
		doc += gap
		impact := list[i]
		i++
		if doc >= uint32(len(matched)) {
			return false
		}
		m := matched[doc]
		if m == 0 {
			if !grow || (keep != nil && !keep(doc)) {
				continue
			}
			a.touched = append(a.touched, doc)
		}
		if m < math.MaxUint8 {
			matched[doc] = m + 1
		}
		score[doc] += scale * float32(impact)
	}
	return i == n
}

// addDense is add for a dense list (see appendDense). Adding only to documents a holds, it
// tests their bits — a few thousand documents rather than a list of tens of thousands.
func (ri *rankIndex) addDense(a *accumulator, list []byte, weight float32, keep func(doc uint32) bool, grow bool) bool {
	nw, nr := denseWords(ri.docs), denseRanks(ri.docs)
	if len(list) < 8*nw+4*nr {
		return false
	}
	words, ranks, impacts := list[:8*nw], list[8*nw:8*nw+4*nr], list[8*nw+4*nr:]
	scale := weight / 255
	matched := a.matched[:ri.docs]
	score := a.score[:len(matched)]
	le := binary.LittleEndian
	if !grow {
		for _, doc := range a.touched {
			w := int(doc / 64)
			word, bit := le.Uint64(words[8*w:]), uint64(1)<<(doc%64)
			if word&bit == 0 {
				continue
			}
			// The impact's index is the number of documents before doc.
			first := w - w%denseRankWords
			r := int(le.Uint32(ranks[4*(first/denseRankWords):]))
			for j := first; j < w; j++ {
				r += bits.OnesCount64(le.Uint64(words[8*j:]))
			}
			r += bits.OnesCount64(word & (bit - 1))
			if r >= len(impacts) {
				return false
			}
			if m := matched[doc]; m < math.MaxUint8 {
				matched[doc] = m + 1
			}
			score[doc] += scale * float32(impacts[r])
		}
		return true
	}
	ok := forEachDense(list, ri.docs, func(doc uint32, impact uint8) {
		m := matched[doc]
		if m == 0 {
			if keep != nil && !keep(doc) {
				return
			}
			a.touched = append(a.touched, doc)
		}
		if m < math.MaxUint8 {
			matched[doc] = m + 1
		}
		score[doc] += scale * float32(impact)
	})
	return ok
}

// forEachDense calls fn for every (document, impact) of a dense list of a rank index of docs
// documents, in document order, and reports whether the list was well formed.
func forEachDense(list []byte, docs int, fn func(doc uint32, impact uint8)) bool {
	nw, nr := denseWords(docs), denseRanks(docs)
	if len(list) < 8*nw+4*nr {
		return false
	}
	words, impacts := list[:8*nw], list[8*nw+4*nr:]
	k := 0
	for w := range nw {
		word := binary.LittleEndian.Uint64(words[8*w:])
		for word != 0 {
			doc := uint32(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			if k >= len(impacts) || int(doc) >= docs {
				return false
			}
			fn(doc, impacts[k])
			k++
		}
	}
	return k == len(impacts)
}

func (ri *rankIndex) pkgOf(doc uint32) uint32 {
	return binary.LittleEndian.Uint32(ri.docPkg[4*doc:])
}

// pkgKey returns "ecosystem\x00name" of package p.
func (ri *rankIndex) pkgKey(p uint32) []byte { return ri.pkgs.at(int(p)) }

func (ri *rankIndex) isSymbol(doc uint32) bool { return ri.docKind[doc]&0x80 != 0 }

func (ri *rankIndex) kindOf(doc uint32) []byte {
	if k := int(ri.docKind[doc] & 0x7f); k < ri.nkinds {
		return ri.kinds.at(k)
	}
	return nil
}

// splitMajor splits a Go module path into the path without its major version suffix and that
// major version: "github.com/go-chi/chi/v5" -> ("github.com/go-chi/chi", 5), "gopkg.in/yaml.v3"
// -> ("gopkg.in/yaml", 3), "github.com/google/uuid" -> ("github.com/google/uuid", 1). It follows
// the module path rules of https://go.dev/ref/mod#major-version-suffixes.
func splitMajor(path string) (string, int) {
	i := len(path)
	for i > 0 && path[i-1] >= '0' && path[i-1] <= '9' {
		i--
	}
	if i == len(path) || i < 2 || path[i-1] != 'v' || path[i] == '0' {
		return path, 1
	}
	sep := path[i-2]
	if sep != '/' && !(sep == '.' && strings.HasPrefix(path, "gopkg.in/")) {
		return path, 1
	}
	n, err := strconv.Atoi(path[i:])
	if err != nil || n < 2 {
		return path, 1
	}
	return path[:i-2], n
}

// hit reads the record of doc in a layout that holds hit records (rankMagicHits,
// rankMagicRawText): its Bleve ID and the stored fields hits are made of, as storedFields
// returns them from Bleve. ok is false when the record is unreadable. The record is
// read into *scratch's storage; the strings returned are copies.
func (ri *rankIndex) hit(doc uint32, scratch *[]byte) (id string, fields map[string]any, ok bool) {
	le := binary.LittleEndian
	lo, hi := le.Uint64(ri.hitOffs[8*doc:]), le.Uint64(ri.hitOffs[8*doc+8:])
	if lo > hi {
		return "", nil, false
	}
	rec := ri.readScratch(scratch, ri.hitsAt, ri.postingsAt, int64(lo), int64(hi-lo))
	next := func() (string, bool) {
		n, k := binary.Uvarint(rec)
		if k <= 0 || n > uint64(len(rec)-k) {
			return "", false
		}
		v := string(rec[k : k+int(n)])
		rec = rec[k+int(n):]
		return v, true
	}
	if id, ok = next(); !ok {
		return "", nil, false
	}
	fields = make(map[string]any, len(hitFields))
	for _, name := range hitFields {
		v, ok := next()
		if !ok {
			return "", nil, false
		}
		fields[name] = v
	}
	return id, fields, true
}

// bleveNum returns the number of doc in search.bleve.
func (ri *rankIndex) bleveNum(doc uint32) uint64 {
	if ri.docNums == nil {
		return uint64(doc)
	}
	return uint64(binary.LittleEndian.Uint32(ri.docNums[4*doc:]))
}

// storedHit reads doc's Bleve ID and the stored fields hits are made of, as storedFields
// returns them, from ir, a reader of search.bleve: from the hit record in rank.idx layouts
// that hold them (see rank.go), else from Bleve's stored fields by the document's number
// there. A document Bleve does not have, or whose stored fields cannot be read, is an error
// wrapping ErrCorrupt: rank.idx and search.bleve disagree.
func (ri *rankIndex) storedHit(ir index.IndexReader, doc uint32, scratch *[]byte) (string, map[string]any, error) {
	if ri.hitOffs != nil {
		id, fields, ok := ri.hit(doc, scratch)
		if !ok {
			return "", nil, damaged(ri.f.Name(), "the record of document %d is malformed", doc)
		}
		return id, fields, nil
	}
	num := ri.bleveNum(doc)
	id, fields, err := bleveStored(ir, num)
	bleveDir := filepath.Join(filepath.Dir(ri.f.Name()), SearchDir)
	if err != nil {
		return "", nil, damaged(bleveDir, "reading the stored fields of document %d: %v", num, err)
	}
	if id == "" {
		return "", nil, damaged(ri.f.Name(), "its document %d is number %d of %s, which has none", doc, num, bleveDir)
	}
	return id, fields, nil
}

// bleveStored returns the ID and the stored hit fields of document number num of ir, or ""
// when ir holds no such document.
func bleveStored(ir index.IndexReader, num uint64) (id string, fields map[string]any, err error) {
	fields = make(map[string]any, len(hitFields))
	visit := func(name string, _ byte, value []byte, _ []uint64) bool {
		switch name {
		case "_id":
			id = string(value)
		case fSTitle, fSSection, fSText, fSURI:
			fields[name] = string(value)
		}
		return true
	}
	if is, ok := ir.(*scorch.IndexSnapshot); ok {
		// The segment holding num, as scorch numbers documents: each segment's after the
		// documents (deleted ones too) of those before it.
		base := uint64(0)
		for _, seg := range is.Segments() {
			n := seg.Segment().Count()
			if num < base+n {
				if seg.Deleted() != nil && seg.Deleted().Contains(uint32(num-base)) {
					return "", nil, nil
				}
				if err := seg.VisitDocument(num-base, visit); err != nil {
					return "", nil, err
				}
				return id, fields, nil
			}
			base += n
		}
		return "", nil, nil
	}
	// Another index type: by ID, through Bleve's interface.
	iid := make(index.IndexInternalID, 8)
	binary.BigEndian.PutUint64(iid, num)
	ext, err := ir.ExternalID(iid)
	if err != nil || ext == "" {
		return "", nil, nil
	}
	d, err := ir.Document(ext)
	if err != nil || d == nil {
		return "", nil, err
	}
	d.VisitFields(func(f index.Field) { visit(f.Name(), 0, f.Value(), nil) })
	return ext, fields, nil
}
