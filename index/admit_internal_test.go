package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAdmit: a list longer than the room left in the accumulator adds its documents of the
// highest impact, at most room of them (those at or above the least floor that leaves at most
// room), and still adds to every document already held: exactly what add adds with that floor
// as its growAt, in the same order, over a list in two segments, with and without a filter.
func TestAdmit(t *testing.T) {
	const segDocs = 3000
	sizes := []int{segDocs, segDocs}
	rng := rand.New(rand.NewPCG(28, 7))
	ri := &rankIndex{docs: 2 * segDocs, segs: []*rankSegment{{docs: segDocs}, {docs: segDocs}}, docBase: []uint32{0, segDocs, 2 * segDocs}}
	var l termList
	var bufs [][]byte
	var all []posting // numbered over the snapshot
	for i := range sizes {
		var list []posting
		for doc := uint32(0); doc < segDocs; doc += 1 + uint32(rng.IntN(5)) {
			list = append(list, posting{doc: doc, impact: uint8(rng.IntN(250))})
		}
		b := &rankBuilder{ids: make([]string, segDocs)}
		b.appendPostings(list)
		l.parts = append(l.parts, termPart{seg: i, list: postingsRef{size: int64(len(b.postings)), df: len(list)}})
		l.df += len(list)
		bufs = append(bufs, b.postings)
		for _, p := range list {
			all = append(all, posting{doc: ri.docBase[i] + p.doc, impact: p.impact})
		}
	}
	l.idf = 2.5
	newAcc := func() *accumulator {
		a := &accumulator{score: make([]float32, ri.docs), matched: make([]uint8, ri.docs), flags: make([]uint64, ri.docs/64+1)}
		// Documents the rarer words brought, some in the list and some not.
		for d := uint32(0); d < uint32(ri.docs); d += 97 {
			a.matched[d] = 1
			a.score[d] = 0.5
			a.touched = append(a.touched, d)
		}
		return a
	}
	for _, keep := range []*docFilter{nil, everyEleventhOut(uint32(ri.docs))} {
		held := newAcc()
		above := func(floor int) int { // the documents not held at or above floor
			n := 0
			for _, p := range all {
				if held.matched[p.doc] == 0 && keep.keep(p.doc) && int(p.impact) >= floor {
					n++
				}
			}
			return n
		}
		// Rooms of none, one, some, exactly the documents at or above an impact, and all.
		for _, room := range []int{0, 1, 40, 700, above(120), 100_000} {
			// The least floor that leaves at most room documents not held.
			floor := 0
			for above(floor) > room {
				floor++
			}
			got, want := newAcc(), newAcc()
			if !ri.admit(got, l, bufs, keep, room) {
				t.Fatal("admit: malformed list")
			}
			for j, part := range l.parts {
				if !ri.add(want, part.seg, bufs[j], l.idf, keep, floor) {
					t.Fatal("add: malformed list")
				}
			}
			if added := len(got.touched) - len(held.touched); added > room || added != above(floor) {
				t.Errorf("keep %v, room %d: %d documents added, want %d (floor %d)", keep != nil, room, added, above(floor), floor)
			}
			if !slices.Equal(got.touched, want.touched) || !slices.Equal(got.matched, want.matched) || !slices.Equal(got.score, want.score) {
				t.Errorf("keep %v, room %d: admit adds otherwise than add with the floor %d", keep != nil, room, floor)
			}
		}
	}
	// A list cut short: reported, not a panic.
	if ri.admit(newAcc(), l, [][]byte{bufs[0], bufs[1][:len(bufs[1])-1]}, nil, 40) {
		t.Error("a list cut short was accepted")
	}
}
