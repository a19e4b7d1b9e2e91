// Package loadcache memoizes what a registry loads per name (packuments, project pages, index
// files, release lists): callers asking for one key at once share one load, failures are
// forgotten so that the next call retries (unless Keep says otherwise), and at most Size entries
// (and, with Weight, at most MaxWeight of them) are kept, the oldest dropped first. It imports
// only the standard library.
package loadcache

import (
	"context"
	"slices"
	"sync"
)

// Cache holds loaded values of type V by string key. The zero Cache keeps nothing between
// calls (Size 0) but still shares concurrent loads; it is safe for concurrent use.
type Cache[V any] struct {
	Size int              // entries kept at most
	Keep func(error) bool // reports failures to keep like values (cargo's not-found); nil keeps none
	// Weight, if set, gives a loaded value's weight (its bytes in memory, say): the oldest
	// entries are dropped while the entries' weights add up to more than MaxWeight, but for
	// the newest, which is kept whatever its weight.
	Weight    func(V) int64
	MaxWeight int64

	mu      sync.Mutex
	entries map[string]*entry[V]
	order   []string // keys, oldest first
	weight  int64    // of the entries held
}

type entry[V any] struct {
	done   chan struct{}
	v      V
	err    error
	weight int64
}

// Get returns the value for key, calling load unless it is cached or being loaded. A caller
// waiting on another's load returns ctx.Err() if ctx ends first.
func (c *Cache[V]) Get(ctx context.Context, key string, load func() (V, error)) (V, error) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.mu.Unlock()
		select {
		case <-e.done:
			return e.v, e.err
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
	}
	if c.entries == nil {
		c.entries = map[string]*entry[V]{}
	}
	e := &entry[V]{done: make(chan struct{})}
	c.entries[key] = e
	c.order = append(c.order, key)
	c.mu.Unlock()

	e.v, e.err = load()
	close(e.done)

	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil && (c.Keep == nil || !c.Keep(e.err)) && c.entries[key] == e {
		delete(c.entries, key)
		if i := slices.Index(c.order, key); i >= 0 {
			c.order = slices.Delete(c.order, i, i+1)
		}
	}
	if c.Weight != nil && c.entries[key] == e && e.err == nil {
		e.weight = c.Weight(e.v)
		c.weight += e.weight
	}
	for len(c.order) > c.Size || c.weight > c.MaxWeight && len(c.order) > 1 {
		c.weight -= c.entries[c.order[0]].weight
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	return e.v, e.err
}

// Len returns the number of entries held, loads in flight included.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
