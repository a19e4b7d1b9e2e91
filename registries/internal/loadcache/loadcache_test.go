package loadcache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCache(t *testing.T) {
	c := &Cache[int]{Size: 2}
	var loads atomic.Int32
	load := func(v int) func() (int, error) {
		return func() (int, error) { loads.Add(1); return v, nil }
	}
	// Concurrent callers of one key share one load.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := c.Get(context.Background(), "a", load(1)); v != 1 || err != nil {
				t.Errorf("a = %d, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Errorf("%d loads of a, want 1", n)
	}
	// The oldest entry goes once Size is exceeded.
	c.Get(context.Background(), "b", load(2))
	c.Get(context.Background(), "c", load(3))
	if c.Len() != 2 {
		t.Errorf("Len %d, want 2", c.Len())
	}
	c.Get(context.Background(), "a", load(1))
	if n := loads.Load(); n != 4 {
		t.Errorf("%d loads, want 4 (a was dropped and loaded again)", n)
	}
	// Failures are forgotten unless Keep keeps them.
	boom, gone := errors.New("boom"), errors.New("gone")
	c.Keep = func(err error) bool { return errors.Is(err, gone) }
	c.Get(context.Background(), "x", func() (int, error) { return 0, boom })
	if _, err := c.Get(context.Background(), "x", load(9)); err != nil {
		t.Errorf("x after a failure: %v, want a new load", err)
	}
	c.Get(context.Background(), "y", func() (int, error) { return 0, gone })
	if _, err := c.Get(context.Background(), "y", load(9)); !errors.Is(err, gone) {
		t.Errorf("y: %v, want the kept failure", err)
	}
}

// With Weight, the oldest entries go while the weights add up to more than MaxWeight, and the
// newest stays whatever its weight.
func TestCacheWeight(t *testing.T) {
	c := Cache[int]{Size: 10, Weight: func(v int) int64 { return int64(v) }, MaxWeight: 100}
	ctx := context.Background()
	loads := 0
	get := func(key string, v int) {
		t.Helper()
		if got, err := c.Get(ctx, key, func() (int, error) { loads++; return v, nil }); err != nil || got != v {
			t.Fatalf("Get(%s) = %d, %v", key, got, err)
		}
	}
	get("a", 40)
	get("b", 40)
	get("c", 40) // 120 > 100: a goes
	if c.Len() != 2 {
		t.Errorf("%d entries after 120 of weight, want 2", c.Len())
	}
	get("b", 40)
	if loads != 3 {
		t.Errorf("b was loaded again (%d loads)", loads)
	}
	get("huge", 1000) // alone over MaxWeight: kept, the others go
	if c.Len() != 1 {
		t.Errorf("%d entries after one of weight 1000, want it alone", c.Len())
	}
	get("huge", 1000)
	if loads != 4 {
		t.Errorf("the newest entry was dropped although it is the only one (%d loads)", loads)
	}
}
