package swift

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/docidx/docidx"
)

// verifyChecksum checks a source archive against the hex SHA-256 checksum of its release's
// source-archive resource, as SE-0292 requires of clients (Registry.md §4.4.1), and against the
// Digest header of the download when the registry sent one ("sha-256=<base64>", RFC 3230; a hex
// value is accepted too, as the specification's own example shows). A missing checksum or a
// mismatch fails with an error wrapping docidx.ErrIntegrity.
func verifyChecksum(data []byte, checksum, digestHeader string) error {
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	checksum = strings.TrimSpace(checksum)
	if checksum == "" {
		return fmt.Errorf("%w: the release metadata gives no checksum for its source-archive resource, so the archive cannot be verified", docidx.ErrIntegrity)
	}
	if !strings.EqualFold(got, checksum) {
		return fmt.Errorf("%w: source archive SHA-256 is %s, the registry's release metadata says %s", docidx.ErrIntegrity, got, checksum)
	}
	for _, part := range strings.Split(digestHeader, ",") {
		alg, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || !strings.EqualFold(alg, "sha-256") {
			continue
		}
		val = strings.TrimSpace(val)
		want, err := base64.StdEncoding.DecodeString(val)
		if err != nil || len(want) != sha256.Size {
			want, err = hex.DecodeString(val)
		}
		if err != nil || !bytes.Equal(want, sum[:]) {
			return fmt.Errorf("%w: source archive SHA-256 is %s, its Digest header says %s", docidx.ErrIntegrity, got, val)
		}
	}
	return nil
}

// archiveLimits bounds one source archive.
type archiveLimits struct {
	maxArchive int64 // bytes of the archive, and of all its entries uncompressed
	maxEntry   int64 // bytes of one entry uncompressed
}

// openArchive checks a source archive (a zip, as `swift package archive-source` writes it) held
// in memory and returns its files. When every entry sits under one top-level directory (the
// package directory archive-source adds, which SwiftPM strips on download), the files are rooted
// inside it.
//
// An entry whose path is absolute, has a drive letter, a backslash, a NUL or a ".." element fails
// the archive with an error wrapping docidx.ErrUnsafePath. An archive over maxArchive bytes,
// entries totalling more than maxArchive bytes uncompressed, or one entry over maxEntry bytes
// fails with one wrapping docidx.ErrTooLarge. Symbolic link entries are kept in the listing but
// are never read as files by the extraction.
func openArchive(data []byte, lim archiveLimits) (fs.FS, error) {
	if int64(len(data)) > lim.maxArchive {
		return nil, fmt.Errorf("source archive of %d bytes: %w (limit %d bytes)", len(data), docidx.ErrTooLarge, lim.maxArchive)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("reading source archive: %w", err)
	}
	var total uint64
	top := ""
	single := true
	for _, zf := range zr.File {
		name := zf.Name
		if err := checkEntryName(name); err != nil {
			return nil, err
		}
		if zf.UncompressedSize64 > uint64(lim.maxEntry) {
			return nil, fmt.Errorf("source archive entry %q is %d bytes: %w (limit %d bytes)", name, zf.UncompressedSize64, docidx.ErrTooLarge, lim.maxEntry)
		}
		total += zf.UncompressedSize64
		if total > uint64(lim.maxArchive) {
			return nil, fmt.Errorf("source archive: total uncompressed size: %w (limit %d bytes)", docidx.ErrTooLarge, lim.maxArchive)
		}
		first, _, found := strings.Cut(strings.TrimPrefix(name, "./"), "/")
		switch {
		case !found && !zf.Mode().IsDir():
			single = false // a file at the top level
		case top == "":
			top = first
		case first != top:
			single = false
		}
	}
	if single && top != "" {
		return fs.Sub(zr, top)
	}
	return zr, nil
}

// checkEntryName rejects archive entry names that could escape the extraction root.
func checkEntryName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("source archive entry %q: %s: %w", name, why, docidx.ErrUnsafePath)
	}
	switch {
	case name == "":
		return bad("empty name")
	case strings.ContainsRune(name, 0):
		return bad("NUL in name")
	case strings.Contains(name, `\`):
		return bad("backslash in name")
	case strings.HasPrefix(name, "/"):
		return bad("absolute path")
	case len(name) >= 2 && name[1] == ':':
		return bad("drive letter")
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == ".." {
			return bad(`".." element`)
		}
	}
	return nil
}
