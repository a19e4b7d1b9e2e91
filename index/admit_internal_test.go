package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAdmit: a list longer than the room left in the accumulator adds its documents of the
// highest impact, at most room of them (those at or above the least floor that leaves at most
// room), and still adds to every document already held: exactly what add adds with that floor
// as its growAt, in the same order, over a list in two segments, one part of it dense, with and
// without a filter.
func TestAdmit(t *testing.T) {
	const segDocs = 3000
	sizes := []int{segDocs, segDocs}
	rng := rand.New(rand.NewPCG(28, 7))
	ri := &rankIndex{docs: 2 * segDocs, segs: []*rankSegment{{docs: segDocs}, {docs: segDocs}}, docBase: []uint32{0, segDocs, 2 * segDocs}}
	var l termList
	var bufs, sparse [][]byte // the parts as admit reads them, and all sparse for add
	var all []posting         // numbered over the snapshot
	for i := range sizes {
		var list []posting
		for doc := uint32(0); doc < segDocs; doc += 1 + uint32(rng.IntN(5)) {
			list = append(list, posting{doc: doc, impact: uint8(rng.IntN(250))})
		}
		b := &rankBuilder{ids: make([]string, segDocs)}
		b.appendPostings(list)
		sparse = append(sparse, b.postings)
		dense := i == 1 && isDense(len(list), segDocs)
		if i == 1 && !dense {
			t.Fatalf("%d of %d documents: not dense", len(list), segDocs)
		}
		if dense {
			b = &rankBuilder{ids: make([]string, segDocs)}
			b.appendDense(list)
		}
		l.parts = append(l.parts, termPart{seg: i, list: postingsRef{size: int64(len(b.postings)), df: len(list), dense: dense}})
		l.df += len(list)
		bufs = append(bufs, b.postings)
		for _, p := range list {
			all = append(all, posting{doc: ri.docBase[i] + p.doc, impact: p.impact})
		}
	}
	l.idf = 2.5
	newAcc := func() *accumulator {
		a := newAccumulator(ri.docs)
		// Documents the rarer words brought, some in the list and some not.
		for d := uint32(0); d < uint32(ri.docs); d += 97 {
			p := a.touch(d)
			p.matched[d&accPageMask] = 1
			p.score[d&accPageMask] = 0.5
		}
		return a
	}
	for _, keep := range []*docFilter{nil, everyEleventhOut(uint32(ri.docs))} {
		held := newAcc()
		above := func(floor int) int { return notHeldAbove(all, held, keep, floor) }
		// Rooms of none, one, some, exactly the documents at or above an impact (a floor that
		// some 64-document word of the dense part reaches with its highest impact), and all.
		for _, room := range []int{0, 1, 40, 700, above(120), above(236), above(241), above(246), 100_000} {
			floor := floorFor(all, held, keep, room)
			got, want := admitAndAdd(t, ri, l, bufs, sparse, keep, room, floor, newAcc)
			if added := len(got.touched) - len(held.touched); added > room || added != above(floor) {
				t.Errorf("keep %v, room %d: %d documents added, want %d (floor %d)", keep != nil, room, added, above(floor), floor)
			}
			if !slices.Equal(got.touched, want.touched) || !sameScores(got, want, ri.docs) {
				t.Errorf("keep %v, room %d: admit adds otherwise than add with the floor %d", keep != nil, room, floor)
			}
		}
	}
	// A list cut short: reported, not a panic.
	if ri.admit(newAcc(), l, [][]byte{bufs[0], bufs[1][:len(bufs[1])-1]}, nil, 40) {
		t.Error("a list cut short was accepted")
	}
}

// TestAdmitDense: a 64-document word of a dense part that holds no document the accumulator
// holds is passed over only when none of its impacts reaches the floor: one whose highest
// impact is the floor itself still admits it.
func TestAdmitDense(t *testing.T) {
	const docs = 128
	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	// With room for two, the first word's three documents raise the floor to 11 with one
	// waiting; the second word's document of impact 11 is the second.
	list := []posting{{0, 10}, {1, 10}, {2, 20}, {64, 11}, {100, 5}}
	b := &rankBuilder{ids: make([]string, docs)}
	b.appendDense(list)
	l := termList{idf: 1, df: len(list), parts: []termPart{{list: postingsRef{size: int64(len(b.postings)), df: len(list), dense: true}}}}
	a := newAccumulator(docs)
	if !ri.admit(a, l, [][]byte{b.postings}, nil, 2) {
		t.Fatal("admit: malformed list")
	}
	if want := []uint32{2, 64}; !slices.Equal(a.touched, want) {
		t.Errorf("admitted %v, want %v", a.touched, want)
	}
	// A bit past the segment's last document is a malformed list, not a posting.
	short := &rankIndex{docs: 100, segs: []*rankSegment{{docs: 100}}, docBase: []uint32{0, 100}}
	if short.admit(newAccumulator(100), l, [][]byte{b.postings}, nil, 2) {
		t.Error("a dense list naming document 100 of a segment of 100 was accepted")
	}
}

// admitAndAdd returns an accumulator from newAcc that admit filled from l's parts as read
// (bufs) with room, and one that add filled from them as sparse lists with floor as its growAt:
// the two admit must make alike.
func admitAndAdd(t *testing.T, ri *rankIndex, l termList, bufs, sparse [][]byte, keep *docFilter, room, floor int, newAcc func() *accumulator) (got, want *accumulator) {
	t.Helper()
	got, want = newAcc(), newAcc()
	if !ri.admit(got, l, bufs, keep, room) {
		t.Fatal("admit: malformed list")
	}
	for j, part := range l.parts {
		if !ri.add(want, part.seg, sparse[j], l.idf, keep, floor) {
			t.Fatal("add: malformed list")
		}
	}
	return got, want
}

// notHeldAbove returns how many of the postings all (numbered over the snapshot) are of
// documents a does not hold and keep accepts, at impact floor or more.
func notHeldAbove(all []posting, a *accumulator, keep *docFilter, floor int) int {
	n := 0
	for _, p := range all {
		if a.matchedOf(p.doc) == 0 && keep.keep(p.doc) && int(p.impact) >= floor {
			n++
		}
	}
	return n
}

// floorFor returns the least impact at which at most room of the postings all are of documents
// a does not hold and keep accepts: the floor admit reaches with room.
func floorFor(all []posting, a *accumulator, keep *docFilter, room int) int {
	floor := 0
	for notHeldAbove(all, a, keep, floor) > room {
		floor++
	}
	return floor
}

// sameScores reports whether a and b hold the same scores and counts of matched terms for each of
// docs documents.
func sameScores(a, b *accumulator, docs int) bool {
	for d := range uint32(docs) {
		if a.scoreOf(d) != b.scoreOf(d) || a.matchedOf(d) != b.matchedOf(d) {
			return false
		}
	}
	return true
}

// TestAccumulatorReset checks that an accumulator reset after a search holds no score, no page
// and no document touched, keeps at most maxSparePages pages for the next search, and scores the
// next search from zero.
func TestAccumulatorReset(t *testing.T) {
	const docs = 5 * maxSparePages * accPageDocs / 4 // more pages than are kept
	a := newAccumulator(docs)
	for round := range 2 {
		for d := uint32(round); d < docs; d += accPageDocs / 2 {
			p := a.touch(d)
			p.matched[d&accPageMask]++
			p.score[d&accPageMask] += 1.5
		}
		for d := uint32(round); d < docs; d += accPageDocs / 2 {
			if a.scoreOf(d) != 1.5 || a.matchedOf(d) != 1 {
				t.Fatalf("round %d: document %d scored %v with %d terms, want 1.5 with 1", round, d, a.scoreOf(d), a.matchedOf(d))
			}
		}
		a.reset()
		if len(a.touched) != 0 || len(a.made) != 0 || len(a.spare) != maxSparePages {
			t.Fatalf("round %d: after reset %d touched, %d made, %d spare (want 0, 0, %d)", round, len(a.touched), len(a.made), len(a.spare), maxSparePages)
		}
		for n, p := range a.pages {
			if p != noPage {
				t.Fatalf("round %d: page %d kept after reset", round, n)
			}
		}
		for _, p := range append(a.spare, noPage) {
			if *p != (accPage{}) {
				t.Fatalf("round %d: a spare page, or noPage, holds scores", round)
			}
		}
	}
}

// TestFirstListRooms: the rarest list of a question adds all its documents when it holds at
// most firstListRooms accumulator limits of them, and otherwise admits those of its highest
// impacts, at most a limit of them, as a later list too long for the room left does: a
// question of common words costs what the limit allows, not what the snapshot's size does.
func TestFirstListRooms(t *testing.T) {
	limit := accumulatorLimitFor(1)
	const docs = 1 << 20
	rng := rand.New(rand.NewPCG(28, 60))
	for _, df := range []int{firstListRooms * limit, firstListRooms*limit + 1} {
		var list []posting
		step := uint32(docs / df)
		for i := range df {
			list = append(list, posting{doc: uint32(i) * step, impact: uint8(rng.IntN(256))})
		}
		if isDense(df, docs) {
			t.Fatalf("%d of %d documents: dense", df, docs)
		}
		b := &rankBuilder{ids: make([]string, docs)}
		b.appendPostings(list)
		seg := &rankSegment{docs: docs, data: b.postings, postingsEnd: int64(len(b.postings))}
		ri := &rankIndex{docs: docs, segs: []*rankSegment{seg}, docBase: []uint32{0, docs}}
		l := termList{all: df, df: df, idf: 1, parts: []termPart{{seg: 0, list: postingsRef{size: int64(len(b.postings)), df: df}}}}
		a := newAccumulator(docs)
		if !ri.accumulate(a, []termList{l}, nil) {
			t.Fatalf("df %d: accumulate failed", df)
		}
		if df <= firstListRooms*limit {
			if len(a.touched) != df {
				t.Errorf("df %d: %d documents hold a score, want all %d", df, len(a.touched), df)
			}
			continue
		}
		if len(a.touched) == 0 || len(a.touched) > limit {
			t.Errorf("df %d: %d documents hold a score, want 1 to %d", df, len(a.touched), limit)
		}
		least := 256 // the least impact admitted, and no document left out may have more
		for _, p := range list {
			if a.matchedOf(p.doc) != 0 {
				least = min(least, int(p.impact))
			}
		}
		for _, p := range list {
			if a.matchedOf(p.doc) == 0 && int(p.impact) > least {
				t.Fatalf("df %d: document %d of impact %d left out, one of impact %d admitted", df, p.doc, p.impact, least)
			}
		}
	}
}
