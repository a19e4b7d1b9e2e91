package index

// rankread.go reads rank.idx (see rank.go) and ranks documents with it: term at a time, adding
// each query term's idf·impact into a dense score array, then keeping the best.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/docidx/docidx"
)

// rankIndex is an opened rank.idx. Its bytes are mapped, not read: a search touches only the
// postings of its words.
type rankIndex struct {
	data  []byte
	unmap func() error

	docs, npkgs, nkinds, nterms, nexact int
	docPkg                              []byte // u32 per document
	docKind                             []byte // u8 per document
	ids, pkgs, kinds, terms, exact      strTable
	idfs                                []byte // f32 per term
	termOffs, exactOffs                 []byte // u64 per term (+1)
	hitOffs                             []byte // u64 per document (+1)
	hits                                []byte
	postings                            []byte

	superseded []bool // per package: a newer major version of the Go module is indexed

	pool sync.Pool // *accumulator
}

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

// openRank maps path. A missing file (a snapshot written before rank.idx existed) returns
// nil, nil: searches then go to Bleve.
func openRank(path string) (*rankIndex, error) {
	data, unmap, err := mapFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: opening %s: %w", path, err)
	}
	ri, err := parseRank(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%w: %s: %v", docidx.ErrFormat, path, err)
	}
	ri.unmap = unmap
	ri.superseded = supersededModules(ri)
	return ri, nil
}

// supersededModules marks the Go modules of ri whose newer major version is indexed too:
// "github.com/go-chi/chi" when "github.com/go-chi/chi/v5" is there, "…/v4" when "…/v5" is.
func supersededModules(ri *rankIndex) []bool {
	out := make([]bool, ri.npkgs)
	major := map[string]int{} // module path without its major suffix -> highest major indexed
	type mod struct {
		base  string
		major int
	}
	mods := make([]mod, ri.npkgs)
	for p := range ri.npkgs {
		eco, name, _ := bytes.Cut(ri.pkgKey(uint32(p)), []byte{0})
		if string(eco) != string(docidx.Go) {
			continue
		}
		base, m := splitMajor(string(name))
		mods[p] = mod{base, m}
		major[base] = max(major[base], m)
	}
	for p, m := range mods {
		out[p] = m.base != "" && major[m.base] > m.major
	}
	return out
}

func parseRank(data []byte) (ri *rankIndex, err error) {
	// Every slice below is bounds-checked by Go; a truncated or corrupt file panics inside this
	// function at worst, which becomes an error here.
	defer func() {
		if recover() != nil {
			ri, err = nil, errRankFormat
		}
	}()
	le := binary.LittleEndian
	var offs [10]int
	if len(data) < 32+8*len(offs) || string(data[:8]) != rankMagic {
		return nil, errRankFormat
	}
	ri = &rankIndex{data: data}
	counts := data[8:]
	ri.docs = int(le.Uint32(counts[0:]))
	ri.npkgs = int(le.Uint32(counts[4:]))
	ri.nkinds = int(le.Uint32(counts[8:]))
	ri.nterms = int(le.Uint32(counts[12:]))
	ri.nexact = int(le.Uint32(counts[16:]))
	for i := range offs {
		o := le.Uint64(data[32+8*i:])
		if o > uint64(len(data)) {
			return nil, errRankFormat
		}
		offs[i] = int(o)
	}
	table := func(b []byte) (strTable, []byte) {
		n := int(le.Uint32(b))
		offsEnd := 4 + 4*(n+1)
		t := strTable{n: n, offs: b[4:offsEnd]}
		size := int(le.Uint32(t.offs[4*n:]))
		t.data = b[offsEnd : offsEnd+size]
		return t, b[offsEnd+size:]
	}
	aligned := func(base []byte, rest []byte) []byte {
		pos := len(base) - len(rest)
		return rest[(8-pos%8)%8:]
	}
	ri.docPkg = data[offs[0] : offs[0]+4*ri.docs]
	ri.docKind = data[offs[1] : offs[1]+ri.docs]
	ri.ids, _ = table(data[offs[2]:])
	ri.pkgs, _ = table(data[offs[3]:])
	ri.kinds, _ = table(data[offs[4]:])
	var rest []byte
	ri.terms, rest = table(data[offs[5]:])
	rest = aligned(data, rest)
	ri.idfs = rest[:4*ri.nterms]
	rest = aligned(data, rest[4*ri.nterms:])
	ri.termOffs = rest[:8*(ri.nterms+1)]
	ri.exact, rest = table(data[offs[6]:])
	rest = aligned(data, rest)
	ri.exactOffs = rest[:8*(ri.nexact+1)]
	ri.hitOffs = data[offs[7] : offs[7]+8*(ri.docs+1)]
	ri.hits = data[offs[8]:offs[9]]
	ri.postings = data[offs[9]:]
	if ri.ids.n != ri.docs || ri.pkgs.n != ri.npkgs || ri.kinds.n != ri.nkinds || ri.terms.n != ri.nterms || ri.exact.n != ri.nexact {
		return nil, errRankFormat
	}
	for d := range ri.docs {
		if int(le.Uint32(ri.docPkg[4*d:])) >= ri.npkgs || int(ri.docKind[d]&0x7f) >= ri.nkinds {
			return nil, errRankFormat
		}
	}
	if le.Uint64(ri.termOffs[8*ri.nterms:]) > uint64(len(ri.postings)) || le.Uint64(ri.exactOffs[8*ri.nexact:]) > uint64(len(ri.postings)) {
		return nil, errRankFormat
	}
	return ri, nil
}

func (ri *rankIndex) close() error {
	if ri == nil || ri.unmap == nil {
		return nil
	}
	return ri.unmap()
}

// accumulator holds one search's scores: a dense array per document and the list of documents
// touched, so that resetting costs what the search touched, not the whole array.
type accumulator struct {
	score   []float32
	matched []uint8 // how many of the question's terms a document holds
	touched []uint32
}

func (ri *rankIndex) acquire() *accumulator {
	if a, ok := ri.pool.Get().(*accumulator); ok {
		return a
	}
	return &accumulator{score: make([]float32, ri.docs), matched: make([]uint8, ri.docs)}
}

func (ri *rankIndex) release(a *accumulator) {
	for _, d := range a.touched {
		a.score[d] = 0
		a.matched[d] = 0
	}
	a.touched = a.touched[:0]
	ri.pool.Put(a)
}

// postingsOf returns the postings of term i of a dictionary with offsets offs.
func (ri *rankIndex) postingsOf(offs []byte, i int) []byte {
	le := binary.LittleEndian
	lo, hi := le.Uint64(offs[8*i:]), le.Uint64(offs[8*i+8:])
	if lo > hi || hi > uint64(len(ri.postings)) {
		return nil
	}
	return ri.postings[lo:hi]
}

// add adds weight·impact/255 for every posting of list to a, for documents keep accepts
// (all when keep is nil). With grow false only documents a already holds are updated. It
// returns false on a malformed list.
func (ri *rankIndex) add(a *accumulator, list []byte, weight float32, keep func(doc uint32) bool, grow bool) bool {
	scale := weight / 255
	doc := uint32(0) // the first gap is the first document itself
	for len(list) > 1 {
		gap, n := uint64(list[0]), 1
		if gap >= 0x80 {
			if gap, n = binary.Uvarint(list); n <= 0 || n >= len(list) {
				return false
			}
		}
		doc += uint32(gap)
		impact := list[n]
		list = list[n+1:]
		if int(doc) >= ri.docs {
			return false
		}
		m := a.matched[doc]
		if m == 0 && (!grow || (keep != nil && !keep(doc))) {
			continue
		}
		if m == 0 {
			a.touched = append(a.touched, doc)
		}
		if m < math.MaxUint8 {
			a.matched[doc] = m + 1
		}
		a.score[doc] += scale * float32(impact)
	}
	return len(list) == 0
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

// hitFields returns the stored fields of doc that hits are made of, as storedFields does
// from Bleve, or nil when its record is corrupt.
func (ri *rankIndex) hitFields(doc uint32) map[string]any {
	le := binary.LittleEndian
	lo, hi := le.Uint64(ri.hitOffs[8*doc:]), le.Uint64(ri.hitOffs[8*doc+8:])
	if lo > hi || hi > uint64(len(ri.hits)) {
		return nil
	}
	rec := ri.hits[lo:hi]
	fields := make(map[string]any, len(hitFields))
	for _, name := range hitFields {
		n, k := binary.Uvarint(rec)
		if k <= 0 || n > uint64(len(rec)-k) {
			return nil
		}
		fields[name] = string(rec[k : k+int(n)])
		rec = rec[k+int(n):]
	}
	return fields
}
