package cargo

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"github.com/docidx/docidx"
	untarpkg "github.com/docidx/docidx/registries/internal/untar"
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

// untarCrate reads a .crate — a gzip-compressed tar whose entries all sit under "<name>-<version>/"
// (prefix) — in memory and keeps the regular files for which keep returns true, under paths
// relative to that directory. As cargo does, an entry outside the prefix fails the whole archive;
// so does an absolute path or a ".." component (both wrap docidx.ErrUnsafePath). An archive or
// entry over its limit fails with docidx.ErrTooLarge. Links and other entry types are ignored.
// skipped lists kept candidates left out because of lim.File or lim.Kept.
func untarCrate(data []byte, prefix string, keep func(string) (bool, int64), lim untarpkg.Limits) (files map[string][]byte, skipped []string, err error) {
	if !untarpkg.IsGzip(data) {
		return nil, nil, fmt.Errorf(".crate is not gzip-compressed: %w", gzip.ErrHeader)
	}
	entry := func(name string) (string, bool, error) {
		p, err := entryPath(name, prefix)
		return p, p != "", err
	}
	return untarpkg.Extract(data, ".crate", entry, keep, lim)
}

// entryPath checks a .crate entry name and returns it relative to prefix ("" for the prefix
// directory itself). Absolute paths, drive letters, NUL bytes, ".." components and entries
// outside prefix are errors wrapping docidx.ErrUnsafePath.
func entryPath(name, prefix string) (string, error) {
	n, err := untarpkg.CheckName(name, ".crate")
	if err != nil {
		return "", err
	}
	rest, ok := strings.CutPrefix(n, prefix)
	if !ok || rest != "" && rest[0] != '/' {
		return "", fmt.Errorf("%w: .crate entry %q is not under %s/", docidx.ErrUnsafePath, name, prefix)
	}
	return strings.Trim(path.Clean("/"+rest), "/"), nil
}
