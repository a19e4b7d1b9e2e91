// Package untar reads the archives registries serve (npm tarballs, .crate files, sdists) in
// memory, bounded and refusing entries that would leave the archive's directory. It is shared by
// registries/npm, registries/cargo and registries/pypi.
package untar

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/docidx/docidx"
)

// Limits bound one extraction, in bytes.
type Limits struct {
	Unpacked int64 // all entries, decompressed
	Entry    int64 // one entry
	File     int64 // one kept file unless keep gives its own limit; larger candidates are skipped
	Kept     int64 // all kept files
}

// CountingReader reads from R and fails with an error wrapping docidx.ErrTooLarge once more
// than Limit bytes were read; What names the archive in the error ("tarball").
type CountingReader struct {
	R     io.Reader
	N     int64
	Limit int64
	What  string
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	if c.N > c.Limit {
		return n, fmt.Errorf("%w: %s unpacks to more than %d bytes", docidx.ErrTooLarge, c.What, c.Limit)
	}
	return n, err
}

// IsGzip reports whether data starts with the gzip magic number (RFC 1952).
func IsGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// CheckName rejects an entry name that is absolute, has a drive letter or a NUL, or climbs out
// with "..": an error wrapping docidx.ErrUnsafePath that names the entry of what ("tarball"). It
// returns the name with backslashes as slashes and leading "./" removed.
func CheckName(name, what string) (string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || len(n) >= 2 && n[1] == ':' || strings.ContainsRune(n, 0) {
		return "", fmt.Errorf("%w: %s entry %q is absolute", docidx.ErrUnsafePath, what, name)
	}
	for _, c := range strings.Split(n, "/") {
		if c == ".." {
			return "", fmt.Errorf("%w: %s entry %q climbs out with \"..\"", docidx.ErrUnsafePath, what, name)
		}
	}
	for strings.HasPrefix(n, "./") {
		n = n[2:]
	}
	return n, nil
}

// Extract reads data, a tar archive (gzip-compressed when it starts with the gzip magic), and
// keeps the regular files that path and keep accept. path maps an entry name to the path to keep
// it under: ok false leaves the entry out (its size still counts), an error fails the archive.
// keep decides on a mapped path and may give the file's own size limit (0: lim.File). What names
// the archive in errors. An archive or entry over its limit fails with an error wrapping
// docidx.ErrTooLarge; links, directories and other entry types are ignored. skipped lists the
// candidates left out because of the file or kept limits. A path met twice keeps the last entry.
func Extract(data []byte, what string, path func(name string) (p string, ok bool, err error), keep func(p string) (bool, int64), lim Limits) (files map[string][]byte, skipped []string, err error) {
	var r io.Reader = bytes.NewReader(data)
	if IsGzip(data) {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", what, err)
		}
		defer zr.Close()
		r = zr
	}
	cr := &CountingReader{R: r, Limit: lim.Unpacked + 1<<20, What: what} // headers and padding on top
	tr := tar.NewReader(cr)
	files = map[string][]byte{}
	var total, kept int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return files, skipped, nil
		}
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf("%s: %w", what, err)
		}
		p, ok, err := path(hdr.Name)
		if err != nil {
			return nil, nil, err
		}
		if hdr.Typeflag != tar.TypeReg { // the reader reports old TypeRegA entries as TypeReg
			continue
		}
		if hdr.Size > lim.Entry || hdr.Size < 0 {
			return nil, nil, fmt.Errorf("%w: %s entry %q is %d bytes (limit %d)", docidx.ErrTooLarge, what, hdr.Name, hdr.Size, lim.Entry)
		}
		total += hdr.Size
		if total > lim.Unpacked {
			return nil, nil, fmt.Errorf("%w: %s unpacks to more than %d bytes", docidx.ErrTooLarge, what, lim.Unpacked)
		}
		if !ok {
			continue
		}
		want, fileLimit := keep(p)
		if !want {
			continue
		}
		if fileLimit <= 0 {
			fileLimit = lim.File
		}
		if hdr.Size > fileLimit || kept+hdr.Size > lim.Kept {
			skipped = append(skipped, p)
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, hdr.Size))
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf("%s: %s: %w", what, hdr.Name, err)
		}
		if prev, dup := files[p]; dup {
			kept -= int64(len(prev))
		}
		kept += int64(len(b))
		files[p] = b
	}
}
