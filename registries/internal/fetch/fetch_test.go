package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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

func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&StatusError{Status: http.StatusUnauthorized}, true},
		{errors.Join(errors.New("npm: widget"), &StatusError{Status: http.StatusForbidden}), true},
		{&StatusError{Status: http.StatusNotFound}, false},
		{&StatusError{Status: http.StatusBadRequest}, false},
		{errors.New("401 Unauthorized"), false},
		{nil, false},
	} {
		if got := Refused(tc.err); got != tc.want {
			t.Errorf("Refused(%v) = %v, want %v", tc.err, got, tc.want)
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
	if d := retryAfter("3"); d != 3*time.Second {
		t.Errorf("retryAfter(3) = %v", d)
	}
	if d := retryAfter("999999"); d != 999999*time.Second {
		t.Errorf("retryAfter(999999) = %v", d)
	}
	// 10^15 seconds overflows a time.Duration; it must stay a long wait, not wrap around.
	if d := retryAfter("1000000000000000"); d != maxRetryAfter {
		t.Errorf("retryAfter(10^15) = %v, want %v", d, maxRetryAfter)
	}
	if d := retryAfter("100000000000000000000000"); d != maxRetryAfter {
		t.Errorf("retryAfter(10^23) = %v, want %v", d, maxRetryAfter)
	}
	if d := retryAfter(time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)); d <= 0 || d > 3*time.Second {
		t.Errorf("retryAfter(date) = %v", d)
	}
	if d := retryAfter("garbage"); d != 0 {
		t.Errorf("retryAfter(garbage) = %v", d)
	}
	if d := retryAfter("-5"); d != 0 {
		t.Errorf("retryAfter(-5) = %v", d)
	}
}

// A Retry-After that ends after the deadline fails at once, with the wait in the error, instead
// of retrying early (the wait is capped at MaxBackoff) until the retries run out.
func TestGetRetryAfterPastDeadline(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "999999")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := fastClient(srv.Client()).Get(ctx, Request{URL: srv.URL + "/x"})
	if err == nil || !strings.Contains(err.Error(), "registry asked to retry after 277h46m39s") || !strings.Contains(err.Error(), "giving up") {
		t.Errorf("err = %v, want the Retry-After and giving up", err)
	}
	if !errors.Is(err, docidx.ErrRetryable) {
		t.Errorf("err = %v, want ErrRetryable", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// A backoff that would end after the deadline is not slept: Get gives up at once with the last
// error, not with "context deadline exceeded" once the deadline has passed.
func TestGetBackoffPastDeadline(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	c.MinBackoff, c.MaxBackoff = time.Hour, time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Get(ctx, Request{URL: srv.URL + "/x"})
	if err == nil || !strings.Contains(err.Error(), "503 Service Unavailable") || !strings.Contains(err.Error(), "would start after the deadline; giving up") {
		t.Errorf("err = %v, want the 503 and giving up", err)
	}
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		t.Errorf("err = %v: Get waited for the deadline", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// trickle answers 200 with a body of a promised 1000 bytes sent one byte every gap, until the
// request ends.
func trickle(gap time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		for range 1000 {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
		}
	}
}

// A body trickled slower than the deadline allows is cut by the deadline.
func TestGetTrickleCutAtDeadline(t *testing.T) {
	srv := httptest.NewServer(trickle(10 * time.Millisecond))
	defer srv.Close()
	c := fastClient(srv.Client())
	c.MinRate = -1 // only the deadline cuts it
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.Get(ctx, Request{URL: srv.URL + "/x"})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, docidx.ErrRetryable) {
		t.Errorf("err = %v, want context.DeadlineExceeded, not a registry failure", err)
	}
}

// A body arriving under MinRate is cut at the end of a RateWindow, without any deadline, and the
// error says why; the attempt is retried like any other transient failure.
func TestGetTooSlow(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		trickle(50*time.Millisecond)(w, r)
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	c.Retries = 1
	c.MinRate, c.RateWindow = 1000, 100*time.Millisecond // 100 bytes per window; ~2 arrive
	_, err := c.Get(context.Background(), Request{URL: srv.URL + "/x"})
	if !errors.Is(err, errTooSlow) || !errors.Is(err, docidx.ErrRetryable) {
		t.Fatalf("err = %v, want errTooSlow and ErrRetryable", err)
	}
	if !strings.Contains(err.Error(), "under the minimum of 1000 bytes/s") {
		t.Errorf("err = %v, want the minimum rate in it", err)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d requests, want 2 (one retry)", n)
	}
}

// TestRedirectCredentials holds the rule that credentials go only to the origin they were
// configured for, on every hop: a redirect to another port drops the Authorization header, the
// user information and the Referer, and a redirect within the origin keeps them.
func TestRedirectCredentials(t *testing.T) {
	type seen struct{ auth, referer string }
	record := func(ch chan<- seen) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			ch <- seen{r.Header.Get("Authorization"), r.Header.Get("Referer")}
			w.Write([]byte("ok"))
		}
	}
	other := make(chan seen, 1)
	elsewhere := httptest.NewServer(record(other))
	defer elsewhere.Close()
	home := make(chan seen, 1)
	mux := http.NewServeMux()
	mux.Handle("/final", record(home))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/final", http.StatusFound)
	})
	mux.HandleFunc("/home-absolute", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv.URL+"/final", http.StatusFound)
	})
	mux.HandleFunc("/home-relative", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/final", http.StatusFound)
	})
	mux.HandleFunc("/home-then-away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/away", http.StatusFound)
	})
	withUser := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1)
	const basic = "Basic YWxpY2U6czNjcmV0" // alice:s3cret
	for _, tc := range []struct {
		name   string
		url    string
		header string
		want   <-chan seen
		auth   string
	}{
		{"header to another port", srv.URL + "/away", "Bearer T", other, ""},
		{"userinfo to another port", withUser + "/away", "", other, ""},
		{"header, two hops, to another port", srv.URL + "/home-then-away", "Bearer T", other, ""},
		{"header within the origin", srv.URL + "/home-absolute", "Bearer T", home, "Bearer T"},
		{"userinfo within the origin, absolute", withUser + "/home-absolute", "", home, basic},
		{"userinfo within the origin, relative", withUser + "/home-relative", "", home, basic},
	} {
		h := http.Header{}
		if tc.header != "" {
			h.Set("Authorization", tc.header)
		}
		if _, err := fastClient(nil).Get(context.Background(), Request{URL: tc.url + "?token=s3cret", Header: h}); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got seen
		select {
		case got = <-tc.want:
		case <-time.After(10 * time.Second):
			t.Errorf("%s: the last hop did not reach the server it should have", tc.name)
			continue
		}
		if got.auth != tc.auth {
			t.Errorf("%s: the last hop got Authorization %q, want %q", tc.name, got.auth, tc.auth)
		}
		if tc.want == other && got.referer != "" {
			t.Errorf("%s: the other origin got Referer %q", tc.name, got.referer)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"http://127.0.0.1:1/a", "http://127.0.0.1:1/b", true},
		{"http://h/a", "http://H:80/b", true},
		{"https://h/a", "https://h:443/b", true},
		{"http://h:1/", "http://h:2/", false},
		{"http://h/", "https://h/", false},
		{"https://h:443/", "http://h:443/", false},
		{"http://h/", "http://sub.h/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := sameOrigin(a, b); got != tc.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
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

// TestSlowReaderIsNotSlowServer checks that the minimum rate measures the server, not the body's
// reader: a reader that waits several windows before it reads (for the crawl's memory budget,
// say) gets the whole body of a server that sends it at once, in one request.
func TestSlowReaderIsNotSlowServer(t *testing.T) {
	body := strings.Repeat("x", 64<<10)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.WriteString(w, body)
	}))
	defer srv.Close()
	c := fastClient(srv.Client())
	c.MinRate, c.RateWindow = 1000, 20*time.Millisecond
	var got string
	err := c.Stream(context.Background(), Request{URL: srv.URL}, func(r io.Reader, _ http.Header) error {
		time.Sleep(10 * c.RateWindow) // busy elsewhere: no Read in progress
		b, err := io.ReadAll(r)
		got = string(b)
		return err
	})
	if err != nil || got != body {
		t.Fatalf("Stream: %v, %d bytes; want the whole body of %d bytes", err, len(got), len(body))
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
