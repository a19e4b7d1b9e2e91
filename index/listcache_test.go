package index

import (
	"bytes"
	"testing"

	"github.com/docidx/docidx"
)

// TestListCache checks that the cache keeps lists up to its budget, dropping the least recently
// used first, and that a list larger than the budget is not kept.
func TestListCache(t *testing.T) {
	c := &listCache{budget: 100}
	list := func(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }
	c.put(listKey{0, 0}, list(40, 'a'))
	c.put(listKey{0, 40}, list(40, 'b'))
	if got, ok := c.get(listKey{0, 0}); !ok || !bytes.Equal(got, list(40, 'a')) { // a is now the most recent
		t.Fatalf("get a: %q, %v", got, ok)
	}
	c.put(listKey{1, 0}, list(40, 'c')) // 120 bytes: b goes
	if _, ok := c.get(listKey{0, 40}); ok {
		t.Error("b, the least recently used, is kept past the budget")
	}
	for _, k := range []listKey{{0, 0}, {1, 0}} {
		if _, ok := c.get(k); !ok {
			t.Errorf("%v dropped", k)
		}
	}
	if c.size != 80 || len(c.entries) != 2 || c.lru.Len() != 2 {
		t.Errorf("size %d, %d entries, %d in the LRU list; want 80, 2, 2", c.size, len(c.entries), c.lru.Len())
	}
	c.put(listKey{2, 0}, list(101, 'd'))
	if _, ok := c.get(listKey{2, 0}); ok || c.size != 80 {
		t.Errorf("a list over the budget is kept (size %d)", c.size)
	}
}

// TestPostingsCached checks that postings returns a list's bytes as read from rank.idx, keeps it
// for the next search, and reads a list of more than maxCachedList bytes into the caller's
// buffer without keeping it.
func TestPostingsCached(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/pool", Version: "v1.0.0", Description: "worker pool"},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "NewPool", Package: "example.com/pool", QualifiedName: "pool.NewPool", Doc: "NewPool starts a worker pool."}},
	})
	ri := r.r.rank
	var scratch []byte
	l, ok := ri.lookup("pool", &scratch)
	if !ok {
		t.Fatal("pool not found")
	}
	part := l.parts[0]
	want := ri.segs[part.seg].read(part.list, nil)
	var buf []byte
	if got := ri.postings(part, &buf); !bytes.Equal(got, want) || buf != nil {
		t.Fatalf("postings: %x (buffer %x), want %x read into no buffer", got, buf, want)
	}
	if kept, ok := ri.lists.get(listKey{part.seg, part.list.off}); !ok || !bytes.Equal(kept, want) {
		t.Fatalf("kept: %x, %v", kept, ok)
	}
	// Kept, the list is not read again: a closed file does not matter.
	ri.segs[part.seg].f.Close()
	if got := ri.postings(part, &buf); !bytes.Equal(got, want) {
		t.Errorf("postings after close: %x, want the kept %x", got, want)
	}
	// A list too large to keep is read each time (here: it cannot be, the file is closed).
	big := part
	big.list.off, big.list.size = part.list.off+1, maxCachedList+1
	if got := ri.postings(big, &buf); got != nil {
		t.Errorf("a list too large to keep was not read: %x", got)
	}
}
