package npm

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"path"
	"strings"

	"github.com/docidx/docidx"
	untarpkg "github.com/docidx/docidx/registries/internal/untar"
)

// maxKept is the most bytes of all files kept in memory from one tarball.
const maxKept = 64 << 20

// errNoDigest is returned by verifyIntegrity when the registry gave neither an integrity string
// nor a shasum.
var errNoDigest = errors.New("no integrity or shasum to check against")

// sriAlgorithms are the hash algorithms an integrity string may use, strongest first. SRI
// (https://www.w3.org/TR/SRI/#cryptographic-hash-functions) defines sha256/384/512; npm's ssri
// also accepts sha1, which old packuments carry.
var sriAlgorithms = []struct {
	name string
	new  func() hash.Hash
}{
	{"sha512", sha512.New},
	{"sha384", sha512.New384},
	{"sha256", sha256.New},
	{"sha1", sha1.New},
}

// verifyIntegrity checks data against a Subresource Integrity string ("sha512-<base64>", several
// whitespace-separated values allowed, "?options" ignored) as the W3C SRI spec says: only the
// strongest algorithm present counts, and any of its digests may match. Without a usable
// integrity string it checks shasum (hex SHA-1). A mismatch wraps docidx.ErrIntegrity; no digest
// at all returns errNoDigest.
func verifyIntegrity(data []byte, integrity, shasum string) error {
	want := map[string][]string{}
	for _, f := range strings.Fields(integrity) {
		alg, val, ok := strings.Cut(f, "-")
		if !ok {
			continue
		}
		val, _, _ = strings.Cut(val, "?")
		want[strings.ToLower(alg)] = append(want[strings.ToLower(alg)], val)
	}
	for _, a := range sriAlgorithms {
		vals, ok := want[a.name]
		if !ok {
			continue
		}
		h := a.new()
		h.Write(data)
		got := h.Sum(nil)
		for _, v := range vals {
			d, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				d, err = base64.RawStdEncoding.DecodeString(v)
			}
			if err == nil && bytes.Equal(d, got) {
				return nil
			}
		}
		return fmt.Errorf("%w: %s digest is %s, registry says %s", docidx.ErrIntegrity, a.name,
			base64.StdEncoding.EncodeToString(got), strings.Join(vals, " "))
	}
	if shasum = strings.TrimSpace(shasum); shasum != "" {
		sum := sha1.Sum(data)
		if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, shasum) {
			return fmt.Errorf("%w: sha1 shasum is %s, registry says %s", docidx.ErrIntegrity, got, shasum)
		}
		return nil
	}
	return errNoDigest
}

// untar reads a gzip-compressed (or plain) tar archive in memory and keeps the regular files for
// which keep returns true, under paths with the first component ("package/" in npm tarballs)
// stripped. An entry with an absolute path or a ".." component fails the whole archive with
// docidx.ErrUnsafePath; an archive or entry over its limit fails with docidx.ErrTooLarge. Links,
// directories and other entry types are ignored, as are entries without a directory component.
// skipped lists kept candidates left out because of lim.File or lim.Kept.
func untar(data []byte, keep func(string) bool, lim untarpkg.Limits) (files map[string][]byte, skipped []string, err error) {
	return untarpkg.Extract(data, "tarball", entryPath, func(p string) (bool, int64) { return keep(p), 0 }, lim)
}

// entryPath checks a tar entry name and strips its first component. ok is false for entries at
// the top level (nothing left after stripping). Absolute paths, drive letters, backslash
// traversal and ".." components are errors wrapping docidx.ErrUnsafePath.
func entryPath(name string) (p string, ok bool, err error) {
	n, err := untarpkg.CheckName(name, "tarball")
	if err != nil {
		return "", false, err
	}
	_, rest, found := strings.Cut(n, "/")
	if !found {
		return "", false, nil
	}
	rest = path.Clean(rest)
	if rest == "." || rest == "" || strings.HasPrefix(rest, "../") || rest == ".." {
		return "", false, nil
	}
	return rest, true, nil
}
