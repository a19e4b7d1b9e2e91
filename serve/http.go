package serve

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docidx/docidx"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"
)

// Streamable HTTP (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http)
// on /mcp, through the SDK's StreamableHTTPHandler, behind the checks docs/ARCHITECTURE.md §6 asks for, in
// this order:
//
//  1. Host: a request that reached a loopback address must name a loopback host (or one of
//     HTTPOptions.AllowedHosts), against DNS rebinding: 403.
//  2. Origin: a browser request from a foreign origin — neither the request's own, nor a
//     loopback origin talking to a loopback host, nor one of HTTPOptions.AllowedOrigins — is
//     refused, for every method; unsafe methods also go through http.CrossOriginProtection
//     (Sec-Fetch-Site): 403. The SDK checks Host only.
//  3. Bearer token, when one is set: 401, compared in constant time.
//  4. Rate limit per client address (see clientAddr; sessions share their address's budget):
//     429 with Retry-After.
//  5. MCP-Protocol-Version: a version the server does not speak 400 with -32022 (see
//     checkVersion).
//  6. Body: read within HTTPOptions.ReadTimeout (else 408) and HTTPOptions.MaxBodyBytes (else
//     413); not JSON 400 with a -32700 error; not a JSON-RPC message 400 with -32600; on a
//     stateful server, anything but initialize without an Mcp-Session-Id 400 with -32600.
//
// Every refusal, the SDK's included, is a JSON-RPC error in an application/json body (see
// rpcErrorWriter), with the HTTP status the Streamable HTTP transport gives it.
//
// A request whose params the SDK cannot decode is answered here, as over stdio: -32602 naming
// the member and the JSON type wanted (checkParams), never a Go type. Request ids come back as
// the client wrote them, in JSON bodies and SSE events alike (see httpid.go).
//
// /healthz answers 200 while serving and 503 while draining. Requests are served concurrently;
// RunHTTP drains in-flight requests before returning.

// Defaults of HTTPOptions.
const (
	DefaultMaxBodyBytes   = 1 << 20          // bytes of one POST body
	DefaultRateLimit      = 100              // requests per second per client
	DefaultSessionTimeout = 30 * time.Minute // idle stateful sessions are closed after this
	DefaultReadTimeout    = 10 * time.Second // to read a request's headers, and then its body
	DefaultDrainWindow    = 5 * time.Second  // served while /healthz says draining, on SIGTERM
)

// MCPPath and HealthPath are the HTTP paths served.
const (
	MCPPath    = "/mcp"
	HealthPath = "/healthz"
)

// HTTPOptions configure the Streamable HTTP transport. The zero value is usable: stateful
// sessions with SSE responses, no token, default limits.
type HTTPOptions struct {
	// Stateless serves every request on its own temporary session, for replicas behind a load
	// balancer: no Mcp-Session-Id, no server-to-client requests, GET and DELETE answer 405.
	// Answers are plain JSON unless the request asks for progress or log messages, which then
	// come on an SSE stream with the answer.
	Stateless bool
	// JSONResponse answers every POST with application/json instead of an SSE stream;
	// notifications related to a request (progress, log messages) are then not delivered with
	// it.
	JSONResponse bool
	// Token, when set, is the bearer token every /mcp request must carry
	// ("Authorization: Bearer TOKEN"); others get 401.
	Token string
	// MaxBodyBytes bounds a request body; larger ones get 413. Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// RateLimit is the sustained requests per second allowed per client address, whatever
	// sessions it opens, with bursts of RateBurst (zero: twice RateLimit, at least 1); more get
	// 429 with Retry-After. Zero means DefaultRateLimit; negative disables the limit. An IPv6
	// client is limited by its /64, which one host can fill with addresses.
	RateLimit float64
	RateBurst int
	// TrustedProxies are the addresses of reverse proxies in front of the server. A request
	// that comes from one of them is limited by the address in its X-Forwarded-For header:
	// the rightmost one that is not itself a trusted proxy, since every proxy appends the
	// address it got the request from and only the trusted ones can be believed. Without
	// trusted proxies X-Forwarded-For is ignored and every client behind a proxy shares its
	// budget.
	TrustedProxies []netip.Prefix
	// ReadTimeout bounds the reading of a request's headers, and then separately of its body:
	// a client that sends them slower gets 408 and its connection is closed. It does not
	// bound responses, so SSE streams live on. Zero means DefaultReadTimeout.
	ReadTimeout time.Duration
	// DrainWindow is how long RunHTTP keeps serving once its context is done, while /healthz
	// answers 503 so that load balancers stop sending requests, before it stops accepting
	// connections. Zero means DefaultDrainWindow; negative means none.
	DrainWindow time.Duration
	// AllowedHosts are Host header values accepted besides loopback names (host or host:port,
	// case-insensitive), for a server reached by name. When set, every other Host gets 403,
	// whatever address the request reached.
	AllowedHosts []string
	// AllowedOrigins are browser origins ("https://app.example") trusted besides the server's
	// own and, for a loopback server, loopback origins.
	AllowedOrigins []string
	// SessionTimeout closes stateful sessions idle this long. Zero means
	// DefaultSessionTimeout; negative keeps them until the client deletes them.
	SessionTimeout time.Duration
	// Pages, when set, serves every path but MCPPath and HealthPath — the HTML browser of
	// package web — behind the same Host, Origin, token and rate-limit checks as MCPPath (see
	// servePages). Nil answers those paths 404.
	Pages http.Handler
}

// HTTPHandler serves MCP over Streamable HTTP on MCPPath and a health check on HealthPath. It
// is an http.Handler; RunHTTP wraps it in a server with a graceful drain.
type HTTPHandler struct {
	s       *Server
	opts    HTTPOptions
	mcp     *mcp.StreamableHTTPHandler
	jsonMCP *mcp.StreamableHTTPHandler // stateless SSE mode: for requests that want no stream
	cop     *http.CrossOriginProtection
	hosts   map[string]bool
	origins map[string]bool
	token   [sha256.Size]byte
	limits  *limiters

	nextID      atomic.Uint64     // the last internal request id given (see httpid.go)
	idsMu       sync.Mutex        // guards inflightIDs
	inflightIDs map[string]string // session "\x00" client id → internal id, while in flight

	mu       sync.Mutex
	phase    int           // serving, draining or stopping
	inflight int           // POSTs being served
	idle     chan struct{} // closed when inflight drops to 0 while stopping
}

// The phases of an HTTPHandler: serving; draining, when /healthz says 503 so that load
// balancers stop sending but requests are still served; stopping, when the listener is closed
// and only the POSTs in flight are waited for.
const (
	serving = iota
	draining
	stopping
)

// begin counts a POST in flight, unless the handler is stopping.
func (h *HTTPHandler) begin() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.phase == stopping {
		return false
	}
	h.inflight++
	return true
}

// end counts a POST done.
func (h *HTTPHandler) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inflight--; h.inflight == 0 && h.idle != nil {
		close(h.idle)
		h.idle = nil
	}
}

// drain makes /healthz answer 503 from now on; requests are still served.
func (h *HTTPHandler) drain() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.phase = max(h.phase, draining)
}

// stop refuses new POSTs from now on and returns a channel closed once those in flight are
// done.
func (h *HTTPHandler) stop() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.phase = stopping
	idle := make(chan struct{})
	if h.inflight == 0 {
		close(idle)
	} else {
		h.idle = idle
	}
	return idle
}

func (h *HTTPHandler) isDraining() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.phase != serving
}

// NewHTTPHandler returns the HTTP handler of s configured by opts.
func (s *Server) NewHTTPHandler(opts HTTPOptions) *HTTPHandler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.RateLimit == 0 {
		opts.RateLimit = DefaultRateLimit
	}
	if opts.RateBurst <= 0 {
		opts.RateBurst = max(1, int(math.Ceil(2*opts.RateLimit)))
	}
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultReadTimeout
	}
	if opts.DrainWindow == 0 {
		opts.DrainWindow = DefaultDrainWindow
	}
	h := &HTTPHandler{s: s, opts: opts, cop: http.NewCrossOriginProtection(), hosts: map[string]bool{}, origins: map[string]bool{}, inflightIDs: map[string]string{}}
	for _, host := range opts.AllowedHosts {
		h.hosts[strings.ToLower(host)] = true
	}
	for _, o := range opts.AllowedOrigins {
		o = strings.TrimRight(strings.ToLower(o), "/")
		h.origins[o] = true
		_ = h.cop.AddTrustedOrigin(o) // a malformed origin is only never matched
	}
	if opts.Token != "" {
		h.token = sha256.Sum256([]byte(opts.Token))
	}
	if opts.RateLimit > 0 {
		h.limits = newLimiters(rate.Limit(opts.RateLimit), opts.RateBurst)
	}
	timeout := opts.SessionTimeout
	if timeout < 0 {
		timeout = 0
	}
	sdk := func(jsonResponse bool) *mcp.StreamableHTTPHandler {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
			Stateless:           opts.Stateless,
			JSONResponse:        jsonResponse,
			Logger:              s.log,
			SessionTimeout:      timeout,
			MaxRequestBodyBytes: opts.MaxBodyBytes,
			// hostOK does the SDK's check and more (AllowedHosts).
			DisableLocalhostProtection: true,
		})
	}
	h.mcp = sdk(opts.JSONResponse)
	if opts.Stateless && !opts.JSONResponse {
		// Without sessions every request stands alone, so each can be answered its own way:
		// plain JSON unless it asks for progress or log messages, then an SSE stream.
		h.jsonMCP = sdk(true)
	}
	return h
}

func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case HealthPath:
		h.health(w, r)
	case MCPPath:
		h.serveMCP(w, r)
	default:
		if h.opts.Pages != nil {
			h.servePages(w, r)
			return
		}
		httpError(w, http.StatusNotFound, codeInvalidRequest, "not found: MCP is served on "+MCPPath)
	}
}

// health answers /healthz: 200 with what is served, 503 while draining. With a token set it
// says only whether the server is up.
func (h *HTTPHandler) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpError(w, http.StatusMethodNotAllowed, codeInvalidRequest, "method not allowed")
		return
	}
	body := map[string]any{"status": "ok"}
	status := http.StatusOK
	if h.isDraining() {
		body["status"], status = "draining", http.StatusServiceUnavailable
	}
	if h.opts.Token == "" {
		rd := h.s.reader()
		if m := rd.Manifest(); m != nil {
			body["format"], body["created"] = m.Format, m.Created.UTC().Format(time.RFC3339)
		}
		var pkgs, versions int
		for _, c := range rd.Counts() {
			pkgs += c.Packages
			versions += c.Versions
		}
		body["packages"], body["versions"] = pkgs, versions
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method == http.MethodGet {
		json.NewEncoder(w).Encode(body)
	}
}

// JSON-RPC codes of requests refused before JSON-RPC.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

func (h *HTTPHandler) serveMCP(w http.ResponseWriter, r *http.Request) {
	if !h.hostOK(r) {
		httpError(w, http.StatusForbidden, codeInvalidRequest, fmt.Sprintf("forbidden: Host %s is not this server's", docidx.Quote(r.Host)))
		return
	}
	if !h.originOK(r) {
		httpError(w, http.StatusForbidden, codeInvalidRequest, fmt.Sprintf("forbidden: cross-origin request from %s", docidx.Quote(r.Header.Get("Origin"))))
		return
	}
	if h.opts.Token != "" && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="docidx"`)
		httpError(w, http.StatusUnauthorized, codeInvalidRequest, "unauthorized: send Authorization: Bearer TOKEN (docidx serve --token / DOCIDX_TOKEN)")
		return
	}
	if h.limits != nil {
		if wait, ok := h.limits.allow(h.clientAddr(r)); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			httpError(w, http.StatusTooManyRequests, codeInvalidRequest, fmt.Sprintf("rate limit of %g requests/s exceeded; retry after %s", h.opts.RateLimit, wait.Round(time.Millisecond)))
			return
		}
	}
	if !h.checkVersion(w, r) {
		return
	}
	rw := &rpcErrorWriter{ResponseWriter: w, h: h, session: r.Header.Get(sessionHeader), proto: r.Header.Get(versionHeader)}
	defer rw.finish()
	w = rw
	if r.Method == http.MethodPost {
		if !h.begin() {
			shuttingDown(w)
			return
		}
		defer h.end()
		body, ok := h.checkBody(w, r)
		if !ok {
			return
		}
		msgs := messagesOf(body)
		if len(msgs) == 1 {
			rw.id = msgs[0].ID
		}
		if !h.opts.Stateless && rw.session == "" && needsSession(msgs, rw.proto) {
			httpError(w, http.StatusBadRequest, codeInvalidRequest,
				"session required: send the Mcp-Session-Id header that the initialize response gave, or initialize first")
			return
		}
		pb := h.prepareBody(body, rw.session)
		defer h.forget(pb.keys)
		if pb.problem != nil && (h.opts.Stateless || h.liveSession(rw.session)) {
			// Params the SDK cannot decode: it would answer naming Go types, so the answer,
			// the one stdio gives, is written here. An unknown session is left to the SDK,
			// whose 404 tells the client to initialize again.
			writeRPCError(w, http.StatusOK, pb.id, pb.problem)
			return
		}
		if pb.calls != nil {
			r.Body = io.NopCloser(bytes.NewReader(pb.body))
			r.ContentLength = int64(len(pb.body))
			iw := &idWriter{ResponseWriter: w, calls: pb.calls}
			defer iw.finish()
			w = iw
		}
		if h.jsonMCP != nil && !wantsStream(body) {
			h.jsonMCP.ServeHTTP(w, r)
			return
		}
	}
	h.mcp.ServeHTTP(w, r)
}

// liveSession reports whether a stateful server holds the session id, or id is "" (an
// initialize, which starts one).
func (h *HTTPHandler) liveSession(id string) bool {
	if id == "" {
		return true
	}
	for ss := range h.s.mcp.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// Headers of the Streamable HTTP transport.
const (
	sessionHeader = "Mcp-Session-Id"
	versionHeader = "Mcp-Protocol-Version"
)

// newProtocol is the first protocol revision whose requests carry their version in _meta and
// need no session (SEP-2575); the SDK serves it on stateless servers only.
const newProtocol = "2026-07-28"

// codeUnsupportedVersion is the JSON-RPC error for a protocol version the server does not
// speak (SEP-2575), data {"supported": [...], "requested": "..."}.
const codeUnsupportedVersion = mcp.CodeUnsupportedProtocolVersion

// checkVersion checks the MCP-Protocol-Version header, as the transport asks
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#protocol-version-header):
// a version the server does not speak gets 400 with a -32022 error whose data lists the
// versions it does, so that a client can retry with one. No header is fine: the request is
// an initialize, or from a client of 2025-03-26. The SDK lets any version from 2026-07-28 on
// through, to fail later as "missing _meta"; this check says what is wrong.
func (h *HTTPHandler) checkVersion(w http.ResponseWriter, r *http.Request) bool {
	v := r.Header.Get(versionHeader)
	supported := mcp.SupportedProtocolVersions()
	if v == "" || slices.Contains(supported, v) {
		return true
	}
	if !h.opts.Stateless { // the SDK serves the new protocol only without sessions
		supported = slices.DeleteFunc(supported, func(s string) bool { return s >= newProtocol })
	}
	data, _ := json.Marshal(map[string]any{"supported": supported, "requested": v})
	writeRPCError(w, http.StatusBadRequest, nil, &jsonrpc.Error{Code: codeUnsupportedVersion,
		Message: fmt.Sprintf("unsupported protocol version %s in the %s header: this server speaks %s", docidx.Quote(v), versionHeader, strings.Join(supported, ", ")),
		Data:    data})
	return false
}

// message is what the HTTP layer needs of one JSON-RPC message of a body.
type message struct {
	ID     json.RawMessage // nil for a notification
	Method string          // "" for a response
}

// messagesOf returns the messages of a body that checkJSONRPC accepted.
func messagesOf(body []byte) []message {
	var msgs []message
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		json.Unmarshal(body, &msgs)
	} else {
		var m message
		json.Unmarshal(body, &m)
		msgs = []message{m}
	}
	return msgs
}

// needsSession reports whether a POST to a stateful server needs an Mcp-Session-Id: all do
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management)
// but those that start a session (initialize), ask which protocol versions the server speaks
// (server/discover), or follow the sessionless protocol of 2026-07-28, which the SDK answers
// with the versions this server speaks.
func needsSession(msgs []message, proto string) bool {
	if proto >= newProtocol {
		return false
	}
	for _, m := range msgs {
		if m.Method == "initialize" || m.Method == "server/discover" {
			return false
		}
	}
	return true
}

// wantsStream reports whether a request asks for notifications that an SSE stream would carry
// with its answer: progress (a progress token) or log messages (a log level in _meta, protocol
// 2026-07-28 on).
func wantsStream(body []byte) bool {
	var msgs []struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] != '[' {
		body = append(append([]byte{'['}, body...), ']')
	}
	if json.Unmarshal(body, &msgs) != nil {
		return true // let the SDK say what is wrong, on its default transport
	}
	for _, m := range msgs {
		if _, ok := m.Params.Meta["progressToken"]; ok {
			return true
		}
		if _, ok := m.Params.Meta["io.modelcontextprotocol/logLevel"]; ok {
			return true
		}
	}
	return false
}

// shuttingDown answers a request that arrived while draining.
func shuttingDown(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.Header().Set("Retry-After", "1")
	httpError(w, http.StatusServiceUnavailable, codeInvalidRequest, "shutting down")
}

// hostOK checks the Host header: a request that reached a loopback address must name a
// loopback host or an allowed one; with AllowedHosts set, every request must.
func (h *HTTPHandler) hostOK(r *http.Request) bool {
	host := strings.ToLower(r.Host)
	if h.hosts[host] {
		return true
	}
	name := host
	if hn, _, err := net.SplitHostPort(host); err == nil {
		name = hn
	}
	if h.hosts[name] {
		return true
	}
	if isLoopbackName(name) {
		return true
	}
	if len(h.hosts) > 0 {
		return false
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return !ok || local == nil || !isLoopbackAddr(local.String())
}

// originOK checks the Origin header, present on browser requests: the request's own origin,
// a loopback origin talking to a loopback host, and the allowed origins pass; for unsafe
// methods http.CrossOriginProtection then checks Sec-Fetch-Site.
func (h *HTTPHandler) originOK(r *http.Request) bool {
	if origin := r.Header.Get("Origin"); origin != "" {
		o := strings.TrimRight(strings.ToLower(origin), "/")
		if h.origins[o] {
			return true
		}
		u, err := url.Parse(o)
		if err != nil || u.Host == "" {
			return false // "null" and the like
		}
		host := strings.ToLower(r.Host)
		if u.Host != host {
			hostName := host
			if hn, _, err := net.SplitHostPort(host); err == nil {
				hostName = hn
			}
			if !isLoopbackName(u.Hostname()) || !isLoopbackName(hostName) {
				return false
			}
			return true // a local tool (an inspector on another port) talking to a local server
		}
	}
	return h.cop.Check(r) == nil
}

// authorized reports whether r carries the bearer token, comparing digests in constant time.
func (h *HTTPHandler) authorized(r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(auth, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], h.token[:]) == 1
}

// clientAddr names the client a request is rate-limited as: its IP address, an IPv6 address
// by its /64. A request from a trusted proxy is the client's in X-Forwarded-For: the rightmost
// address there that is not a trusted proxy; when there is none the leftmost, and when the
// header is missing or malformed the proxy's own.
func (h *HTTPHandler) clientAddr(r *http.Request) string {
	addr := remoteIP(r.RemoteAddr)
	if addr.IsValid() && h.trusted(addr) {
		var hops []string
		for _, v := range r.Header.Values("X-Forwarded-For") {
			hops = append(hops, strings.Split(v, ",")...)
		}
		for i := len(hops) - 1; i >= 0; i-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break // a forged or garbled hop: believe no further
			}
			addr = hop.Unmap()
			if !h.trusted(addr) {
				break
			}
		}
	}
	if !addr.IsValid() {
		return r.RemoteAddr
	}
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// remoteIP is the IP address of a host:port address, unmapped from IPv6 (::ffff:a.b.c.d), or
// the zero Addr.
func remoteIP(hostport string) netip.Addr {
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		addr, _ := netip.ParseAddr(hostport)
		return addr.Unmap()
	}
	return ap.Addr().Unmap()
}

// trusted reports whether addr is one of HTTPOptions.TrustedProxies.
func (h *HTTPHandler) trusted(addr netip.Addr) bool {
	for _, p := range h.opts.TrustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// checkBody reads a POST body within the size limit and the read timeout, and checks that it
// is one JSON-RPC message or a batch of them, answering 413, 408 or 400 itself when not; the
// body is then put back for the SDK.
func (h *HTTPHandler) checkBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	limit := h.opts.MaxBodyBytes
	if r.ContentLength > limit {
		httpError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf("request body of %d bytes is over the %d-byte limit", r.ContentLength, limit))
		return nil, false
	}
	// A deadline on the connection, not a timer on the request: a client that trickles its
	// body holds nothing past it. It is lifted once the body is read, so that the answer, an
	// SSE stream maybe, takes as long as it needs; after an error it stays, so that net/http,
	// which reads what is left of a body before closing the connection, does not wait.
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(h.opts.ReadTimeout)) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if deadline && err == nil {
		rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		var mbe *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mbe):
			w.Header().Set("Connection", "close")
			httpError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf("request body is over the %d-byte limit", limit))
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			httpError(w, http.StatusRequestTimeout, codeInvalidRequest, fmt.Sprintf("request body not received within %s (docidx serve --read-timeout)", h.opts.ReadTimeout))
		default:
			httpError(w, http.StatusBadRequest, codeInvalidRequest, "could not read the request body")
		}
		return nil, false
	}
	if code, msg := checkJSONRPC(body); code != 0 {
		httpError(w, http.StatusBadRequest, code, msg)
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return body, true
}

// checkJSONRPC returns 0 when body is a JSON-RPC 2.0 message or a non-empty batch of them,
// else the JSON-RPC error code (-32700 not JSON, -32600 not a valid message or nested deeper
// than maxNesting) and why.
func checkJSONRPC(body []byte) (int64, string) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		// json.Valid refuses a body nested deeper than maxNesting too, though it may be JSON;
		// only then is the nesting counted, to say so.
		if nesting(body) > maxNesting {
			return codeInvalidRequest, "invalid request: " + tooDeep
		}
		return codeParseError, "parse error: the request body is not JSON"
	}
	msgs := []json.RawMessage{body}
	if body[0] == '[' {
		msgs = nil // decoding into the slice above would write over body
		if err := json.Unmarshal(body, &msgs); err != nil || len(msgs) == 0 {
			return codeInvalidRequest, "invalid request: an empty batch or not an array of messages"
		}
	}
	for _, raw := range msgs {
		var m struct {
			JSONRPC *string          `json:"jsonrpc"`
			Method  *json.RawMessage `json:"method"`
			ID      json.RawMessage  `json:"id"` // "null" when null, unlike a pointer
			Result  *json.RawMessage `json:"result"`
			Error   *json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return codeInvalidRequest, "invalid request: a message is not a JSON object"
		}
		if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
			return codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
		}
		if m.ID != nil {
			switch c := bytes.TrimSpace(m.ID); {
			case len(c) == 0:
			case string(c) == "null":
				// MCP forbids a null id in requests (basic/#requests); JSON-RPC keeps it for
				// answers to messages whose id could not be read.
				if m.Method != nil {
					return codeInvalidRequest, `invalid request: "id" must not be null: give a request a string or number id, and a notification none`
				}
			case !validID(c):
				return codeInvalidRequest, `invalid request: "id" must be a string or a number`
			}
		}
		switch {
		case m.Method != nil:
			var method string
			if json.Unmarshal(*m.Method, &method) != nil || method == "" {
				return codeInvalidRequest, `invalid request: "method" must be a non-empty string`
			}
		case m.Result != nil || m.Error != nil: // a response to a server-to-client request
			if m.ID == nil {
				return codeInvalidRequest, `invalid request: a response needs an "id"`
			}
		default:
			return codeInvalidRequest, `invalid request: neither a request, a notification nor a response`
		}
	}
	return 0, ""
}

// httpError writes a JSON-RPC error response (id null) with an HTTP status, for requests
// refused before JSON-RPC.
func httpError(w http.ResponseWriter, status int, code int64, msg string) {
	rpcError(w, status, nil, code, msg)
}

// rpcError writes a JSON-RPC error response for the request id (nil: null) with an HTTP status.
func rpcError(w http.ResponseWriter, status int, id json.RawMessage, code int64, msg string) {
	writeRPCError(w, status, id, &jsonrpc.Error{Code: code, Message: msg})
}

// writeRPCError writes e as a JSON-RPC error response for the request id (nil: null) with an
// HTTP status.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *jsonrpc.Error) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	// Without HTML escaping, which would respell an id such as "a<b" ("a\u003cb").
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, e})
}

// rpcErrorWriter passes the SDK's answers through, but for its refusals in text/plain
// (http.Error: an unknown method, a notification with an id, a batch in protocol 2025-06-18,
// an unknown session …), which it turns into JSON-RPC errors in application/json, as stdio
// gives them: the transport's clients read an error body as a JSON-RPC message
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server).
// The HTTP status is kept, but for an unknown method called before protocol 2026-07-28: a
// well-formed request is answered, and its answer is the -32601 error, with 200 (from
// 2026-07-28 on the SDK answers 404 itself, as SEP-2575 asks).
type rpcErrorWriter struct {
	http.ResponseWriter
	h       *HTTPHandler
	id      json.RawMessage // the request's id, when the body is one request
	session string          // its Mcp-Session-Id
	proto   string          // its MCP-Protocol-Version

	wrote  bool
	status int          // of a refusal held back, 0 when passing through
	text   bytes.Buffer // the refusal's message
}

func (w *rpcErrorWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcErrorWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.status != 0 {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends what was written, for SSE streams.
func (w *rpcErrorWriter) Flush() {
	if w.status == 0 {
		http.NewResponseController(w.ResponseWriter).Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the refusal held back as a JSON-RPC error.
func (w *rpcErrorWriter) finish() {
	if w.status == 0 {
		return
	}
	msg := strings.TrimSpace(w.text.String())
	status, code, id := w.status, int64(codeInvalidRequest), w.id
	switch {
	case strings.HasPrefix(msg, "JSON RPC not handled"): // jsonrpc2.ErrNotHandled: no such method
		code = jsonrpc.CodeMethodNotFound
		msg = "method not found: " + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(msg, "JSON RPC not handled"), ":"))
		if w.proto < newProtocol && len(id) > 0 {
			status = http.StatusOK
		}
	case status == http.StatusNotFound && w.session != "":
		// An unknown session stays a plain-text 404: the SDK's client tells a lost session
		// (ErrSessionMissing) by that, and a JSON-RPC body would hide it.
		msg = "session not found: this server did not issue it; initialize to get one"
		if w.h.s.issuedSession(w.session) {
			msg = "session not found: it expired or was deleted; initialize a new one"
		}
		http.Error(w.ResponseWriter, msg, status)
		return
	}
	if status >= 400 {
		// Refused, not answered: the transport's error responses carry no id, nor does
		// JSON-RPC's answer to an invalid request.
		id = nil
	}
	h := w.ResponseWriter.Header()
	h.Del("Content-Type")
	writeRPCError(w.ResponseWriter, status, id, &jsonrpc.Error{Code: code, Message: msg})
}

// isLoopbackName reports whether a host name (no port; IPv6 with or without brackets) is
// localhost or a loopback IP address.
func isLoopbackName(name string) bool {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if strings.EqualFold(name, "localhost") || strings.HasSuffix(strings.ToLower(name), ".localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// isLoopbackAddr reports whether a host:port address is a loopback one.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return isLoopbackName(host)
}

// limiters are the per-client token buckets, forgotten after idleLimiter without requests.
type limiters struct {
	mu    sync.Mutex
	r     rate.Limit
	burst int
	m     map[string]*clientLimiter
	swept time.Time
}

type clientLimiter struct {
	l    *rate.Limiter
	seen time.Time
}

const idleLimiter = 10 * time.Minute

func newLimiters(r rate.Limit, burst int) *limiters {
	return &limiters{r: r, burst: burst, m: make(map[string]*clientLimiter), swept: time.Now()}
}

// allow takes a token for key; when there is none it returns how long to wait for one.
func (l *limiters) allow(key string) (time.Duration, bool) {
	now := time.Now()
	l.mu.Lock()
	if now.Sub(l.swept) > time.Minute {
		for k, c := range l.m {
			if now.Sub(c.seen) > idleLimiter {
				delete(l.m, k)
			}
		}
		l.swept = now
	}
	c, ok := l.m[key]
	if !ok {
		c = &clientLimiter{l: rate.NewLimiter(l.r, l.burst)}
		l.m[key] = c
	}
	c.seen = now
	l.mu.Unlock()
	res := c.l.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d, false
	}
	return 0, true
}

// Session IDs are random with a MAC of the server's own, so that an unknown Mcp-Session-Id can
// be told apart: a session this server issued that expired or was deleted, or a made-up one.

// newSessionID returns a fresh session ID: 26 random characters, a dot and the MAC.
func (s *Server) newSessionID() string {
	id := rand.Text()
	return id + "." + s.sessionMAC(id)
}

// issuedSession reports whether id is a session ID this server made.
func (s *Server) issuedSession(id string) bool {
	raw, mac, ok := strings.Cut(id, ".")
	return ok && len(id) < 128 && hmac.Equal([]byte(mac), []byte(s.sessionMAC(raw)))
}

func (s *Server) sessionMAC(id string) string {
	m := hmac.New(sha256.New, s.sessionKey[:])
	m.Write([]byte(id))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// RunHTTP serves MCP over Streamable HTTP on ln until ctx is done, then drains, so that the
// requests clients already sent are answered: for HTTPOptions.DrainWindow /healthz answers 503
// (load balancers stop sending) while requests are still served, with keep-alive off; then the
// listener is closed, connections that have not sent a request are closed, new POSTs on open
// connections get 503, the POSTs in flight are answered — waiting at most DrainTimeout — the
// sessions are closed (which ends SSE streams) and RunHTTP returns nil. Serving errors are returned as they are.
func (s *Server) RunHTTP(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	h := s.NewHTTPHandler(opts)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: h.opts.ReadTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		// Requests outlive a cancelled ctx: the drain below ends them.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	// Shutdown waits 5 s for a connection that has not sent a byte (a browser opens spare ones
	// ahead of use) before it counts it idle: such a connection has nothing to answer, so the
	// drain closes it when it starts closing the listener.
	fresh := &freshConns{conns: map[net.Conn]bool{}}
	srv.ConnState = fresh.track
	srv.RegisterOnShutdown(fresh.close)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	h.drainHTTP(srv, s.mcp.Sessions)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// freshConns are the connections of an http.Server that have not sent a byte of a request yet
// (http.StateNew).
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]bool
}

// track is the server's ConnState hook.
func (f *freshConns) track(c net.Conn, state http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if state == http.StateNew {
		f.conns[c] = true
	} else {
		delete(f.conns, c)
	}
}

// close closes the connections that have not sent a byte; the server's hook then sees them closed.
func (f *freshConns) close() {
	f.mu.Lock()
	conns := slices.Collect(maps.Keys(f.conns))
	f.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// drainHTTP stops srv, which serves h, the way RunHTTP says, and closes the sessions that
// sessions lists once the POSTs in flight are answered. It returns when srv has shut down.
func (h *HTTPHandler) drainHTTP(srv *http.Server, sessions func() iter.Seq[*mcp.ServerSession]) {
	log := h.s.log
	h.drain()
	srv.SetKeepAlivesEnabled(false) // each connection closes after its answer
	if w := h.opts.DrainWindow; w > 0 {
		log.Info("draining HTTP: /healthz answers 503, requests are still served", "window", w)
		time.Sleep(w)
	}
	log.Info("draining HTTP: no new connections, answering requests in flight", "timeout", DrainTimeout)
	idle := h.stop()
	dctx, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(dctx) }() // stops accepting, waits for active connections
	select {
	case <-idle:
	case <-dctx.Done():
		log.Warn("serve: drain timed out with requests in flight")
	}
	for ss := range sessions() { // ends the long-lived GET streams
		ss.Close()
	}
	if err := <-shut; err != nil {
		srv.Close() // the connections left
	}
}
