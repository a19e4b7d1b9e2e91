package serve

// pages.go is what the HTML browser (package web) needs from serve and cannot rebuild without
// duplicating it: the HTTP checks of /mcp applied to its pages, the snapshot reader being
// served, and the API difference the upgrade_package prompt embeds.

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// PageTokenCookie is the cookie that carries the token of a server started with one
// (HTTPOptions.Token) for its HTML pages: a browser cannot send an Authorization header on a
// link, so one visit with ?token=TOKEN sets this cookie (HttpOnly, SameSite=Strict) and
// redirects to the same URL without the token.
const PageTokenCookie = "docidx_token"

// servePages runs the checks of serveMCP for HTMLPages — Host, Origin, token (header, cookie
// or one ?token= visit), rate limit — and then HTTPOptions.Pages. Refusals are plain text: a
// person reads them.
func (h *HTTPHandler) servePages(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: the pages are read with GET", http.StatusMethodNotAllowed)
		return
	}
	if !h.hostOK(r) {
		http.Error(w, fmt.Sprintf("forbidden: Host %s is not this server's (docidx serve --allowed-host)", docidx.Quote(r.Host)), http.StatusForbidden)
		return
	}
	if !h.originOK(r) {
		http.Error(w, fmt.Sprintf("forbidden: cross-origin request from %s", docidx.Quote(r.Header.Get("Origin"))), http.StatusForbidden)
		return
	}
	if h.limits != nil {
		if wait, ok := h.limits.allow(h.clientAddr(r)); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			http.Error(w, fmt.Sprintf("rate limit of %g requests/s exceeded; retry after %s", h.opts.RateLimit, wait.Round(time.Millisecond)), http.StatusTooManyRequests)
			return
		}
	}
	if h.opts.Token != "" {
		q := r.URL.Query()
		if q.Has("token") {
			if !h.tokenOK(q.Get("token")) {
				http.Error(w, "unauthorized: the token in the link is not this server's", http.StatusUnauthorized)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: PageTokenCookie, Value: q.Get("token"), Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		c, err := r.Cookie(PageTokenCookie)
		if !h.authorized(r) && (err != nil || !h.tokenOK(c.Value)) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="docidx"`)
			http.Error(w, "unauthorized: open the link docidx printed, with ?token=TOKEN, once (docidx serve --token / DOCIDX_TOKEN)", http.StatusUnauthorized)
			return
		}
	}
	defer h.s.gens.begin()() // a page reads the snapshot: a reload waits for it (see generations)
	h.opts.Pages.ServeHTTP(w, r)
}

// tokenOK reports whether tok is the server's token, comparing digests in constant time.
func (h *HTTPHandler) tokenOK(tok string) bool {
	got := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(got[:], h.token[:]) == 1
}

// Reader returns the snapshot reader being served (SetReader replaces it), waiting for the
// first one if New had none; nil once Unavailable said none will come. Within an MCP request or
// a page request served by HTTPHandler, the reader stays open until the request ends (see
// generations); other callers must not hold it across a SetReader.
func (s *Server) Reader() *index.Reader { return s.reader() }

// APIDiff is the difference between the APIs of two versions of a package, symbols matched by
// qualified name (package clauses left out): what the upgrade_package prompt embeds.
type APIDiff struct {
	From, To *docidx.Package
	Added    []*docidx.Symbol // in To only, by qualified name
	Removed  []*docidx.Symbol // in From only, by qualified name
	Changed  []SymbolChange   // in both, with another signature, kind or deprecation
}

// SymbolChange is one symbol whose signature, kind or deprecation differs between two
// versions.
type SymbolChange struct{ Old, New *docidx.Symbol }

// DiffVersions compares the APIs of versions from and to of package name; to "" or "latest"
// means the latest indexed version. An unknown package or version is a tool error whose message
// says what is indexed instead (as describe's).
func (s *Server) DiffVersions(eco docidx.Ecosystem, name, from, to string) (*APIDiff, error) {
	if to == "latest" {
		to = ""
	}
	a, _, err := s.resolvePackage(eco, name, from)
	if err != nil {
		return nil, err
	}
	b, _, err := s.resolvePackage(eco, a.Name, to)
	if err != nil {
		return nil, err
	}
	r := s.reader()
	sa, err := r.Symbols(a.Ref())
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, s.internalError("read symbols", err)
	}
	sb, err := r.Symbols(b.Ref())
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, s.internalError("read symbols", err)
	}
	d := diffAPI(sa, sb)
	out := &APIDiff{From: a, To: b, Added: d.Added, Removed: d.Removed}
	for _, c := range d.Changed {
		out.Changed = append(out.Changed, SymbolChange(c))
	}
	return out, nil
}

// IsNotFound reports whether err, returned by one of the answer methods, is about what the
// snapshot holds — an unknown package, version, document, symbol or anchor, or a search without
// hits — rather than about the arguments or the server. Its message says what is there instead.
func IsNotFound(err error) bool {
	var te *toolError
	return errors.As(err, &te)
}

// Symbols returns the symbols of the package version ref — none when it has none or is not
// indexed — from the cache that describe and read use (the versions read last), so that the
// pages of one version do not decode them again each time. Callers must not modify them.
// Errors are the reader's, as -32603 with the details in the server log.
func (s *Server) Symbols(ref docidx.Ref) ([]docidx.Symbol, error) {
	return s.symbolsCached(s.reader(), ref)
}

// Documents is Symbols for the documents of ref.
func (s *Server) Documents(ref docidx.Ref) ([]docidx.Document, error) {
	return s.documentsCached(s.reader(), ref)
}
