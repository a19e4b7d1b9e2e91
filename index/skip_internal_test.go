package index

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// skipFixture is a rank index of two segments, each with one long sparse list (over
// minSkipPostings postings, under the dense share), and an accumulator maker whose documents
// stand in a few clusters, as a question's rarer words bring them: most runs of the lists hold
// none of them.
func skipFixture(t *testing.T) (ri *rankIndex, l termList, lists [][]byte, all []posting, newAcc func() *accumulator) {
	t.Helper()
	const segDocs = 200_000
	rng := rand.New(rand.NewPCG(50, 1))
	ri = &rankIndex{docs: 2 * segDocs, segs: []*rankSegment{{docs: segDocs}, {docs: segDocs}}, docBase: []uint32{0, segDocs, 2 * segDocs}}
	for seg := range 2 {
		var list []posting
		for doc := uint32(rng.IntN(3)); doc < segDocs; doc += 1 + uint32(rng.IntN(40)) {
			list = append(list, posting{doc: doc, impact: uint8(rng.IntN(256))})
		}
		if len(list) < minSkipPostings || isDense(len(list), segDocs) {
			t.Fatalf("segment %d: %d postings of %d documents: not a long sparse list", seg, len(list), segDocs)
		}
		b := &rankBuilder{ids: make([]string, segDocs)}
		b.appendPostings(list)
		l.parts = append(l.parts, termPart{seg: seg, list: postingsRef{off: int64(1000 * seg), size: int64(len(b.postings)), df: len(list)}})
		l.df += len(list)
		lists = append(lists, b.postings)
		for _, p := range list {
			all = append(all, posting{doc: ri.docBase[seg] + p.doc, impact: p.impact})
		}
	}
	l.idf = 3.5
	newAcc = func() *accumulator {
		a := newAccumulator(ri.docs)
		for _, start := range []uint32{1_000, 150_000, 330_000} {
			for d := start; d < start+3_000; d += 7 {
				p := a.touch(d)
				p.matched[d&accPageMask] = 1
				p.score[d&accPageMask] = 0.25
			}
		}
		return a
	}
	return ri, l, lists, all, newAcc
}

// TestSkipTables: a long list gets its skip table the second time it is read; the table's runs
// cover the list in order; adding to the held documents (addHeld) and admitting (admit) through
// the table give the scores that reading the whole list gives, while passing over runs.
func TestSkipTables(t *testing.T) {
	ri, l, lists, all, newAcc := skipFixture(t)
	for j, part := range l.parts {
		if runs := ri.skipsOf(part, lists[j]); runs != nil {
			t.Fatalf("part %d: a skip table at the first read", j)
		}
		runs := ri.skipsOf(part, lists[j])
		if runs == nil {
			t.Fatalf("part %d: no skip table at the second read", j)
		}
		if again := ri.skipsOf(part, lists[j]); &again[0] != &runs[0] {
			t.Errorf("part %d: the table was made again", j)
		}
		// The runs cover the list: skipRunPostings postings each (the last fewer), their
		// first postings where the table says, each counting from the run before's last.
		var prev uint32
		n := 0
		for r, run := range runs {
			if run.prev != prev {
				t.Fatalf("part %d run %d: prev %d, want %d", j, r, run.prev, prev)
			}
			end := runEnd(runs, r, len(lists[j]))
			doc, k, max := run.prev, 0, uint8(0)
			for i := int(run.off); i < end; k++ {
				var impact uint8
				doc, impact, i, _ = nextPosting(lists[j], i, doc)
				max = maxU8(max, impact)
			}
			last := runLast(runs, r, uint32(ri.segs[part.seg].docs))
			if r+1 < len(runs) && doc != last || r+1 == len(runs) && doc > last || max != run.max || k != skipRunPostings && r+1 < len(runs) {
				t.Fatalf("part %d run %d: last %d max %d of %d postings, table says %d and %d", j, r, doc, max, k, last, run.max)
			}
			prev, n = doc, n+k
		}
		if n != part.list.df {
			t.Errorf("part %d: runs hold %d postings, want %d", j, n, part.list.df)
		}
	}

	// Adding to the held documents only.
	got, want := newAcc(), newAcc()
	skipped := 0
	for j, part := range l.parts {
		runs := ri.skipsOf(part, lists[j])
		for r, run := range runs {
			if !got.holdsIn(ri.docBase[part.seg]+run.prev, ri.docBase[part.seg]+runLast(runs, r, uint32(ri.segs[part.seg].docs))) {
				skipped++
			}
		}
		ri.addHeld(got, part.seg, lists[j], runs, l.idf)
		if !ri.add(want, part.seg, lists[j], l.idf, nil, growNone) {
			t.Fatal("add: malformed list")
		}
	}
	if skipped == 0 {
		t.Error("no run was passed over: the test does not test skipping")
	}
	if !slices.Equal(got.touched, want.touched) || !sameScores(got, want, ri.docs) {
		t.Error("addHeld adds otherwise than add")
	}

	// Admitting, with the tables made: as add with the floor admit reaches.
	held := newAcc()
	for _, room := range []int{0, 50, 2_000, 1_000_000} {
		floor := floorFor(all, held, nil, room)
		got, want := admitAndAdd(t, ri, l, lists, lists, nil, room, floor, newAcc)
		if !slices.Equal(got.touched, want.touched) || !sameScores(got, want, ri.docs) {
			t.Errorf("room %d: admit through skip tables adds otherwise than add with the floor %d", room, floor)
		}
	}
}

func maxU8(a, b uint8) uint8 { return max(a, b) }

// TestMakeSkips: a malformed list, or one naming a document past the segment's, has no table.
func TestMakeSkips(t *testing.T) {
	var list []posting
	for doc := uint32(0); doc < 3*skipRunPostings; doc += 3 {
		list = append(list, posting{doc: doc, impact: uint8(doc)})
	}
	b := &rankBuilder{ids: make([]string, 1000)}
	b.appendPostings(list)
	if runs := makeSkips(b.postings, 1000); len(runs) != 1 || runs[0].off != 0 || runs[0].prev != 0 || runs[0].max != math.MaxUint8 {
		t.Errorf("makeSkips = %+v, want one run from the start", runs)
	}
	if runs := makeSkips(b.postings[:len(b.postings)-1], 1000); runs != nil {
		t.Error("a list cut short got a table")
	}
	if runs := makeSkips(b.postings, 100); runs != nil {
		t.Error("a list naming documents past the segment's got a table")
	}
}

// TestHoldsIn: the pages a holds documents of, at the edges of its words of page bits.
func TestHoldsIn(t *testing.T) {
	a := newAccumulator(64 * accPageDocs * 4)
	a.touch(64*accPageDocs + 5) // page 64: the first bit of the second word
	for _, tc := range []struct {
		lo, hi uint32
		want   bool
	}{
		{0, 64*accPageDocs - 1, false},
		{0, 64 * accPageDocs, true},
		{64*accPageDocs + 63, 64*accPageDocs + 63, true}, // the same page
		{65 * accPageDocs, 200 * accPageDocs, false},
		{10, 10, false},
	} {
		if got := a.holdsIn(tc.lo, tc.hi); got != tc.want {
			t.Errorf("holdsIn(%d, %d) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	a.reset()
	if a.holdsIn(0, 64*accPageDocs*4-1) {
		t.Error("holdsIn after reset")
	}
}

// TestKeepSkips: the tables a rank index keeps stay within maxSkipBytes.
func TestKeepSkips(t *testing.T) {
	ri := &rankIndex{}
	ri.skipMu.Lock()
	defer ri.skipMu.Unlock()
	ri.keepSkips(skipKey{0, 1}, make([]skipRun, 10))
	ri.keepSkips(skipKey{0, 2}, make([]skipRun, maxSkipBytes/skipRunBytes-5)) // past the budget
	if _, ok := ri.skips[skipKey{0, 1}]; ok || ri.skipBytes > maxSkipBytes {
		t.Errorf("%d bytes kept, the first table too: want it dropped and at most %d", ri.skipBytes, maxSkipBytes)
	}
	ri.keepSkips(skipKey{0, 3}, make([]skipRun, maxSkipBytes/skipRunBytes+1)) // larger than all
	if _, ok := ri.skips[skipKey{0, 3}]; ok {
		t.Error("a table larger than the budget was kept")
	}
}

// TestKeepSkipsLeastRecent: past the budget, the tables used least recently go first, down to
// three quarters of it, and the one used since stays though it was made first.
func TestKeepSkipsLeastRecent(t *testing.T) {
	ri := &rankIndex{}
	ri.skipMu.Lock()
	defer ri.skipMu.Unlock()
	third := maxSkipBytes/skipRunBytes/3 - 8
	for k := range int64(3) {
		ri.skipClock++
		ri.keepSkips(skipKey{0, k}, make([]skipRun, third))
	}
	ri.skipClock++
	ri.skips[skipKey{0, 0}].used = ri.skipClock // the first is used again
	ri.skipClock++
	ri.keepSkips(skipKey{0, 3}, make([]skipRun, third))
	for k, want := range map[int64]bool{0: true, 1: false, 2: false, 3: true} {
		if _, ok := ri.skips[skipKey{0, k}]; ok != want {
			t.Errorf("table %d kept %v, want %v", k, ok, want)
		}
	}
	if ri.skipBytes > maxSkipBytes {
		t.Errorf("%d bytes kept, want at most %d", ri.skipBytes, maxSkipBytes)
	}
	sum := 0
	for _, tb := range ri.skips {
		sum += tb.size()
	}
	if sum != ri.skipBytes {
		t.Errorf("skipBytes %d, the tables hold %d", ri.skipBytes, sum)
	}
}

// TestPostingsIn: the postings of a range of documents, read through a list's skip table or
// from its start, and from a dense list through its rank directory, are the list's postings in
// that range, in order.
func TestPostingsIn(t *testing.T) {
	ri, l, lists, all, _ := skipFixture(t)
	// A third segment of a dense list.
	const denseDocs = 5_000
	var dense []posting
	for doc := uint32(3); doc < denseDocs; doc += 1 + doc%5 {
		dense = append(dense, posting{doc: doc, impact: uint8(doc)})
	}
	base := uint32(ri.docs)
	ri.segs = append(ri.segs, &rankSegment{docs: denseDocs})
	ri.docBase = append(ri.docBase, base+denseDocs)
	ri.docs += denseDocs
	b := &rankBuilder{ids: make([]string, denseDocs)}
	b.appendDense(dense)
	l.parts = append(l.parts, termPart{seg: 2, list: postingsRef{off: 5000, size: int64(len(b.postings)), df: len(dense), dense: true}})
	lists = append(lists, b.postings)
	for _, p := range dense {
		all = append(all, posting{doc: base + p.doc, impact: p.impact})
	}
	ranges := [][2]uint32{{0, 0}, {0, 1}, {7, 9_000}, {150_000, 150_001}, {199_990, 200_020}, {250_000, 251_234},
		{399_000, 400_700}, {base + 60, base + 130}, {base + 4_990, base + denseDocs}, {0, uint32(ri.docs)}}
	for read := range 3 { // the first read has no skip table, the second makes it, the third keeps it
		for _, rg := range ranges {
			var got []posting
			for j, part := range l.parts {
				if !ri.postingsIn(part, lists[j], rg[0], rg[1], func(doc uint32, impact uint8) {
					got = append(got, posting{doc: doc, impact: impact})
				}) {
					t.Fatalf("read %d [%d, %d): part %d malformed", read, rg[0], rg[1], j)
				}
			}
			var want []posting
			for _, p := range all {
				if p.doc >= rg[0] && p.doc < rg[1] {
					want = append(want, p)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("read %d [%d, %d): %d postings, want %d", read, rg[0], rg[1], len(got), len(want))
			}
		}
	}
}

// TestHeldEnd: the end of the last page holding a document of a range, across the words of the
// page bitmap, and 0 for a range none of whose pages holds one.
func TestHeldEnd(t *testing.T) {
	a := newAccumulator(10_000)
	for _, d := range []uint32{70, 300, 4101} { // pages 1, 4 and 64 (the bitmap's second word)
		a.touch(d).matched[d&accPageMask] = 1
	}
	for _, c := range []struct{ lo, hi, want uint32 }{
		{0, 9_999, 4160}, {0, 4095, 320}, {0, 100, 128}, {130, 250, 0}, {260, 260, 320}, {4096, 4100, 4160}, {4160, 9_999, 0},
	} {
		if got := a.heldEnd(c.lo, c.hi); got != c.want {
			t.Errorf("heldEnd(%d, %d) = %d, want %d", c.lo, c.hi, got, c.want)
		}
	}
}
