package crawl

import (
	"context"
	"log/slog"
	"maps"
	"sync"
)

// SkipKey is the log attribute with which registries report input they skipped (a file that is
// not regular, too large, malformed or unreadable); its value is the reason, and an attribute
// "count" (SkipCountKey) says how many files one record stands for (1 when absent). It equals
// registries/internal/skip.Key.
const SkipKey = "skipped"

// SkipCountKey is the attribute holding how many files one skip record reports.
const SkipCountKey = "count"

// SkipCounter is a slog.Handler that counts skip records (those with a SkipKey attribute) by
// reason, whatever their level, and passes every record its next handler is enabled for on to
// it. Give the crawl's registries, caches and Run a logger over one SkipCounter: Run then fills
// Summary.Skipped, so a crawl can report thousands of skipped files as one count per reason
// while its debug log still lists each file.
type SkipCounter struct {
	next   slog.Handler
	counts *skipCounts
	reason string // SkipKey set through WithAttrs
}

type skipCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// NewSkipCounter returns a SkipCounter in front of next.
func NewSkipCounter(next slog.Handler) *SkipCounter {
	return &SkipCounter{next: next, counts: &skipCounts{n: map[string]int{}}}
}

// Enabled reports true: a skip record is counted even at a level next discards.
func (h *SkipCounter) Enabled(context.Context, slog.Level) bool { return true }

// Handle counts r if it reports skipped input, then hands it to next if next is enabled for
// its level.
func (h *SkipCounter) Handle(ctx context.Context, r slog.Record) error {
	reason, n := h.reason, 1
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case SkipKey:
			reason = a.Value.String()
		case SkipCountKey:
			if v := a.Value.Resolve(); v.Kind() == slog.KindInt64 && v.Int64() > 0 {
				n = int(v.Int64())
			}
		}
		return true
	})
	if reason != "" {
		h.counts.mu.Lock()
		h.counts.n[reason] += n
		h.counts.mu.Unlock()
	}
	if !h.next.Enabled(ctx, r.Level) {
		return nil
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h *SkipCounter) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := &SkipCounter{next: h.next.WithAttrs(attrs), counts: h.counts, reason: h.reason}
	for _, a := range attrs {
		if a.Key == SkipKey {
			out.reason = a.Value.String()
		}
	}
	return out
}

// WithGroup implements slog.Handler.
func (h *SkipCounter) WithGroup(name string) slog.Handler {
	return &SkipCounter{next: h.next.WithGroup(name), counts: h.counts, reason: h.reason}
}

// Counts returns the files skipped so far, by reason.
func (h *SkipCounter) Counts() map[string]int {
	h.counts.mu.Lock()
	defer h.counts.mu.Unlock()
	return maps.Clone(h.counts.n)
}
