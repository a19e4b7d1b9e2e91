package index

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDenseLists checks that a list written dense adds to an accumulator exactly what the same
// list written as gaps adds, growing it and adding only to the documents it holds, and that
// forEachDense walks it whole.
func TestDenseLists(t *testing.T) {
	const docs = 5000
	rng := rand.New(rand.NewPCG(3, 4))
	var list []posting
	for doc := range uint32(docs) {
		if rng.IntN(5) == 0 || doc == 0 || doc == docs-1 {
			wtf := float64(1 + rng.IntN(9))
			list = append(list, posting{doc: doc, impact: quantize(wtf / (rankK1 + wtf))})
		}
	}
	if !isDense(len(list), docs) {
		t.Fatalf("%d of %d documents: not dense", len(list), docs)
	}
	gaps := &rankBuilder{ids: make([]string, docs)}
	gaps.appendPostings(list)
	dense := &rankBuilder{ids: make([]string, docs)}
	dense.appendDense(list)
	if want := 8*denseWords(docs) + 4*denseRanks(docs) + len(list); len(dense.postings) != want {
		t.Fatalf("dense list of %d bytes, want %d", len(dense.postings), want)
	}

	var walked []posting
	if !forEachDense(dense.postings, docs, func(doc uint32, imp uint8) { walked = append(walked, posting{doc: doc, impact: imp}) }) {
		t.Fatal("forEachDense: malformed")
	}
	if len(walked) != len(list) {
		t.Fatalf("forEachDense walked %d documents, want %d", len(walked), len(list))
	}
	for i, p := range list {
		if walked[i] != p {
			t.Fatalf("posting %d: %v, want doc %d impact %d", i, walked[i], p.doc, p.impact)
		}
	}

	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	newAcc := func() *accumulator {
		return newAccumulator(docs)
	}
	// A rarer list first, then this one: growing, and adding only to what is held.
	var rare []posting
	for doc := uint32(3); doc < docs; doc += 7 {
		rare = append(rare, posting{doc: doc, impact: quantize(2 / (rankK1 + 2))})
	}
	rareB := &rankBuilder{ids: make([]string, docs)}
	rareB.appendPostings(rare)
	keep := everyEleventhOut(docs)
	for _, grow := range []bool{true, false} {
		for _, k := range []*docFilter{nil, keep} {
			a, b := newAcc(), newAcc()
			if !ri.add(a, 0, rareB.postings, 1.5, k, growAll) || !ri.add(b, 0, rareB.postings, 1.5, k, growAll) {
				t.Fatal("rare list: malformed")
			}
			if !ri.add(a, 0, gaps.postings, 2.5, k, growth(grow)) {
				t.Fatal("gaps: malformed")
			}
			if !ri.addDense(b, 0, dense.postings, 2.5, k, grow) {
				t.Fatal("dense: malformed")
			}
			slices.Sort(a.touched)
			slices.Sort(b.touched)
			if !slices.Equal(a.touched, b.touched) || !sameScores(a, b, docs) {
				t.Errorf("grow %v, keep %v: the dense list adds otherwise than the gaps", grow, k != nil)
			}
		}
	}
	// Damage is reported, not a panic.
	if ri.addDense(newAcc(), 0, dense.postings[:100], 1, nil, true) || forEachDense(dense.postings[:len(dense.postings)-1], docs, func(uint32, uint8) {}) {
		t.Error("a truncated dense list was accepted")
	}
}

// TestPostingGaps checks that add and addAlternative, which read one-byte gaps themselves,
// decode gaps of every length as forEachPosting does, and report a list cut inside a gap.
func TestPostingGaps(t *testing.T) {
	const docs = 400_000
	var list []posting
	doc := uint32(0)
	for i, gap := range []uint32{5, 1, 127, 128, 129, 1, 16383, 16384, 2, 200_000, 3, 70_000} {
		doc += gap
		wtf := float64(1 + i%9)
		list = append(list, posting{doc: doc, impact: quantize(wtf / (rankK1 + wtf))})
	}
	b := &rankBuilder{ids: make([]string, docs)}
	b.appendPostings(list)

	var walked []posting
	forEachPosting(b.postings, func(doc uint32, imp uint8) { walked = append(walked, posting{doc: doc, impact: imp}) })
	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	newAcc := func() *accumulator {
		return newAccumulator(docs)
	}
	added, alt := newAcc(), newAcc()
	if !ri.add(added, 0, b.postings, 2.5, nil, growAll) {
		t.Fatal("add: malformed")
	}
	if !ri.addAlternative(alt, 0, b.postings, nil, make([]uint64, docs/64+1), 2.5/255, nil, true) {
		t.Fatal("addAlternative: malformed")
	}
	if len(walked) != len(list) || len(added.touched) != len(list) || len(alt.touched) != len(list) {
		t.Fatalf("%d postings: forEachPosting walked %d, add touched %d, addAlternative %d",
			len(list), len(walked), len(added.touched), len(alt.touched))
	}
	for i, p := range list {
		want := 2.5 / 255 * float32(p.impact)
		if walked[i] != p ||
			added.touched[i] != p.doc || added.scoreOf(p.doc) != want || alt.touched[i] != p.doc || alt.scoreOf(p.doc) != want {
			t.Fatalf("posting %d (document %d, impact %d): walked %v, add %d %v, addAlternative %d %v", i, p.doc, p.impact,
				walked[i], added.touched[i], added.scoreOf(p.doc), alt.touched[i], alt.scoreOf(p.doc))
		}
	}
	// Cut inside the three-byte gap of 200,000: reported, not a panic.
	cut := bytes.Index(b.postings, binary.AppendUvarint(nil, 200_000)) + 2
	if ri.add(newAcc(), 0, b.postings[:cut], 1, nil, growAll) || ri.addAlternative(newAcc(), 0, b.postings[:cut], nil, make([]uint64, docs/64+1), 1, nil, true) {
		t.Error("a list cut inside a gap was accepted")
	}
}

// TestAddAlternative checks that addAlternative and addAlternativeDense decode every posting of
// the list, as gaps and dense, and add it as addAlternativeDoc adds it: with documents held,
// filtered out, or not yet scored while the accumulator may not grow, and then, given the
// list's skip table, reading only the runs that span a document the accumulator holds (the
// rarer word's documents are all in the first half). markHeld given the table sets the bits of
// the documents the accumulator holds as it sets them reading the whole list.
func TestAddAlternative(t *testing.T) {
	const docs = 5000
	rng := rand.New(rand.NewPCG(14, 3))
	var list, rare []posting
	for doc := range uint32(docs) {
		if rng.IntN(4) == 0 {
			wtf := float64(1 + rng.IntN(9))
			list = append(list, posting{doc: doc, impact: quantize(wtf / (rankK1 + wtf))})
		}
		if doc%7 == 3 && doc < docs/2 {
			rare = append(rare, posting{doc: doc, impact: quantize(2 / (rankK1 + 2))})
		}
	}
	b, rb, db := &rankBuilder{ids: make([]string, docs)}, &rankBuilder{ids: make([]string, docs)}, &rankBuilder{ids: make([]string, docs)}
	b.appendPostings(list)
	rb.appendPostings(rare)
	db.appendDense(list)
	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	keep := everyEleventhOut(docs)
	skips := makeSkips(b.postings, docs)
	if len(skips) < 8 {
		t.Fatalf("%d runs in the skip table", len(skips))
	}
	for _, grow := range []bool{true, false} {
		for _, k := range []*docFilter{nil, keep} {
			var accs [4]*accumulator
			var helds [4][]uint64
			for j := range accs {
				accs[j] = newAccumulator(docs)
				if !ri.add(accs[j], 0, rb.postings, 1.5, k, growAll) {
					t.Fatal("rare list: malformed")
				}
				helds[j] = make([]uint64, docs/64+1)
				for doc := 0; doc < docs; doc += 5 {
					helds[j][doc/64] |= 1 << (doc % 64)
				}
			}
			if !ri.addAlternative(accs[0], 0, b.postings, nil, helds[0], 0.01, k, grow) {
				t.Fatal("addAlternative: malformed")
			}
			forEachPosting(b.postings, func(doc uint32, imp uint8) {
				ri.addAlternativeDoc(accs[1], doc, imp, helds[1], 0.01, k, grow)
			})
			if !ri.addAlternativeDense(accs[2], 0, db.postings, helds[2], 0.01, k, grow) {
				t.Fatal("addAlternativeDense: malformed")
			}
			names := map[int]string{0: "addAlternative", 2: "addAlternativeDense"}
			if !grow {
				names[3] = "addAlternative with a skip table"
				if !ri.addAlternative(accs[3], 0, b.postings, skips, helds[3], 0.01, k, grow) {
					t.Fatal("addAlternative with a skip table: malformed")
				}
			}
			for j, name := range names {
				if !slices.Equal(accs[j].touched, accs[1].touched) || !sameScores(accs[j], accs[1], docs) ||
					!slices.Equal(helds[j], helds[1]) {
					t.Errorf("grow %v, keep %v: %s adds otherwise than addAlternativeDoc", grow, k != nil, name)
				}
			}
		}
	}
}

// TestMarkHeldRuns: markHeld given a list's skip table sets the bits of every document of the
// list the accumulator holds (the others it may leave clear), as reading the whole list does.
func TestMarkHeldRuns(t *testing.T) {
	const docs = 6000
	var list []posting
	for doc := uint32(1); doc < docs; doc += 3 {
		list = append(list, posting{doc: doc, impact: 9})
	}
	b := &rankBuilder{ids: make([]string, docs)}
	b.appendPostings(list)
	skips := makeSkips(b.postings, docs)
	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	a := newAccumulator(docs)
	for _, doc := range []uint32{4, 5, 2000, 2001, 5998} {
		a.touch(doc).matched[doc&accPageMask] = 1
	}
	whole, runs := make([]uint64, denseWords(docs)), make([]uint64, denseWords(docs))
	if !ri.markHeld(nil, whole, 0, b.postings, false, nil) || !ri.markHeld(a, runs, 0, b.postings, false, skips) {
		t.Fatal("markHeld: malformed")
	}
	read := 0
	for doc := range uint32(docs) {
		bit := uint64(1) << (doc % 64)
		if runs[doc/64]&bit != 0 {
			read++
			if whole[doc/64]&bit == 0 {
				t.Fatalf("document %d: set, not in the list", doc)
			}
		}
		if a.matchedOf(doc) != 0 && runs[doc/64]&bit != whole[doc/64]&bit {
			t.Errorf("document %d, held: bit %v, want %v", doc, runs[doc/64]&bit != 0, whole[doc/64]&bit != 0)
		}
	}
	if read >= len(list) {
		t.Errorf("all %d postings read: no run passed over", read)
	}
}

// everyEleventhOut returns a filter of docs documents that keeps all but every eleventh.
func everyEleventhOut(docs uint32) *docFilter {
	keep := &docFilter{docOK: make([]uint64, (docs+63)/64)}
	for doc := range docs {
		if doc%11 != 0 {
			keep.docOK[doc/64] |= 1 << (doc % 64)
		}
	}
	return keep
}

// growth is add's growAt for a list that grows the accumulator or does not.
func growth(grow bool) int {
	if grow {
		return growAll
	}
	return growNone
}

// TestMarkHeldUnaligned checks that markHeld sets the bits of a dense list's documents in a
// segment that starts inside a word of the snapshot's bitmap (as it sets those of the same list
// written as gaps), touches no other bit, and refuses a list with bits past its segment's last
// document or impacts that do not match its bits.
func TestMarkHeldUnaligned(t *testing.T) {
	const first, docs = 1000, 4100 // a segment of 4,100 documents after one of 1,000: at bit 40 of word 15
	rng := rand.New(rand.NewPCG(28, 5))
	var list []posting
	for doc := range uint32(docs) {
		if rng.IntN(3) == 0 || doc == 0 || doc == docs-1 {
			list = append(list, wtfPosting(doc, float64(1+rng.IntN(9))))
		}
	}
	dense, gaps := &rankBuilder{ids: make([]string, docs)}, &rankBuilder{ids: make([]string, docs)}
	dense.appendDense(list)
	gaps.appendPostings(list)
	ri := &rankIndex{docs: first + docs + 30, segs: []*rankSegment{{docs: first}, {docs: docs}, {docs: 30}}, docBase: []uint32{0, first, first + docs, first + docs + 30}}
	n := denseWords(ri.docs)
	want, got := make([]uint64, n), make([]uint64, n)
	if !ri.markHeld(nil, want, 1, gaps.postings, false, nil) {
		t.Fatal("gaps: malformed")
	}
	if !ri.markHeld(nil, got, 1, dense.postings, true, nil) {
		t.Fatal("dense: malformed")
	}
	if !slices.Equal(got, want) {
		t.Fatal("the dense list marks other bits than the gaps")
	}
	// A bit past the segment's last document, and a list one impact short: refused.
	past := append(slices.Clone(dense.postings), 1) // its impact
	past[8*(denseWords(docs)-1)+7] |= 0x80
	if ri.markHeld(nil, make([]uint64, n), 1, past, true, nil) {
		t.Error("a dense list with a document past its segment was accepted")
	}
	if ri.markHeld(nil, make([]uint64, n), 1, dense.postings[:len(dense.postings)-1], true, nil) {
		t.Error("a dense list one impact short was accepted")
	}
}

// TestForEachIn checks that forEachIn walks the postings of a term's parts, sparse and dense,
// in [lo, hi) of the snapshot's documents, in forEach's order, for ranges inside, across and
// outside the segments.
func TestForEachIn(t *testing.T) {
	sizes := []int{1500, 3000, 700}
	rng := rand.New(rand.NewPCG(28, 6))
	ri := &rankIndex{docBase: []uint32{0}}
	var l termList
	var bufs [][]byte
	var all []posting // every posting, numbered over the snapshot, in forEach's order
	for i, docs := range sizes {
		ri.segs = append(ri.segs, &rankSegment{docs: docs})
		ri.docBase = append(ri.docBase, ri.docBase[i]+uint32(docs))
		var list []posting
		for doc := range uint32(docs) {
			if rng.IntN(4) == 0 {
				list = append(list, wtfPosting(doc, float64(1+rng.IntN(9))))
			}
		}
		b := &rankBuilder{ids: make([]string, docs)}
		dense := i == 1
		if dense {
			b.appendDense(list)
		} else {
			b.appendPostings(list)
		}
		l.parts = append(l.parts, termPart{seg: i, list: postingsRef{size: int64(len(b.postings)), df: len(list), dense: dense}})
		bufs = append(bufs, b.postings)
		for _, p := range list {
			all = append(all, posting{doc: ri.docBase[i] + p.doc, impact: p.impact})
		}
	}
	ri.docs = int(ri.docBase[len(sizes)])
	for _, r := range [][2]uint32{{0, 1}, {0, uint32(ri.docs)}, {100, 200}, {1400, 1600}, {1000, 5000}, {4600, 5200}, {5200, 6000}, {3000, 3000}} {
		var want, got []posting
		for _, p := range all {
			if p.doc >= r[0] && p.doc < r[1] {
				want = append(want, p)
			}
		}
		ri.forEachIn(l, bufs, r[0], r[1], func(doc uint32, imp uint8) { got = append(got, posting{doc: doc, impact: imp}) })
		if !slices.Equal(got, want) {
			t.Errorf("[%d, %d): %d postings, want %d", r[0], r[1], len(got), len(want))
		}
	}
}

// wtfPosting returns the posting of doc for a term of weighted frequency wtf there.
func wtfPosting(doc uint32, wtf float64) posting {
	return posting{doc: doc, impact: quantize(wtf / (rankK1 + wtf))}
}

// TestReleaseDropsLargeTables checks that an accumulator does not keep, for the searches after
// it, the tables of a search that touched many documents, and keeps those of a small one.
func TestReleaseDropsLargeTables(t *testing.T) {
	const docs = 1 << 22
	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	for _, c := range []struct {
		touched int
		kept    bool
	}{{1000, true}, {docs / 2, false}} {
		a := ri.acquire()
		for doc := range uint32(c.touched) {
			a.touch(doc * 2)
		}
		a.scores = make([]float32, c.touched)
		ri.release(a)
		b := ri.acquire()
		if b != a {
			t.Fatal("release did not keep the accumulator")
		}
		if kept := cap(b.touched) > 0; kept != c.kept {
			t.Errorf("%d documents touched: their list kept %v, want %v", c.touched, kept, c.kept)
		}
		if kept := cap(b.scores) > 0; kept != c.kept {
			t.Errorf("%d documents touched: their scores kept %v, want %v", c.touched, kept, c.kept)
		}
		ri.release(b)
	}
}

// TestIntersect checks that intersect finds, of a sorted set of documents, exactly those a
// list's parts hold, dense or sparse, however the set and the list fall into segments: as a
// walk of the whole list does.
func TestIntersect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sizes := []int{3000, 700, 5000, 64, 2000} // segments; large ones take dense lists
	ri := &rankIndex{docBase: []uint32{0}}
	var l termList
	for s, n := range sizes {
		var list []posting
		share := 2 + rng.IntN(30) // one document in share, so some lists are dense
		for doc := range uint32(n) {
			if rng.IntN(share) == 0 {
				list = append(list, posting{doc: doc, impact: 1 + uint8(rng.IntN(255))})
			}
		}
		b := &rankBuilder{ids: make([]string, n)}
		dense := isDense(len(list), n)
		if dense {
			b.appendDense(list)
		} else {
			b.appendPostings(list)
		}
		seg := &rankSegment{docs: n, data: b.postings, postingsEnd: int64(len(b.postings))}
		ri.segs = append(ri.segs, seg)
		ri.docBase = append(ri.docBase, ri.docBase[s]+uint32(n))
		if len(list) > 0 && s != 1 { // segment 1 has documents but not the term
			l.parts = append(l.parts, termPart{seg: s, list: postingsRef{size: int64(len(b.postings)), df: len(list), dense: dense}})
		}
	}
	if !slices.ContainsFunc(l.parts, func(p termPart) bool { return p.list.dense }) || !slices.ContainsFunc(l.parts, func(p termPart) bool { return !p.list.dense }) {
		t.Fatal("the lists are not both dense and sparse")
	}
	held := map[uint32]bool{}
	ri.forEach(l, func(doc uint32, _ uint8) { held[doc] = true })
	total := ri.docBase[len(sizes)]
	for round := range 50 {
		var docs, want []uint32
		for doc := range total {
			if rng.IntN(1+round*7) == 0 {
				docs = append(docs, doc)
				if held[doc] {
					want = append(want, doc)
				}
			}
		}
		if got := ri.intersect(nil, docs, l); !slices.Equal(got, want) {
			t.Fatalf("round %d: %d of %d documents found, want %d", round, len(got), len(docs), len(want))
		}
	}
}

// TestAddFormsHeld: another form of a word that may grow the accumulator adds the documents
// that hold neither form, and none that holds the word as typed, though the accumulator does not
// hold it (the word's long list was admitted above a floor) and the list has a skip table.
func TestAddFormsHeld(t *testing.T) {
	const docs = 100_000
	var typed, other []posting
	for doc := uint32(0); doc < docs; doc += 20 {
		typed = append(typed, posting{doc: doc, impact: 50})
	}
	for _, doc := range []uint32{30_000, 30_001, 30_005} {
		other = append(other, posting{doc: doc, impact: 60})
	}
	b := &rankBuilder{ids: make([]string, docs)}
	b.appendPostings(typed)
	typedRef := postingsRef{size: int64(len(b.postings)), df: len(typed)}
	b.appendPostings(other)
	otherRef := postingsRef{off: typedRef.size, size: int64(len(b.postings)) - typedRef.size, df: len(other)}
	if typedRef.df < minSkipPostings || isDense(typedRef.df, docs) {
		t.Fatalf("%d postings of %d documents: not a long sparse list", typedRef.df, docs)
	}
	seg := &rankSegment{docs: docs, data: b.postings, postingsEnd: int64(len(b.postings))}
	ri := &rankIndex{docs: docs, segs: []*rankSegment{seg}, docBase: []uint32{0, docs}}
	word := termList{term: "receive", df: typedRef.df, idf: 1, parts: []termPart{{list: typedRef}}}
	form := altList{termList{term: "recv", df: otherRef.df, idf: 2, parts: []termPart{{list: otherRef}}}, 0}
	a := newAccumulator(docs)
	for doc := uint32(1000); doc < 2000; doc += 20 { // what admitting the word's list kept
		p := a.touch(doc)
		p.matched[doc&accPageMask] = 1
	}
	a.lists = [][]byte{ri.postings(word.parts[0])}
	ri.skipsOf(word.parts[0], a.lists[0]) // read once before: the next reading makes a table
	if !alternativeGrows(a, form.df, 1) {
		t.Fatal("the form cannot grow the accumulator")
	}
	if _, ok := ri.addForms(a, []altList{form}, [][]string{{"receive"}}, []termList{word}, nil); !ok {
		t.Fatal("addForms: malformed list")
	}
	for doc, want := range map[uint32]bool{30_000: false, 30_001: true, 30_005: true} {
		if got := a.matchedOf(doc) != 0 && a.scoreOf(doc) > 0; got != want {
			t.Errorf("document %d: added %v, want %v", doc, got, want)
		}
	}
}
