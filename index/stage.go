package index

// stage.go holds a crawl's staging file: the documents and symbols of the package versions it
// put, until Commit writes them into the new segments' document stores (docs.dat). Each value
// is written once and read once, by one process, in no order a B+tree helps with: the file is
// an append-only log of the values as the store encodes them (encodeJSON), and an index of
// where each version's are in memory (tens of bytes per version). It is read with pread, not
// mapped: its pages are the page cache's, not the crawl's resident memory. A bbolt file held
// them before, whose mapping grew to 294 MB of a 16N crawl's peak RSS of 972 MB.

import (
	"fmt"
	"os"
	"sync"

	"github.com/docidx/docidx"
)

// stagingFile is the name of the file, in a generation being written, that holds the documents
// and symbols a crawl put until Commit; a published generation has none.
const stagingFile = "staging.dat"

// stage is an open staging file. Its methods are safe for concurrent use.
type stage struct {
	f *os.File

	mu   sync.Mutex
	size int64                   // bytes written or reserved
	at   map[string]stagedValues // by version key; a version put again is read from its last put
}

// stagedValues locates the values of one version in a staging file: its documents' bytes at
// off, then its symbols'.
type stagedValues struct {
	off        int64
	docs, syms int
}

// createStage creates the staging file at path, replacing a file left there by a crawl that did
// not finish (it wrote a generation nobody reads).
func createStage(path string) (*stage, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	return &stage{f: f, at: map[string]stagedValues{}}, nil
}

// put stores the encoded documents and symbols of version key. Writes of concurrent puts go to
// places reserved for each, side by side.
func (s *stage) put(key []byte, docs, syms []byte) error {
	s.mu.Lock()
	start := s.size
	s.size += int64(len(docs) + len(syms))
	s.mu.Unlock()
	// Two writes, not one of a copy of both: a copy was a second allocation of every byte.
	if _, err := s.f.WriteAt(docs, start); err != nil {
		return fmt.Errorf("index: writing the staging file: %w", err)
	}
	if _, err := s.f.WriteAt(syms, start+int64(len(docs))); err != nil {
		return fmt.Errorf("index: writing the staging file: %w", err)
	}
	s.mu.Lock()
	s.at[string(key)] = stagedValues{off: start, docs: len(docs), syms: len(syms)}
	s.mu.Unlock()
	return nil
}

// get returns the encoded documents and symbols of version key, read into *buf's storage, which
// grows as needed (a caller done with them reads the next version into the same storage, so
// that reading a crawl's values back allocates per segment build, not per version), and
// whether the file holds them. A value that cannot be read whole is an error.
func (s *stage) get(key string, buf *[]byte) (docs, syms []byte, found bool, err error) {
	s.mu.Lock()
	v, found := s.at[key]
	s.mu.Unlock()
	if !found {
		return nil, nil, false, nil
	}
	if cap(*buf) < v.docs+v.syms {
		*buf = make([]byte, v.docs+v.syms)
	}
	b := (*buf)[:v.docs+v.syms]
	if _, err := s.f.ReadAt(b, v.off); err != nil {
		return nil, nil, false, fmt.Errorf("index: reading %s from the staging file: %w", keyRef(key), err)
	}
	return b[:v.docs:v.docs], b[v.docs:], true, nil
}

// encodeValues encodes the documents and symbols of a version as the store holds them.
func encodeValues(docs []docidx.Document, syms []docidx.Symbol) (rawDocs, rawSyms []byte, err error) {
	if rawDocs, err = encodeJSON(docs); err != nil {
		return nil, nil, err
	}
	rawSyms, err = encodeJSON(syms)
	return rawDocs, rawSyms, err
}

// remove closes the staging file and removes it.
func (s *stage) remove() error {
	err := s.f.Close()
	if rerr := os.Remove(s.f.Name()); err == nil {
		err = rerr
	}
	return err
}
