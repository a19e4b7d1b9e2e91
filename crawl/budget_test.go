package crawl

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
)

// sizedSource is a registry whose Fetch reserves size[name] bytes in the crawl's memory budget,
// as a registry does before it holds a download, and records who holds what at once.
type sizedSource struct {
	fakeSource
	size    map[string]int64
	arrived func(name string) // called once name holds its share, before Fetch returns

	mu      sync.Mutex
	holding map[string]bool
	overlap []string // "a with b": a held its share while b did, and one of them was oversize
}

func (s *sizedSource) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if err := budget.FromContext(ctx).Reserve(ctx, s.size[name]); err != nil {
		return nil, err
	}
	s.mu.Lock()
	for other := range s.holding {
		if s.size[name] > 100 || s.size[other] > 100 {
			s.overlap = append(s.overlap, name+" with "+other)
		}
	}
	s.holding[name] = true
	s.mu.Unlock()
	if s.arrived != nil {
		s.arrived(name)
	}
	defer func() {
		s.mu.Lock()
		delete(s.holding, name)
		s.mu.Unlock()
	}()
	return s.fakeSource.Fetch(ctx, name, version)
}

func newSizedSource(size map[string]int64) *sizedSource {
	s := &sizedSource{size: size, holding: map[string]bool{}}
	s.eco, s.name, s.versions = docidx.NPM, "npm registry", map[string][]string{}
	for name := range size {
		s.versions[name] = []string{"1.0.0"}
	}
	return s
}

// Packages whose shares fit in the budget together are fetched together.
func TestBudgetAdmitsSmallTogether(t *testing.T) {
	src := newSizedSource(map[string]int64{"a": 20, "b": 20, "c": 20, "d": 20})
	var wg sync.WaitGroup
	wg.Add(4)
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	src.arrived = func(string) {
		wg.Done()
		select {
		case <-all:
		case <-time.After(time.Minute):
			t.Error("four packages of 20 bytes were not all fetched at once within a budget of 100")
		}
	}
	sum, err := Run(context.Background(), &fakeSink{}, Options{
		Specs: mustSpecs(t, "npm:a", "npm:b", "npm:c", "npm:d"), Registries: []docidx.Registry{src}, MaxMemory: 200,
	})
	if err != nil || sum.Indexed != 4 {
		t.Fatalf("Run: %v, %d indexed; want 4", err, sum.Indexed)
	}
}

// A package whose share is larger than the budget runs alone, and the others still run.
func TestBudgetRunsOversizeAlone(t *testing.T) {
	src := newSizedSource(map[string]int64{"a": 30, "b": 30, "huge": 1 << 40, "c": 30, "d": 30, "e": 30})
	// Holding on a while gives an overlap, were there one, the time to show: the budget must
	// keep them apart however long each holds.
	src.arrived = func(string) { time.Sleep(50 * time.Millisecond) }
	sum, err := Run(context.Background(), &fakeSink{}, Options{
		Specs:      mustSpecs(t, "npm:a", "npm:b", "npm:huge", "npm:c", "npm:d", "npm:e"),
		Registries: []docidx.Registry{src}, MaxMemory: 200,
	})
	if err != nil || sum.Indexed != 6 {
		t.Fatalf("Run: %v, %d indexed; want 6", err, sum.Indexed)
	}
	if len(src.overlap) > 0 {
		t.Errorf("the oversize package held its share together with others: %v", src.overlap)
	}
}

// orderedSource is a sizedSource whose Fetch of "late" starts only once "hog" holds its share.
type orderedSource struct {
	*sizedSource
	hogHolds chan struct{}
}

func (s orderedSource) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if name == "late" {
		<-s.hogHolds
	}
	return s.sizedSource.Fetch(ctx, name, version)
}

// A package whose deadline passes while it waits for memory that the packages in flight hold
// says so, rather than blaming its registry.
func TestBudgetWaitPastDeadline(t *testing.T) {
	src := orderedSource{newSizedSource(map[string]int64{"hog": 200, "late": 50}), make(chan struct{})}
	lateDone := make(chan struct{})
	src.arrived = func(name string) {
		if name == "hog" {
			close(src.hogHolds)
			<-lateDone // hold the whole budget until late has given up
		}
	}
	sum, err := Run(context.Background(), &fakeSink{}, Options{
		Specs:      mustSpecs(t, "npm:hog", "npm:late"),
		Registries: []docidx.Registry{src}, MaxMemory: 400, PackageTimeout: 50 * time.Millisecond,
		OnResult: func(r Result) {
			if strings.HasPrefix(r.Spec, "npm:late") {
				close(lateDone)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sum.Results {
		if !strings.HasPrefix(r.Spec, "npm:late") {
			continue
		}
		if r.Err == nil {
			t.Fatal("late was indexed; want it to run out of time waiting for memory")
		}
		if !strings.Contains(r.Err.Error(), "waited for memory held by the packages in flight; raise --package-timeout or --max-memory") || strings.Contains(r.Err.Error(), "did not answer") {
			t.Errorf("late: %v, want the deadline blamed on the memory budget, not the registry", r.Err)
		}
		return
	}
	t.Fatalf("no result for late: %+v", sum.Results)
}
