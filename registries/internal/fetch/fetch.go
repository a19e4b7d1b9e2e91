// Package fetch is the HTTP client every registry uses: GET with a deadline, a per-host rate limit,
// retries with exponential backoff and jitter that honour Retry-After, one mapping from HTTP status
// to docidx's sentinel errors, size limits on every body and a minimum rate at which a body must
// arrive. It never waits past its context's deadline: a wait for a retry that would end after the
// deadline fails at once instead. Its redirect policy holds docidx's rule for credentials: they go
// only to the origin (scheme, host and port) they were configured for, on every hop. URLs in its
// errors pass through internal/redact.
//
// It imports only the root package, internal/budget, internal/redact, x/time/rate and the
// standard library.
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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
	"github.com/docidx/docidx/internal/redact"
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
	// DefaultMinRate is the rate, in bytes per second averaged over each RateWindow, below which
	// a body is cut off: a registry that trickles a body byte by byte fails in a window, not
	// when the deadline ends it. 1 KiB/s is far below any working link.
	DefaultMinRate    = 1 << 10
	DefaultRateWindow = 10 * time.Second
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
	MinRate    int64         // bytes per second a body must average over each RateWindow; 0 means DefaultMinRate, negative means no minimum
	RateWindow time.Duration // 0 means DefaultRateWindow
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
	return fmt.Sprintf("GET %s: %d %s", redact.URL(e.URL), e.Status, http.StatusText(e.Status))
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

// Refused reports whether err holds a StatusError of 401 Unauthorized or 403 Forbidden: the
// server refused the request's credentials, or its lack of them, and the user has a token to set.
func Refused(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden)
}

func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

// Get fetches r.URL, retrying transient failures (network errors, 408, 429, 5xx, a body cut short
// or arriving slower than MinRate) with exponential backoff and jitter, waiting as long as a
// Retry-After header asks (capped at MaxBackoff). It never waits past ctx's deadline: when a
// Retry-After or a backoff would end after it, Get gives up at once with the last error and the
// wait in its message. Errors wrap docidx.ErrNotFound (404, 410), docidx.ErrRetryable (still
// transient after the retries), docidx.ErrTooLarge (body over the limit), docidx.ErrOffline, or
// ctx's error.
func (c *Client) Get(ctx context.Context, r Request) (*Response, error) {
	retries := c.Retries
	if retries == 0 {
		retries = DefaultRetries
	}
	if retries < 0 {
		retries = 0
	}
	u, err := redact.Parse(r.URL)
	if err != nil {
		return nil, fmt.Errorf("GET: %w", err)
	}
	var lastErr error
	for attempt := 0; ; attempt++ {
		if err := c.limiter(u.Host).Wait(ctx); err != nil {
			// "rate: Wait(n=1) would exceed context deadline" alone names neither the
			// request nor the reason.
			return nil, fmt.Errorf("GET %s: waiting for the per-host rate limit: %w", redact.URL(r.URL), err)
		}
		resp, wait, err := c.once(ctx, r, u)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		if !retryable(err) || attempt >= retries || ctx.Err() != nil {
			break
		}
		asked := wait > 0 // the server's Retry-After, not capped
		if !asked {
			wait = c.backoff(attempt)
		}
		if deadline, ok := ctx.Deadline(); ok && wait >= time.Until(deadline) {
			// The retry could not even start before the deadline: say so now rather than
			// sleep until the deadline and report only that it passed.
			if asked {
				return nil, fmt.Errorf("%w; registry asked to retry after %v, later than the deadline allows; giving up", lastErr, wait)
			}
			return nil, fmt.Errorf("%w; the next retry, in %v, would start after the deadline; giving up", lastErr, wait.Round(time.Millisecond))
		}
		wait = min(wait, c.maxBackoff())
		c.retries.Add(1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	// When ctx ended the attempt, the failure is ctx's (its deadline), not the registry's.
	if ctx.Err() == nil && retryable(lastErr) && !errors.Is(lastErr, docidx.ErrRetryable) {
		lastErr = fmt.Errorf("%w: %w", docidx.ErrRetryable, lastErr)
	}
	return nil, lastErr
}

// once makes one attempt at r, whose URL parses as u; wait is the server's Retry-After, if any,
// not capped.
func (c *Client) once(ctx context.Context, r Request, u *url.URL) (_ *Response, wait time.Duration, _ error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ctx, cut := context.WithCancelCause(ctx) // cut by watchRate when the body comes too slowly
	defer cut(nil)
	// Built from u rather than r.URL: http.NewRequest's error would quote the URL.
	req := (&http.Request{Method: http.MethodGet, URL: u, Host: u.Host, Header: http.Header{}}).WithContext(ctx)
	for k, vs := range r.Header {
		req.Header[k] = vs
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", UserAgent)
	}
	hc := *c.HTTP
	hc.CheckRedirect = credentialsStayHome(c.HTTP.CheckRedirect)
	resp, err := hc.Do(req)
	if err != nil {
		// *url.Error repeats the URL, query and all; keep only the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, 0, fmt.Errorf("GET %s: %w", redact.URL(r.URL), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, retryAfter(resp.Header.Get("Retry-After")), &StatusError{URL: r.URL, Status: resp.StatusCode}
	}
	limit := r.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	if resp.ContentLength > limit {
		return nil, 0, fmt.Errorf("GET %s: body of %d bytes: %w (limit %d bytes)", redact.URL(r.URL), resp.ContentLength, docidx.ErrTooLarge, limit)
	}
	rd, stop := c.watchRate(resp.Body, cut)
	out, err := c.readBody(ctx, r, resp, rd, limit)
	stop()
	if err != nil {
		if slow := context.Cause(ctx); errors.Is(slow, errTooSlow) {
			err = fmt.Errorf("GET %s: reading body: %w", redact.URL(r.URL), slow)
		}
	}
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
		return nil, fmt.Errorf("GET %s: %w (limit %d bytes)", redact.URL(r.URL), docidx.ErrTooLarge, limit)
	case errors.As(err, &be):
		return nil, fmt.Errorf("GET %s: reading body: %w", redact.URL(r.URL), be.err)
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

// errTooSlow is the cause of an attempt cut by watchRate.
var errTooSlow = errors.New("body arriving too slowly")

// rateReader counts the bytes read through it and the time spent inside its Read calls: the
// time spent waiting for the server. Time the body's reader spends elsewhere — waiting for the
// crawl's memory budget, decoding — is not the server's, and does not count.
type rateReader struct {
	r io.Reader

	mu     sync.Mutex
	n      int64         // bytes read in the current window
	waited time.Duration // time in Read calls that ended, in the current window
	since  time.Time     // start of the Read in progress; zero when none
}

func (rr *rateReader) Read(p []byte) (int, error) {
	rr.mu.Lock()
	rr.since = time.Now()
	rr.mu.Unlock()
	n, err := rr.r.Read(p)
	rr.mu.Lock()
	rr.waited += time.Since(rr.since)
	rr.since = time.Time{}
	rr.n += int64(n)
	rr.mu.Unlock()
	return n, err
}

// endWindow reports, once the time waited for the server in the current window has reached
// window, the bytes that arrived in it, and starts the next window; ok is false while less has
// been waited.
func (rr *rateReader) endWindow(window time.Duration) (got int64, ok bool) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	now := time.Now()
	waited := rr.waited
	if !rr.since.IsZero() {
		waited += now.Sub(rr.since)
	}
	if waited < window {
		return 0, false
	}
	got = rr.n
	rr.n, rr.waited = 0, 0
	if !rr.since.IsZero() {
		rr.since = now
	}
	return got, true
}

// watchRate returns body wrapped to count the bytes read and, each time docidx has waited
// RateWindow for the server (time in the body's Read calls, see rateReader), cuts the attempt
// with an error wrapping errTooSlow if fewer than MinRate bytes per second arrived in that
// window. Read the body through the returned reader and call stop once it is read.
func (c *Client) watchRate(body io.Reader, cut context.CancelCauseFunc) (_ io.Reader, stop func()) {
	minRate, window := c.MinRate, c.RateWindow
	if minRate == 0 {
		minRate = DefaultMinRate
	}
	if window <= 0 {
		window = DefaultRateWindow
	}
	if minRate < 0 {
		return body, func() {}
	}
	want := int64(float64(minRate) * window.Seconds())
	rr := &rateReader{r: body}
	done := make(chan struct{})
	go func() {
		// A window ends at most a quarter of a window late.
		t := time.NewTicker(window / 4)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if got, ok := rr.endWindow(window); ok && got < want {
					cut(fmt.Errorf("%w: %d bytes in %v, under the minimum of %d bytes/s", errTooSlow, got, window, minRate))
					return
				}
			}
		}
	}()
	return rr, func() { close(done) }
}

func retryable(err error) bool {
	if errors.As(err, new(*consumeError)) {
		return false // a whole body that its reader could not use is no better the next time
	}
	if err == nil || errors.Is(err, docidx.ErrOffline) || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, docidx.ErrRetryable) || errors.Is(err, errTooSlow) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.DeadlineExceeded) {
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

// maxRetryAfter bounds a parsed Retry-After so that a huge delay-seconds cannot overflow a
// time.Duration (about 292 years) into a short or negative wait.
const maxRetryAfter = 100 * 365 * 24 * time.Hour

// retryAfter parses a Retry-After value (delay-seconds or an HTTP date, RFC 9110 §10.2.3) into a
// wait of 0 to maxRetryAfter; 0 when it is absent or malformed.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	// Beyond int64, ParseInt fails with ErrRange and returns its largest value: a long wait still.
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		d = time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = min(time.Until(t), maxRetryAfter)
	}
	return max(d, 0)
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

// Offline is an http.RoundTripper that refuses every request with docidx.ErrOffline. Crawls with
// --offline give registries an http.Client over it, so any network attempt is an error.
type Offline struct{}

// RoundTrip implements http.RoundTripper.
func (Offline) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("%w (--offline)", docidx.ErrOffline)
}

// maxRedirects is how many redirects a request follows when its http.Client sets no policy of
// its own (net/http's default).
const maxRedirects = 10

// credentialsStayHome returns the redirect policy of every request a Client makes; it holds
// docidx's rule that a credential goes only to the origin (scheme, host and port, RFC 6454) it
// was configured for, on every hop. A hop to another origin than the first request's carries no
// Authorization, Cookie or Referer header and no user information, whatever net/http would keep
// (it keeps them when only the port differs, or for a subdomain). A hop within the first
// request's origin keeps them, and gets the first request's user information when its URL has
// none, so a registry that redirects to an absolute URL of its own still sees its credentials.
// Then next, the http.Client's own policy, decides; nil means net/http's default of at most
// maxRedirects redirects.
func credentialsStayHome(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if sameOrigin(req.URL, first) {
			if req.URL.User == nil {
				req.URL.User = first.User
			}
		} else {
			req.URL.User = nil
			for _, h := range []string{"Authorization", "Cookie", "Referer"} {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	}
}

// sameOrigin reports whether a and b have the same scheme, host and port, a missing port
// standing for the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
