// Package fetch is the HTTP client every registry uses: GET with a deadline, a per-host rate limit,
// retries with exponential backoff and jitter that honour Retry-After, one mapping from HTTP status
// to docidx's sentinel errors, and size limits on every body.
//
// It imports only the root package, internal/budget, x/time/rate and the standard library.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
)

// Defaults for a Client's zero fields.
const (
	DefaultRetries    = 4 // attempts after the first
	DefaultMinBackoff = 250 * time.Millisecond
	DefaultMaxBackoff = 30 * time.Second // also the cap on a Retry-After wait
	DefaultTimeout    = 60 * time.Second // per attempt, headers and body
	DefaultRate       = 20               // requests per second per host
	DefaultBurst      = 20
	DefaultMaxBody    = 64 << 20 // bytes, when a request gives no limit
)

// UserAgent is sent with every request unless the caller sets its own.
var UserAgent = "docidx/" + docidx.Version + " (offline documentation indexer)"

// Client fetches registry resources. The zero value is not usable; set HTTP (or use New).
// A Client is safe for concurrent use.
type Client struct {
	HTTP       *http.Client
	Retries    int           // attempts after the first; 0 means DefaultRetries, negative means none
	MinBackoff time.Duration // first backoff; doubled per attempt, with jitter
	MaxBackoff time.Duration // cap on one wait, Retry-After included
	Timeout    time.Duration // per attempt
	Rate       rate.Limit    // requests per second per host; 0 means DefaultRate
	Burst      int

	mu       sync.Mutex
	limiters map[string]*rate.Limiter

	retries atomic.Int64
	bytes   atomic.Int64
}

// New returns a Client over hc (http.DefaultClient when nil) with default limits.
func New(hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{HTTP: hc}
}

// Stats reports what a Client did: retried attempts and body bytes read.
type Stats struct {
	Retries int64
	Bytes   int64
}

// Stats returns the counts so far.
func (c *Client) Stats() Stats { return Stats{Retries: c.retries.Load(), Bytes: c.bytes.Load()} }

// Request is one GET.
type Request struct {
	URL     string
	Header  http.Header // extra headers (Accept, Authorization …)
	MaxBody int64       // bytes; a larger body fails with docidx.ErrTooLarge; 0 means DefaultMaxBody

	stream func(body io.Reader, header http.Header) error // set by Stream: the body goes to it, not into Response
}

// Response is a fetched body, held in memory. When the request's context carries a budget.Work
// (the crawl's memory budget), Get reserved the body's bytes in it before reading them; they stay
// reserved until the work is done.
type Response struct {
	Body   []byte
	Header http.Header
	URL    string // final URL after redirects
}

// StatusError is an HTTP status that is neither success nor retried away.
type StatusError struct {
	URL    string
	Status int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("GET %s: %d %s", redact(e.URL), e.Status, http.StatusText(e.Status))
}

// Unwrap maps 404 and 410 to docidx.ErrNotFound and 429 and 5xx to docidx.ErrRetryable.
func (e *StatusError) Unwrap() error {
	switch {
	case e.Status == http.StatusNotFound || e.Status == http.StatusGone:
		return docidx.ErrNotFound
	case retryableStatus(e.Status):
		return docidx.ErrRetryable
	}
	return nil
}

func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

// Get fetches r.URL, retrying transient failures (network errors, 408, 429, 5xx, a body cut short)
// with exponential backoff and jitter, waiting as long as a Retry-After header asks (capped at
// MaxBackoff). Errors wrap docidx.ErrNotFound (404, 410), docidx.ErrRetryable (still transient after
// the retries), docidx.ErrTooLarge (body over the limit), docidx.ErrOffline, or ctx's error.
func (c *Client) Get(ctx context.Context, r Request) (*Response, error) {
	retries := c.Retries
	if retries == 0 {
		retries = DefaultRetries
	}
	if retries < 0 {
		retries = 0
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", redact(r.URL), err)
	}
	var lastErr error
	for attempt := 0; ; attempt++ {
		if err := c.limiter(u.Host).Wait(ctx); err != nil {
			return nil, err
		}
		resp, wait, err := c.once(ctx, r)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		if !retryable(err) || attempt >= retries || ctx.Err() != nil {
			break
		}
		c.retries.Add(1)
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	if retryable(lastErr) && !errors.Is(lastErr, docidx.ErrRetryable) {
		lastErr = fmt.Errorf("%w: %w", docidx.ErrRetryable, lastErr)
	}
	return nil, lastErr
}

// once makes one attempt; wait is the server's Retry-After, if any.
func (c *Client) once(ctx context.Context, r Request) (_ *Response, wait time.Duration, _ error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("GET %s: %w", redact(r.URL), err)
	}
	for k, vs := range r.Header {
		req.Header[k] = vs
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", UserAgent)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		// *url.Error repeats the URL, query and all; keep only the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, 0, fmt.Errorf("GET %s: %w", redact(r.URL), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, retryAfter(resp.Header.Get("Retry-After"), c.maxBackoff()), &StatusError{URL: r.URL, Status: resp.StatusCode}
	}
	limit := r.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	if resp.ContentLength > limit {
		return nil, 0, fmt.Errorf("GET %s: body of %d bytes: %w (limit %d bytes)", redact(r.URL), resp.ContentLength, docidx.ErrTooLarge, limit)
	}
	out, err := c.readBody(ctx, r, resp, resp.Body, limit)
	return out, 0, err
}

// readBody reads the body of resp (a success), through body, for once: to r.stream when it is
// set, else into a Response, its bytes reserved in ctx's budget first. It reads at most limit
// bytes, counts them in the Client's stats, and fails with io.ErrUnexpectedEOF when the body ends
// before its Content-Length.
func (c *Client) readBody(ctx context.Context, r Request, resp *http.Response, body io.Reader, limit int64) (*Response, error) {
	br := &bodyReader{r: body, left: limit, want: resp.ContentLength, stats: &c.bytes}
	var (
		out *Response
		err error
	)
	if r.stream != nil {
		if err = r.stream(br, resp.Header); err == nil {
			// What the reader left unread still counts against the limit and must arrive whole.
			_, err = io.Copy(io.Discard, br)
		}
	} else {
		var b []byte
		if b, err = readAll(ctx, br, resp.ContentLength); err == nil {
			out = &Response{Body: b, Header: resp.Header, URL: resp.Request.URL.String()}
		}
	}
	var be *bodyError
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, errOverLimit):
		return nil, fmt.Errorf("GET %s: %w (limit %d bytes)", redact(r.URL), docidx.ErrTooLarge, limit)
	case errors.As(err, &be):
		return nil, fmt.Errorf("GET %s: reading body: %w", redact(r.URL), be.err)
	case errors.Is(err, ctx.Err()):
		return nil, err
	}
	return nil, &consumeError{err}
}

// Stream fetches r.URL as Get does but hands the body to read as it arrives instead of holding
// it: read sees at most r.MaxBody bytes (reading more fails with docidx.ErrTooLarge) and the
// response's header. Failures before the body starts are retried as Get retries them; when read
// returns a retryable error (the body was cut short, a read timed out), the resource is fetched
// again and read called again from the start. Stream reserves nothing in ctx's budget: read
// holds what it decides to, and reserves it. Errors are Get's, or what read returns.
func (c *Client) Stream(ctx context.Context, r Request, read func(body io.Reader, header http.Header) error) error {
	r.stream = read
	_, err := c.Get(ctx, r)
	return err
}

// readChunk is how many bytes Get reserves at a time in a budget when the body's length is
// not known in advance.
const readChunk = 1 << 20

// readAll reads body, whose length is n bytes (-1 when unknown), reserving its bytes in ctx's
// budget before it holds them; on failure it gives the reservation back.
func readAll(ctx context.Context, body io.Reader, n int64) (b []byte, err error) {
	work := budget.FromContext(ctx)
	var reserved int64
	defer func() {
		if err != nil {
			work.Release(reserved)
		}
	}()
	if n >= 0 {
		if err := work.Reserve(ctx, n); err != nil {
			return nil, err
		}
		reserved = n
		return readInto(make([]byte, 0, n+1), body) // +1: room to see a body longer than announced
	}
	for {
		if err := work.Reserve(ctx, readChunk); err != nil {
			return nil, err
		}
		reserved += readChunk
		before := len(b)
		b, err = readInto(slices.Grow(b, readChunk+1), io.LimitReader(body, readChunk)) // +1: room to see the end
		if err != nil || len(b)-before < readChunk {
			work.Release(reserved - int64(len(b)))
			reserved = int64(len(b))
			return b, err
		}
	}
}

// readInto appends r's bytes to b, up to its end.
func readInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = slices.Grow(b, 512)
		}
	}
}

// errOverLimit is a body longer than its limit.
var errOverLimit = errors.New("response body over its size limit")

// bodyError is a failure of the response body itself (a connection reset, a body cut short, one
// over its limit), as opposed to what a consumer made of the bytes.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// consumeError is an error a consumer returned about a body that arrived whole; it is never
// retried.
type consumeError struct{ err error }

func (e *consumeError) Error() string { return e.err.Error() }
func (e *consumeError) Unwrap() error { return e.err }

// bodyReader reads a response body: at most left bytes (one more fails with errOverLimit), each
// counted in stats; a body that ends before its Content-Length (want, -1 when unknown) fails
// with io.ErrUnexpectedEOF. Its errors are *bodyError.
type bodyReader struct {
	r     io.Reader
	left  int64
	want  int64
	got   int64
	stats *atomic.Int64
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	b.got += int64(n)
	b.stats.Add(int64(n))
	if int64(n) > b.left {
		return 0, &bodyError{errOverLimit}
	}
	b.left -= int64(n)
	switch {
	case err == io.EOF && b.want >= 0 && b.got < b.want:
		return n, &bodyError{io.ErrUnexpectedEOF}
	case err != nil && err != io.EOF:
		return n, &bodyError{err}
	}
	return n, err
}

func retryable(err error) bool {
	if errors.As(err, new(*consumeError)) {
		return false // a whole body that its reader could not use is no better the next time
	}
	if err == nil || errors.Is(err, docidx.ErrOffline) || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, docidx.ErrRetryable) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

func (c *Client) maxBackoff() time.Duration {
	if c.MaxBackoff > 0 {
		return c.MaxBackoff
	}
	return DefaultMaxBackoff
}

// backoff returns the wait before retry attempt+1: MinBackoff·2^attempt, capped, with full jitter
// over its upper half.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.MinBackoff
	if d <= 0 {
		d = DefaultMinBackoff
	}
	for range attempt {
		d *= 2
		if d >= c.maxBackoff() {
			d = c.maxBackoff()
			break
		}
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter parses a Retry-After value (delay-seconds or an HTTP date, RFC 9110 §10.2.3), capped.
func retryAfter(v string, limit time.Duration) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.Atoi(v); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	}
	return min(max(d, 0), limit)
}

func (c *Client) limiter(host string) *rate.Limiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.limiters == nil {
		c.limiters = make(map[string]*rate.Limiter)
	}
	l, ok := c.limiters[host]
	if !ok {
		r, b := c.Rate, c.Burst
		if r == 0 {
			r = DefaultRate
		}
		if b <= 0 {
			b = DefaultBurst
		}
		l = rate.NewLimiter(r, b)
		c.limiters[host] = l
	}
	return l
}

// redact drops userinfo and the query from u for messages, so credentials never reach a log.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "<bad URL>"
	}
	p.User = nil
	p.RawQuery = ""
	return p.String()
}

// Offline is an http.RoundTripper that refuses every request with docidx.ErrOffline. Crawls with
// --offline give registries an http.Client over it, so any network attempt is an error.
type Offline struct{}

// RoundTrip implements http.RoundTripper.
func (Offline) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("%w (--offline)", docidx.ErrOffline)
}
