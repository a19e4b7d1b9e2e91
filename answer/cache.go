package answer

import (
	"errors"
	"sync"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// symbolCacheSize bounds the symbols symbolsCached keeps, over all package versions (the last
// version read is kept whatever its size): resources/list pages through one version's symbols a
// hundred at a time, and decoding a large module's symbols for every page would make listing it
// quadratic; describe calls on one package benefit too.
const symbolCacheSize = 50_000

// documentCacheSize bounds the bytes of section text documentsCached keeps, over all package
// versions (the last version read is kept whatever its size): reading one section after another
// of a README decodes the version's documents once.
const documentCacheSize = 4 << 20

// versionCache keeps what was read last of a few package versions (their symbols, their
// documents), by reader and version, within budget units as measured by size.
type versionCache[T any] struct {
	budget int
	size   func([]T) int

	mu      sync.Mutex
	entries []versionCacheEntry[T] // most recent last
}

type versionCacheEntry[T any] struct {
	r     *index.Reader
	ref   docidx.Ref
	items []T
	size  int
}

// get returns the items of ref in r, from the cache or else from load. A version load reports
// as not found is kept as having none. Callers must not modify the slice.
func (c *versionCache[T]) get(r *index.Reader, ref docidx.Ref, load func() ([]T, error)) ([]T, error) {
	c.mu.Lock()
	for i, e := range c.entries {
		if e.r == r && e.ref == ref {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			c.mu.Unlock()
			return e.items, nil
		}
	}
	c.mu.Unlock()
	items, err := load()
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, err
	}
	c.mu.Lock()
	c.entries = append(c.entries, versionCacheEntry[T]{r, ref, items, c.size(items)})
	total := 0
	for _, e := range c.entries {
		total += e.size
	}
	for len(c.entries) > 1 && total > c.budget {
		total -= c.entries[0].size
		c.entries = c.entries[1:]
	}
	c.mu.Unlock()
	return items, nil
}

// symbolsCached returns the symbols of ref in r, from the cache when it has them. Callers must
// not modify the slice.
func (s *Service) symbolsCached(r *index.Reader, ref docidx.Ref) ([]docidx.Symbol, error) {
	syms, err := s.symbols.get(r, ref, func() ([]docidx.Symbol, error) { return r.Symbols(ref) })
	if err != nil {
		return nil, internalError("read symbols", err)
	}
	return syms, nil
}

// documentsCached returns the documents of ref in r, from the cache when it has them. Callers
// must not modify them.
func (s *Service) documentsCached(r *index.Reader, ref docidx.Ref) ([]docidx.Document, error) {
	docs, err := s.documents.get(r, ref, func() ([]docidx.Document, error) { return r.Documents(ref) })
	if err != nil {
		return nil, internalError("read documents", err)
	}
	return docs, nil
}

// documentText is the size of docs for documentCacheSize: the bytes of their sections' text.
func documentText(docs []docidx.Document) int {
	n := 0
	for i := range docs {
		for j := range docs[i].Sections {
			n += len(docs[i].Sections[j].Text) + len(docs[i].Sections[j].Plain)
		}
	}
	return n
}

// Symbols returns the symbols of the package version ref — none when it has none or is not
// indexed — from the cache that describe and read use (the versions read last), so that the
// pages of one version do not decode them again each time. Callers must not modify them.
// A failure to read them is an *InternalError.
func (s *Service) Symbols(ref docidx.Ref) ([]docidx.Symbol, error) {
	return s.symbolsCached(s.reader(), ref)
}

// Documents is Symbols for the documents of ref.
func (s *Service) Documents(ref docidx.Ref) ([]docidx.Document, error) {
	return s.documentsCached(s.reader(), ref)
}
