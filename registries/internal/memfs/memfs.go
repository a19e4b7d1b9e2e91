// Package memfs is the in-memory file system the registries extract archives into, so that
// README, docs and API extraction read a downloaded package the same way as a local cache
// (through io/fs), and bounded reads of any fs.FS. It imports only the standard library and
// docidx (for its errors).
package memfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"time"

	"github.com/docidx/docidx"
)

// FS is a read-only fs.FS (with ReadFile, ReadDir and Stat) over files held in memory, such as
// the entries a registry kept from a tarball, zip or .crate. Directories are implied by file
// paths; a file and a directory of one name: the file wins. It is safe for concurrent use.
type FS struct {
	files map[string][]byte
	dirs  map[string][]string // directory -> sorted child names
}

// New returns an FS over files, keyed by slash path relative to the root (fs.ValidPath form).
// The FS keeps files; callers must not modify it afterwards.
func New(files map[string][]byte) *FS {
	m := &FS{files: files, dirs: map[string][]string{".": nil}}
	children := map[string]map[string]bool{}
	addChild := func(dir, name string) {
		if children[dir] == nil {
			children[dir] = map[string]bool{}
		}
		children[dir][name] = true
	}
	for p := range files {
		for {
			dir := path.Dir(p)
			addChild(dir, path.Base(p))
			if dir == "." {
				break
			}
			if _, isFile := files[dir]; isFile {
				break // a file and a directory of one name: the file wins
			}
			p = dir
		}
	}
	for dir, set := range children {
		m.dirs[dir] = slices.Sorted(maps.Keys(set))
	}
	return m
}

// Open implements fs.FS.
func (m *FS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := m.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(data))}, r: bytes.NewReader(data)}, nil
	}
	if _, ok := m.dirs[name]; ok {
		entries, _ := m.ReadDir(name)
		return &memDir{info: memInfo{name: path.Base(name), dir: true}, entries: entries}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile implements fs.ReadFileFS.
func (m *FS) ReadFile(name string) ([]byte, error) {
	if data, ok := m.files[name]; ok && fs.ValidPath(name) {
		return bytes.Clone(data), nil
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

// ReadDir implements fs.ReadDirFS.
func (m *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	names, ok := m.dirs[name]
	if !ok || !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(names))
	for _, n := range names {
		full := n
		if name != "." {
			full = name + "/" + n
		}
		if data, ok := m.files[full]; ok {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: n, size: int64(len(data))}))
		} else {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: n, dir: true}))
		}
	}
	return out, nil
}

// Stat implements fs.StatFS.
func (m *FS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := m.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(data))}, nil
	}
	if _, ok := m.dirs[name]; ok {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	info    memInfo
	entries []fs.DirEntry
	off     int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fs.ErrInvalid}
}
func (d *memDir) Close() error { return nil }

// ReadDir implements fs.ReadDirFile.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return rest[:n], nil
}

// ErrNotRegular is wrapped by the errors of ReadLimited, ReadOpenLimited and ReadFileLimited for
// a name that is not a regular file (a directory, FIFO, socket or device). Opening a FIFO for
// reading blocks until a writer opens it, and reading a device may never end, so such files
// are skipped, never read.
var ErrNotRegular = errors.New("not a regular file")

// ReadLimited reads name from fsys (an FS of this package or any other fs.FS) with
// ReadOpenLimited. It stats name before opening it, so a FIFO or device is never opened: the
// error wraps ErrNotRegular.
func ReadLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	return readRegular(name, limit, func() (fs.FileInfo, error) { return fs.Stat(fsys, name) }, func() (fs.File, error) { return fsys.Open(name) })
}

// ReadFileLimited reads the file at the operating system path p as ReadLimited does: a file
// that is not regular is never opened (error wrapping ErrNotRegular), and one of more than
// limit bytes is an error wrapping docidx.ErrTooLarge.
func ReadFileLimited(p string, limit int64) ([]byte, error) {
	return readRegular(p, limit, func() (fs.FileInfo, error) { return os.Stat(p) }, func() (fs.File, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err // not a typed nil *os.File in the fs.File
		}
		return f, nil
	})
}

// readRegular is ReadLimited and ReadFileLimited over the stat and open of one file system:
// it stats name, refuses what is not a regular file or is larger than limit, and only then
// opens and reads it.
func readRegular(name string, limit int64, stat func() (fs.FileInfo, error), open func() (fs.File, error)) ([]byte, error) {
	st, err := stat()
	if err != nil {
		return nil, err
	}
	if err := checkRegular(st, name, limit); err != nil {
		return nil, err
	}
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpenLimited(f, name, limit)
}

// CheckRegular returns an error wrapping ErrNotRegular when st is not a regular file, and one
// wrapping docidx.ErrTooLarge when it is larger than limit bytes; name is for the error.
// Readers that open files some other way (os.Root) call it on a Stat before opening.
func CheckRegular(st fs.FileInfo, name string, limit int64) error {
	return checkRegular(st, name, limit)
}

func checkRegular(st fs.FileInfo, name string, limit int64) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, fileType(st.Mode()))
	}
	if st.Size() > limit {
		return fmt.Errorf("%s: %w: %d bytes (limit %d)", name, docidx.ErrTooLarge, st.Size(), limit)
	}
	return nil
}

func fileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// ReadOpenLimited reads the open file f, called name in errors. It must be a regular file
// (else the error wraps ErrNotRegular) of at most limit bytes: a larger one (by its size or by
// what it yields) is an error wrapping docidx.ErrTooLarge.
func ReadOpenLimited(f fs.File, name string, limit int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkRegular(st, name, limit); err != nil {
		return nil, err
	}
	// Room for the size the file has, and for the growth a read past it would show: io.ReadAll
	// doubles its buffer up to the size, copying as it goes, and that was 1 GB of the 14 GB a
	// crawl of the corpus allocated, twice what it read.
	var b bytes.Buffer
	b.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(b.Len()) > limit {
		return nil, fmt.Errorf("%s: %w (limit %d)", name, docidx.ErrTooLarge, limit)
	}
	return b.Bytes(), nil
}
