package index

import (
	"testing"
)

// TestAdmitFloor: a list longer than the room left in the accumulator adds its documents of the
// highest impact, at most room of them, and still adds to every document already held.
func TestAdmitFloor(t *testing.T) {
	const docs = 3000
	var list []posting
	for doc := uint32(0); doc < docs; doc += 3 { // 1,000 documents, impacts 0..249
		list = append(list, posting{doc: doc, impact: uint8(doc % 250)})
	}
	b := &rankBuilder{ids: make([]string, docs)}
	b.appendPostings(list)
	ri := &rankIndex{docs: docs, segs: []*rankSegment{{docs: docs}}, docBase: []uint32{0, docs}}
	a := &accumulator{score: make([]float32, docs), matched: make([]uint8, docs), flags: make([]uint64, docs/64+1)}
	// Documents the rarer words brought: 0, 3, 6 (impacts 0, 3, 6 in the list) and 1 (not in it).
	for _, d := range []uint32{0, 1, 3, 6} {
		a.matched[d] = 1
		a.touched = append(a.touched, d)
	}
	l := termList{parts: []termPart{{seg: 0}}, df: len(list)}
	const room = 40
	floor := ri.admitFloor(a, l, [][]byte{b.postings}, nil, room)
	if floor < 1 || floor > 255 {
		t.Fatalf("floor %d", floor)
	}
	if !ri.add(a, 0, b.postings, 1, nil, floor) {
		t.Fatal("add: malformed list")
	}
	added := len(a.touched) - 4
	// The least floor that leaves at most room: the unheld documents at or above it number at
	// most room, and those at or above one below it more.
	above := func(floor int) int {
		n := 0
		for _, p := range list {
			if p.doc%3 == 0 && p.doc > 6 && int(p.impact) >= floor {
				n++
			}
		}
		return n
	}
	if added != above(floor) || added > room || above(floor-1) <= room {
		t.Errorf("floor %d added %d documents (%d at or above it, %d at or above %d), want the least floor leaving at most %d",
			floor, added, above(floor), above(floor-1), floor-1, room)
	}
	for _, d := range a.touched[4:] {
		if int(d%250) < floor {
			t.Errorf("document %d of impact %d added below the floor %d", d, d%250, floor)
		}
	}
	for _, d := range []uint32{3, 6} {
		if a.matched[d] != 2 {
			t.Errorf("held document %d: matched %d, want 2 (a held document is always added to)", d, a.matched[d])
		}
	}
	// Room for none: the floor is above the list's highest impact, 249.
	a2 := &accumulator{score: make([]float32, docs), matched: make([]uint8, docs), flags: make([]uint64, docs/64+1)}
	if f := ri.admitFloor(a2, l, [][]byte{b.postings}, nil, 0); f <= 249 {
		t.Errorf("room 0: floor %d admits a document", f)
	}
}
