package index

// rank.go writes the ranking index (rank.idx) of a segment: an impact index derived from the
// segment's Bleve index when the segment is built, which answers searches by adding up
// precomputed per-term scores in a flat array instead of walking Bleve's searchers. A question of
// five words over a quarter of a million documents touches some 100,000 postings; Bleve's
// searchers spend about 100 ns on each, a loop over a byte slice a few.
//
// Scores follow BM25F (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple
// weighted fields", CIKM 2004): a term's frequency in each field is weighted, normalized by the
// field's length against a fixed pivot (fieldWeights) and summed before one saturation. The
// saturation depends on the document alone, so it is stored per posting as an impact; the idf,
// which depends on the collection, is computed at query time from the document frequencies of
// every segment of the snapshot (see rankread.go), so that a snapshot of many segments ranks
// exactly as one of a single segment (as Lucene's IndexSearcher sums its segments' statistics).
// The words are those of Bleve's analyzers, run once per field as the segment is built
// (rankbuild.go); search.bleve keeps only the stored fields the hits are read from.
//
// The file (little-endian; every section starts 8-byte aligned):
//
//	header   "DOCIDXR6", u32 docs, packages, kinds, terms, exact names, term blocks, u32 number
//	         of sections, then per section its name (8 bytes, NUL-padded), u64 offset and u64
//	         length: sections are found by name, never by position
//	docpkg   u32 per document: its package version (an index into pkgs)
//	dockind  u8 per document: bit 7 set for symbols, the rest an index into kinds
//	pkgs     string table of "ecosystem\x00name\x00version" per package version
//	kinds    string table of document kinds ("readme", "func" …)
//	exact    string table of exact package names (the pkgexact field), sorted; then u64 offsets
//	         of each name's postings in the postings section (names+1 of them)
//	blocks   the term dictionary's index: u64 offset of each term block in dict (blocks+1 of
//	         them), then a string table of each block's first term
//	dict     the terms, sorted, in blocks of termBlock: per term a uvarint length and bytes, u32
//	         document frequency, uvarint offset and uvarint length<<1|dense of its postings in
//	         the postings section; the first terms are symbol names ("\x01" and a symbol's own
//	         name lowercased, or as written when it has capitals). A term's ordinal is its
//	         position in dict.
//	docflags a bitmap of u64 words, bit d%64 of word d/64 set when document d is a symbol
//	         without a doc comment (the undoc field). Optional: a file without it (written
//	         before it existed) has every document documented.
//	docnums  u32 per document: its document number in the segment's search.bleve; empty when
//	         document d is Bleve's document d, as it is in an index built at once and merged
//	pkgterms per package version, the terms its documents hold and in how many of them: u64
//	         offsets (packages+1) into the rest of the section, then per package (uvarint
//	         ordinal gap, uvarint documents) pairs in ordinal order. A snapshot subtracts these
//	         from the document frequencies when the version is no longer searched as latest.
//	postings per term or name: (uvarint document gap, u8 impact) pairs in document order; the
//	         impact is the term's BM25F saturation wtf/(k1+wtf) quantized to 1..255. A list of
//	         one in 16 documents or more is dense instead (see appendDense): a bitmap of u64
//	         words, a u32 rank per 8 words, then the impacts. The dictionary's length of a list
//	         is shifted left one bit, the low bit set for a dense list.
//	fuzzall, fuzzname  the spelling dictionaries: the words of the all and name fields, each
//	         with the number of documents holding it there, as a vellum FST (the format of
//	         Bleve's own dictionaries), which spelling corrections search with a Levenshtein
//	         automaton. Optional: without them (format 5) the corrections read search.bleve's.
//	cased    empty: present when the symbol names' entries include the names as written with
//	         capitals (see symbolNamePrefix). A file without it (written before) holds the
//	         lowercased names only, and a name written with capitals names all its symbols.
//	crc      the last 4 bytes: CRC-32C (Castagnoli) of everything before, checked before the
//	         first search of a Reader reads the file (Open checks the layout above only).
//
// A hit's text (title, section, passage text, URI) is not in the file: it is read from
// search.bleve's stored fields, the one copy of it in a snapshot, by the document's number
// there (see rankSegment.storedHit).
//
// A string table is u32 count, u32 offsets (count+1, from the end of the offsets), then bytes.
//
// A reader maps the file read-only (see rankSegment) and reads every section in place: a term
// block or a postings list costs no system call and no copy, and the file's pages are the page
// cache's, shared between the processes serving one snapshot, never the server's own memory.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"os"
	"strings"
)

// RankFile is the name of the ranking index in a snapshot directory.
const RankFile = "rank.idx"

// rankMagic starts a rank index of the layout above. Files of earlier layouts ("DOCIDXR3" to
// "DOCIDXR5", with the idf in place of the document frequency and positional sections) belong
// to snapshots of formats 1 and 2, which Open refuses (see FormatVersion).
const rankMagic = "DOCIDXR6"

// Section names of rank.idx, in file order.
const (
	secDocPkg   = "docpkg"
	secDocKind  = "dockind"
	secPkgs     = "pkgs"
	secKinds    = "kinds"
	secExact    = "exact"
	secBlocks   = "blocks"
	secDict     = "dict"
	secDocNums  = "docnums"
	secDocFlags = "docflags"
	secPkgTerms = "pkgterms"
	secPostings = "postings"
	secFuzzAll  = "fuzzall"
	secFuzzName = "fuzzname"
	secCased    = "cased"
)

// rankSectionNames are the sections a rank index holds, in file order.
var rankSectionNames = [...]string{secDocPkg, secDocKind, secPkgs, secKinds, secExact, secBlocks, secDict, secDocNums, secPkgTerms, secPostings, secDocFlags, secFuzzAll, secFuzzName, secCased}

// optionalSections are the sections a rank index may lack, written since a later version: the
// spelling dictionaries since format 6, before which they were read from search.bleve, and
// cased, an empty section whose presence says that the symbol names' entries include the names
// as written (see symbolNamePrefix).
var optionalSections = map[string]bool{secDocFlags: true, secFuzzAll: true, secFuzzName: true, secCased: true}

// termBlock is how many terms share a dictionary block: one pread of about 2 KB finds a term.
const termBlock = 64

// posting is one document holding a term, with its impact: the term's BM25F saturation there,
// quantized (see quantize); 255 in lists that rank nothing (symbol and exact names).
type posting struct {
	doc    uint32
	impact uint8
}

type rankBuilder struct {
	ids     []string // rank.idx document number -> its ID
	nums    []uint32 // rank.idx document number -> Bleve's, when they differ
	docPkg  []uint32
	docKind []uint8
	undoc   []uint64 // the docflags bitmap
	pkgs    []string
	kinds   []string

	nterms     int
	dict       []byte   // term blocks
	blockOffs  []uint64 // per block (+1), into dict
	blockFirst []string // per block, its first term
	exact      []string
	exactOffs  []uint64
	postings   []byte
	// pkgTerms holds, per package version, (term ordinal, documents) pairs in ordinal order.
	pkgTerms [][][2]uint32
	// fuzzy holds the spelling dictionaries of fuzzyFields, as vellum FSTs.
	fuzzy [len(fuzzyFields)][]byte

	// spilled holds, for a file merged from runs (see mergeRuns), the sections written to
	// temporary files rather than held in memory, by name: dict, postings, the fuzzy
	// dictionaries and the pairs of pkgterms, whose offsets are then pkgTermOffs. write copies
	// them in place of the fields above.
	spilled     map[string]*spillFile
	pkgTermOffs []uint64
}

// addTerm appends a term, in order, to the dictionary and its postings to the postings section.
func (b *rankBuilder) addTerm(term string, list []posting) {
	if b.nterms%termBlock == 0 {
		b.blockOffs = append(b.blockOffs, uint64(len(b.dict)))
		b.blockFirst = append(b.blockFirst, term)
	}
	b.nterms++
	start := len(b.postings)
	var size uint64
	b.postings, size = encodeList(b.postings, list, len(b.ids))
	b.dict = appendDictEntry(b.dict, []byte(term), len(list), uint64(start), size)
}

// encodeList appends list, in document order, to dst as the postings of a rank index of docs
// documents, dense or not as isDense says, and returns its dictionary length: its bytes
// shifted left one bit, the low bit set when it is dense.
func encodeList(dst []byte, list []posting, docs int) ([]byte, uint64) {
	start := len(dst)
	dense := isDense(len(list), docs)
	if dense {
		dst = appendDense(dst, list, docs)
	} else {
		dst = appendPostings(dst, list)
	}
	size := uint64(len(dst)-start) << 1
	if dense {
		size |= 1
	}
	return dst, size
}

// appendDictEntry appends a dictionary entry to dict: the term, its document frequency df and
// where its postings are (off, and size as encodeList returns it). dictEntry reads it.
func appendDictEntry(dict, term []byte, df int, off, size uint64) []byte {
	dict = binary.AppendUvarint(dict, uint64(len(term)))
	dict = append(dict, term...)
	dict = binary.LittleEndian.AppendUint32(dict, uint32(df))
	dict = binary.AppendUvarint(dict, off)
	return binary.AppendUvarint(dict, size)
}

// isDense reports whether a list of df of docs documents is written dense: one in 16
// documents or more, where the bitmap costs at most half again the bytes of the gaps.
func isDense(df, docs int) bool { return docs >= 1024 && df*16 >= docs }

// denseWords and denseRanks are the sizes of a dense list's bitmap (u64 words) and rank
// directory (a u32 per denseRankWords words) for docs documents.
func denseWords(docs int) int { return (docs + 63) / 64 }
func denseRanks(docs int) int { return (denseWords(docs) + denseRankWords - 1) / denseRankWords }

const denseRankWords = 8

// appendDense encodes list (in document order) dense: a bitmap of its documents, the number of
// documents before each run of denseRankWords words, and the impacts in document order. A
// search that only adds to documents it already holds then tests their bits, rather than
// reading the whole list.
func (b *rankBuilder) appendDense(list []posting) {
	b.postings = appendDense(b.postings, list, len(b.ids))
}

// appendDense appends list, in document order, to dst as a dense list of a rank index of docs
// documents (see rankBuilder.appendDense).
func appendDense(dst []byte, list []posting, docs int) []byte {
	words := make([]uint64, denseWords(docs))
	for _, p := range list {
		words[p.doc/64] |= 1 << (p.doc % 64)
	}
	le := binary.LittleEndian
	for _, w := range words {
		dst = le.AppendUint64(dst, w)
	}
	n := uint32(0)
	for i := 0; i < len(words); i += denseRankWords {
		dst = le.AppendUint32(dst, n)
		for _, w := range words[i:min(i+denseRankWords, len(words))] {
			n += uint32(bits.OnesCount64(w))
		}
	}
	for _, p := range list {
		dst = append(dst, p.impact)
	}
	return dst
}

// symbolNamePrefix marks the dictionary's entries for symbol names: "\x01" plus a symbol's own
// name lowercased ("\x01usestate" for react.useState), listing the symbols of that name, and
// for a name with capitals "\x01" plus the name as written ("\x01useState"), listing those
// that write it so. They sort before every word.
const symbolNamePrefix = "\x01"

// ownName returns the last part of a qualified name as written ("useState" of
// "react.useState", "push" of "acme_ring::Ring::push"), a Rust macro's without its "!", as
// rustdoc's search finds it and as questions call it ("pin" of "tokio::pin!"). The symbol
// names' entries hold it lowercased, and as written when it has capitals.
func ownName(qualified string) string {
	qualified = strings.TrimSuffix(qualified, "!")
	return qualified[strings.LastIndexAny(qualified, ".:/")+1:]
}

// quantize maps a saturation in [0, 1) to an impact byte 1..255.
func quantize(s float64) uint8 { return uint8(max(1, min(255, math.Round(s*255)))) }

// appendPostings encodes list (in document order) into the postings section.
func (b *rankBuilder) appendPostings(list []posting) { b.postings = appendPostings(b.postings, list) }

// appendPostings appends list, in document order, to dst as a sparse list: (uvarint document
// gap, u8 impact) pairs, the first gap the first document itself.
func appendPostings(dst []byte, list []posting) []byte {
	prev := uint32(0)
	for i, p := range list {
		gap := p.doc - prev
		if i == 0 {
			gap = p.doc
		}
		dst = binary.AppendUvarint(dst, uint64(gap))
		dst = append(dst, p.impact)
		prev = p.doc
	}
	return dst
}

// write writes the file and syncs it.
func (b *rankBuilder) write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer f.Close()
	crc := crc32.New(castagnoli)
	w := &offsetWriter{w: bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)}
	le := binary.LittleEndian
	align := func() {
		for w.n%8 != 0 {
			w.write([]byte{0})
		}
	}
	u32 := func(v uint32) { w.write(le.AppendUint32(nil, v)) }
	u64 := func(v uint64) { w.write(le.AppendUint64(nil, v)) }
	table := func(ss []string) {
		u32(uint32(len(ss)))
		off := uint32(0)
		u32(0)
		for _, s := range ss {
			off += uint32(len(s))
			u32(off)
		}
		for _, s := range ss {
			w.write([]byte(s))
		}
	}
	// The section directory is laid out first, with every offset and length, so that the
	// checksum covers the file as written in one pass.
	var pkgTerms []byte
	pkgTermOffs := b.pkgTermOffs
	if b.spilled[secPkgTerms] == nil {
		pkgTermOffs = make([]uint64, 0, len(b.pkgTerms)+1)
		for _, pairs := range b.pkgTerms {
			pkgTermOffs = append(pkgTermOffs, uint64(len(pkgTerms)))
			prev := uint32(0)
			for _, pr := range pairs {
				pkgTerms = binary.AppendUvarint(pkgTerms, uint64(pr[0]-prev))
				pkgTerms = binary.AppendUvarint(pkgTerms, uint64(pr[1]))
				prev = pr[0]
			}
		}
		pkgTermOffs = append(pkgTermOffs, uint64(len(pkgTerms)))
	}
	// A section's bytes: in memory, or in a file spilled to.
	held := map[string][]byte{secDict: b.dict, secPostings: b.postings, secPkgTerms: pkgTerms, secFuzzAll: b.fuzzy[0], secFuzzName: b.fuzzy[1]}
	heldSize := func(name string) int {
		if f := b.spilled[name]; f != nil {
			return int(f.n)
		}
		return len(held[name])
	}
	writeHeld := func(name string) {
		if f := b.spilled[name]; f != nil {
			w.copyFrom(f)
			return
		}
		w.write(held[name])
	}
	tableSize := func(ss []string) int {
		n := 4 + 4*(len(ss)+1)
		for _, s := range ss {
			n += len(s)
		}
		return n
	}
	pad := func(n int) int { return (n + 7) &^ 7 }
	sizes := map[string]int{
		secDocPkg:   4 * len(b.docPkg),
		secDocKind:  len(b.docKind),
		secPkgs:     tableSize(b.pkgs),
		secKinds:    tableSize(b.kinds),
		secExact:    pad(tableSize(b.exact)) + 8*len(b.exactOffs),
		secBlocks:   8*len(b.blockOffs) + tableSize(b.blockFirst),
		secDict:     heldSize(secDict),
		secDocNums:  4 * len(b.nums),
		secPkgTerms: 8*len(pkgTermOffs) + heldSize(secPkgTerms),
		secPostings: heldSize(secPostings),
		secDocFlags: 8 * len(b.undoc),
		secFuzzAll:  heldSize(secFuzzAll),
		secFuzzName: heldSize(secFuzzName),
		secCased:    0,
	}
	at := pad(len(rankMagic) + 4*7 + len(rankSectionNames)*24)
	w.write([]byte(rankMagic))
	for _, v := range []int{len(b.docPkg), len(b.pkgs), len(b.kinds), b.nterms, len(b.exact), len(b.blockFirst), len(rankSectionNames)} {
		u32(uint32(v))
	}
	for _, name := range rankSectionNames {
		var n [8]byte
		copy(n[:], name)
		w.write(n[:])
		u64(uint64(at))
		u64(uint64(sizes[name]))
		at = pad(at + sizes[name])
	}
	section := func(name string, write func()) {
		align()
		start := w.n
		write()
		if w.err == nil && w.n-start != int64(sizes[name]) {
			w.err = fmt.Errorf("section %s is %d bytes, %d laid out", name, w.n-start, sizes[name])
		}
	}
	section(secDocPkg, func() {
		for _, p := range b.docPkg {
			u32(p)
		}
	})
	section(secDocKind, func() { w.write(b.docKind) })
	section(secPkgs, func() { table(b.pkgs) })
	section(secKinds, func() { table(b.kinds) })
	section(secExact, func() {
		table(b.exact)
		align()
		for _, o := range b.exactOffs {
			u64(o)
		}
	})
	section(secBlocks, func() {
		for _, o := range b.blockOffs {
			u64(o)
		}
		table(b.blockFirst)
	})
	section(secDict, func() { writeHeld(secDict) })
	section(secDocNums, func() {
		for _, n := range b.nums {
			u32(n)
		}
	})
	section(secPkgTerms, func() {
		for _, o := range pkgTermOffs {
			u64(o)
		}
		writeHeld(secPkgTerms)
	})
	section(secPostings, func() { writeHeld(secPostings) })
	section(secDocFlags, func() {
		for _, word := range b.undoc {
			u64(word)
		}
	})
	section(secFuzzAll, func() { writeHeld(secFuzzAll) })
	section(secFuzzName, func() { writeHeld(secFuzzName) })
	section(secCased, func() {})
	align()
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err == nil {
		_, w.err = f.Write(le.AppendUint32(nil, crc.Sum32()))
	}
	if w.err == nil {
		w.err = f.Sync()
	}
	if w.err != nil {
		return fmt.Errorf("index: writing %s: %w", path, w.err)
	}
	return f.Close()
}

// castagnoli is the CRC-32C table of rank.idx's checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// offsetWriter writes through w, counting bytes and keeping the first error.
type offsetWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (o *offsetWriter) write(p []byte) {
	if o.err != nil {
		return
	}
	n, err := o.w.Write(p)
	o.n += int64(n)
	o.err = err
}

// copyFrom writes the f.n bytes of f from its start.
func (o *offsetWriter) copyFrom(f *spillFile) {
	if o.err != nil {
		return
	}
	n, err := io.Copy(o.w, io.NewSectionReader(f.f, 0, f.n))
	o.n += n
	if err == nil && n != f.n {
		err = fmt.Errorf("%s: %d bytes read of %d", f.f.Name(), n, f.n)
	}
	o.err = err
}
