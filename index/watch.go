package index

// watch.go lets a long-running reader (docidx serve) follow the crawls that publish new
// generations beside it, without restart and without ever blocking a crawl:
//
//   - Current reads which generation CURRENT names: one read of a file of a dozen bytes, cheap
//     enough to call before every request or once a second.
//   - Reader.Generation and Reader.Stale tell whether an open Reader still reads that generation.
//   - Watcher does the bookkeeping: it hands out the current Reader with a reference count,
//     switches to a new generation when Check (or Run) sees one, and closes the old Reader once
//     the last request using it has released it. The old generation's files go at the next crawl
//     after that (see removeUnused), never while a Reader has them open.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"
)

// Current returns the name of the generation that the index directory dir's CURRENT file names
// ("gen-000007"). It reads one small file, so polling it is cheap. For a dir that is itself a
// single snapshot (one holding manifest.json, such as an unpacked archive) it returns "" and no
// error: such a snapshot never changes. It returns an error wrapping docidx.ErrNoSnapshot when
// nothing was published yet.
func Current(dir string) (string, error) {
	snap, err := currentGen(dir)
	if err != nil {
		return "", err
	}
	if snap == dir {
		return "", nil
	}
	return filepath.Base(snap), nil
}

// Generation returns the name of the generation r reads ("gen-000007"), or "" when r was opened
// on a single snapshot directory.
func (r *Reader) Generation() string { return r.r.gen }

// IndexDir returns the directory r was opened on (Open's argument): the index directory that
// holds CURRENT, or the snapshot directory itself.
func (r *Reader) IndexDir() string { return r.r.root }

// Stale reports whether a newer generation was published in r's index directory since r was
// opened, that is whether Current(r.IndexDir()) names another generation than r.Generation().
// It is false for a single snapshot directory, and when CURRENT cannot be read (r goes on
// serving what it has).
func (r *Reader) Stale() bool {
	if r.r.gen == "" {
		return false
	}
	cur, err := Current(r.r.root)
	return err == nil && cur != "" && cur != r.r.gen
}

// Watcher follows the current snapshot of an index directory: it keeps one Reader open, opens
// the new generation when a crawl publishes one, and closes the previous Reader once every
// caller that acquired it has released it. It is safe for concurrent use.
//
// A server holds a Watcher instead of a Reader:
//
//	w, err := index.Watch(dir)
//	go w.Run(ctx, time.Second, func(r *index.Reader) { /* notifications/resources/list_changed */ })
//	// per request:
//	r, release := w.Acquire()
//	defer release()
type Watcher struct {
	dir string

	mu     sync.Mutex
	cur    *counted
	closed bool
}

// counted is a Reader with the number of callers using it. A retired Reader is closed when its
// count drops to zero.
type counted struct {
	r       *Reader
	n       int
	retired bool
}

// Watch opens the current snapshot of dir (see Open) and returns a Watcher over it. Like Open it
// leaves opening what searches read to the first search: call the Reader's Prepare in the
// background to have that done before (see Reader.Prepare).
func Watch(dir string) (*Watcher, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	return &Watcher{dir: dir, cur: &counted{r: r}}, nil
}

// Acquire returns the current Reader and the function to call when done with it. The Reader
// stays open until released, even if the Watcher switches to a newer generation meanwhile.
// After Close, Acquire still returns the last Reader, which then fails with ErrClosed.
func (w *Watcher) Acquire() (*Reader, func()) {
	w.mu.Lock()
	c := w.cur
	c.n++
	w.mu.Unlock()
	var once sync.Once
	return c.r, func() { once.Do(func() { w.release(c) }) }
}

func (w *Watcher) release(c *counted) {
	w.mu.Lock()
	c.n--
	done := c.retired && c.n == 0
	w.mu.Unlock()
	if done {
		c.r.Close()
	}
}

// Reader returns the current Reader without acquiring it: for callers that only look at it
// (Generation, Manifest). Use Acquire to read from it.
func (w *Watcher) Reader() *Reader {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cur.r
}

// Check switches to the generation CURRENT names if it is not the one being served, and reports
// whether it switched. When nothing changed it costs one read of CURRENT. The new generation is
// opened and prepared (see Reader.Prepare) before the switch, so that no search waits for it;
// when that fails, its rank.idx checksum included, Check keeps serving the old one and returns
// the error.
func (w *Watcher) Check() (bool, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return false, ErrClosed
	}
	stale := w.cur.r.Stale()
	w.mu.Unlock()
	if !stale {
		return false, nil
	}
	r, err := Open(w.dir)
	if err == nil {
		if err = r.Prepare(); err != nil {
			r.Close()
		}
	}
	if err != nil {
		return false, fmt.Errorf("index: switching to the new snapshot in %s: %w", w.dir, err)
	}
	w.mu.Lock()
	if w.closed || r.Generation() == w.cur.r.Generation() {
		w.mu.Unlock()
		r.Close()
		return false, nil
	}
	old := w.cur
	w.cur = &counted{r: r}
	old.retired = true
	done := old.n == 0
	w.mu.Unlock()
	if done {
		old.r.Close()
	}
	return true, nil
}

// Run calls Check every interval until ctx is done, and onSwitch (if not nil) with the new
// Reader after each switch, from Run's goroutine. Errors from Check are passed to onError (if
// not nil) and do not stop Run. It returns ctx's error.
func (w *Watcher) Run(ctx context.Context, interval time.Duration, onSwitch func(*Reader), onError func(error)) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		switched, err := w.Check()
		if errors.Is(err, ErrClosed) {
			return err
		}
		if err != nil && onError != nil {
			onError(err)
		}
		if switched && onSwitch != nil {
			onSwitch(w.Reader())
		}
	}
}

// Close closes the current Reader once every caller that acquired it has released it. Check
// and Run stop switching.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrClosed
	}
	w.closed = true
	c := w.cur
	c.retired = true
	done := c.n == 0
	w.mu.Unlock()
	if done {
		return c.r.Close()
	}
	return nil
}
