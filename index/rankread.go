package index

// rankread.go reads rank.idx (see rank.go) and ranks documents with it: term at a time, adding
// each query term's idf·impact into a dense score array, then keeping the best.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/mmap-go"
	"github.com/blevesearch/vellum"

	"github.com/docidx/docidx"
)

// rankSegment is one opened rank.idx, of one segment, mapped read-only into memory once loaded:
// its sections are views of the mapping, so that the pages searches read are the page cache's,
// shared with other processes and dropped under memory pressure, and no table of the file is a
// copy on the heap (a snapshot of 6.5 million documents held about 100 MB of such copies, and
// of postings lists cached from them, per serve).
// Its documents, packages and kinds are numbered locally; rankIndex numbers them over the whole
// snapshot. It is opened in two steps (see openRank): its shape — header, section directory,
// size — and then, by load, its mapping, its checksum and its tables' checks.
type rankSegment struct {
	f *os.File
	// data is the whole file, mapped by load; nil before. Callers must not change it.
	data mmap.MMap

	docs, npkgs, nkinds, nterms, nexact, nblocks int

	size int64               // the file's size in bytes, as its shape was checked
	secs map[string]rankSpan // the sections by name, as the directory places them

	docPkg   []byte // u32 per document
	docKind  []byte // u8 per document
	docFlags []byte // the docflags bitmap, nil in a file without it
	// cased says the symbol names' entries include the names as written (the cased section).
	cased       bool
	pkgs        strTable
	kinds       strTable
	exact       strTable
	exactOffs   []byte // u64 per name (+1), into postings
	blockOffs   []byte // u64 per block (+1), into dict
	blockFirst  strTable
	pkgTermOffs []byte // u64 per package version (+1), into the pkgterms pairs
	// docNums is u32 per document, its number in search.bleve, or empty when the numbers are
	// the same (see rank.go).
	docNums []byte
	// Where the sections read on demand are in the file.
	dictAt, dictEnd, pkgTermsAt, pkgTermsEnd, postingsAt, postingsEnd int64
	// fuzzyAt and fuzzyLen locate the spelling dictionaries (fuzzySections); a length of -1
	// marks a file written before them (format 5), whose dictionaries are search.bleve's.
	fuzzyAt, fuzzyLen [len(fuzzySections)]int64
	fuzzyOnce         [len(fuzzySections)]sync.Once
	fuzzyFST          [len(fuzzySections)]*vellum.FST
	fuzzyErr          [len(fuzzySections)]error
}

// hasFuzzy reports whether the file holds its own spelling dictionaries.
func (seg *rankSegment) hasFuzzy() bool { return seg.fuzzyLen[0] >= 0 }

// format returns the snapshot format the file was written in: FormatVersion when it holds its
// own spelling dictionaries, else 5 (formats 3 to 5 wrote the same layout).
func (seg *rankSegment) format() int {
	if seg.hasFuzzy() {
		return FormatVersion
	}
	return 5
}

// fuzzy returns spelling dictionary i (of fuzzySections), read on first use: a term's value is
// the number of the segment's documents holding it in that field. A dictionary that does not
// load is an error naming the file.
func (seg *rankSegment) fuzzy(i int) (*vellum.FST, error) {
	seg.fuzzyOnce[i].Do(func() {
		if seg.fuzzyLen[i] > 1<<31 {
			seg.fuzzyErr[i] = damaged(seg.f.Name(), "section %s of %d bytes", fuzzySections[i], seg.fuzzyLen[i])
			return
		}
		b := seg.view(0, seg.size, seg.fuzzyAt[i], seg.fuzzyLen[i])
		if b == nil {
			seg.fuzzyErr[i] = damaged(seg.f.Name(), "section %s read before the file was loaded", fuzzySections[i])
			return
		}
		fst, err := loadFST(b)
		if err != nil {
			seg.fuzzyErr[i] = damaged(seg.f.Name(), "section %s: %v", fuzzySections[i], err)
			return
		}
		seg.fuzzyFST[i] = fst
	})
	return seg.fuzzyFST[i], seg.fuzzyErr[i]
}

// loadFST loads a vellum FST from b, a panic on malformed bytes becoming an error.
func loadFST(b []byte) (fst *vellum.FST, err error) {
	defer func() {
		if p := recover(); p != nil {
			fst, err = nil, fmt.Errorf("malformed: %v", p)
		}
	}()
	return vellum.Load(b)
}

// rankSpan is where a section of rank.idx is: its offset and length in bytes.
type rankSpan struct{ off, n int64 }

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

// openRankSegment opens path and loads it whole (see openRank): its checksum is checked and the
// sections a reader holds in memory are read and checked. A file that is missing, unreadable or
// not a regular file is an error naming it; a damaged one (a checksum that does not match, a
// section out of bounds, another layout) wraps ErrCorrupt.
func openRankSegment(path string) (*rankSegment, error) { return openRank(path, false) }

// openRank opens path and checks its shape (see readRankShape), in time that does not grow with
// the file; unless shapeOnly it then loads it (see load). Errors are openRankSegment's.
//
// Shape only is what Open and a crawl check of every segment (as Lucene checks a file's header
// and footer when it opens a segment, CodecUtil.retrieveChecksum, and its whole checksum only
// when a merge or CheckIndex reads it): a file cut short, grown, of another layout or with a
// section out of bounds is found so. A flipped bit is found by load — before the first search
// of a Reader reads the file (see reader.ranked), by docidx verify, and by docidx compact.
func openRank(path string, shapeOnly bool) (*rankSegment, error) {
	f, _, err := openRegular(path)
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fileError(path, err)
	}
	seg, err := readRankShape(f)
	if err != nil {
		f.Close()
		return nil, rankError(path, err)
	}
	if !shapeOnly {
		if err := seg.load(); err != nil {
			seg.close()
			return nil, rankError(path, err)
		}
	}
	return seg, nil
}

// rankError names path in err, met reading its shape or loading it: malformed content is
// damage (ErrCorrupt), anything else as fileError says.
func rankError(path string, err error) error {
	if errors.Is(err, errRankFormat) {
		return damaged(path, "%v", err)
	}
	return fileError(path, err)
}

// rankFormatError is an error wrapping errRankFormat.
func rankFormatError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errRankFormat, fmt.Sprintf(format, args...))
}

// readRankShape reads f's header and section directory and checks that every section lies in
// the file, that every section a reader needs is there and that the sections end where the
// checksum starts: a few hundred bytes read, whatever the file's size. Every malformed input is
// an error wrapping errRankFormat; none panics.
func readRankShape(f *os.File) (*rankSegment, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	bad := rankFormatError
	le := binary.LittleEndian
	const fixed = len(rankMagic) + 4*7
	if size < int64(fixed)+4 {
		return nil, bad("%d bytes is too short", size)
	}
	head := make([]byte, fixed)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, err
	}
	if string(head[:len(rankMagic)]) != rankMagic {
		return nil, bad("not a rank index of layout %s", rankMagic)
	}
	counts := head[len(rankMagic):]
	seg := &rankSegment{f: f, size: size}
	seg.docs = int(le.Uint32(counts[0:]))
	seg.npkgs = int(le.Uint32(counts[4:]))
	seg.nkinds = int(le.Uint32(counts[8:]))
	seg.nterms = int(le.Uint32(counts[12:]))
	seg.nexact = int(le.Uint32(counts[16:]))
	seg.nblocks = int(le.Uint32(counts[20:]))
	nsec := int(le.Uint32(counts[24:]))
	if nsec > 64 || int64(fixed+24*nsec) > size-4 {
		return nil, bad("%d sections", nsec)
	}
	dir := make([]byte, 24*nsec)
	if _, err := f.ReadAt(dir, int64(fixed)); err != nil {
		return nil, err
	}
	seg.secs = map[string]rankSpan{}
	var end int64 // where the last section ends
	for i := range nsec {
		e := dir[24*i:]
		name := string(bytes.TrimRight(e[:8], "\x00"))
		off, n := int64(le.Uint64(e[8:])), int64(le.Uint64(e[16:]))
		if off < int64(fixed+24*nsec) || n < 0 || off > size-4 || n > size-4-off {
			return nil, bad("section %q out of bounds", name)
		}
		seg.secs[name] = rankSpan{off, n}
		end = max(end, off+n)
	}
	if pad8 := (end + 7) &^ 7; pad8+4 != size {
		return nil, bad("sections end at %d, the file at %d", pad8+4, size)
	}
	for _, name := range rankSectionNames {
		if _, ok := seg.secs[name]; !ok && !optionalSections[name] {
			return nil, bad("no section %q", name)
		}
	}
	_, seg.cased = seg.secs[secCased]
	for i, name := range fuzzySections {
		seg.fuzzyAt[i], seg.fuzzyLen[i] = -1, -1
		if sp, ok := seg.secs[name]; ok {
			seg.fuzzyAt[i], seg.fuzzyLen[i] = sp.off, sp.n
		}
	}
	if (seg.fuzzyLen[0] < 0) != (seg.fuzzyLen[1] < 0) {
		return nil, bad("one spelling dictionary of two")
	}
	return seg, nil
}

// load maps the segment, whose shape readRankShape checked, checks its checksum over the whole
// file (read with pread) and then its tables: a flipped bit anywhere is found here, not as a
// wrong score later. Checking 16 MB costs a few milliseconds and warms the page cache that
// searches use. A file that changed size since its shape was read, or cannot be mapped, is an
// error; every malformed input is an error wrapping errRankFormat; none panics. On an error the
// segment is left unmapped; close unmaps it otherwise.
func (seg *rankSegment) load() (err error) {
	if seg.data != nil {
		return nil
	}
	size := seg.size
	bad := rankFormatError
	le := binary.LittleEndian
	if size > math.MaxInt-1 {
		return bad("%d bytes is too large to map", size)
	}
	data, err := mmap.MapRegion(seg.f, int(size), mmap.RDONLY, 0, 0)
	if err != nil {
		return fmt.Errorf("mapping the file: %w", err)
	}
	defer func() {
		if err != nil {
			data.Unmap()
			seg.data = nil
		}
	}()
	if fi, err := seg.f.Stat(); err != nil {
		return err
	} else if fi.Size() != size {
		return bad("the file changed size from %d to %d bytes", size, fi.Size())
	}
	seg.data = data
	// The checksum is read with pread, not through the mapping: the pages of the file a serve's
	// searches never read then stay out of its resident memory (at 16N, 1 GB of rank.idx).
	crc := crc32.New(castagnoli)
	buf := checksumBufs.Get().(*[]byte)
	_, err = io.CopyBuffer(crc, io.NewSectionReader(seg.f, 0, size-4), *buf)
	checksumBufs.Put(buf)
	if err != nil {
		return err
	}
	if crc.Sum32() != le.Uint32(data[size-4:]) {
		return bad("checksum mismatch")
	}
	secs := seg.secs
	read := func(name string) ([]byte, error) {
		sp := secs[name] // readRankShape checked that it lies in the file
		return data[sp.off : sp.off+sp.n], nil
	}
	table := func(b []byte) (strTable, []byte, error) {
		if len(b) < 4 {
			return strTable{}, nil, bad("short string table")
		}
		n := int(le.Uint32(b))
		if n < 0 || n > len(b)/4 {
			return strTable{}, nil, bad("string table of %d", n)
		}
		offsEnd := 4 + 4*(n+1)
		if offsEnd > len(b) {
			return strTable{}, nil, bad("string table of %d", n)
		}
		t := strTable{n: n, offs: b[4:offsEnd]}
		size := int(le.Uint32(t.offs[4*n:]))
		if size > len(b)-offsEnd {
			return strTable{}, nil, bad("string table of %d bytes", size)
		}
		t.data = b[offsEnd : offsEnd+size]
		prev := uint32(0)
		for i := 0; i <= n; i++ {
			o := le.Uint32(t.offs[4*i:])
			if o < prev || int(o) > size {
				return strTable{}, nil, bad("string table offsets")
			}
			prev = o
		}
		return t, b[offsEnd+size:], nil
	}
	var b []byte
	if b, err = read(secDocPkg); err != nil {
		return err
	}
	if len(b) != 4*seg.docs {
		return bad("docpkg of %d bytes for %d documents", len(b), seg.docs)
	}
	seg.docPkg = b
	if b, err = read(secDocKind); err != nil {
		return err
	}
	if len(b) != seg.docs {
		return bad("dockind of %d bytes for %d documents", len(b), seg.docs)
	}
	seg.docKind = b
	if _, ok := secs[secDocFlags]; ok {
		if b, err = read(secDocFlags); err != nil {
			return err
		}
		if len(b) != 8*((seg.docs+63)/64) {
			return bad("docflags of %d bytes for %d documents", len(b), seg.docs)
		}
		seg.docFlags = b
	}
	if b, err = read(secPkgs); err != nil {
		return err
	}
	if seg.pkgs, _, err = table(b); err != nil {
		return err
	}
	if b, err = read(secKinds); err != nil {
		return err
	}
	if seg.kinds, _, err = table(b); err != nil {
		return err
	}
	if b, err = read(secExact); err != nil {
		return err
	}
	var rest []byte
	if seg.exact, rest, err = table(b); err != nil {
		return err
	}
	rest = rest[min(len(rest), (8-(len(b)-len(rest))%8)%8):]
	if len(rest) != 8*(seg.nexact+1) {
		return bad("exact names' offsets")
	}
	seg.exactOffs = rest
	if b, err = read(secBlocks); err != nil {
		return err
	}
	if len(b) < 8*(seg.nblocks+1) {
		return bad("blocks")
	}
	seg.blockOffs = b[:8*(seg.nblocks+1)]
	if seg.blockFirst, _, err = table(b[8*(seg.nblocks+1):]); err != nil {
		return err
	}
	if b, err = read(secDocNums); err != nil {
		return err
	}
	if len(b) != 0 && len(b) != 4*seg.docs {
		return bad("docnums of %d bytes for %d documents", len(b), seg.docs)
	}
	if len(b) != 0 {
		seg.docNums = b
	}
	pt := secs[secPkgTerms]
	offsLen := int64(8 * (seg.npkgs + 1))
	if pt.n < offsLen {
		return bad("pkgterms")
	}
	seg.pkgTermOffs = data[pt.off : pt.off+offsLen]
	seg.pkgTermsAt, seg.pkgTermsEnd = pt.off+offsLen, pt.off+pt.n
	seg.dictAt, seg.dictEnd = secs[secDict].off, secs[secDict].off+secs[secDict].n
	seg.postingsAt, seg.postingsEnd = secs[secPostings].off, secs[secPostings].off+secs[secPostings].n
	if seg.pkgs.n != seg.npkgs || seg.kinds.n != seg.nkinds || seg.exact.n != seg.nexact || seg.blockFirst.n != seg.nblocks ||
		seg.nblocks != (seg.nterms+termBlock-1)/termBlock || seg.nkinds > 127 {
		return bad("counts disagree with the tables")
	}
	for d := range seg.docs {
		if int(le.Uint32(seg.docPkg[4*d:])) >= seg.npkgs || int(seg.docKind[d]&0x7f) >= seg.nkinds {
			return bad("document %d out of range", d)
		}
	}
	for i := range seg.nblocks + 1 {
		if o := int64(le.Uint64(seg.blockOffs[8*i:])); o < 0 || o > seg.dictEnd-seg.dictAt {
			return bad("block offsets")
		}
	}
	for i := range seg.nexact + 1 {
		if o := int64(le.Uint64(seg.exactOffs[8*i:])); o < 0 || o > seg.postingsEnd-seg.postingsAt {
			return bad("exact offsets")
		}
	}
	for i := range seg.npkgs + 1 {
		if o := int64(le.Uint64(seg.pkgTermOffs[8*i:])); o < 0 || o > seg.pkgTermsEnd-seg.pkgTermsAt {
			return bad("pkgterms offsets")
		}
	}
	return nil
}

// close unmaps the segment and closes its file. No view of the mapping may be used after it: a
// Reader is closed once no search holds it (a served one once every request that acquired it
// released it, see Watcher.Acquire), as Bleve's mapped files require too.
func (seg *rankSegment) close() error {
	if seg.data != nil {
		seg.data.Unmap()
		seg.data = nil
	}
	return seg.f.Close()
}

// view returns the n bytes at off of the section [base, end) of the mapped file, or nil when
// they are not all inside it or the file is not loaded. Callers must not change them.
func (seg *rankSegment) view(base, end, off, n int64) []byte {
	if seg.data == nil || off < 0 || n < 0 || base+off+n > end || end > int64(len(seg.data)) {
		return nil
	}
	return seg.data[base+off : base+off+n : base+off+n]
}

// postingsRef locates a postings list in the postings section: its offset and size in bytes,
// how many documents it holds, and whether it is dense (see appendDense).
type postingsRef struct {
	off, size int64
	df        int
	dense     bool
}

// read returns the list, a view of the mapped file, or nil when it is not inside the postings.
func (seg *rankSegment) read(p postingsRef) []byte {
	return seg.view(seg.postingsAt, seg.postingsEnd, p.off, p.size)
}

// postings returns part's postings list, a view of its segment's mapped file, or nil when it
// lies outside the postings section. Callers must not change it.
func (ri *rankIndex) postings(part termPart) []byte { return ri.segs[part.seg].read(part.list) }

// find finds term in the dictionary and returns its ordinal and where its postings are, and
// whether its answer is sure: false when the block could not be read or is malformed, and ok is
// false whether or not the segment holds term.
func (seg *rankSegment) find(term string) (ord uint32, list postingsRef, ok, sure bool) {
	// The last block whose first term is <= term.
	blk := sort.Search(seg.nblocks, func(i int) bool { return string(seg.blockFirst.at(i)) > term }) - 1
	if blk < 0 {
		return 0, postingsRef{}, false, true
	}
	le := binary.LittleEndian
	lo, hi := int64(le.Uint64(seg.blockOffs[8*blk:])), int64(le.Uint64(seg.blockOffs[8*blk+8:]))
	b := seg.view(seg.dictAt, seg.dictEnd, lo, hi-lo)
	if b == nil {
		return 0, postingsRef{}, false, false
	}
	for i := 0; len(b) > 0; i++ {
		var t []byte
		var ok bool
		if t, list, b, ok = dictEntry(b); !ok {
			return 0, postingsRef{}, false, false
		}
		// Comparisons rather than strings.Compare, to which string(t) would be a copy: this
		// runs for every term of a block read, a hundred times a search.
		switch {
		case string(t) == term:
			ok := list.df <= seg.docs && seg.postingsAt+list.off+list.size <= seg.postingsEnd
			return uint32(blk*termBlock + i), list, ok, ok
		case string(t) > term:
			return 0, postingsRef{}, false, true
		}
	}
	return 0, postingsRef{}, false, true
}

// dictEntry reads the dictionary entry at the start of b (see appendDictEntry) and returns its
// term, a view of b, where its postings are, and the entries after it; ok is false when the
// entry is malformed.
func dictEntry(b []byte) (term []byte, list postingsRef, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, postingsRef{}, nil, false
	}
	term, b = b[k:k+int(n)], b[k+int(n):]
	if len(b) < 4 {
		return nil, postingsRef{}, nil, false
	}
	df := binary.LittleEndian.Uint32(b)
	off, k1 := binary.Uvarint(b[4:])
	if k1 <= 0 {
		return nil, postingsRef{}, nil, false
	}
	size, k2 := binary.Uvarint(b[4+k1:])
	if k2 <= 0 || off > math.MaxInt64 || size>>1 > math.MaxInt64 || df > math.MaxInt32 {
		return nil, postingsRef{}, nil, false
	}
	list = postingsRef{off: int64(off), size: int64(size >> 1), dense: size&1 == 1, df: int(df)}
	return term, list, b[4+k1+k2:], true
}

// exactPostings returns the postings of exact package name i.
func (seg *rankSegment) exactPostings(i int) []byte {
	le := binary.LittleEndian
	lo, hi := le.Uint64(seg.exactOffs[8*i:]), le.Uint64(seg.exactOffs[8*i+8:])
	if lo > hi {
		return nil
	}
	return seg.view(seg.postingsAt, seg.postingsEnd, int64(lo), int64(hi-lo))
}

// pkgTerms calls fn with each (term ordinal, documents) pair of package version p, and reports
// whether its list was well formed.
func (seg *rankSegment) pkgTerms(p int, fn func(ord, docs uint32)) bool {
	le := binary.LittleEndian
	lo, hi := int64(le.Uint64(seg.pkgTermOffs[8*p:])), int64(le.Uint64(seg.pkgTermOffs[8*p+8:]))
	if lo > hi {
		return false
	}
	b := seg.view(seg.pkgTermsAt, seg.pkgTermsEnd, lo, hi-lo)
	if b == nil {
		return false
	}
	ord := uint64(0)
	for len(b) > 0 {
		gap, k := binary.Uvarint(b)
		if k <= 0 {
			return false
		}
		n, k2 := binary.Uvarint(b[k:])
		if k2 <= 0 {
			return false
		}
		b = b[k+k2:]
		if ord += gap; ord >= uint64(seg.nterms) || n > uint64(seg.docs) {
			return false
		}
		fn(uint32(ord), uint32(n))
	}
	return true
}

// bleveNum returns the number of local document doc in the segment's search.bleve.
func (seg *rankSegment) bleveNum(doc uint32) uint64 {
	if seg.docNums == nil {
		return uint64(doc)
	}
	return uint64(binary.LittleEndian.Uint32(seg.docNums[4*doc:]))
}

// storedHit reads local document doc's Bleve ID and the stored fields hits are made of from ir,
// a reader of the segment's search.bleve, by the document's number there, into rec; buf is
// scratch storage, returned for reuse. A document Bleve does not have, or whose stored fields
// cannot be read, is an error wrapping ErrCorrupt: rank.idx and search.bleve disagree.
func (seg *rankSegment) storedHit(ir index.IndexReader, doc uint32, rec *hitRecord, buf []byte) ([]byte, error) {
	num := seg.bleveNum(doc)
	buf, err := bleveStored(ir, num, rec, buf)
	if err != nil {
		return buf, damaged(filepath.Join(filepath.Dir(seg.f.Name()), SearchDir), "reading the stored fields of document %d: %v", num, err)
	}
	if rec.id == "" {
		return buf, damaged(seg.f.Name(), "its document %d is number %d of %s, which has none", doc, num, filepath.Join(filepath.Dir(seg.f.Name()), SearchDir))
	}
	return buf, nil
}

// rankIndex ranks the documents of every segment of a snapshot as one index: documents,
// package versions and kinds are numbered over all segments (a segment's after those of the
// segments before it), and a term's idf is computed from the document frequencies of all
// segments less those of the package versions no longer searched as latest. A package version
// is searched as latest (live) when it is its package's latest indexed version and its
// documents are taken from this segment (a version crawled again lives in a newer one).
type rankIndex struct {
	segs    []*rankSegment
	docBase []uint32 // per segment (+1): its first document's number
	pkgBase []uint32 // per segment (+1): its first package version's number

	docs, npkgs int
	pkgs        []string // per package version: "ecosystem\x00name"
	versions    []string // per package version: its version
	kinds       []string
	// kindMap maps, per segment, its kind ordinals to the snapshot's (in kinds).
	kindMap [][128]uint8
	// Per document, the snapshot holds no table of its own: a document's package version, kind
	// and flags are its segment's (views of the mapped rank.idx), found through the runs of
	// documents of one package version, which a version's documents make one of in its
	// segment (rankBuilder.documents writes them together). Per run, from its first document
	// (runStart, plus one entry, docs), its package version, its segment and runOrder, the
	// place of its first document in the order of (package key, version, ID): equal scores
	// rank by it, so the order of results does not depend on how documents fell into
	// segments. chunkRun holds the run of the first document of each runChunk documents, so
	// that finding a document's run (see run) searches the few runs of its chunk. For 6.5
	// million documents of 12,000 versions these are 300 KB, where tables per document were
	// 59 MB of every serve's heap.
	runStart, runPkg, runSeg, runOrder []uint32
	chunkRun                           []uint32
	// where marks the package versions whose documents are searched in their segment (a
	// version crawled again is searched in the newer segment only); live those of them that
	// are their package's latest indexed version, which searches without a version see.
	where, live []bool
	// liveDocs is the number of live documents, deadDF per segment the documents of its
	// package versions that are not live, per term ordinal: both make the idf.
	liveDocs int
	deadDF   []map[uint32]uint32

	// Priors derived once at open: per kind, and per package before the question is known
	// (priorSuperseded for a Go module whose newer major is indexed).
	kindPrior [128]float32
	pkgPrior  []float32
	// ecoPkgs lists the package versions of each ecosystem, for the ecosystem prior.
	ecoPkgs      map[docidx.Ecosystem][]uint32
	overviewKind int // the kind ordinal of package overviews, -1 when there are none
	// byName maps each name a question may call a package by (packageNames) to the live
	// package versions of that name; made on first use by packagesNamed.
	namedOnce sync.Once
	byName    map[string][]uint32
	// byAlias maps each name a package's documentation imports it by (importAliases) to the
	// live package versions of that alias; made on first use by aliasPackages.
	aliasOnce sync.Once
	byAlias   map[string][]uint32
	// byCommand maps each command a package installs (commandNames) to the live package
	// versions that install it, built on first use.
	commandOnce sync.Once
	byCommand   map[string][]uint32
	// ownName remembers nameShare's shares, at most maxOwnNames of them.
	namedMu sync.Mutex
	ownName map[string]float64

	// terms remembers the lookups of the terms searches asked for, found or not: the lists'
	// places and frequencies are a property of the snapshot, and finding a term searches a
	// dictionary block of each segment. At most maxKnownTerms, and at most maxKnownParts parts
	// of lists over them (knownParts): a term of a snapshot of 55 segments has up to 55.
	termsMu    sync.Mutex
	terms      map[string]termList
	knownParts int

	// filters are the filters of searches by no package and no version, by ecosystem and
	// kind (see filter); nil when every document passes.
	filterMu sync.Mutex
	filters  map[filterKey]*docFilter
	// classes sort the documents by what decides their prior (see priorClasses); made on
	// first use.
	classesOnce sync.Once
	classes     *priorClasses
	// pkgRanges are the ranges of each package version's documents (see pkgDocs), nil when
	// they are not numbered together; made on first use.
	pkgDocsOnce sync.Once
	pkgRanges   [][2]uint32

	// free holds accumulators for reuse, at most maxFreeAccumulators. Not a sync.Pool: an
	// accumulator keeps its spare pages (up to 5 MB) and its table of pages (8 bytes per 256
	// documents), and a pool emptied at every garbage collection had each search every few
	// allocate them again — which in turn brought the next collection sooner.
	mu   sync.Mutex
	free []*accumulator

	// skips are the skip tables of the long lists searches read, by segment and place,
	// holding skipBytes; at most maxSkipBytes (see skipsOf).
	skipMu    sync.Mutex
	skips     map[skipKey]*skipTable
	skipBytes int
	skipClock uint64 // counts skipsOf's calls: each table's last use
}

// checksumBufs are the buffers rank.idx checksums are read through (rankSegment.load), 1 MiB
// each: one per segment checked at once, not one per segment, which at 16N (55 segments) was
// 55 MB of garbage at a server's first search, over its heap budget.
var checksumBufs = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// maxKeptLists bounds the bytes of buffers an accumulator keeps for the next search.
const maxKeptLists = 1 << 20

// maxKeptCands bounds the bytes of the candidates (admit) an accumulator keeps for the next
// search: a common word's list at 16N holds some hundreds of thousands of documents the search
// does not hold yet, and made anew for each search they were half of what a served search
// allocated there, which the collector must then free.
const maxKeptCands = 4 << 20

// maxFreeAccumulators bounds the accumulators kept between searches: as many as searches that
// commonly run at once.
const maxFreeAccumulators = 4

// newRankIndex numbers segs' documents as one index. searched reports whether the package
// version (ecosystem, name, version) of segment i is searched there, latest whether that
// version is its package's latest indexed one. It returns an error wrapping errRankFormat for
// a malformed pkgterms section.
func newRankIndex(segs []*rankSegment, searched func(i int, eco docidx.Ecosystem, name, version string) bool, latest func(eco docidx.Ecosystem, name, version string) bool) (*rankIndex, error) {
	ri := &rankIndex{segs: segs, overviewKind: -1}
	kindOrd := map[string]uint8{}
	for i, seg := range segs {
		ri.docBase = append(ri.docBase, uint32(ri.docs))
		ri.pkgBase = append(ri.pkgBase, uint32(ri.npkgs))
		if uint64(ri.docs)+uint64(seg.docs) > math.MaxUint32/2 {
			return nil, fmt.Errorf("%w: more than 2^31 documents", errRankFormat)
		}
		ri.docs += seg.docs
		ri.npkgs += seg.npkgs
		for p := range seg.npkgs {
			eco, rest, _ := bytes.Cut(seg.pkgs.at(p), []byte{0})
			name, version, _ := bytes.Cut(rest, []byte{0})
			ri.pkgs = append(ri.pkgs, string(eco)+"\x00"+string(name))
			ri.versions = append(ri.versions, string(version))
			in := searched(i, docidx.Ecosystem(eco), string(name), string(version))
			ri.where = append(ri.where, in)
			ri.live = append(ri.live, in && latest(docidx.Ecosystem(eco), string(name), string(version)))
		}
		var local [128]uint8
		for k := range seg.nkinds {
			name := string(seg.kinds.at(k))
			g, ok := kindOrd[name]
			if !ok {
				if len(ri.kinds) >= 127 {
					return nil, fmt.Errorf("%w: more than 127 document kinds", errRankFormat)
				}
				g = uint8(len(ri.kinds))
				kindOrd[name] = g
				ri.kinds = append(ri.kinds, name)
			}
			local[k] = g
		}
		ri.kindMap = append(ri.kindMap, local)
	}
	ri.docBase = append(ri.docBase, uint32(ri.docs))
	ri.pkgBase = append(ri.pkgBase, uint32(ri.npkgs))
	ri.numberRuns()

	// Live documents, and the frequencies of the terms of the others per segment.
	ri.deadDF = make([]map[uint32]uint32, len(segs))
	pkgDocs := make([]uint32, ri.npkgs)
	for r, p := range ri.runPkg {
		pkgDocs[p] += ri.runStart[r+1] - ri.runStart[r]
	}
	for i, seg := range segs {
		for p := range seg.npkgs {
			g := int(ri.pkgBase[i]) + p
			if ri.live[g] {
				ri.liveDocs += int(pkgDocs[g])
				continue
			}
			if ri.deadDF[i] == nil {
				ri.deadDF[i] = map[uint32]uint32{}
			}
			dead := ri.deadDF[i]
			if !seg.pkgTerms(p, func(ord, docs uint32) { dead[ord] += docs }) {
				return nil, fmt.Errorf("%w: the term list of package version %d", errRankFormat, p)
			}
		}
	}

	// Equal scores rank by (package key, version, ID): documents of a package version are
	// contiguous in their segment and in ID order there (see rankBuilder.documents).
	byKey := make([]uint32, ri.npkgs)
	for p := range byKey {
		byKey[p] = uint32(p)
	}
	slices.SortFunc(byKey, func(a, b uint32) int {
		return cmp.Or(strings.Compare(ri.pkgs[a], ri.pkgs[b]), strings.Compare(ri.versions[a], ri.versions[b]), cmp.Compare(a, b))
	})
	start := make([]uint32, ri.npkgs)
	n := uint32(0)
	for _, p := range byKey {
		start[p] = n
		n += pkgDocs[p]
	}
	ri.runOrder = make([]uint32, len(ri.runPkg))
	for r, p := range ri.runPkg {
		ri.runOrder[r] = start[p]
		start[p] += ri.runStart[r+1] - ri.runStart[r]
	}

	for k, name := range ri.kinds {
		ri.kindPrior[k] = float32(kindPriorOf(name))
		if name == "overview" {
			ri.overviewKind = k
		}
	}
	ri.pkgPrior = make([]float32, ri.npkgs)
	names := make([]string, ri.npkgs)
	ri.ecoPkgs = map[docidx.Ecosystem][]uint32{}
	for p, key := range ri.pkgs {
		eco, name, _ := strings.Cut(key, "\x00")
		ri.ecoPkgs[docidx.Ecosystem(eco)] = append(ri.ecoPkgs[docidx.Ecosystem(eco)], uint32(p))
		if eco == string(docidx.Go) && ri.live[p] {
			names[p] = name
		}
	}
	superseded := supersededNames(names)
	for p := range ri.pkgPrior {
		ri.pkgPrior[p] = 1
		if superseded[names[p]] {
			ri.pkgPrior[p] = priorSuperseded
		}
	}
	return ri, nil
}

// segOf returns the segment holding document doc and doc's number there.
func (ri *rankIndex) segOf(doc uint32) (int, uint32) {
	i := sort.Search(len(ri.segs), func(i int) bool { return ri.docBase[i+1] > doc })
	return i, doc - ri.docBase[i]
}

// idf is BM25's inverse document frequency of a term df of the live documents hold.
func (ri *rankIndex) idf(df int) float32 {
	n, d := float64(ri.liveDocs), float64(df)
	return float32(math.Log(1 + (n-d+0.5)/(d+0.5)))
}

// termList is a question term found in the dictionaries: its postings in each segment that
// holds it, how many live documents hold it and its idf.
type termList struct {
	term  string
	parts []termPart
	df    int // live documents holding the term
	all   int // documents holding it, live or not: the lists' length
	idf   float32
}

// termPart is a term's postings list in one segment.
type termPart struct {
	seg  int
	list postingsRef
}

// lookup finds term in every segment. ok is false when no segment holds it. Callers must not
// change l.parts: the answer is remembered (see terms).
func (ri *rankIndex) lookup(term string) (l termList, ok bool) {
	ri.termsMu.Lock()
	l, known := ri.terms[term]
	ri.termsMu.Unlock()
	if known {
		return l, len(l.parts) > 0
	}
	l = termList{term: term}
	sure := true
	for i, seg := range ri.segs {
		ord, list, found, s := seg.find(term)
		sure = sure && s
		if !found {
			continue
		}
		l.parts = append(l.parts, termPart{i, list})
		l.all += list.df
		l.df += list.df - int(ri.deadDF[i][ord])
	}
	l.df = max(l.df, 0)
	l.idf = ri.idf(l.df)
	if sure {
		ri.termsMu.Lock()
		if len(ri.terms) >= maxKnownTerms || ri.knownParts+len(l.parts) > maxKnownParts {
			clear(ri.terms) // a new vocabulary: the old one is read again as needed
			ri.knownParts = 0
		}
		ri.knownParts += len(l.parts)
		if ri.terms == nil {
			ri.terms = make(map[string]termList)
		}
		ri.terms[term] = l
		ri.termsMu.Unlock()
	}
	return l, len(l.parts) > 0
}

// maxKnownTerms bounds the terms a rank index remembers the lookup of, maxKnownParts the parts
// of their lists (32 bytes each: 1 MB).
const (
	maxKnownTerms = 8192
	maxKnownParts = 1 << 15
)

// accumulator holds one search's scores, by document numbered over the snapshot, in pages of
// accPageDocs documents made as the search first scores one of their documents, and the list of
// documents touched, so that resetting costs what the search touched. A search holds the pages of
// the documents it scores — for 5,000 documents of a few packages, some hundreds of kilobytes —
// not arrays over the snapshot, which at 5 bytes per document were 33 MB of every serve's heap
// for 6.5 million documents. The table of pages is 8 bytes per accPageDocs documents.
type accumulator struct {
	pages   []*accPage // per page of documents, noPage while none of its documents holds a score
	made    []uint32   // the pages made by this search, in the order made
	spare   []*accPage // cleared pages kept for the next search, at most maxSparePages
	touched []uint32
	// madeBits has bit n set while page n is made: while a holds a document of it (holdsIn).
	madeBits []uint64
	scores   []float32 // best's scores of touched, by position
	// lists are the question's postings lists as accumulate found them, by part, for
	// accumulateAlternatives and withinPackage to walk without finding them again: views of
	// the mapped segments (see postings).
	lists  [][]byte
	cands  []uint64 // postings of documents not held, waiting for admit's floor
	stored []byte   // the stored fields of a hit being read (bleveStored)
	flags  []uint64 // a bit per document, set by flag and cleared by unflag (see best)
}

// Values of add's growAt: the least impact at which a posting adds a document the accumulator
// holds no score for.
const (
	growAll  = 0                 // every document
	growNone = math.MaxUint8 + 1 // none: only documents already held are added to
)

func (a *accumulator) flag(doc uint32)   { a.flags[doc/64] |= 1 << (doc % 64) }
func (a *accumulator) unflag(doc uint32) { a.flags[doc/64] &^= 1 << (doc % 64) }
func (a *accumulator) flagged(doc uint32) bool {
	return a.flags[doc/64]&(1<<(doc%64)) != 0
}

// flagRange flags the documents [first, end); unflagRange clears their flags.
func (a *accumulator) flagRange(first, end uint32) {
	for doc := first; doc < end; {
		if doc%64 == 0 && end-doc >= 64 {
			a.flags[doc/64] = ^uint64(0)
			doc += 64
			continue
		}
		a.flag(doc)
		doc++
	}
}

func (a *accumulator) unflagRange(first, end uint32) {
	for doc := first; doc < end; {
		if doc%64 == 0 && end-doc >= 64 {
			a.flags[doc/64] = 0
			doc += 64
			continue
		}
		a.unflag(doc)
		doc++
	}
}

// accPageShift and accPageDocs: an accumulator's page holds the scores of 1<<accPageShift
// documents (320 bytes). The documents a search scores are scattered, a few to a page, so a
// smaller page holds less memory for the same documents, and its table more (8 bytes a page).
// Measured at 16N (6.6 million documents, 16 copies of the corpus), a serve's RssAnon after
// 1,000 held-out questions was 60.6–63.2 MB with pages of 64 documents, 66.7–70.8 MB with 128,
// 70.8–72.1 MB with 256 and 71.5–72.5 MB with 32; 1,024 had been 5–10 MB above 256. 64 was
// also 6% faster over stdio than 256 (p50 of the dev questions, at N and 16N), with the same
// answers.
const (
	accPageShift = 6
	accPageDocs  = 1 << accPageShift
	accPageMask  = accPageDocs - 1
)

// maxSparePages bounds the cleared pages an accumulator keeps for the next search (1.25 MB).
const maxSparePages = 4096

// accPage holds the scores of accPageDocs consecutive documents: the sum of their terms'
// weights and how many of the question's terms each holds.
type accPage struct {
	score   [accPageDocs]float32
	matched [accPageDocs]uint8
}

// noPage stands for the pages no document of which holds a score, so that reading a score needs
// no test (a test per posting cost the searches of the corpus 4%): all zeros, never written, as
// only a page touch returns is.
var noPage = new(accPage)

// newAccumulator returns an empty accumulator for docs documents.
func newAccumulator(docs int) *accumulator {
	npages := docs/accPageDocs + 1
	a := &accumulator{pages: make([]*accPage, npages), madeBits: make([]uint64, npages/64+1), flags: make([]uint64, docs/64+1)}
	for n := range a.pages {
		a.pages[n] = noPage
	}
	return a
}

// page returns page n, made (from the spare pages when there are any) if the search had none.
func (a *accumulator) page(n uint32) *accPage {
	if p := a.pages[n]; p != noPage {
		return p
	}
	var p *accPage
	if k := len(a.spare); k > 0 {
		p, a.spare = a.spare[k-1], a.spare[:k-1]
	} else {
		p = new(accPage)
	}
	a.pages[n] = p
	a.made = append(a.made, n)
	a.madeBits[n/64] |= 1 << (n % 64)
	return p
}

// matchedOf returns how many of the question's terms doc holds, as added so far.
func (a *accumulator) matchedOf(doc uint32) uint8 {
	return a.pages[doc>>accPageShift].matched[doc&accPageMask]
}

// scoreOf returns doc's score, as added so far.
func (a *accumulator) scoreOf(doc uint32) float32 {
	return a.pages[doc>>accPageShift].score[doc&accPageMask]
}

// touch adds doc, which holds no score yet, to the documents touched and returns its page.
func (a *accumulator) touch(doc uint32) *accPage {
	a.touched = append(a.touched, doc)
	return a.page(doc >> accPageShift)
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
	return newAccumulator(ri.docs)
}

// reset clears a for the next search: the documents touched, one by one (every score and
// count is written through touch, so they are all the page entries a search sets), and keeps
// maxSparePages of its pages. A search's documents are scattered over the snapshot, a few to a
// page: clearing whole pages cleared some 2 MB per search, 5% of its time.
func (a *accumulator) reset() {
	for _, doc := range a.touched {
		p := a.pages[doc>>accPageShift]
		p.score[doc&accPageMask], p.matched[doc&accPageMask] = 0, 0
	}
	a.touched = a.touched[:0]
	for _, n := range a.made {
		a.madeBits[n/64] = 0
		if len(a.spare) < maxSparePages {
			a.spare = append(a.spare, a.pages[n])
		}
		a.pages[n] = noPage
	}
	a.made = a.made[:0]
}

func (ri *rankIndex) release(a *accumulator) {
	a.reset()
	clear(a.lists) // not to hold views of segments a reader closes
	if cap(a.stored) > maxKeptLists {
		a.stored = nil
	}
	if 8*cap(a.cands) > maxKeptCands {
		a.cands = nil
	}
	// A question of common words only touches as many documents as its rarest word's list
	// holds: at 16N, a million and more. Its tables are not kept for the questions after it.
	if 4*cap(a.touched) > maxKeptLists {
		a.touched = nil
	}
	if 4*cap(a.scores) > maxKeptLists {
		a.scores = nil
	}
	ri.mu.Lock()
	if len(ri.free) < maxFreeAccumulators {
		ri.free = append(ri.free, a)
	}
	ri.mu.Unlock()
}

// nextPosting decodes the posting at list[i:] of a sparse postings list (see appendPostings)
// that follows document doc, and returns its document, its impact and where the next posting
// starts; ok is false when the list is malformed there. i must be below len(list)-1. The loops
// that decode every posting share it: the call it costs per posting did not show in
// BenchmarkCorpusSearch (p50 0.241 ms, against 0.246–0.249 ms with the decoding written out in
// each loop).
func nextPosting(list []byte, i int, doc uint32) (next uint32, impact uint8, j int, ok bool) {
	if gap := list[i]; gap < 0x80 {
		return doc + uint32(gap), list[i+1], i + 2, true
	}
	return nextPostingLong(list, i, doc)
}

// nextPostingLong is nextPosting for a gap of more than one byte. nextPosting does not inline
// (a call costs most of the inliner's budget), so the loops that run for most postings of a
// search, add's and addAlternative's, read a one-byte gap themselves and call this for the rest.
func nextPostingLong(list []byte, i int, doc uint32) (next uint32, impact uint8, j int, ok bool) {
	g, k := binary.Uvarint(list[i:])
	if k <= 0 || g > math.MaxUint32 || i+k >= len(list) {
		return 0, 0, 0, false
	}
	return doc + uint32(g), list[i+k], i + k + 1, true
}

// Skip tables. A sparse list is gap coded, so reading any posting reads all those before it, and
// accumulate reads a long list whole whatever a question needs of it. Once the accumulator holds
// its documents, a list only adds to those (growNone); admit takes the others only at impact
// floor or more. So most of a long list's postings add nothing: over the dev questions at 16
// times the corpus, 84% of the postings add read, and up to 79% of those admit read, lie in runs
// of skipRunPostings postings that hold no document the accumulator holds (and, for admit,
// whose highest impact is under the final floor). A skip table, made the second time a search
// reads a long list and kept for the next, gives each run's place, the documents it spans and
// its highest impact, so that such a run is passed over unread: the block-max index of Ding and
// Suel ("Faster top-k document retrieval using block-max indexes", SIGIR 2011), made on demand
// rather than written into rank.idx. A run passed over would have added nothing, so the scores
// are the same. Whether a run holds a document the accumulator holds is asked of the pages it
// made (holdsIn): a page of 64 documents, not each document. At 16 times the corpus, search
// p50 over stdio fell 9–10% (1,000 varied questions; the dev questions) and the serve's heap
// grew by about 1 MB; at the corpus's own size, where a run spans more pages and most of them
// hold a document, it is unchanged. Lists of 4,096 postings or more get a table: with 32,768 (and
// tables made at the first read) the varied questions at 16 times the corpus gained nothing in
// three rounds. The dev questions' tables at 16 times the corpus took 4.2 MB at 16 bytes a run,
// just past maxSkipBytes, and dropping them all there made most of them again: at 12 bytes a
// run, dropping the least recently used, search p50 over stdio there fell from 5.03 to 4.69 ms
// (the same run: 2.33 ms at the corpus's size, unchanged), as fast as with no bound at all.
const (
	skipRunPostings = 128     // postings per run
	minSkipPostings = 4096    // the shortest list given a skip table
	maxSkipBytes    = 4 << 20 // the skip tables a rank index keeps; past it, it drops those used least recently
)

// skipRun is one run of a skip table: where its first posting starts in the list, the document
// before it (what its first gap counts from: 0 for the first run), numbered in the segment, and
// its highest impact. Its last document is the next run's prev (runLast): not keeping it makes
// a table a quarter smaller.
type skipRun struct {
	off, prev uint32
	max       uint8
}

// skipRunBytes is the memory of one skipRun, as skipsOf counts it.
const skipRunBytes = 12

// skipKey names a list of a rank index: its segment and its place in the segment's postings.
type skipKey struct {
	seg int
	off int64
}

// skipsOf returns the skip table of part, whose postings are list, made the second time a search
// reads the list and kept: a list read once, as most of a question's rarer words are, is not
// read twice to make one. It returns nil for a dense list, one shorter than minSkipPostings, a
// list read for the first time, or a malformed one (which the caller's reading reports).
func (ri *rankIndex) skipsOf(part termPart, list []byte) []skipRun {
	if part.list.dense || part.list.df < minSkipPostings {
		return nil
	}
	key := skipKey{part.seg, part.list.off}
	ri.skipMu.Lock()
	ri.skipClock++
	t, seen := ri.skips[key]
	var runs []skipRun
	if seen {
		t.used = ri.skipClock
		runs = t.runs
	} else {
		ri.keepSkips(key, nil) // read once: a table the next time
	}
	ri.skipMu.Unlock()
	if !seen || runs != nil {
		return runs
	}
	if runs = makeSkips(list, uint32(ri.segs[part.seg].docs)); runs != nil {
		ri.skipMu.Lock()
		ri.keepSkips(key, runs)
		ri.skipMu.Unlock()
	}
	return runs
}

// skipSeenBytes is what skipsOf counts for a list read once (a map entry).
const skipSeenBytes = 64

// skipTable is a list's skip table as a rank index keeps it (runs nil: the list was read once)
// and the skipClock of its last use.
type skipTable struct {
	runs []skipRun
	used uint64
}

// size returns the memory skipsOf counts for t.
func (t *skipTable) size() int { return skipSeenBytes + len(t.runs)*skipRunBytes }

// keepSkips keeps runs as key's skip table (nil: the list was read once), within maxSkipBytes:
// past it, the tables used least recently are dropped until what is kept, with runs, takes at
// most three quarters of it, so that a search's common words keep theirs (at 16 times the
// corpus, the dev questions' tables take about 4 MB: dropping them all at the budget, as it
// once did, made them again twice in 1,000 searches). ri.skipMu must be held.
func (ri *rankIndex) keepSkips(key skipKey, runs []skipRun) {
	if ri.skips == nil {
		ri.skips = map[skipKey]*skipTable{}
	}
	t := ri.skips[key]
	if t == nil {
		t = &skipTable{}
	} else {
		ri.skipBytes -= t.size()
		delete(ri.skips, key)
	}
	t.runs, t.used = runs, ri.skipClock
	size := t.size()
	if size > maxSkipBytes {
		return
	}
	if ri.skipBytes+size > maxSkipBytes {
		type kept struct {
			key skipKey
			t   *skipTable
		}
		all := make([]kept, 0, len(ri.skips))
		for k, o := range ri.skips {
			all = append(all, kept{k, o})
		}
		slices.SortFunc(all, func(a, b kept) int { return cmp.Compare(a.t.used, b.t.used) })
		for _, o := range all {
			if ri.skipBytes+size <= maxSkipBytes*3/4 {
				break
			}
			ri.skipBytes -= o.t.size()
			delete(ri.skips, o.key)
		}
	}
	ri.skips[key] = t
	ri.skipBytes += size
}

// makeSkips returns the skip table of a sparse list of a segment of docs documents, or nil when
// the list is malformed or names a document past docs.
func makeSkips(list []byte, docs uint32) []skipRun {
	runs := make([]skipRun, 0, len(list)/(2*skipRunPostings)+1)
	var run skipRun
	var doc uint32
	var impact uint8
	i, n, ok := 0, 0, true
	for i < len(list)-1 {
		if n%skipRunPostings == 0 {
			run = skipRun{off: uint32(i), prev: doc}
		}
		if gap := list[i]; gap < 0x80 {
			doc, impact, i = doc+uint32(gap), list[i+1], i+2
		} else if doc, impact, i, ok = nextPostingLong(list, i, doc); !ok {
			return nil
		}
		if doc >= docs {
			return nil
		}
		run.max = max(run.max, impact)
		if n++; n%skipRunPostings == 0 {
			runs = append(runs, run)
		}
	}
	if i != len(list) {
		return nil
	}
	if n%skipRunPostings != 0 {
		runs = append(runs, run)
	}
	return runs
}

// runEnd returns where run r of runs ends in a list of n bytes: where the next run starts, or n.
func runEnd(runs []skipRun, r, n int) int {
	if r+1 < len(runs) {
		return int(runs[r+1].off)
	}
	return n
}

// runLast returns the last document run r of runs may hold in a segment of docs documents: the
// document the next run counts from, which is its last; for the last run, the segment's last.
func runLast(runs []skipRun, r int, docs uint32) uint32 {
	if r+1 < len(runs) {
		return runs[r+1].prev
	}
	return docs - 1
}

// heldEnd returns the end of the last page a made (madeBits) among those of [lo, hi], the
// documents past which a holds none of [lo, hi]; 0 when it made none of them.
func (a *accumulator) heldEnd(lo, hi uint32) uint32 {
	first, last := lo>>accPageShift, hi>>accPageShift
	for w := last / 64; w >= first/64; w-- {
		made := a.madeBits[w]
		if w == first/64 {
			made &= ^uint64(0) << (first % 64)
		}
		if w == last/64 {
			made &= ^uint64(0) >> (63 - last%64)
		}
		if made != 0 {
			page := w*64 + uint32(63-bits.LeadingZeros64(made))
			return (page + 1) << accPageShift
		}
		if w == 0 {
			break
		}
	}
	return 0
}

// holdsIn reports whether a may hold a document of [lo, hi]: whether it made a page of one
// (madeBits), which a search does only for the documents it holds.
func (a *accumulator) holdsIn(lo, hi uint32) bool {
	return a.heldEnd(lo, hi) != 0
}

// addHeld is add with growNone for a list with a skip table (runs): it adds to the documents a
// holds, reading only the runs that span one of them.
func (ri *rankIndex) addHeld(a *accumulator, seg int, list []byte, runs []skipRun, weight float32) {
	scale := weight / 255
	base, docs := ri.docBase[seg], uint32(ri.segs[seg].docs)
	pages := a.pages
	for r, run := range runs {
		if end := a.heldEnd(base+run.prev, base+runLast(runs, r, docs)); end != 0 {
			addRunHeld(pages, list[:runEnd(runs, r, len(list))], run, base, end, scale)
		}
	}
}

// addRunHeld adds scale·impact for the postings of run, a run of a list's skip table (list cut
// at the run's end), to the documents the accumulator of pages holds, reading no further than
// end (heldEnd: it holds none from there); base numbers the list's documents over the snapshot.
// makeSkips read the run whole, so it is well formed.
func addRunHeld(pages []*accPage, list []byte, run skipRun, base, end uint32, scale float32) {
	doc := run.prev
	var impact uint8
	for i := int(run.off); i < len(list)-1; {
		if gap := list[i]; gap < 0x80 {
			doc, impact, i = doc+uint32(gap), list[i+1], i+2
		} else {
			doc, impact, i, _ = nextPostingLong(list, i, doc)
		}
		g := base + doc
		if g >= end {
			return
		}
		p := pages[g>>accPageShift]
		m := p.matched[g&accPageMask]
		if m == 0 {
			continue
		}
		if m < math.MaxUint8 {
			p.matched[g&accPageMask] = m + 1
		}
		p.score[g&accPageMask] += scale * float32(impact)
	}
}

// add adds weight·impact/255 for every posting of list, a list of segment seg, to a, for
// documents keep accepts (all when keep is nil): to the documents a holds, and to the others of
// impact growAt or more (growAll or growNone). It returns false on a
// malformed list.
func (ri *rankIndex) add(a *accumulator, seg int, list []byte, weight float32, keep *docFilter, growAt int) bool {
	scale := weight / 255
	base, docs := ri.docBase[seg], uint32(ri.segs[seg].docs)
	pages := a.pages
	var doc uint32 // the first gap is the first document itself
	var impact uint8
	i, ok := 0, true
	for i < len(list)-1 {
		if gap := list[i]; gap < 0x80 { // nextPosting, inlined
			doc, impact, i = doc+uint32(gap), list[i+1], i+2
		} else if doc, impact, i, ok = nextPostingLong(list, i, doc); !ok {
			return false
		}
		if doc >= docs {
			return false
		}
		g := base + doc
		p := pages[g>>accPageShift]
		m := p.matched[g&accPageMask]
		if m == 0 {
			if int(impact) < growAt || !keep.keep(g) {
				continue
			}
			p = a.touch(g)
		}
		if m < math.MaxUint8 {
			p.matched[g&accPageMask] = m + 1
		}
		p.score[g&accPageMask] += scale * float32(impact)
	}
	return i == len(list)
}

// denseAt looks document doc (numbered in its segment) up in a dense list (see appendDense) cut
// into its words, ranks and impacts: its impact, whether the list holds it, and false for ok
// when the list's ranks point past its impacts. The impact's index is the number of documents
// before doc: the rank of doc's group of denseRankWords words plus the bits before it.
func denseAt(words, ranks, impacts []byte, doc uint32) (impact uint8, has, ok bool) {
	le := binary.LittleEndian
	w := int(doc / 64)
	word, bit := le.Uint64(words[8*w:]), uint64(1)<<(doc%64)
	if word&bit == 0 {
		return 0, false, true
	}
	first := w - w%denseRankWords
	r := int(le.Uint32(ranks[4*(first/denseRankWords):]))
	for j := first; j < w; j++ {
		r += bits.OnesCount64(le.Uint64(words[8*j:]))
	}
	r += bits.OnesCount64(word & (bit - 1))
	if r >= len(impacts) {
		return 0, false, false
	}
	return impacts[r], true, true
}

// forEachHeldDense calls fn with each document a holds that segment seg's dense list (see
// appendDense) holds, numbered over the snapshot, and its impact: it tests the bits of the
// documents held rather than walking the list. It returns false when the list is malformed.
func (ri *rankIndex) forEachHeldDense(a *accumulator, seg int, list []byte, fn func(g uint32, impact uint8)) bool {
	docs := ri.segs[seg].docs
	nw, nr := denseWords(docs), denseRanks(docs)
	if len(list) < 8*nw+4*nr {
		return false
	}
	words, ranks, impacts := list[:8*nw], list[8*nw:8*nw+4*nr], list[8*nw+4*nr:]
	base, end := ri.docBase[seg], ri.docBase[seg+1]
	for _, g := range a.touched {
		if g < base || g >= end {
			continue
		}
		impact, has, ok := denseAt(words, ranks, impacts, g-base)
		if !ok {
			return false
		}
		if has {
			fn(g, impact)
		}
	}
	return true
}

// addDense is add for a dense list (see appendDense). Adding only to documents a holds, it
// tests their bits — a few thousand documents rather than a list of tens of thousands.
func (ri *rankIndex) addDense(a *accumulator, seg int, list []byte, weight float32, keep *docFilter, grow bool) bool {
	scale := weight / 255
	if !grow {
		return ri.forEachHeldDense(a, seg, list, func(g uint32, impact uint8) {
			p := a.pages[g>>accPageShift] // a document touched has its page
			if m := p.matched[g&accPageMask]; m < math.MaxUint8 {
				p.matched[g&accPageMask] = m + 1
			}
			p.score[g&accPageMask] += scale * float32(impact)
		})
	}
	base := ri.docBase[seg]
	ok := forEachDense(list, ri.segs[seg].docs, func(doc uint32, impact uint8) {
		g := base + doc
		p := a.pages[g>>accPageShift]
		m := p.matched[g&accPageMask]
		if m == 0 {
			if !keep.keep(g) {
				return
			}
			p = a.touch(g)
		}
		if m < math.MaxUint8 {
			p.matched[g&accPageMask] = m + 1
		}
		p.score[g&accPageMask] += scale * float32(impact)
	})
	return ok
}

// forEachIn calls fn for the (document, impact) pairs of l's lists, as read into bufs (one per
// part), whose documents, numbered over the snapshot, are in [lo, hi): in the order of forEach,
// without reading the lists again, each part as postingsIn reads it. It reports whether the
// parts read were well formed.
func (ri *rankIndex) forEachIn(l termList, bufs [][]byte, lo, hi uint32, fn func(doc uint32, impact uint8)) bool {
	for j, part := range l.parts {
		if !ri.postingsIn(part, bufs[j], lo, hi, fn) {
			return false
		}
	}
	return true
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

// numberRuns finds the runs of documents of one package version in ri.segs (see runStart), which
// ri.docBase and ri.pkgBase number, and indexes them by chunk (chunkRun).
func (ri *rankIndex) numberRuns() {
	le := binary.LittleEndian
	ri.runStart, ri.runPkg, ri.runSeg = nil, nil, nil
	for i, seg := range ri.segs {
		base, at := ri.pkgBase[i], ri.docBase[i]
		for d := range seg.docs {
			p := base + le.Uint32(seg.docPkg[4*d:])
			if n := len(ri.runPkg); d == 0 || ri.runPkg[n-1] != p {
				ri.runStart, ri.runPkg, ri.runSeg = append(ri.runStart, at+uint32(d)), append(ri.runPkg, p), append(ri.runSeg, uint32(i))
			}
		}
	}
	ri.runStart = append(ri.runStart, uint32(ri.docs))
	ri.chunkRun = make([]uint32, (ri.docs+runChunk-1)/runChunk+1)
	for r := range len(ri.runPkg) {
		for c := (ri.runStart[r] + runChunk - 1) / runChunk; c*runChunk < ri.runStart[r+1]; c++ {
			ri.chunkRun[c] = uint32(r)
		}
	}
	ri.chunkRun[len(ri.chunkRun)-1] = uint32(max(len(ri.runPkg)-1, 0))
}

// runChunk is how many documents share an entry of chunkRun.
const runChunk = 256

// run returns the run of documents of one package version that holds doc (see runStart), doc
// below ri.docs: a binary search among the runs of doc's chunk.
func (ri *rankIndex) run(doc uint32) int {
	lo, hi := int(ri.chunkRun[doc/runChunk]), int(ri.chunkRun[doc/runChunk+1])
	// The last run of [lo, hi] that starts at or before doc.
	for lo < hi {
		m := int(uint(lo+hi+1) >> 1)
		if ri.runStart[m] <= doc {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

// pkgOf returns the package version of document doc.
func (ri *rankIndex) pkgOf(doc uint32) uint32 { return ri.runPkg[ri.run(doc)] }

// orderOf returns doc's place in the order of (package key, version, ID) (see runOrder).
func (ri *rankIndex) orderOf(doc uint32) uint32 {
	r := ri.run(doc)
	return ri.runOrder[r] + doc - ri.runStart[r]
}

// docKind returns doc's kind byte: bit 7 set for symbols, the rest an index into kinds; and
// whether doc is a symbol without a doc comment (false in a snapshot written before rank.idx
// said so), from its segment's docflags.
func (ri *rankIndex) docKind(doc uint32) (kind uint8, undocumented bool) {
	s := ri.runSeg[ri.run(doc)]
	return ri.segKind(s, doc-ri.docBase[s])
}

// segKind is docKind for document local of segment s.
func (ri *rankIndex) segKind(s uint32, local uint32) (kind uint8, undocumented bool) {
	seg := ri.segs[s]
	k := seg.docKind[local]
	if seg.docFlags != nil {
		undocumented = seg.docFlags[local/8]&(1<<(local%8)) != 0
	}
	return ri.kindMap[s][k&0x7f] | k&0x80, undocumented
}

// pkgKey returns "ecosystem\x00name" of package version p.
func (ri *rankIndex) pkgKey(p uint32) string { return ri.pkgs[p] }

func (ri *rankIndex) isSymbol(doc uint32) bool {
	k, _ := ri.docKind(doc)
	return k&0x80 != 0
}

func (ri *rankIndex) kindOf(doc uint32) string {
	k, _ := ri.docKind(doc)
	return ri.kinds[k&0x7f]
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

// hitRecord is what a hit is made of: its document's Bleve ID (its page URI, with "#n" for
// sections) and the stored fields fSTitle, fSSection, fSText and fSURI.
type hitRecord struct {
	id, title, section, text, uri string
}

// bleveStored reads into rec the ID and the stored hit fields of document number num of ir, or
// leaves rec.id "" when ir holds no such document. The values are copied into one string, by
// way of buf (scratch storage, returned for reuse): a string and an interface value for each
// field of each hit were a third of what a served search allocated.
func bleveStored(ir index.IndexReader, num uint64, rec *hitRecord, buf []byte) ([]byte, error) {
	*rec = hitRecord{}
	var spans [5][2]int // of the ID and each field in buf; {-1, -1} for none
	for i := range spans {
		spans[i] = [2]int{-1, -1}
	}
	buf = buf[:0]
	visit := func(name string, _ byte, value []byte, _ []uint64) bool {
		f := -1
		switch name {
		case "_id":
			f = 0
		case fSTitle:
			f = 1
		case fSSection:
			f = 2
		case fSText:
			f = 3
		case fSURI:
			f = 4
		}
		if f >= 0 {
			// A field given twice keeps its last value, as a map of them would.
			start := len(buf)
			buf = append(buf, value...)
			spans[f] = [2]int{start, len(buf)}
		}
		return true
	}
	found := false
	if is, ok := ir.(*scorch.IndexSnapshot); ok {
		// The segment holding num, as scorch numbers documents: each segment's after the
		// documents (deleted ones too) of those before it.
		base := uint64(0)
		for _, seg := range is.Segments() {
			n := seg.Segment().Count()
			if num < base+n {
				if seg.Deleted() != nil && seg.Deleted().Contains(uint32(num-base)) {
					return buf, nil
				}
				if err := seg.VisitDocument(num-base, visit); err != nil {
					return buf, err
				}
				found = true
				break
			}
			base += n
		}
	} else {
		// Another index type: by ID, through Bleve's interface.
		iid := make(index.IndexInternalID, 8)
		binary.BigEndian.PutUint64(iid, num)
		ext, err := ir.ExternalID(iid)
		if err != nil || ext == "" {
			return buf, nil
		}
		d, err := ir.Document(ext)
		if err != nil || d == nil {
			return buf, err
		}
		d.VisitFields(func(f index.Field) { visit(f.Name(), 0, f.Value(), nil) })
		start := len(buf)
		buf = append(buf, ext...)
		spans[0] = [2]int{start, len(buf)}
		found = true
	}
	if !found {
		return buf, nil
	}
	all := string(buf)
	field := func(f int) string {
		if spans[f][0] < 0 {
			return ""
		}
		return all[spans[f][0]:spans[f][1]]
	}
	*rec = hitRecord{id: field(0), title: field(1), section: field(2), text: field(3), uri: field(4)}
	return buf, nil
}
