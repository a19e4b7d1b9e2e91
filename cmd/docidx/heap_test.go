package main

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestHeapLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ limit, live, want int64 }{
		{64 * mib, 20 * mib, 64 * mib},
		{64 * mib, 42 * mib, 64 * mib}, // two thirds and under: a collection frees a third
		{64 * mib, 48 * mib, 72 * mib},
		{64 * mib, 200 * mib, 300 * mib},
	} {
		if got := heapLimit(c.limit, c.live); got != c.want {
			t.Errorf("heapLimit(%d, %d) = %d, want %d", c.limit, c.live, got, c.want)
		}
	}
}

// TestKeepHeapLimit: a live heap larger than the budget raises the limit instead of collecting
// over and over, and the limit found is restored when the server stops.
func TestKeepHeapLimit(t *testing.T) {
	// Below the live heap to come, so that the loop below waits for keepHeapLimit to raise it.
	const found = 32 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(found))
	ballast := make([]byte, 48<<20)
	for i := range ballast {
		ballast[i] = byte(i)
	}
	runtime.GC()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		keepHeapLimit(ctx, minMaxHeap, time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < int64(len(ballast)) {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d after 10 s with a live heap of %d", debug.SetMemoryLimit(-1), len(ballast))
		}
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(ballast)
	cancel()
	<-done
	if got := debug.SetMemoryLimit(-1); got != found {
		t.Errorf("limit %d once the server stopped, want the %d it found", got, found)
	}
}

// TestKeepHeapLimitKeepsLower: a limit the user set lower than the budget (GOMEMLIMIT) is left
// as it is, live heap or not.
func TestKeepHeapLimitKeepsLower(t *testing.T) {
	const lower = 20 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lower))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		keepHeapLimit(ctx, 64<<20, time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	time.Sleep(20 * time.Millisecond) // while the server would run
	got := debug.SetMemoryLimit(-1)
	cancel()
	<-done
	if got != lower {
		t.Errorf("limit %d while serving, want the %d set before", got, lower)
	}
}
