package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/vellum"

	"github.com/docidx/docidx"
)

// TestRankRuns checks that a ranking index built in runs and merged says what one built at
// once says — every document's package, kind and flags, every term's postings and document
// frequency, each package version's terms, the exact names and the spelling dictionaries —
// for runs with dense lists of their own and for a run per package version, and that the runs'
// files are gone afterwards, as they are when the crawl is cancelled during the merge.
func TestRankRuns(t *testing.T) {
	dir := t.TempDir()
	im, sm := testMappings(t)
	versions := runsCorpus(60)
	searchPath := filepath.Join(dir, SearchDir)
	build, err := bleve.NewBuilder(searchPath, sm, map[string]any{"buildPathPrefix": dir, "batchSize": 500})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, v := range versions {
		for sd := range searchDocs(&v.Package, v.Documents, v.Symbols) {
			if err := build.Index(sd.id, storedValuesOf(sd.fields)); err != nil {
				t.Fatal(err)
			}
			total++
		}
	}
	if err := build.Close(); err != nil {
		t.Fatal(err)
	}

	// A merge stops when the crawl is cancelled, and leaves no file behind.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	rr := runsOf(t, im, dir, 1, versions)
	if _, err := rr.finish(cancelled, searchPath, filepath.Join(dir, "cancelled.idx")); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled merge: %v, want context.Canceled", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "rank-*.tmp")); len(left) > 0 {
		t.Errorf("a cancelled merge left %v", left)
	}

	var want *rankContent
	for _, max := range []int{1 << 30, 1024, 1} { // one run; three, with dense lists; one a version
		rr := runsOf(t, im, dir, max, versions)
		path := filepath.Join(dir, fmt.Sprintf("rank-%d.idx", max))
		docs, err := rr.finish(context.Background(), searchPath, path)
		runs := len(rr.runs)
		if err != nil {
			t.Fatalf("max %d: %v", max, err)
		}
		if docs != uint64(total) {
			t.Errorf("max %d: %d documents, want %d", max, docs, total)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "rank-*.tmp")); len(left) > 0 {
			t.Errorf("max %d: files left: %v", max, left)
		}
		got := readRankContent(t, path)
		if want == nil {
			if runs != 0 || got.dense == 0 {
				t.Fatalf("built at once: %d runs, %d dense lists", runs, got.dense)
			}
			want = got
			continue
		}
		if runs < 3 {
			t.Fatalf("max %d: %d runs", max, runs)
		}
		if !reflect.DeepEqual(got, want) {
			for _, f := range []string{"docs", "terms", "pkgTerms", "exact", "fuzzy"} {
				if g, w := reflect.ValueOf(*got).FieldByName(f).Interface(), reflect.ValueOf(*want).FieldByName(f).Interface(); !reflect.DeepEqual(g, w) {
					t.Errorf("max %d (%d runs): %s differ from a build at once", max, runs, f)
				}
			}
		}
	}
}

// runsOf returns a rankRuns of runs of at most max documents, writing into dir, that holds the
// search documents of versions, each version ended as buildSegment ends it.
func runsOf(t *testing.T, im mapping.IndexMapping, dir string, max int, versions []*docidx.PackageDocs) *rankRuns {
	t.Helper()
	rr, err := newRankRuns(im, dir, max)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		for sd := range searchDocs(&v.Package, v.Documents, v.Symbols) {
			if err := rr.add(&sd); err != nil {
				t.Fatal(err)
			}
		}
		if err := rr.versionDone(); err != nil {
			t.Fatal(err)
		}
	}
	return rr
}

// runsCorpus returns n package versions of documents and symbols whose words follow a skewed
// distribution, so that common words are in more than one document in 16 (dense lists).
func runsCorpus(n int) []*docidx.PackageDocs {
	rng := rand.New(rand.NewPCG(7, 8))
	vocab := make([]string, 400)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx%c", i, 'a'+i%26)
	}
	text := func(words int) string {
		var b strings.Builder
		for range words {
			f := rng.Float64()
			b.WriteString(vocab[int(f*f*f*float64(len(vocab)))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	var out []*docidx.PackageDocs
	for i := range n {
		eco := []docidx.Ecosystem{docidx.Go, docidx.NPM, docidx.PyPI, docidx.Cargo}[i%4]
		name := fmt.Sprintf("pkg%02d", i/2)
		d := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: eco, Name: name, Version: fmt.Sprintf("1.%d.0", i%2), Description: text(8)}}
		var secs []docidx.Section
		for s := range 20 + rng.IntN(20) {
			plain := text(10 + rng.IntN(60))
			secs = append(secs, docidx.Section{Heading: []string{fmt.Sprintf("Part %d", s)}, Text: plain, Plain: plain})
		}
		if i%3 != 1 { // some without a README, so that runs meet kinds in other orders
			d.Documents = []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: name, Sections: secs}}
		}
		for s := range 20 + rng.IntN(30) {
			sym := docidx.Symbol{Kind: []docidx.SymbolKind{docidx.KindFunc, docidx.KindType, docidx.KindMethod}[(s+i)%3], Name: fmt.Sprintf("Sym%d", s%17), QualifiedName: fmt.Sprintf("%s.Sym%d", name, s)}
			sym.Signature = "func " + sym.Name + "()"
			if s%4 != 0 { // every fourth undocumented
				sym.Doc = text(5 + rng.IntN(30))
			}
			d.Symbols = append(d.Symbols, sym)
		}
		out = append(out, d)
	}
	return out
}

// rankContent is what a ranking index says, with its documents named by their numbers in
// search.bleve, so that two files that number them otherwise compare equal.
type rankContent struct {
	docs     map[uint64]string            // package, kind, symbol and undocumented flags
	terms    map[string][]string          // postings as "number:impact", sorted
	pkgTerms map[string]map[string]uint32 // package version -> term -> documents
	exact    map[string][]uint64
	fuzzy    []map[string]uint64
	dense    int // lists written dense, each checked to be as isDense says
}

// readRankContent reads the ranking index at path whole.
func readRankContent(t *testing.T, path string) *rankContent {
	t.Helper()
	seg, err := openRankSegment(path)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.close()
	c := &rankContent{docs: map[uint64]string{}, terms: map[string][]string{}, pkgTerms: map[string]map[string]uint32{}, exact: map[string][]uint64{}}
	for d := range uint32(seg.docs) {
		kind, undoc := seg.docKind[d], seg.docFlags[d/8]&(1<<(d%8)) != 0
		p := int(binary.LittleEndian.Uint32(seg.docPkg[4*d:]))
		c.docs[seg.bleveNum(d)] = fmt.Sprintf("%q %q %v %v", seg.pkgs.at(p), seg.kinds.at(int(kind&0x7f)), kind&0x80 != 0, undoc)
	}
	cur := dictCursor{rest: seg.view(seg.dictAt, seg.dictEnd, 0, seg.dictEnd-seg.dictAt)}
	var termOf []string // by ordinal
	for ok := cur.next(seg); cur.term != nil; ok = cur.next(seg) {
		if !ok {
			t.Fatalf("%s: malformed dictionary at term %d", path, cur.ord)
		}
		list, ok := appendList(nil, seg, cur.ref, 0)
		if !ok || len(list) != cur.ref.df {
			t.Fatalf("%s: term %q: %d postings, df %d", path, cur.term, len(list), cur.ref.df)
		}
		if cur.ref.dense != isDense(len(list), seg.docs) {
			t.Errorf("%s: term %q of %d documents written dense %v", path, cur.term, len(list), cur.ref.dense)
		}
		if cur.ref.dense {
			c.dense++
		}
		var ps []string
		for _, p := range list {
			ps = append(ps, fmt.Sprintf("%d:%d", seg.bleveNum(p.doc), p.impact))
		}
		slices.Sort(ps)
		c.terms[string(cur.term)] = ps
		termOf = append(termOf, string(cur.term))
	}
	if len(termOf) != seg.nterms {
		t.Fatalf("%s: %d terms read, %d in the header", path, len(termOf), seg.nterms)
	}
	for p := range seg.npkgs {
		m := map[string]uint32{}
		if !seg.pkgTerms(p, func(ord, docs uint32) { m[termOf[ord]] = docs }) {
			t.Fatalf("%s: package %d's terms are malformed", path, p)
		}
		c.pkgTerms[string(seg.pkgs.at(p))] = m
	}
	for i := range seg.nexact {
		var nums []uint64
		forEachPosting(seg.exactPostings(i), func(doc uint32, _ uint8) { nums = append(nums, seg.bleveNum(doc)) })
		slices.Sort(nums)
		c.exact[string(seg.exact.at(i))] = nums
	}
	for i := range fuzzySections {
		fst, err := seg.fuzzy(i)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]uint64{}
		itr, err := fst.Iterator(nil, nil)
		for err == nil {
			k, v := itr.Current()
			m[string(k)] = v
			err = itr.Next()
		}
		if err != vellum.ErrIteratorDone {
			t.Fatal(err)
		}
		c.fuzzy = append(c.fuzzy, m)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	return c
}
