package crawl

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/docidx/docidx"
)

// stuckCache is a cache whose Fetch (or List) blocks until release is closed, whatever its
// context says: a read from a file system that never answers, such as a FIFO opened for reading.
type stuckCache struct {
	fakeSource
	stuckList bool
	entered   chan struct{} // closed when the blocking call is entered
	release   chan struct{}
}

func (s *stuckCache) List(ctx context.Context) ([]docidx.Ref, error) {
	if s.stuckList {
		close(s.entered)
		<-s.release
	}
	return s.fakeSource.List(ctx)
}

func (s *stuckCache) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if name == "stuck" {
		close(s.entered)
		<-s.release
	}
	return s.fakeSource.Fetch(ctx, name, version)
}

// recordingSink counts calls that reach it after the crawl returned.
type recordingSink struct {
	fakeSink
	returned bool
	late     int
}

func (s *recordingSink) Put(ctx context.Context, d *docidx.PackageDocs) error {
	s.mu.Lock()
	if s.returned {
		s.late++
	}
	s.mu.Unlock()
	return s.fakeSink.Put(ctx, d)
}

// A crawl whose source is stuck in a read returns when its context is cancelled, with the
// results so far, and the stuck goroutine writes nothing into the sink afterwards.
func TestRunCancelStuckFetch(t *testing.T) {
	for _, stuckList := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			c := &stuckCache{
				fakeSource: fakeSource{eco: docidx.NPM, name: "node_modules", list: true, versions: map[string][]string{"stuck": {"1.0.0"}, "ok": {"1.0.0"}}},
				stuckList:  stuckList,
				entered:    make(chan struct{}),
				release:    make(chan struct{}),
			}
			sink := &recordingSink{}
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				<-c.entered
				cancel()
			}()
			sum, err := Run(ctx, sink, Options{Caches: []docidx.Cache{c}, Concurrency: 1})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("stuckList=%v: Run = %v, want context.Canceled", stuckList, err)
			}
			if !stuckList && sum == nil {
				t.Fatalf("no summary")
			}
			sink.mu.Lock()
			sink.returned = true
			sink.mu.Unlock()
			close(c.release) // the stuck read ends; its package must not reach the sink
			synctest.Wait()  // every goroutine Run left behind has finished
			sink.mu.Lock()
			defer sink.mu.Unlock()
			if sink.late != 0 {
				t.Errorf("stuckList=%v: %d packages stored after Run returned", stuckList, sink.late)
			}
		})
	}
}
