package index

// rank.go writes the ranking index (rank.idx): an impact index derived from the latest-versions
// Bleve index at commit, which answers plain searches by adding up precomputed per-term scores
// in a flat array instead of walking Bleve's searchers. A question of five words over a quarter
// of a million documents touches some 100,000 postings; Bleve's searchers spend about 100 ns on
// each, a loop over a byte slice a few.
//
// Scores follow BM25F (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple
// weighted fields", CIKM 2004): a term's frequency in each field is weighted, normalized by the
// field's length and summed before one saturation, so a word in a symbol's name counts more than
// the same word in prose without a document that repeats it in every field running away.
// Bleve's analysis is the only analysis: terms and their frequencies and field lengths are read
// back from Bleve's postings, so the two indexes cannot disagree on what a word is.
//
// The file (little-endian; every section starts 8-byte aligned):
//
//	header   "DOCIDXR5", then u32 docs, packages, kinds, terms, exact names, term blocks, then
//	         the u64 offsets of the sections below in this order
//	docPkg   u32 per document: its package (an index into packages)
//	docKind  u8 per document: bit 7 set for symbols, the rest an index into kinds
//	pkgs     string table of "ecosystem\x00name" per package
//	kinds    string table of document kinds ("readme", "func" …)
//	exact    string table of exact package names (the pkgexact field), sorted; then u64 offsets
//	         of each name's postings in the postings section (names+1 of them)
//	blocks   the term dictionary's index: u64 offset of each term block in dict (blocks+1 of
//	         them), then a string table of each block's first term
//	dict     the terms, sorted, in blocks of termBlock: per term a uvarint length and bytes, f32
//	         idf, uvarint offset and uvarint length<<1|dense of its postings in the postings section; the
//	         first terms are symbol names ("\x01" and a symbol's own name lowercased, idf 0)
//	docNums  u32 per document: its document number in search.bleve; empty when document d is
//	         Bleve's document d, as it is in an index built at once and merged
//	postings per term or name: (uvarint document gap, u8 impact) pairs in document order; the
//	         impact is the term's BM25F saturation wtf/(k1+wtf) quantized to 1..255 (idf apart).
//	         A list of one in 16 documents or more is dense instead (see appendDense): a bitmap
//	         of u64 words, a u32 rank per 8 words, then the impacts. The dictionary's length of
//	         a list is shifted left one bit, the low bit set for a dense list.
//
// A hit's text (title, section, passage text, URI) is not in the file: it is read from
// search.bleve's stored fields, the one copy of it in a snapshot, by the document's number
// there (see rankIndex.storedHit). Layouts before "DOCIDXR5" held a copy of it here: in place
// of docNums, hitOffs (u64 per document (+1): offsets of its record in hits) and hits (per
// document its Bleve ID and the stored fields, each a uvarint length and bytes); they are
// still read, and their own copy is used.
//
// A string table is u32 count, u32 offsets (count+1, from the end of the offsets), then bytes.
//
// A reader holds the header, docPkg, docKind, pkgs, kinds, exact, blocks and docNums in memory
// (about 3 MB for 300,000 documents) and reads a term block or a postings list with one pread
// each: nothing of the file is mapped, so its pages count toward the page cache,
// not toward the server's memory.

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/docidx/docidx"
)

// RankFile is the name of the ranking index in a snapshot directory.
const RankFile = "rank.idx"

// rankMagic starts a rank index. rankMagicHits is the previous layout, the same but for a
// copy of every hit's text (hitOffs and hits in place of docNums); rankMagicRawText the one
// before, as rankMagicHits but for hit texts spooled as stored in Bleve and for lists that are
// never dense (the dictionary's lengths are not shifted).
const (
	rankMagic        = "DOCIDXR5"
	rankMagicHits    = "DOCIDXR4"
	rankMagicRawText = "DOCIDXR3"
)

// rankSections is the number of sections of the current layout, rankSectionsHits of the
// layouts with hit records.
const (
	rankSections     = 9
	rankSectionsHits = 10
)

// writeLegacy makes buildRank write the oldest layout still read (rankMagicRawText), for tests
// that check it is still read.
var writeLegacy = false

// termBlock is how many terms share a dictionary block: one pread of about 2 KB finds a term.
const termBlock = 64

// posting is one document holding a term, with its weighted frequency.
type posting struct {
	doc uint32
	wtf float64
}

// buildRank writes the ranking index of idx (the latest-versions index, merged) to path.
func buildRank(ctx context.Context, idx bleve.Index, spool *hitSpool, path string) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	ir, err := adv.Reader()
	if err != nil {
		return err
	}
	defer ir.Close()

	b := &rankBuilder{ir: ir, spool: spool, pkgOrd: map[string]uint32{}, kindOrd: map[string]uint8{}}
	if err := b.documents(ctx); err != nil {
		return err
	}
	b.symbolNames() // before the words: "\x01…" sorts first
	if err := b.terms(ctx); err != nil {
		return err
	}
	if err := b.exactNames(ctx); err != nil {
		return err
	}
	if writeLegacy {
		b.hitRecords()
	}
	return b.write(path)
}

type rankBuilder struct {
	ir    index.IndexReader
	spool *hitSpool

	ords    []uint32 // Bleve's internal document number -> rank.idx document number
	ids     []string
	nums    []uint32 // rank.idx document number -> Bleve's, when they differ
	docPkg  []uint32
	docKind []uint8
	pkgs    []string
	pkgOrd  map[string]uint32
	kinds   []string
	kindOrd map[string]uint8

	nterms     int
	dict       []byte   // term blocks
	blockOffs  []uint64 // per block (+1), into dict
	blockFirst []string // per block, its first term
	exact      []string
	exactOffs  []uint64
	postings   []byte
	hitOffs    []uint64 // per document (+1), into the hits section (legacy layout only)
}

// hitRecords lays out each document's spooled stored fields in document order, for the legacy
// layout; write copies them from the spool.
func (b *rankBuilder) hitRecords() {
	b.hitOffs = make([]uint64, 0, len(b.ids)+1)
	off := uint64(0)
	for _, id := range b.ids {
		b.hitOffs = append(b.hitOffs, off)
		off += uint64(len(binary.AppendUvarint(nil, uint64(len(id))))+len(id)) + uint64(b.spool.size(id))
	}
	b.hitOffs = append(b.hitOffs, off)
}

// documents numbers every document and records its package and kind, from the keyword fields
// every document has (hit, kind, eco, pkg).
func (b *rankBuilder) documents(ctx context.Context) error {
	dr, err := b.ir.DocIDReaderAll()
	if err != nil {
		return err
	}
	defer dr.Close()
	for {
		id, err := dr.Next()
		if err != nil {
			return err
		}
		if id == nil {
			break
		}
		ext, err := b.ir.ExternalID(id)
		if err != nil {
			return err
		}
		if len(id) != 8 {
			return fmt.Errorf("index: unexpected Bleve internal ID %x: want scorch's 8-byte document numbers", []byte(id))
		}
		n := binary.BigEndian.Uint64(id)
		if n >= uint64(len(b.ords)) {
			b.ords = slices.Grow(b.ords, int(n+1)-len(b.ords))[:n+1]
		}
		if n > math.MaxUint32 {
			return fmt.Errorf("index: Bleve document number %d does not fit in 32 bits", n)
		}
		b.ords[n] = uint32(len(b.ids))
		b.nums = append(b.nums, uint32(n))
		b.ids = append(b.ids, ext)
	}
	// An index built at once and merged numbers its documents 0, 1, 2 …: the table says nothing
	// then, and is left out.
	identity := true
	for d, n := range b.nums {
		identity = identity && n == uint32(d)
	}
	if identity {
		b.nums = nil
	}
	b.docPkg = make([]uint32, len(b.ids))
	b.docKind = make([]uint8, len(b.ids))
	// Package: eco and pkg postings; kind: kind and hit postings.
	eco := make([]string, len(b.ids))
	pkg := make([]string, len(b.ids))
	kind := make([]string, len(b.ids))
	for _, f := range []struct {
		field string
		into  []string
	}{{fEco, eco}, {fPkg, pkg}, {fKind, kind}} {
		if err := b.eachPosting(ctx, f.field, func(term string, doc uint32, _ uint64, _ float64) {
			f.into[doc] = term
		}); err != nil {
			return err
		}
	}
	symbol := make([]bool, len(b.ids))
	if err := b.walk(ctx, string(docidx.HitSymbol), fHit, func(doc uint32, _ uint64, _ float64) {
		symbol[doc] = true
	}); err != nil {
		return err
	}
	for i := range b.ids {
		key := eco[i] + "\x00" + pkg[i]
		p, ok := b.pkgOrd[key]
		if !ok {
			p = uint32(len(b.pkgs))
			b.pkgOrd[key] = p
			b.pkgs = append(b.pkgs, key)
		}
		b.docPkg[i] = p
		k, ok := b.kindOrd[kind[i]]
		if !ok {
			if len(b.kinds) >= 127 {
				return fmt.Errorf("index: more than 127 document kinds")
			}
			k = uint8(len(b.kinds))
			b.kindOrd[kind[i]] = k
			b.kinds = append(b.kinds, kind[i])
		}
		if symbol[i] {
			k |= 0x80
		}
		b.docKind[i] = k
	}
	return nil
}

// ord returns the document number of a Bleve internal ID (scorch's big-endian 8-byte number,
// checked for every document in documents).
func (b *rankBuilder) ord(id index.IndexInternalID) uint32 {
	return b.ords[binary.BigEndian.Uint64(id)]
}

// eachPosting calls fn for every posting of every term of field, in term order.
func (b *rankBuilder) eachPosting(ctx context.Context, field string, fn func(term string, doc uint32, freq uint64, norm float64)) error {
	dict, err := b.ir.FieldDict(field)
	if err != nil {
		return err
	}
	defer dict.Close()
	for {
		de, err := dict.Next()
		if err != nil {
			return err
		}
		if de == nil {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.walk(ctx, de.Term, field, func(doc uint32, freq uint64, norm float64) {
			fn(de.Term, doc, freq, norm)
		}); err != nil {
			return err
		}
	}
}

// walk calls fn for every document holding term in field, with the term's frequency there
// and the field's norm (1/sqrt(length)).
func (b *rankBuilder) walk(ctx context.Context, term, field string, fn func(doc uint32, freq uint64, norm float64)) error {
	tfr, err := b.ir.TermFieldReader(ctx, []byte(term), field, true, true, false)
	if err != nil {
		return err
	}
	defer tfr.Close()
	var tfd index.TermFieldDoc
	for {
		d, err := tfr.Next(tfd.Reset())
		if err != nil {
			return err
		}
		if d == nil {
			return nil
		}
		fn(b.ord(d.ID), d.Freq, d.Norm)
	}
}

// terms merges the rank fields' dictionaries term by term and writes each term's postings.
func (b *rankBuilder) terms(ctx context.Context) error {
	type cursor struct {
		f    fieldWeight
		dict index.FieldDict
		cur  *index.DictEntry
	}
	var cs []*cursor
	defer func() {
		for _, c := range cs {
			c.dict.Close()
		}
	}()
	for _, f := range fieldWeights {
		d, err := b.ir.FieldDict(f.name)
		if err != nil {
			return err
		}
		c := &cursor{f: f, dict: d}
		cs = append(cs, c)
		if c.cur, err = d.Next(); err != nil {
			return err
		}
	}
	n := float64(len(b.ids))
	wtf := make([]float64, len(b.ids)) // per document, zero outside touched
	var touched []uint32
	var list []posting
	for {
		// The smallest current term of all fields.
		term, found := "", false
		for _, c := range cs {
			if c.cur != nil && (!found || c.cur.Term < term) {
				term, found = c.cur.Term, true
			}
		}
		if !found {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		touched = touched[:0]
		for _, c := range cs {
			if c.cur == nil || c.cur.Term != term {
				continue
			}
			err := b.walk(ctx, term, c.f.name, func(doc uint32, freq uint64, fieldNorm float64) {
				length := 1.0
				if fieldNorm > 0 {
					length = 1 / (fieldNorm * fieldNorm)
				}
				norm := 1 - c.f.b + c.f.b*length/c.f.pivot
				if wtf[doc] == 0 {
					touched = append(touched, doc)
				}
				wtf[doc] += c.f.weight * float64(freq) / norm
			})
			if err != nil {
				return err
			}
			if c.cur, err = c.dict.Next(); err != nil {
				return err
			}
		}
		list = list[:0]
		for _, doc := range touched {
			list = append(list, posting{doc, wtf[doc]})
			wtf[doc] = 0
		}
		slices.SortFunc(list, func(a, b posting) int { return int(a.doc) - int(b.doc) })
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		b.addTerm(term, idf, list, func(p posting) uint8 { return quantize(p.wtf / (rankK1 + p.wtf)) })
	}
	b.blockOffs = append(b.blockOffs, uint64(len(b.dict)))
	return nil
}

// addTerm appends a term, in order, to the dictionary and its postings to the postings section.
func (b *rankBuilder) addTerm(term string, idf float64, list []posting, impact func(posting) uint8) {
	if b.nterms%termBlock == 0 {
		b.blockOffs = append(b.blockOffs, uint64(len(b.dict)))
		b.blockFirst = append(b.blockFirst, term)
	}
	b.nterms++
	start := len(b.postings)
	dense := !writeLegacy && isDense(len(list), len(b.ids))
	if dense {
		b.appendDense(list, impact)
	} else {
		b.appendPostings(list, impact)
	}
	size := uint64(len(b.postings)-start) << 1
	if dense {
		size |= 1
	}
	if writeLegacy {
		size >>= 1
	}
	b.dict = binary.AppendUvarint(b.dict, uint64(len(term)))
	b.dict = append(b.dict, term...)
	b.dict = binary.LittleEndian.AppendUint32(b.dict, math.Float32bits(float32(idf)))
	b.dict = binary.AppendUvarint(b.dict, uint64(start))
	b.dict = binary.AppendUvarint(b.dict, size)
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
func (b *rankBuilder) appendDense(list []posting, impact func(posting) uint8) {
	words := make([]uint64, denseWords(len(b.ids)))
	for _, p := range list {
		words[p.doc/64] |= 1 << (p.doc % 64)
	}
	le := binary.LittleEndian
	for _, w := range words {
		b.postings = le.AppendUint64(b.postings, w)
	}
	n := uint32(0)
	for i := 0; i < len(words); i += denseRankWords {
		b.postings = le.AppendUint32(b.postings, n)
		for _, w := range words[i:min(i+denseRankWords, len(words))] {
			n += uint32(bits.OnesCount64(w))
		}
	}
	for _, p := range list {
		b.postings = append(b.postings, impact(p))
	}
}

// symbolNamePrefix marks the dictionary's entries for symbol names: "\x01" plus a symbol's own
// name lowercased ("\x01usestate" for react.useState), listing the symbols of that name. They
// sort before every word.
const symbolNamePrefix = "\x01"

// symbolNames adds an entry per symbol name, from the names the spool noted.
func (b *rankBuilder) symbolNames() {
	byName := map[string][]posting{}
	for doc, id := range b.ids {
		if name := b.spool.symbols[id]; name != "" && b.docKind[doc]&0x80 != 0 {
			byName[name] = append(byName[name], posting{doc: uint32(doc)})
		}
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.addTerm(symbolNamePrefix+name, 0, byName[name], func(posting) uint8 { return 255 })
	}
}

// symbolName returns the lowercased last part of a qualified name: "usestate" for
// "react.useState", "push" for "acme_ring::Ring::push".
func symbolName(qualified string) string {
	i := strings.LastIndexAny(qualified, ".:/")
	return strings.ToLower(qualified[i+1:])
}

// quantize maps a saturation in [0, 1) to an impact byte 1..255.
func quantize(s float64) uint8 { return uint8(max(1, min(255, math.Round(s*255)))) }

// appendPostings encodes list (in document order) into the postings section.
func (b *rankBuilder) appendPostings(list []posting, impact func(posting) uint8) {
	prev := uint32(0)
	for i, p := range list {
		gap := p.doc - prev
		if i == 0 {
			gap = p.doc
		}
		b.postings = binary.AppendUvarint(b.postings, uint64(gap))
		b.postings = append(b.postings, impact(p))
		prev = p.doc
	}
}

// exactNames records which documents (the overviews) carry each exact package name.
func (b *rankBuilder) exactNames(ctx context.Context) error {
	byName := map[string][]posting{}
	err := b.eachPosting(ctx, fPkgExact, func(term string, doc uint32, _ uint64, _ float64) {
		byName[term] = append(byName[term], posting{doc: doc})
	})
	if err != nil {
		return err
	}
	for name := range byName {
		b.exact = append(b.exact, name)
	}
	sort.Strings(b.exact)
	for _, name := range b.exact {
		list := byName[name]
		slices.SortFunc(list, func(a, b posting) int { return int(a.doc) - int(b.doc) })
		b.exactOffs = append(b.exactOffs, uint64(len(b.postings)))
		b.appendPostings(list, func(posting) uint8 { return 255 })
	}
	b.exactOffs = append(b.exactOffs, uint64(len(b.postings)))
	return nil
}

// write writes the file and syncs it.
func (b *rankBuilder) write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer f.Close()
	w := &offsetWriter{w: bufio.NewWriterSize(f, 1<<20)}
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
	sections := rankSections
	if writeLegacy {
		sections = rankSectionsHits
		w.write([]byte(rankMagicRawText))
	} else {
		w.write([]byte(rankMagic))
	}
	for _, v := range []int{len(b.ids), len(b.pkgs), len(b.kinds), b.nterms, len(b.exact), len(b.blockFirst)} {
		u32(uint32(v))
	}
	offsAt := w.n
	w.write(make([]byte, 8*sections)) // the sections' offsets, written last
	var offs []byte
	section := func(write func()) {
		align()
		offs = le.AppendUint64(offs, uint64(w.n))
		write()
	}
	section(func() {
		for _, p := range b.docPkg {
			u32(p)
		}
	})
	section(func() { w.write(b.docKind) })
	section(func() { table(b.pkgs) })
	section(func() { table(b.kinds) })
	section(func() {
		table(b.exact)
		align()
		for _, o := range b.exactOffs {
			u64(o)
		}
	})
	section(func() {
		for _, o := range b.blockOffs {
			u64(o)
		}
		table(b.blockFirst)
	})
	section(func() { w.write(b.dict) })
	if writeLegacy {
		section(func() {
			for _, o := range b.hitOffs {
				u64(o)
			}
		})
		section(func() {
			for _, id := range b.ids {
				rec, err := b.spool.record(id)
				if err != nil {
					w.err = cmp.Or(w.err, err)
					return
				}
				w.write(binary.AppendUvarint(nil, uint64(len(id))))
				w.write([]byte(id))
				w.write(rec)
			}
		})
	} else {
		section(func() {
			for _, n := range b.nums {
				u32(n)
			}
		})
	}
	section(func() { w.write(b.postings) })
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err == nil {
		_, w.err = f.WriteAt(offs, offsAt)
	}
	if w.err == nil {
		w.err = f.Sync()
	}
	if w.err != nil {
		return fmt.Errorf("index: writing %s: %w", path, w.err)
	}
	return f.Close()
}

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

// hitFields are the stored fields of a hit record, in record order.
var hitFields = [...]string{fSTitle, fSSection, fSText, fSURI}

// hitSpool notes the names of symbols, by ID, while the index is built; for the legacy layout it
// keeps the stored fields of documents on disk too.
type hitSpool struct {
	f   *os.File
	w   *bufio.Writer
	end int64               // bytes spooled
	at  map[string][2]int64 // ID -> offset, length
	// symbols holds each symbol's own name, lowercased (symbolName), by ID: the rank index lists
	// symbols by name without reading their records back.
	symbols map[string]string
}

func newHitSpool(dir string) (*hitSpool, error) {
	f, err := os.CreateTemp(dir, "hits-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return &hitSpool{f: f, w: bufio.NewWriterSize(f, 1<<20), at: map[string][2]int64{}, symbols: map[string]string{}}, nil
}

// add notes the name of document id when it is a symbol's, and spools its stored fields for
// the legacy layout.
func (s *hitSpool) add(id string, fields map[string]any) error {
	if fields[fHit] == string(docidx.HitSymbol) {
		title, _ := fields[fSTitle].(string) // the qualified name
		s.symbols[id] = symbolName(title)
	}
	if !writeLegacy {
		return nil
	}
	var rec []byte
	for _, name := range hitFields {
		v, _ := fields[name].(string) // the text as units, one per line (see passage.go)
		rec = binary.AppendUvarint(rec, uint64(len(v)))
		rec = append(rec, v...)
	}
	if _, err := s.w.Write(rec); err != nil {
		return fmt.Errorf("index: spooling hits: %w", err)
	}
	s.at[id] = [2]int64{s.end, int64(len(rec))}
	s.end += int64(len(rec))
	return nil
}

// size returns the length of id's record.
func (s *hitSpool) size(id string) int {
	if at, ok := s.at[id]; ok {
		return int(at[1])
	}
	return len(hitFields)
}

// record returns the spooled record of id, or an empty record for an ID never spooled.
func (s *hitSpool) record(id string) ([]byte, error) {
	if err := s.w.Flush(); err != nil {
		return nil, fmt.Errorf("index: spooling hits: %w", err)
	}
	at, ok := s.at[id]
	if !ok {
		return make([]byte, len(hitFields)), nil
	}
	rec := make([]byte, at[1])
	if _, err := s.f.ReadAt(rec, at[0]); err != nil {
		return nil, fmt.Errorf("index: reading spooled hits: %w", err)
	}
	return rec, nil
}

// close removes the spool.
func (s *hitSpool) close() {
	s.f.Close()
	os.Remove(s.f.Name())
}
