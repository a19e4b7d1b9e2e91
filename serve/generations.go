package serve

// generations.go keeps a replaced snapshot open exactly as long as a request may read it, and
// no longer: each request counts against the generation that was current when it began, and a
// replaced generation is released once no request that began on it, or on an older one, is
// still running. (A request that began on generation 1 may have loaded generation 2 after a
// switch, so generation 2 waits for it too.) A reload thus frees the old generation's files,
// memory and, after an unpack, its disk space as soon as its last request ends.

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// generation is one reader the server served (Server.rd holds the current one), with the
// requests that began while it was current.
type generation struct {
	release  func() // called once no request can read the reader any more; may be nil
	requests int    // requests that began while this generation was current, still running
}

// generations is the server's current generation and the replaced ones not yet released,
// oldest first.
type generations struct {
	mu      sync.Mutex
	cur     *generation
	retired []*generation
}

// begin counts a request against the current generation and returns the function that ends
// it, which releases the replaced generations no running request can read any more.
func (g *generations) begin() (end func()) {
	g.mu.Lock()
	gen := g.cur
	gen.requests++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			gen.requests--
			done := g.sweep()
			g.mu.Unlock()
			releaseAll(done)
		})
	}
}

// replace starts a new current generation, for a reader released by release, and releases the
// one it replaces once no running request can read that one.
func (g *generations) replace(release func()) {
	g.mu.Lock()
	g.retired = append(g.retired, g.cur)
	g.cur = &generation{release: release}
	done := g.sweep()
	g.mu.Unlock()
	releaseAll(done)
}

// sweep removes from g.retired, oldest first, the generations with no request running that
// began on them or on an older one, and returns them to be released. g.mu is held.
func (g *generations) sweep() []*generation {
	n := 0
	for n < len(g.retired) && g.retired[n].requests == 0 {
		n++
	}
	done := g.retired[:n:n]
	g.retired = g.retired[n:]
	return done
}

// releaseAll calls the release functions of gens, outside g.mu: closing a reader takes time.
func releaseAll(gens []*generation) {
	for _, gen := range gens {
		if gen.release != nil {
			gen.release()
		}
	}
}

// pin is the receiving middleware that counts every request against the generation current
// when it began (see generations), so that a reload never closes a snapshot under a request.
func (s *Server) pin(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		defer s.gens.begin()()
		return next(ctx, method, req)
	}
}

// onceHandler is the slog.Handler the SDK logs through: it passes everything on, except that it
// keeps only the first of the SDK's warnings that a notification could not be sent ("calling
// notifications/resources/list_changed: rejected by transport") per method until reset. A
// reload notifies every session, and a transport that cannot take a notification (a client
// without a stream open for them) makes one such warning per session.
type onceHandler struct {
	slog.Handler
	state *onceState
}

type onceState struct {
	mu     sync.Mutex
	logged map[string]bool // notification methods warned about since the last reset
}

func newOnceHandler(next slog.Handler) *onceHandler {
	return &onceHandler{Handler: next, state: &onceState{logged: map[string]bool{}}}
}

// Handle drops r when it repeats a notification warning already passed on since the last reset.
func (h *onceHandler) Handle(ctx context.Context, r slog.Record) error {
	if rest, ok := strings.CutPrefix(r.Message, "calling notifications/"); ok && r.Level >= slog.LevelWarn {
		method, _, _ := strings.Cut(rest, ":")
		h.state.mu.Lock()
		seen := h.state.logged[method]
		h.state.logged[method] = true
		h.state.mu.Unlock()
		if seen {
			return nil
		}
		r.AddAttrs(slog.String("note", "other sessions that cannot take this notification are not logged"))
	}
	return h.Handler.Handle(ctx, r)
}

func (h *onceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &onceHandler{Handler: h.Handler.WithAttrs(attrs), state: h.state}
}

func (h *onceHandler) WithGroup(name string) slog.Handler {
	return &onceHandler{Handler: h.Handler.WithGroup(name), state: h.state}
}

// reset lets the next warning of each notification method through again: one per reload.
func (h *onceHandler) reset() {
	h.state.mu.Lock()
	clear(h.state.logged)
	h.state.mu.Unlock()
}
