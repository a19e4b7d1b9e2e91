package index

// guard.go keeps a damaged, truncated, unreadable or special file in a snapshot from crashing
// or hanging the process that reads it: every file is opened without blocking and refused unless
// it is a regular file, small files are read with a bound, bbolt files are checked against their
// meta pages before they are mapped, and panics inside bbolt, Bleve and zapx become errors that
// name the file.

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"

	zap "github.com/blevesearch/zapx/v16"
	bolt "go.etcd.io/bbolt"
)

// Bounds of the small files read whole: CURRENT holds one generation name, the manifest one
// checksum per file of a snapshot (a few hundred files at most).
const (
	maxCurrentBytes  = 256
	maxManifestBytes = 16 << 20
)

// damaged returns the error for a snapshot file that is there but cannot be used: it wraps
// ErrCorrupt, names the file and says what to do.
func damaged(path string, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s: check the snapshot with 'docidx verify', then replace it: crawl again, or 'docidx unpack' a good archive",
		ErrCorrupt, path, fmt.Sprintf(format, args...))
}

// fileError explains err, met opening or reading the snapshot file path: a permission problem
// says whose and what to do, anything else is damage.
func fileError(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("index: %s is not readable by this user (%w): ask the snapshot's owner to make it readable (chmod -R a+rX on the index directory), or crawl into an index directory of your own",
			path, err)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return damaged(path, "the file is missing")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is named already
	}
	return damaged(path, "%v", err)
}

// openRegular opens path for reading without blocking on a FIFO and returns it only if it is a
// regular file (symbolic links followed). Errors are those of os.Open, or one wrapping
// ErrCorrupt for a file of another type.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, damaged(path, "not a regular file (%v)", fi.Mode().Type())
	}
	return f, fi, nil
}

// readSmall reads the regular file path whole, refusing one larger than max bytes. A missing
// file returns an error wrapping fs.ErrNotExist, for the caller to explain.
func readSmall(path string, max int64) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fileError(path, err)
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, damaged(path, "%d bytes, more than the %d such a file can hold", fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fileError(path, err)
	}
	if int64(len(data)) > max {
		return nil, damaged(path, "more than the %d bytes such a file can hold", max)
	}
	return data, nil
}

// Layout of a bbolt meta page (go.etcd.io/bbolt, internal/common/page.go and meta.go): a 16-byte
// page header, then magic, version, page size, flags, root bucket (root page, sequence),
// freelist page, high water mark (pgid), txid and an FNV-1a 64 checksum of the fields before it.
// Fields are in the machine's byte order; docidx runs on little-endian machines only.
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	boltPageHeader  = 16
	boltMetaSize    = 64
	boltNoFreelist  = ^uint64(0)
	boltMinPageSize = 512
	boltMaxPageSize = 1 << 20
)

type boltMeta struct {
	pageSize                   uint64
	root, freelist, pgid, txid uint64
}

// readBoltMeta decodes the meta page at off of f, reporting whether it is valid as bbolt
// validates it (magic, version, checksum).
func readBoltMeta(f io.ReaderAt, off int64) (boltMeta, bool) {
	buf := make([]byte, boltPageHeader+boltMetaSize)
	if _, err := f.ReadAt(buf, off); err != nil {
		return boltMeta{}, false
	}
	le := binary.LittleEndian
	b := buf[boltPageHeader:]
	h := fnv.New64a()
	h.Write(b[:56])
	if le.Uint32(b[0:]) != boltMagic || le.Uint32(b[4:]) != boltVersion || le.Uint64(b[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: uint64(le.Uint32(b[8:])), root: le.Uint64(b[16:]), freelist: le.Uint64(b[32:]),
		pgid: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}, true
}

// checkBolt checks that the bbolt file f of size bytes holds every page its meta page claims.
// bbolt maps the file and reads those pages from memory: a page past the end of a truncated file
// is a SIGBUS that no recover catches, so the file must be refused before it is mapped.
func checkBolt(f io.ReaderAt, size int64) error {
	m0, ok0 := readBoltMeta(f, 0)
	if !ok0 && size < boltMinPageSize {
		return fmt.Errorf("%d bytes: not a bbolt file", size)
	}
	// The second meta page is at one page size; with the first one damaged, bbolt tries the
	// usual sizes, as here.
	var m1 boltMeta
	ok1 := false
	if ok0 {
		m1, ok1 = readBoltMeta(f, int64(m0.pageSize))
	} else {
		for ps := int64(boltMinPageSize); ps <= boltMaxPageSize && !ok1; ps *= 2 {
			m1, ok1 = readBoltMeta(f, ps)
		}
	}
	// bbolt uses the valid meta of the larger txid.
	m, ok := m0, ok0
	if ok1 && (!ok0 || m1.txid > m0.txid) {
		m, ok = m1, ok1
	}
	if !ok {
		return fmt.Errorf("%d bytes: no valid bbolt meta page", size)
	}
	ps := m.pageSize
	if ps < boltMinPageSize || ps > boltMaxPageSize || ps&(ps-1) != 0 {
		return fmt.Errorf("page size %d in its meta page", ps)
	}
	if m.pgid < 2 || m.pgid > uint64(size)/ps || uint64(size) < 2*ps {
		return fmt.Errorf("%d bytes, but its meta page claims %d pages of %d bytes (%d bytes): the file is truncated",
			size, m.pgid, ps, m.pgid*ps)
	}
	if m.root >= m.pgid || (m.freelist != boltNoFreelist && m.freelist >= m.pgid) {
		return fmt.Errorf("meta page points past the file's %d pages", m.pgid)
	}
	return nil
}

// checkBoltFile opens the bbolt file path and checks it (see checkBolt).
func checkBoltFile(path string) error {
	f, fi, err := openRegular(path)
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return err
		}
		return fileError(path, err)
	}
	defer f.Close()
	if err := checkBolt(f, fi.Size()); err != nil {
		return damaged(path, "%v", err)
	}
	return nil
}

// checkTree checks, before Bleve opens the index directory dir, that everything under it is a
// directory or a regular file (a FIFO would hang Bleve's open, /dev/zero its reads) and that its
// bbolt root is whole. It returns nil for a dir that does not exist: Bleve's open says so.
func checkTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return nil
			}
			return fileError(p, err)
		}
		if d.IsDir() {
			return nil
		}
		if filepath.Base(p) == "root.bolt" {
			return checkBoltFile(p)
		}
		f, _, err := openRegular(p)
		if err != nil {
			if errors.Is(err, ErrCorrupt) {
				return err
			}
			return fileError(p, err)
		}
		return f.Close()
	})
}

// guard turns a panic in the calling function — bbolt, Bleve or zapx reading a damaged file,
// including a fault on memory mapped from a file truncated meanwhile — into an error naming
// what was being read. Use it as
//
//	defer guard(&err, what)()
//
// so that the runtime's fault setting is restored on return.
func guard(err *error, what string) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if p := recover(); p != nil {
			*err = &faultError{damaged(what, "reading it failed: %v", p)}
		}
	}
}

// faultError is the error of guard: a panic or fault met reading a file.
type faultError struct{ err error }

func (e *faultError) Error() string { return e.err.Error() }
func (e *faultError) Unwrap() error { return e.err }

// checkBleve checks the Bleve index directory dir before Bleve opens it, naming the file at
// fault: Bleve's own errors name at most the directory, and it opens an index whose segment
// file is missing or empty as an empty index, logging a line — a search would then silently
// find nothing. It checks every file's type (see checkTree), that index_meta.json is JSON, and
// that every zap segment that store/root.bolt lists is there and opens. It returns nil for a
// dir that does not exist, for Bleve's open to say so.
func checkBleve(dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := checkTree(dir); err != nil {
		return err
	}
	metaPath := filepath.Join(dir, "index_meta.json")
	data, err := readSmall(metaPath, maxManifestBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fileError(metaPath, err)
		}
		return err
	}
	if !json.Valid(data) {
		return damaged(metaPath, "not JSON")
	}
	var meta struct {
		Storage string `json:"storage"`
	}
	if json.Unmarshal(data, &meta); meta.Storage != "scorch" {
		return nil // not a layout docidx writes: Bleve's open says what it makes of it
	}
	segs, err := liveZapFiles(dir)
	if err != nil {
		return err
	}
	for _, s := range segs {
		if err := checkSegment(filepath.Join(dir, "store", filepath.FromSlash(s))); err != nil {
			return err
		}
	}
	return nil
}

// liveZapFiles returns the zap segment files, as slash paths relative to dir/store, that the
// snapshots of the scorch index dir's store/root.bolt list; segments of another format are left
// out. A root.bolt that is missing or damaged is an error naming it.
func liveZapFiles(dir string) ([]string, error) {
	root := filepath.Join(dir, "store", "root.bolt")
	if _, err := os.Stat(root); err != nil {
		return nil, fileError(root, err)
	}
	db, err := openStore(root)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var segs []string
	err = viewGuarded(db, root, func(tx *bolt.Tx) error {
		snaps := tx.Bucket([]byte{'s'})
		if snaps == nil {
			return nil
		}
		return snaps.ForEachBucket(func(k []byte) error {
			snap := snaps.Bucket(k)
			m := snap.Bucket([]byte{'m'})
			if m == nil || string(m.Get([]byte("type"))) != zap.Type ||
				len(m.Get([]byte("version"))) < 4 || binary.BigEndian.Uint32(m.Get([]byte("version"))) != zap.Version {
				return nil // another segment format: left to Bleve
			}
			return snap.ForEachBucket(func(k []byte) error {
				if k[0] == 'i' || k[0] == 'm' {
					return nil
				}
				if p := snap.Bucket(k).Get([]byte{'p'}); p != nil {
					segs = append(segs, string(p))
				}
				return nil
			})
		})
	})
	return segs, err
}

// checkSegment opens the zap segment path and closes it again; a panic in zapx (it slices the
// file by the offsets in its footer) becomes an error naming the file.
func checkSegment(path string) (err error) {
	if _, err := os.Stat(path); err != nil {
		return fileError(path, err)
	}
	defer guard(&err, path)()
	seg, err := (&zap.ZapPlugin{}).Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fileError(path, err)
		}
		return damaged(path, "%v", err)
	}
	// A footer read from a file cut short is the bytes that end it now: a count of documents
	// the file cannot hold (each takes bytes of its own) gives it away.
	fi, err := os.Stat(path)
	if err == nil && seg.Count() > uint64(fi.Size()) {
		err = damaged(path, "it claims %d documents in %d bytes", seg.Count(), fi.Size())
	}
	if cerr := seg.Close(); err == nil {
		err = cerr
	}
	return err
}
