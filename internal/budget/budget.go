// Package budget bounds the memory a crawl holds at once. A Budget is a number of bytes; each
// package crawled is one Work that reserves, before it holds them, the bytes it is about to hold
// (a body it reads whole, a buffer it decodes through), and gives them all back when it is done.
// A Work waits while the budget has no room, so the packages in flight together stay within the
// budget; a Work that needs more than the whole budget gets all of it and runs alone rather
// than waiting forever.
//
// Crawl creates the Budget and a Work per package and passes the Work down in the context; the
// registries reserve through FromContext, which is a no-op without one. It imports only the
// standard library and golang.org/x/sync/semaphore.
package budget

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// Budget is a number of bytes shared by the Works started from it. It is safe for concurrent use.
type Budget struct {
	size int64
	sem  *semaphore.Weighted
}

// New returns a Budget of size bytes; size must be positive.
func New(size int64) *Budget {
	return &Budget{size: size, sem: semaphore.NewWeighted(size)}
}

// Start returns a new Work holding nothing.
func (b *Budget) Start() *Work { return &Work{b: b} }

// Work is one package's share of a Budget. Its methods are safe for concurrent use, and a nil
// *Work reserves nothing and never waits.
type Work struct {
	b    *Budget
	mu   sync.Mutex   // one change at a time, so held stays what the semaphore gave
	held atomic.Int64 // bytes; read without mu by Held
}

// Reserve adds n bytes to w's share, waiting until the budget has room for them. A share that
// would exceed the whole budget is capped at the budget: that Work then waits for every other
// to finish and runs alone. When the room is not there at once, w gives back what it holds
// while it waits for the larger share, so that two growing Works never wait on each other.
// Reserve returns a *WaitError wrapping ctx's error when ctx ends first; w then holds nothing.
func (w *Work) Reserve(ctx context.Context, n int64) error {
	if w == nil || n <= 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	held := w.held.Load()
	want := min(held+n, w.b.size)
	if want == held {
		return nil
	}
	if w.b.sem.TryAcquire(want - held) {
		w.held.Store(want)
		return nil
	}
	w.b.sem.Release(held)
	w.held.Store(0)
	if err := w.b.sem.Acquire(ctx, want); err != nil {
		return &WaitError{Bytes: want, Budget: w.b.size, Err: err}
	}
	w.held.Store(want)
	return nil
}

// WaitError is returned by Reserve when its context ended while it waited for room in the
// budget: the package was held up by the others in flight, not by its registry.
type WaitError struct {
	Bytes  int64 // the share waited for, in bytes
	Budget int64 // the budget's size, in bytes
	Err    error // the context's error
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("waited for %s of the crawl's %s memory budget: %v", size(e.Bytes), size(e.Budget), e.Err)
}

// size formats n bytes for a message: in MiB from 1 MiB on.
func size(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// Unwrap returns the context's error.
func (e *WaitError) Unwrap() error { return e.Err }

// Release gives back n of the bytes w holds (all of them when it holds fewer): a reservation for
// something that was not kept after all.
func (w *Work) Release(n int64) {
	if w == nil || n <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	n = min(n, w.held.Load())
	w.b.sem.Release(n)
	w.held.Add(-n)
}

// Held returns the bytes w holds (none while it waits in Reserve).
func (w *Work) Held() int64 {
	if w == nil {
		return 0
	}
	return w.held.Load()
}

// Done gives back everything w holds. w may reserve again afterwards.
func (w *Work) Done() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.sem.Release(w.held.Load())
	w.held.Store(0)
}

type ctxKey struct{}

// NewContext returns a copy of ctx that carries w.
func NewContext(ctx context.Context, w *Work) context.Context {
	return context.WithValue(ctx, ctxKey{}, w)
}

// FromContext returns the Work ctx carries, or nil.
func FromContext(ctx context.Context) *Work {
	w, _ := ctx.Value(ctxKey{}).(*Work)
	return w
}
