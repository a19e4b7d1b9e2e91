package cargo

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/docidx/docidx"
)

// verifyChecksum checks data against the index's cksum: the lowercase hex sha256 of the .crate
// (https://doc.rust-lang.org/cargo/reference/registry-index.html#json-schema). A mismatch wraps
// docidx.ErrIntegrity.
func verifyChecksum(data []byte, cksum string) error {
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	if !strings.EqualFold(got, strings.TrimSpace(cksum)) {
		return fmt.Errorf("%w: .crate sha256 is %s, the index says %s", docidx.ErrIntegrity, got, cksum)
	}
	return nil
}

// crateLimits bounds one .crate extraction.
type crateLimits struct {
	maxUnpacked int64 // all entries, decompressed
	maxEntry    int64 // one entry
	maxFile     int64 // one kept file; larger candidates are skipped
	maxKept     int64 // all kept files
}

// countingReader fails with docidx.ErrTooLarge once more than limit bytes were read.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		return n, fmt.Errorf("%w: .crate unpacks to more than %d bytes", docidx.ErrTooLarge, c.limit)
	}
	return n, err
}

// untarCrate reads a .crate — a gzip-compressed tar whose entries all sit under "<name>-<version>/"
// (prefix) — in memory and keeps the regular files for which keep returns true, under paths
// relative to that directory. As cargo does, an entry outside the prefix fails the whole archive;
// so does an absolute path or a ".." component (both wrap docidx.ErrUnsafePath). An archive or
// entry over its limit fails with docidx.ErrTooLarge. Links and other entry types are ignored.
// skipped lists kept candidates left out because of maxFile or maxKept.
func untarCrate(data []byte, prefix string, keep func(string) (bool, int64), lim crateLimits) (files map[string][]byte, skipped []string, err error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf(".crate is not gzip-compressed: %w", err)
	}
	defer zr.Close()
	cr := &countingReader{r: zr, limit: lim.maxUnpacked + 1<<20} // headers and padding on top
	tr := tar.NewReader(cr)
	files = map[string][]byte{}
	var total, kept int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf(".crate: %w", err)
		}
		p, err := entryPath(hdr.Name, prefix)
		if err != nil {
			return nil, nil, err
		}
		if hdr.Typeflag != tar.TypeReg || p == "" {
			continue
		}
		if hdr.Size > lim.maxEntry || hdr.Size < 0 {
			return nil, nil, fmt.Errorf("%w: .crate entry %q is %d bytes (limit %d)", docidx.ErrTooLarge, hdr.Name, hdr.Size, lim.maxEntry)
		}
		total += hdr.Size
		if total > lim.maxUnpacked {
			return nil, nil, fmt.Errorf("%w: .crate unpacks to more than %d bytes", docidx.ErrTooLarge, lim.maxUnpacked)
		}
		ok, fileLimit := keep(p)
		if !ok {
			continue
		}
		if fileLimit <= 0 {
			fileLimit = lim.maxFile
		}
		if hdr.Size > fileLimit || kept+hdr.Size > lim.maxKept {
			skipped = append(skipped, p)
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, hdr.Size))
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf(".crate: %s: %w", hdr.Name, err)
		}
		if prev, dup := files[p]; dup {
			kept -= int64(len(prev))
		}
		kept += int64(len(b))
		files[p] = b
	}
	return files, skipped, nil
}

// entryPath checks a .crate entry name and returns it relative to prefix ("" for the prefix
// directory itself). Absolute paths, drive letters, NUL bytes, ".." components and entries
// outside prefix are errors wrapping docidx.ErrUnsafePath.
func entryPath(name, prefix string) (string, error) {
	unsafe := func(why string) (string, error) {
		return "", fmt.Errorf("%w: .crate entry %q %s", docidx.ErrUnsafePath, name, why)
	}
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || len(n) >= 2 && n[1] == ':' || strings.ContainsRune(n, 0) {
		return unsafe("is absolute")
	}
	for _, c := range strings.Split(n, "/") {
		if c == ".." {
			return unsafe("climbs out with ..")
		}
	}
	n = strings.TrimPrefix(n, "./")
	rest, ok := strings.CutPrefix(n, prefix)
	if !ok || rest != "" && rest[0] != '/' {
		return unsafe("is not under " + prefix + "/")
	}
	rest = strings.Trim(path.Clean("/"+rest), "/")
	return rest, nil
}
