package serve

// pages.go is what the HTML browser (package web) needs from serve and cannot rebuild without
// duplicating it: the HTTP checks of /mcp applied to its pages, and the snapshot generation a
// page reads kept open until it is answered. The pages themselves ask the answer Service of
// Server.Answers.

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/docidx/docidx"
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
