package budget

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Works whose shares fit in the budget together all hold them at once.
func TestSmallWorksRunTogether(t *testing.T) {
	b := New(100)
	const n = 5
	var (
		mu           sync.Mutex
		holding, top int
		wg           sync.WaitGroup
	)
	all := make(chan struct{}) // closed once every work holds its share, or the test fails
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := b.Start()
			defer w.Done()
			if err := w.Reserve(context.Background(), 10); err != nil {
				t.Error(err)
				return
			}
			if err := w.Reserve(context.Background(), 10); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			holding++
			top = max(top, holding)
			if holding == n {
				close(all)
			}
			mu.Unlock()
			<-all
		}()
	}
	select {
	case <-all:
	case <-time.After(time.Minute):
		t.Fatal("five works of 20 bytes did not all run within a budget of 100")
	}
	wg.Wait()
	if top != n {
		t.Errorf("%d works ran at once, want %d", top, n)
	}
}

func TestOversizeWorkRunsAlone(t *testing.T) {
	b := New(100)
	small := b.Start()
	if err := small.Reserve(context.Background(), 30); err != nil {
		t.Fatal(err)
	}
	big := b.Start()
	got := make(chan error, 1)
	go func() { got <- big.Reserve(context.Background(), 1000) }()

	// The big one waits for the small one; a newcomer waits behind the big one.
	late := b.Start()
	lateGot := make(chan error, 1)
	waitForWaiter(t, b, big)
	go func() { lateGot <- late.Reserve(context.Background(), 1) }()
	select {
	case err := <-got:
		t.Fatalf("oversize Reserve returned (%v) while another work held 30 of 100 bytes", err)
	case err := <-lateGot:
		t.Fatalf("a later Reserve returned (%v) before the oversize work ran", err)
	case <-time.After(50 * time.Millisecond):
	}
	small.Done()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if h := big.Held(); h != 100 {
		t.Errorf("oversize work holds %d bytes, want the whole budget of 100", h)
	}
	select {
	case err := <-lateGot:
		t.Fatalf("a later Reserve returned (%v) while the oversize work held the budget", err)
	case <-time.After(50 * time.Millisecond):
	}
	big.Done()
	if err := <-lateGot; err != nil {
		t.Fatal(err)
	}
	late.Done()
}

// waitForWaiter waits until w is blocked in Reserve: it then holds nothing, and the semaphore
// admits no one else, not even for a byte.
func waitForWaiter(t *testing.T, b *Budget, w *Work) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for w.Held() != 0 || admits(b) {
		if time.Now().After(deadline) {
			t.Fatal("Reserve never started waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// admits reports whether b's semaphore would let one byte in now.
func admits(b *Budget) bool {
	if !b.sem.TryAcquire(1) {
		return false
	}
	b.sem.Release(1)
	return true
}

// Two works that both grow past what is left must not wait on each other.
func TestGrowingWorksDoNotDeadlock(t *testing.T) {
	b := New(100)
	a, c := b.Start(), b.Start()
	if err := a.Reserve(context.Background(), 60); err != nil {
		t.Fatal(err)
	}
	if err := c.Reserve(context.Background(), 40); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, w := range []*Work{a, c} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := w.Reserve(ctx, 30); err != nil {
				t.Errorf("Reserve: %v (deadlocked)", err)
			}
			w.Done()
		}()
	}
	wg.Wait()
}

func TestReserveCanceled(t *testing.T) {
	b := New(10)
	hog := b.Start()
	if err := hog.Reserve(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
	w := b.Start()
	if err := w.Reserve(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var we *WaitError
	if err := w.Reserve(ctx, 5); !errors.Is(err, context.Canceled) || !errors.As(err, &we) || we.Bytes != 5 || we.Budget != 10 {
		t.Errorf("Reserve with a canceled context = %v, want a WaitError for 5 of 10 bytes wrapping context.Canceled", err)
	}
	if w.Held() != 0 {
		t.Errorf("a canceled Reserve left %d bytes held", w.Held())
	}
	hog.Done()
}

func TestNilWork(t *testing.T) {
	var w *Work
	if err := w.Reserve(context.Background(), 1<<40); err != nil {
		t.Fatal(err)
	}
	w.Release(1)
	w.Done()
	if FromContext(context.Background()) != nil {
		t.Error("FromContext of a bare context is not nil")
	}
	b := New(1)
	if got := FromContext(NewContext(context.Background(), b.Start())); got == nil {
		t.Error("FromContext lost the Work")
	}
}
