package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
)

func fastClient(hc *http.Client) *Client {
	c := New(hc)
	c.MinBackoff = time.Millisecond
	c.MaxBackoff = 20 * time.Millisecond
	c.Rate = 1000
	return c
}

func TestGetStatusMapping(t *testing.T) {
	tests := []struct {
		status int
		want   error
	}{
		{404, docidx.ErrNotFound},
		{410, docidx.ErrNotFound},
		{429, docidx.ErrRetryable},
		{500, docidx.ErrRetryable},
		{503, docidx.ErrRetryable},
	}
	for _, tt := range tests {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(tt.status)
		}))
		c := fastClient(srv.Client())
		c.Retries = 2
		_, err := c.Get(context.Background(), Request{URL: srv.URL + "/x"})
		srv.Close()
		if !errors.Is(err, tt.want) {
			t.Errorf("status %d: err = %v, want %v", tt.status, err, tt.want)
		}
		wantCalls := int32(1)
		if errors.Is(tt.want, docidx.ErrRetryable) {
			wantCalls = 3
		}
		if calls.Load() != wantCalls {
			t.Errorf("status %d: %d calls, want %d", tt.status, calls.Load(), wantCalls)
		}
	}
}

func TestGetRetriesThenSucceeds(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(429)
		case 2:
			w.WriteHeader(502)
		case 3:
			// Promise more than we send: a truncated body.
			w.Header().Set("Content-Length", "100")
			w.Write([]byte("short"))
		default:
			if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "docidx/") {
				t.Errorf("User-Agent = %q", ua)
			}
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	resp, err := c.Get(context.Background(), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "ok" {
		t.Errorf("body = %q", resp.Body)
	}
	if got := c.Stats().Retries; got != 3 {
		t.Errorf("retries = %d, want 3", got)
	}
}

func TestGetHonoursRetryAfter(t *testing.T) {
	var first time.Time
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			first = time.Now()
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		if d := time.Since(first); d < 900*time.Millisecond {
			t.Errorf("retried after %v, want >= 1s", d)
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	c.MaxBackoff = 5 * time.Second
	if _, err := c.Get(context.Background(), Request{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
}

func TestGetTooLarge(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 1000))
	}))
	defer srv.Close()
	_, err := fastClient(srv.Client()).Get(context.Background(), Request{URL: srv.URL, MaxBody: 10})
	if !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
}

func TestOffline(t *testing.T) {
	c := fastClient(&http.Client{Transport: Offline{}})
	_, err := c.Get(context.Background(), Request{URL: "https://user:secret@example.invalid/x?token=1"})
	if !errors.Is(err, docidx.ErrOffline) {
		t.Errorf("err = %v, want ErrOffline", err)
	}
	if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "token") {
		t.Errorf("error leaks credentials: %v", err)
	}
	if c.Stats().Retries != 0 {
		t.Errorf("offline error was retried")
	}
}

func TestRetryAfterParse(t *testing.T) {
	if d := retryAfter("3", time.Minute); d != 3*time.Second {
		t.Errorf("retryAfter(3) = %v", d)
	}
	if d := retryAfter("3600", time.Second); d != time.Second {
		t.Errorf("retryAfter capped = %v", d)
	}
	if d := retryAfter(time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat), time.Minute); d <= 0 || d > 3*time.Second {
		t.Errorf("retryAfter(date) = %v", d)
	}
	if d := retryAfter("garbage", time.Minute); d != 0 {
		t.Errorf("retryAfter(garbage) = %v", d)
	}
}

// Stream retries a failure before the body and a body cut short, calling read afresh each time;
// what read makes of a whole body is not retried.
func TestStream(t *testing.T) {
	const body = `{"name":"x"}`
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		case 2: // announces the whole body, sends half
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			io.WriteString(w, body[:len(body)/2])
		default:
			io.WriteString(w, body)
		}
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	var reads []string
	err := c.Stream(context.Background(), Request{URL: srv.URL}, func(r io.Reader, _ http.Header) error {
		b, err := io.ReadAll(r)
		reads = append(reads, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || len(reads) != 2 || reads[1] != body {
		t.Errorf("%d requests, reads %q; want 3 requests and the whole body on the second read", calls.Load(), reads)
	}
	if got := c.Stats().Bytes; got != int64(len(body)+len(body)/2) {
		t.Errorf("Stats().Bytes = %d, want %d", got, len(body)+len(body)/2)
	}

	calls.Store(2)
	bad := errors.New("not what I wanted")
	err = c.Stream(context.Background(), Request{URL: srv.URL}, func(io.Reader, http.Header) error { return bad })
	if !errors.Is(err, bad) || calls.Load() != 3 {
		t.Errorf("read failing: err = %v after %d requests, want %v after 1", err, calls.Load()-2, bad)
	}
}

// A body over MaxBody fails with ErrTooLarge once read has seen MaxBody bytes, even when its
// length was not announced.
func TestStreamTooLarge(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // chunked: no Content-Length
		for range 64 {
			io.WriteString(w, strings.Repeat("x", 1024))
		}
	}))
	defer srv.Close()
	seen := 0
	err := fastClient(srv.Client()).Stream(context.Background(), Request{URL: srv.URL, MaxBody: 4096}, func(r io.Reader, _ http.Header) error {
		n, err := io.Copy(io.Discard, r)
		seen = int(n)
		return err
	})
	if !errors.Is(err, docidx.ErrTooLarge) || seen > 4096 {
		t.Errorf("err = %v after reading %d bytes, want ErrTooLarge after at most 4096", err, seen)
	}
}

// Get reserves its body in the context's budget, and gives the reservation back on failure.
func TestGetReservesBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush()
		}
		if r.URL.Path == "/short" {
			w.Header().Set("Content-Length", "3000")
		}
		io.WriteString(w, strings.Repeat("x", 2000))
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	c.Retries = -1
	for _, path := range []string{"/known", "/chunked", "/short"} {
		work := budget.New(1 << 30).Start()
		_, err := c.Get(budget.NewContext(context.Background(), work), Request{URL: srv.URL + path})
		want := int64(2000)
		if path == "/short" {
			want = 0
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s: err = %v, want io.ErrUnexpectedEOF", path, err)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := work.Held(); got != want {
			t.Errorf("%s: %d bytes reserved, want %d", path, got, want)
		}
		work.Done()
	}
}
