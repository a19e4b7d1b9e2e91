package registrytest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/internal/recorded"
)

// Fault changes the replies to matching requests. The zero Fault matches every request and
// changes nothing (it only counts against Times).
type Fault struct {
	// Path selects requests whose target (escaped path, then "?" and the raw query when there is
	// one) contains it, e.g. "/example.com/hello/@v/list" or ".zip"; "" selects every request.
	// Matching is case-sensitive on the request as sent.
	Path string
	// Match, when set, selects requests instead of Path: it is called with the request target
	// (as for Path) under the Server's lock, so it may keep state of its own.
	Match func(target string) bool
	// Status, when non-zero, is the reply status (401, 404, 410, 429, 500, 503 …); the body is
	// the fake's problem reply (see NewServer) and the fake's handler is not called.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header (seconds or an HTTP date).
	RetryAfter string
	// Delay is waited before replying; a request cancelled meanwhile gets no reply.
	Delay time.Duration
	// Body, when non-nil, replaces the body of a 200 reply from the fake's handler.
	Body []byte
	// Truncate declares the full Content-Length of a 200 reply but sends only half its body,
	// then closes the connection.
	Truncate bool
	// Times is how many requests the fault applies to before it expires; 0 means all.
	Times int
}

// Auth is a credential a Server requires (see Require).
type Auth struct {
	// Prefix selects the requests that need the credential: those whose path, unescaped,
	// starts with it ("/@acme/" for an npm scope's packuments and tarballs); "" selects all.
	Prefix string
	// Authorization is the exact Authorization header value a selected request must carry
	// ("Bearer t", "Basic …", a bare cargo token).
	Authorization string
	// Challenge is the WWW-Authenticate header of the 401 reply to a request without it.
	Challenge string
}

// Request is one request a Server received.
type Request struct {
	Method        string
	Path          string // escaped path, e.g. "/@acme%2ftools"
	Query         string // raw query, without "?"
	Accept        string // the Accept header, or ""
	Authorization string // the Authorization header, or ""
}

// Target returns the request's path, then "?" and the raw query when there is one: what a
// Fault's Path is matched against.
func (r Request) Target() string {
	if r.Query == "" {
		return r.Path
	}
	return r.Path + "?" + r.Query
}

// Problem writes an error reply with status, for faults with a Status. Fakes pass their
// registry's error shape to NewServer (a JSON "error" object, an RFC 7807 problem …).
type Problem func(w http.ResponseWriter, status int, detail string)

// Reply writes a 200 reply of body with contentType and body's Content-Length, as a fake answers
// a request for a document or file. Headers set on w before stay.
func Reply(w http.ResponseWriter, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

// TextProblem is the default Problem: the status text as text/plain, as http.Error writes it.
func TextProblem(w http.ResponseWriter, status int, detail string) {
	http.Error(w, detail, status)
}

// Server is an httptest server that runs a fake registry's handler behind the fault middleware
// and the request log. Its methods are safe for concurrent use.
type Server struct {
	// URL is the server's base URL without a trailing slash, e.g. "http://127.0.0.1:41234".
	URL string

	srv      *httptest.Server
	handler  http.Handler
	problem  Problem
	recorded recorded.Responses

	mu     sync.Mutex
	faults []*Fault
	auths  []Auth
	reqs   []Request
}

// NewServer starts a server over h, closed when tb's test ends. Every request is logged (see
// Requests), then the first live Fault matching it applies (see Inject). problem writes the
// replies of faults with a Status; nil means TextProblem.
func NewServer(tb testing.TB, h http.Handler, problem Problem) *Server {
	tb.Helper()
	if problem == nil {
		problem = TextProblem
	}
	s := &Server{handler: h, problem: problem}
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL
	tb.Cleanup(s.srv.Close)
	return s
}

// RecordedHost is the placeholder that stands for a registry's host in recorded responses:
// "https://" + RecordedHost is replaced with the Server's URL when Record serves them.
const RecordedHost = recorded.Host

// Record makes the Server answer GET and HEAD of path (exact, e.g. "/pypi/six/json") with body
// and contentType before the fake's handler: a response recorded from a real registry, with
// every "https://" + RecordedHost in body replaced by s.URL, so that the absolute URLs it holds
// lead back here. Faults apply to recorded responses as to any other.
func (s *Server) Record(path, contentType string, body []byte) {
	s.recorded.Record(path, contentType, body, s.URL)
}

// RecordedFile is a response recorded from a real registry and kept as a file: RecordFiles
// serves File, a slash path under its directory, with ContentType.
type RecordedFile struct {
	File        string
	ContentType string
}

// RecordFiles records, as Record does, each response of files at its request path, reading it
// from its file under dir (e.g. "testdata/real"). It fails tb when a file cannot be read.
func (s *Server) RecordFiles(tb testing.TB, dir string, files map[string]RecordedFile) {
	tb.Helper()
	for path, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.File)))
		if err != nil {
			tb.Fatal(err)
		}
		s.Record(path, f.ContentType, b)
	}
}

// serve answers 401 to a request without a credential it needs (Require), else from the
// recorded responses, else from the fake's handler.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if a := s.unauthorized(r); a != nil {
		w.Header().Set("WWW-Authenticate", a.Challenge)
		s.problem(w, http.StatusUnauthorized, "authentication required")
		return
	}
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && s.recorded.Serve(w, r) {
		return
	}
	s.handler.ServeHTTP(w, r)
}

// Client returns an http.Client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Inject adds a fault; faults apply in the order added, the first live match wins.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// Require makes the requests a selects need its credential, in place of the one an earlier
// Require gave the same Prefix: from then on such a request without exactly a.Authorization
// gets 401 with the fake's problem reply and a.Challenge, after the faults and before the
// recorded responses and the fake's handler. A request that several Auths select needs the one
// whose Prefix is longest.
func (s *Server) Require(a Auth) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auths = append(slices.DeleteFunc(s.auths, func(b Auth) bool { return b.Prefix == a.Prefix }), a)
}

// AuthRequired reports whether Require was called: a fake whose registry announces that it is
// private (cargo's config.json "auth-required") asks it.
func (s *Server) AuthRequired() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.auths) > 0
}

// unauthorized returns the Auth that selects r and that r does not carry, or nil.
func (s *Server) unauthorized(r *http.Request) *Auth {
	s.mu.Lock()
	defer s.mu.Unlock()
	var need *Auth
	for i, a := range s.auths {
		if strings.HasPrefix(r.URL.Path, a.Prefix) && (need == nil || len(a.Prefix) > len(need.Prefix)) {
			need = &s.auths[i]
		}
	}
	if need == nil || r.Header.Get("Authorization") == need.Authorization {
		return nil
	}
	a := *need
	return &a
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Authorized returns how many of the requests received so far carried authorization, exactly,
// as their Authorization header: a test's count of the requests that sent a token.
func (s *Server) Authorized(authorization string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Authorization == authorization {
			n++
		}
	}
	return n
}

// Targets returns the targets (see Request.Target) of the requests received so far, in order.
func (s *Server) Targets() []string {
	reqs := s.Requests()
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Target()
	}
	return out
}

// fault logs r and returns a copy of the first live fault matching it, counting its use.
func (s *Server) fault(r *http.Request) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := Request{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
		Accept: r.Header.Get("Accept"), Authorization: r.Header.Get("Authorization")}
	s.reqs = append(s.reqs, req)
	target := req.Target()
	for i, f := range s.faults {
		if f.Match != nil && !f.Match(target) || f.Match == nil && f.Path != "" && !strings.Contains(target, f.Path) {
			continue
		}
		c := *f
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return &c
	}
	return nil
}

// ServeHTTP implements http.Handler: the request log, then the faults, then the credentials
// required, then the recorded responses, then the fake's handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f := s.fault(r)
	if f == nil {
		s.serve(w, r)
		return
	}
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-r.Context().Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	if f.Status != 0 {
		s.problem(w, f.Status, "injected fault: "+http.StatusText(f.Status))
		return
	}
	if f.Body == nil && !f.Truncate {
		s.serve(w, r)
		return
	}
	rec := &recorder{header: w.Header(), status: http.StatusOK}
	s.serve(rec, r)
	body := rec.body.Bytes()
	if rec.status != http.StatusOK {
		w.WriteHeader(rec.status)
		w.Write(body)
		return
	}
	if f.Body != nil {
		body = f.Body
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if !f.Truncate {
		w.Write(body)
		return
	}
	w.WriteHeader(http.StatusOK)
	w.Write(body[:len(body)/2])
	rc := http.NewResponseController(w)
	rc.Flush() // Hijack drops what the response still buffers
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

// recorder buffers a reply so a fault can replace or cut its body. It shares the real
// writer's header map.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rc *recorder) Header() http.Header         { return rc.header }
func (rc *recorder) Write(b []byte) (int, error) { return rc.body.Write(b) }
func (rc *recorder) WriteHeader(status int)      { rc.status = status }

// Get requests url with header's name-value pairs set, without following redirects, and returns
// the response and its whole body. It fails t when the request cannot be made.
func Get(t testing.TB, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp, body
}

// Get requests path (an escaped path starting with "/", with its query if any) from s as the
// function Get requests a URL: header's name-value pairs set, redirects not followed. It fails t
// when the request cannot be made.
func (s *Server) Get(t testing.TB, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return Get(t, s.URL+path, header...)
}

// BaseTime is when a fake registry published the first version of a package.
var BaseTime = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// Published returns when a fake registry published the n-th version of a package, counting from
// 0: BaseTime plus n days, so that versions sort by time as they do by number.
func Published(n int) time.Time { return BaseTime.AddDate(0, 0, n) }

// Tampered is the set of releases (by a key of the fake's choosing, such as "name@version")
// whose digest a fake advertises wrongly, for checksum tests. The zero value is empty and ready;
// it is safe for concurrent use.
type Tampered struct {
	mu   sync.Mutex
	keys map[string]bool
}

// Add makes Digest falsify key's digest from now on.
func (t *Tampered) Add(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.keys == nil {
		t.keys = map[string]bool{}
	}
	t.keys[key] = true
}

// Digest returns digest(data), or for a key added, the digest of other bytes.
func (t *Tampered) Digest(key string, data []byte, digest func([]byte) string) string {
	t.mu.Lock()
	bad := t.keys[key]
	t.mu.Unlock()
	if bad {
		data = append([]byte("tampered"), data...)
	}
	return digest(data)
}
