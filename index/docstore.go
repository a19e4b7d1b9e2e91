package index

// docstore.go reads and writes a segment's document store, docs.dat: the documents and symbols
// of every package version the segment holds, as the store.db of format 3 and before held them
// for the whole snapshot. Kept in the segment, they are written once, when the segment is, and
// kept with it by later generations: a crawl adding one package version writes that
// version's values only, and store.db keeps the catalog (packages, names, where each version is
// searched), small enough to copy at every crawl.
//
// Layout (integers little-endian):
//
//	magic    "DOCIDXD1"
//	values   each version's documents value, then its symbols value, versions in key order; a
//	         value is what store.go's putJSON stores (JSON, or one zstd frame of it)
//	table    uvarint count, then per version: uvarint key length, key (eco\x00name\x00version),
//	         uvarint documents offset, length, symbols offset, length, search documents, then
//	         the CRC-32C of the documents value and of the symbols value (uint32 each)
//	trailer  uint64 table offset, uint32 table length, uint32 CRC-32C of the table, magic
//
// The table is small (about 60 bytes per version) and its checksum is checked at open; each
// value's checksum is checked when it is read. Reading the whole file at every open would cost a
// serve's start-up time in proportion to the snapshot's text, which no search reads: searches
// rank with rank.idx (read whole by a Reader's first search, see reader.ranked) and show text
// from search.bleve, and only reading a document or a symbol in full reads this file. `docidx
// verify` reads every value.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
)

// DocsFile is the name of a segment's document store, inside its directory.
const DocsFile = "docs.dat"

// docsMagic starts and ends docs.dat; the digit is its layout.
const docsMagic = "DOCIDXD1"

// docsTrailer is the size of docs.dat's trailer.
const docsTrailer = 8 + 4 + 4 + len(docsMagic)

// maxDocsTable bounds the table docs.dat's trailer may claim: 64 MiB is a million versions.
const maxDocsTable = 64 << 20

// Which value of a version docStore.value reads.
const (
	docsValue = iota // its []docidx.Document
	symsValue        // its []docidx.Symbol
)

// docEntry is one version's row of docs.dat's table.
type docEntry struct {
	off, n     [2]uint64 // of the documents and symbols values
	crc        [2]uint32
	searchDocs int // the search documents the version adds to the segment
}

// errDocsFormat is wrapped by every error reading a malformed docs.dat.
var errDocsFormat = errors.New("malformed document store")

// docStore is an open docs.dat: its table in memory, its values read with pread.
type docStore struct {
	path    string
	f       *os.File
	size    int64
	keys    []string // version keys, in the file's order (sorted)
	entries map[string]docEntry
}

// openDocStore opens the docs.dat at path and reads its table, checking the table's checksum.
// Damage is an error wrapping ErrCorrupt that names the file; a permission problem says so.
func openDocStore(path string) (*docStore, error) { return openDocs(path, false) }

// checkDocsShape checks the docs.dat at path as openDocStore does, but for its table, of which
// it checks only the place: in time that does not grow with the segment.
func checkDocsShape(path string) error {
	ds, err := openDocs(path, true)
	if err != nil {
		return err
	}
	return ds.close()
}

// openDocs is openDocStore; with shapeOnly it reads the magic numbers and the trailer only.
func openDocs(path string, shapeOnly bool) (*docStore, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fileError(path, err)
	}
	ds := &docStore{path: path, f: f, size: fi.Size()}
	load := ds.load
	if shapeOnly {
		load = func() error { _, _, _, err := ds.trailer(); return err }
	}
	if err := load(); err != nil {
		f.Close()
		if errors.Is(err, errDocsFormat) {
			return nil, damaged(path, "%v", err)
		}
		return nil, fileError(path, err)
	}
	return ds, nil
}

// trailer reads and checks the magic numbers and the trailer: the table's offset, length and
// checksum. Malformed input is an error wrapping errDocsFormat.
func (ds *docStore) trailer() (off, n uint64, sum uint32, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errDocsFormat, fmt.Sprintf(format, args...))
	}
	le := binary.LittleEndian
	if ds.size < int64(len(docsMagic)+docsTrailer) {
		return 0, 0, 0, bad("%d bytes is too short", ds.size)
	}
	head := make([]byte, len(docsMagic))
	if _, err := ds.f.ReadAt(head, 0); err != nil {
		return 0, 0, 0, err
	}
	tail := make([]byte, docsTrailer)
	if _, err := ds.f.ReadAt(tail, ds.size-int64(docsTrailer)); err != nil {
		return 0, 0, 0, err
	}
	if string(head) != docsMagic || string(tail[16:]) != docsMagic {
		return 0, 0, 0, bad("not a document store of layout %s", docsMagic)
	}
	off, n, sum = le.Uint64(tail), uint64(le.Uint32(tail[8:])), le.Uint32(tail[12:])
	end := uint64(ds.size) - uint64(docsTrailer)
	if n > maxDocsTable || off < uint64(len(docsMagic)) || off > end || n != end-off {
		return 0, 0, 0, bad("its trailer places the table at %d+%d in %d bytes", off, n, ds.size)
	}
	return off, n, sum, nil
}

// load reads and checks the trailer and the table. Every malformed input is an error wrapping
// errDocsFormat; none panics.
func (ds *docStore) load() error {
	le := binary.LittleEndian
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errDocsFormat, fmt.Sprintf(format, args...))
	}
	off, n, sum, err := ds.trailer()
	if err != nil {
		return err
	}
	table := make([]byte, n)
	if _, err := ds.f.ReadAt(table, int64(off)); err != nil {
		return err
	}
	if crc32.Checksum(table, castagnoli) != sum {
		return bad("table checksum mismatch")
	}
	count, table, err := uvarint(table)
	if err != nil || count > uint64(len(table)) { // a row takes more than one byte
		return bad("bad table length")
	}
	ds.keys = make([]string, 0, count)
	ds.entries = make(map[string]docEntry, count)
	for range count {
		var klen uint64
		if klen, table, err = uvarint(table); err != nil || klen > uint64(len(table)) {
			return bad("bad key")
		}
		key := string(table[:klen])
		table = table[klen:]
		var e docEntry
		var fields [5]uint64
		for i := range fields {
			if fields[i], table, err = uvarint(table); err != nil {
				return bad("bad row for %q", key)
			}
		}
		if len(table) < 8 {
			return bad("bad row for %q", key)
		}
		e.off = [2]uint64{fields[0], fields[2]}
		e.n = [2]uint64{fields[1], fields[3]}
		e.crc = [2]uint32{le.Uint32(table), le.Uint32(table[4:])}
		table = table[8:]
		for i := range 2 {
			if e.off[i] < uint64(len(docsMagic)) || e.off[i] > off || e.n[i] > off-e.off[i] {
				return bad("%q's values lie outside the values section", key)
			}
		}
		if fields[4] > maxSegmentDocs*64 {
			return bad("%q claims %d search documents", key, fields[4])
		}
		e.searchDocs = int(fields[4])
		if len(ds.keys) > 0 && key <= ds.keys[len(ds.keys)-1] {
			return bad("keys out of order at %q", key)
		}
		ds.keys = append(ds.keys, key)
		ds.entries[key] = e
	}
	if len(table) != 0 {
		return bad("%d bytes after the table's rows", len(table))
	}
	return nil
}

// uvarint decodes one unsigned varint from the front of b and returns it and the rest.
func uvarint(b []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errDocsFormat
	}
	return v, b[n:], nil
}

// raw returns the stored bytes of value which (docsValue or symsValue) of version key, checked
// against their checksum; found is false when the segment does not hold key.
func (ds *docStore) raw(key string, which int) (data []byte, found bool, err error) {
	e, ok := ds.entries[key]
	if !ok {
		return nil, false, nil
	}
	data = make([]byte, e.n[which])
	if _, err := ds.f.ReadAt(data, int64(e.off[which])); err != nil {
		return nil, true, fileError(ds.path, err)
	}
	if crc32.Checksum(data, castagnoli) != e.crc[which] {
		return nil, true, damaged(ds.path, "checksum mismatch in a value of %s", keyRef(key))
	}
	return data, true, nil
}

// get decodes value which of version key into v; found is false when the segment does not
// hold key.
func (ds *docStore) get(key string, which int, v any) (found bool, err error) {
	data, found, err := ds.raw(key, which)
	if !found || err != nil {
		return found, err
	}
	if err := decodeValue([]byte(key), data, v); err != nil {
		return true, damaged(ds.path, "%v", err)
	}
	return true, nil
}

// check reads every value and checks its checksum, for docidx verify.
func (ds *docStore) check() error {
	for _, k := range ds.keys {
		for which := range 2 {
			if _, _, err := ds.raw(k, which); err != nil {
				return err
			}
		}
	}
	return nil
}

// documents returns the search documents of all the versions the segment holds.
func (ds *docStore) documents() int {
	n := 0
	for _, e := range ds.entries {
		n += e.searchDocs
	}
	return n
}

func (ds *docStore) close() error { return ds.f.Close() }

// keyRef returns a version key as it is written for people ("npm:ws@8.18.0").
func keyRef(key string) string {
	ref, err := parseVersionKey([]byte(key))
	if err != nil {
		return fmt.Sprintf("%q", key)
	}
	return ref.String()
}

// docStoreWriter writes a docs.dat; add versions in key order, then close.
type docStoreWriter struct {
	f     *os.File
	w     *bufio.Writer
	off   uint64
	table []byte
	count uint64
	last  string
	err   error
}

// createDocStore creates the docs.dat at path, which must not exist.
func createDocStore(path string) (*docStoreWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	dw := &docStoreWriter{f: f, w: bufio.NewWriterSize(f, 1<<20)}
	dw.write([]byte(docsMagic))
	return dw, nil
}

func (dw *docStoreWriter) write(p []byte) {
	if dw.err != nil {
		return
	}
	_, dw.err = dw.w.Write(p)
	dw.off += uint64(len(p))
}

// add appends the stored values of version key (docs and syms as putJSON encodes them) and the
// number of search documents it adds to the segment. Keys must come in increasing order.
func (dw *docStoreWriter) add(key string, docs, syms []byte, searchDocs int) error {
	if dw.err == nil && dw.count > 0 && key <= dw.last {
		dw.err = fmt.Errorf("index: document store: key %q after %q", key, dw.last)
	}
	le := binary.LittleEndian
	row := binary.AppendUvarint(dw.table, uint64(len(key)))
	row = append(row, key...)
	var sums [2]uint32
	for i, v := range [][]byte{docs, syms} {
		row = binary.AppendUvarint(row, dw.off)
		row = binary.AppendUvarint(row, uint64(len(v)))
		sums[i] = crc32.Checksum(v, castagnoli)
		dw.write(v)
	}
	row = binary.AppendUvarint(row, uint64(searchDocs))
	row = le.AppendUint32(row, sums[0])
	row = le.AppendUint32(row, sums[1])
	dw.table = row
	dw.count++
	dw.last = key
	return dw.err
}

// close writes the table and the trailer, syncs and closes the file.
func (dw *docStoreWriter) close() error {
	le := binary.LittleEndian
	table := binary.AppendUvarint(nil, dw.count)
	table = append(table, dw.table...)
	tableOff := dw.off
	dw.write(table)
	var tail []byte
	tail = le.AppendUint64(tail, tableOff)
	tail = le.AppendUint32(tail, uint32(len(table)))
	tail = le.AppendUint32(tail, crc32.Checksum(table, castagnoli))
	tail = append(tail, docsMagic...)
	dw.write(tail)
	if dw.err == nil {
		dw.err = dw.w.Flush()
	}
	if err := dw.f.Close(); dw.err == nil {
		dw.err = err
	}
	if dw.err != nil {
		return fmt.Errorf("index: writing %s: %w", dw.f.Name(), dw.err)
	}
	return nil
}

// abort closes and removes a document store not finished.
func (dw *docStoreWriter) abort() {
	dw.f.Close()
	os.Remove(dw.f.Name())
}
