// Package defaults gives the values the registries' constructors (NewRegistry, NewProxy, and the
// local caches' NewCheckouts, NewModCache, NewNodeModules, NewSitePackages, NewCache) use for the
// fields of their configs left nil, so that every ecosystem fills them alike. It imports
// registries/internal/fetch and the standard library only.
package defaults

import (
	"log/slog"
	"time"

	"github.com/docidx/docidx/registries/internal/fetch"
)

// Client returns c, or fetch.New(nil) when c is nil.
func Client(c *fetch.Client) *fetch.Client {
	if c == nil {
		return fetch.New(nil)
	}
	return c
}

// Logger returns l, or a logger that discards every record when l is nil.
func Logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}

// Now returns now, or time.Now when now is nil.
func Now(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}
