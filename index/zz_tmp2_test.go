package index

import (
	"os"
	"testing"
)

func BenchmarkTmpHit(b *testing.B) {
	r, err := Open(os.Getenv("SNAP"))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ri := r.r.rank
	ir, _ := r.r.latestReader()
	defer ir.Close()
	var scratch []byte
	n := 0
	for b.Loop() {
		doc := uint32((n * 7919) % 20000)
		n++
		if _, _, err := ri.storedHit(ir, doc, &scratch); err != nil {
			b.Fatal(err)
		}
	}
}
