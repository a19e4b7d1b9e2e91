package gomod

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestLinkValues checks that a field, a setter and an option function are given the constant
// that holds their default, exported or not, and that a doc naming a variable is given its
// value, while plain words and long tables are not linked.
func TestLinkValues(t *testing.T) {
	src := `// Package pool pools connections.
package pool

import "time"

const (
	// DefaultMaxElapsedTime bounds retries.
	DefaultMaxElapsedTime = 15 * time.Minute
	defaultReadBufferSize = 4096
	defMaxConns           = 100
)

// Stop means no more retries.
const Stop time.Duration = -1

// DefBuckets are the default buckets.
var DefBuckets = []float64{.005, .01, .025, 1, 2.5}

var lookup = map[string]int{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": 1, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb": 2, "ccccccccccccccccccccccccccccccccccccccccccccccccccc": 3}

// Options configure a pool.
type Options struct {
	// MaxElapsedTime bounds the retries. Stop ends them.
	MaxElapsedTime time.Duration
	// ReadBufferSize is the size of the read buffer; zero uses a default.
	ReadBufferSize int
	// Buckets are the histogram's buckets; nil means DefBuckets. See lookup.
	Buckets []float64
	// Other has no default.
	Other int
}

// SetMaxConns sets the most connections.
func (o *Options) SetMaxConns(n int) *Options { return o }

// WithReadBufferSize sets ReadBufferSize.
func WithReadBufferSize(n int) Options { return Options{} }
`
	fsys := fstest.MapFS{
		"go.mod":  {Data: []byte("module example.com/pool\n")},
		"pool.go": {Data: []byte(src)},
	}
	md, err := extractModule(context.Background(), fsys, "example.com/pool", "v1.0.0", Limits{}.withDefaults(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	syms := testutil.ByName(md.symbols)
	for q, want := range map[string][]string{
		"pool.Options.MaxElapsedTime": {"const DefaultMaxElapsedTime = 15 * time.Minute"},
		"pool.Options.ReadBufferSize": {"const defaultReadBufferSize = 4096"},
		"pool.Options.Buckets":        {"var DefBuckets = []float64{.005, .01, .025, 1, 2.5}"},
		"pool.Options.SetMaxConns":    {"const defMaxConns = 100"},
		"pool.WithReadBufferSize":     {"const defaultReadBufferSize = 4096"},
		"pool.Options.Other":          nil,
		"pool.DefBuckets":             nil,
	} {
		s, ok := syms[q]
		if !ok {
			t.Errorf("missing %s", q)
			continue
		}
		if !slices.Equal(s.Values, want) {
			t.Errorf("%s: values %q, want %q", q, s.Values, want)
		}
	}
	if _, ok := syms["pool.defaultReadBufferSize"]; ok {
		t.Error("an unexported constant became a symbol of its own")
	}
}
