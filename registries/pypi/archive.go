package pypi

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/untar"
)

// archive is what docidx keeps of one wheel or sdist, in memory.
type archive struct {
	kind     string            // "wheel" or "sdist"
	metadata []byte            // *.dist-info/METADATA (wheel) or PKG-INFO (sdist); nil when absent
	files    map[string][]byte // kept files by slash path: wheel paths as installed, sdist paths below the top directory
	skipped  []string          // candidates left out by MaxFile or maxKept
}

// commands returns the commands a wheel's *.dist-info/entry_points.txt declares
// (entryPointCommands); none for an sdist, whose entry points are in its build configuration.
func (a *archive) commands() []string {
	if a.kind != "wheel" {
		return nil
	}
	for _, p := range a.paths() {
		if dir, name, _ := strings.Cut(p, "/"); name == "entry_points.txt" && strings.HasSuffix(dir, ".dist-info") {
			return entryPointCommands(a.files[p])
		}
	}
	return nil
}

// paths returns the slash paths of the kept files, sorted.
func (a *archive) paths() []string {
	return slices.Sorted(maps.Keys(a.files))
}

// read is the archive's readFunc: a kept file by slash path, failing with an error wrapping
// docidx.ErrTooLarge when it is over limit bytes.
func (a *archive) read(p string, limit int64) ([]byte, error) {
	b, ok := a.files[p]
	if !ok {
		return nil, fmt.Errorf("%s: not in the archive", p)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w: %d bytes (limit %d)", p, docidx.ErrTooLarge, len(b), limit)
	}
	return b, nil
}

// errNoDigest is returned by verifyDigest when the index gave no usable hash.
var errNoDigest = errors.New("no sha256, sha384, sha512 or md5 digest to check against")

// digestAlgorithms are the hashes verifyDigest checks, strongest first. The index's blake2b_256
// is not among them (not in the standard library); md5 is the last resort of old mirrors.
var digestAlgorithms = []struct {
	name string
	new  func() hash.Hash
}{
	{"sha256", sha256.New},
	{"sha512", sha512.New},
	{"sha384", sha512.New384},
	{"md5", md5.New},
}

// verifyDigest checks data against the strongest hex digest in hashes (keys lowercase: "sha256",
// as the JSON API's digests and PEP 691's hashes name them). A mismatch wraps
// docidx.ErrIntegrity; no known digest returns errNoDigest.
func verifyDigest(data []byte, hashes map[string]string) error {
	for _, a := range digestAlgorithms {
		want, ok := hashes[a.name]
		if !ok || want == "" {
			continue
		}
		h := a.new()
		h.Write(data)
		got := hex.EncodeToString(h.Sum(nil))
		if !strings.EqualFold(got, want) {
			return fmt.Errorf("%w: %s digest is %s, the index says %s", docidx.ErrIntegrity, a.name, got, want)
		}
		return nil
	}
	return errNoDigest
}

// checkEntryName rejects an archive entry name that is absolute, has a drive letter or NUL, or
// climbs out with "..": an error wrapping docidx.ErrUnsafePath. It returns the name with
// backslashes as slashes and a leading "./" removed.
func checkEntryName(name string) (string, error) { return untar.CheckName(name, "archive") }

// archiveReader applies the limits and keeps the files wanted.
type archiveReader struct {
	lim   Limits
	keep  func(p string) (kept string, metadata, ok bool)
	total int64
	kept  int64
	out   *archive
}

// entry handles one archive entry: name already checked and mapped, size its declared
// decompressed size, open its contents.
func (ar *archiveReader) entry(name string, size int64, open func() (io.Reader, func(), error)) error {
	if size > ar.lim.MaxEntry || size < 0 {
		return fmt.Errorf("%w: archive entry %q is %d bytes (limit %d)", docidx.ErrTooLarge, name, size, ar.lim.MaxEntry)
	}
	ar.total += size
	if ar.total > ar.lim.MaxUnpacked {
		return fmt.Errorf("%w: archive decompresses to more than %d bytes", docidx.ErrTooLarge, ar.lim.MaxUnpacked)
	}
	p, isMeta, ok := ar.keep(name)
	if !ok {
		return nil
	}
	limit := ar.lim.MaxFile
	if isMeta {
		limit = MaxMetadata
	}
	if size > limit || ar.kept+size > maxKept {
		ar.out.skipped = append(ar.out.skipped, p)
		return nil
	}
	r, closeFn, err := open()
	if err != nil {
		return fmt.Errorf("archive entry %q: %w", name, err)
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	closeFn()
	if err != nil {
		if errors.Is(err, docidx.ErrTooLarge) {
			return err
		}
		return fmt.Errorf("archive entry %q: %w", name, err)
	}
	if int64(len(b)) > limit {
		ar.out.skipped = append(ar.out.skipped, p)
		return nil
	}
	ar.kept += int64(len(b))
	if isMeta {
		ar.out.metadata = b
		return nil
	}
	if prev, dup := ar.out.files[p]; dup {
		ar.kept -= int64(len(prev))
	}
	ar.out.files[p] = b
	return nil
}

// isSource reports whether p is a Python module or stub, or a Cython source (.pyx) or include
// file (.pxi, read by the .pyx that includes it).
func isSource(p string) bool {
	return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") || strings.HasSuffix(p, ".pyx") || strings.HasSuffix(p, ".pxi")
}

// wheelKeep maps a wheel entry (https://packaging.python.org/en/latest/specifications/binary-distribution-format/)
// to what is kept: the top-level *.dist-info/METADATA and entry_points.txt, Python files
// installed into site-packages (those under *.data/purelib/ and *.data/platlib/ too), nothing
// else.
func wheelKeep(p string) (string, bool, bool) {
	first, rest, nested := strings.Cut(p, "/")
	switch {
	case nested && strings.HasSuffix(first, ".dist-info"):
		return p, rest == "METADATA", rest == "METADATA" || rest == "entry_points.txt"
	case nested && strings.HasSuffix(first, ".data"):
		scheme, inner, ok := strings.Cut(rest, "/")
		if ok && (scheme == "purelib" || scheme == "platlib") && isSource(inner) {
			return inner, false, true
		}
		return "", false, false
	}
	return p, false, isSource(p)
}

// sdistKeep maps an sdist entry (below its top directory) to what is kept: the root PKG-INFO,
// Python files, a root README, and what documents are read from (see sdistDocsKeep).
func sdistKeep(p string) (string, bool, bool) {
	if p == "PKG-INFO" {
		return p, true, true
	}
	if isSource(p) {
		return p, false, true
	}
	if !strings.Contains(p, "/") && strings.HasPrefix(strings.ToLower(p), "readme") {
		return p, false, true
	}
	return sdistDocsKeep(p)
}

// sdistDocsKeep maps an sdist entry (below its top directory) to what is kept when only its
// documents are wanted: document candidates (isDocCandidate) and a root mkdocs.yml.
func sdistDocsKeep(p string) (string, bool, bool) {
	return p, false, isDocCandidate(p) || isMkdocsConfig(p)
}

// readArchive reads a wheel (.whl) or sdist (.tar.gz, .tgz, .tar.bz2, .tar, .zip) held in memory,
// under lim. Entries with unsafe names fail it with docidx.ErrUnsafePath; an entry or the whole
// archive over its limit fails it with docidx.ErrTooLarge; links and special files are ignored.
func readArchive(filename string, data []byte, lim Limits) (*archive, error) {
	return readArchiveKeep(filename, data, lim, sdistKeep)
}

// readSdistDocs reads an sdist as readArchive does, keeping only what its documents are read
// from (sdistDocsKeep): the sdist fetched for its docs/ when the API comes from a wheel.
func readSdistDocs(filename string, data []byte, lim Limits) (*archive, error) {
	if sdistExt(strings.ToLower(filename)) == "" {
		return nil, fmt.Errorf("%s: not an sdist docidx can read", filename)
	}
	return readArchiveKeep(filename, data, lim, sdistDocsKeep)
}

// readArchiveKeep reads a wheel, or an sdist keeping what sdist says.
func readArchiveKeep(filename string, data []byte, lim Limits, sdist func(string) (string, bool, bool)) (*archive, error) {
	lower := strings.ToLower(filename)
	ar := &archiveReader{lim: lim, out: &archive{files: map[string][]byte{}}}
	switch {
	case strings.HasSuffix(lower, ".whl"):
		ar.out.kind = "wheel"
		ar.keep = wheelKeep
		return ar.out, ar.readZip(data, false)
	case strings.HasSuffix(lower, ".zip"):
		ar.out.kind = "sdist"
		ar.keep = sdist
		return ar.out, ar.readZip(data, true)
	case sdistExt(lower) != "":
		ar.out.kind = "sdist"
		ar.keep = sdist
		return ar.out, ar.readTar(data)
	}
	return nil, fmt.Errorf("%s: not a wheel or sdist docidx can read", filename)
}

// stripTop removes the top directory of an sdist entry; ok is false for entries at the top.
func stripTop(p string) (string, bool) {
	_, rest, ok := strings.Cut(p, "/")
	if !ok {
		return "", false
	}
	rest = path.Clean(rest)
	if rest == "." || rest == "" {
		return "", false
	}
	return rest, true
}

func (ar *archiveReader) readZip(data []byte, strip bool) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("not a zip archive: %w", err)
	}
	for _, f := range zr.File {
		name, err := checkEntryName(f.Name)
		if err != nil {
			return err
		}
		if !f.Mode().IsRegular() || strings.HasSuffix(name, "/") {
			continue
		}
		if strip {
			var ok bool
			if name, ok = stripTop(name); !ok {
				continue
			}
		}
		if f.UncompressedSize64 > uint64(ar.lim.MaxEntry) {
			return fmt.Errorf("%w: archive entry %q is %d bytes (limit %d)", docidx.ErrTooLarge, f.Name, f.UncompressedSize64, ar.lim.MaxEntry)
		}
		err = ar.entry(name, int64(f.UncompressedSize64), func() (io.Reader, func(), error) {
			rc, err := f.Open()
			if err != nil {
				return nil, nil, err
			}
			return rc, func() { rc.Close() }, nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (ar *archiveReader) readTar(data []byte) error {
	var r io.Reader = bytes.NewReader(data)
	switch {
	case untar.IsGzip(data):
		zr, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("sdist: %w", err)
		}
		defer zr.Close()
		r = zr
	case len(data) >= 3 && string(data[:3]) == "BZh":
		r = bzip2.NewReader(r)
	case len(data) >= 6 && string(data[:6]) == "\xfd7zXZ\x00":
		return errors.New("sdist: xz-compressed tarballs are not supported")
	}
	cr := &untar.CountingReader{R: r, Limit: ar.lim.MaxUnpacked + 1<<20, What: "archive"} // headers and padding on top
	tr := tar.NewReader(cr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				return err
			}
			return fmt.Errorf("sdist: %w", err)
		}
		name, err := checkEntryName(hdr.Name)
		if err != nil {
			return err
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		name, ok := stripTop(name)
		if !ok {
			continue
		}
		err = ar.entry(name, hdr.Size, func() (io.Reader, func(), error) { return tr, func() {}, nil })
		if err != nil {
			return err
		}
	}
}

// sdistModules picks the module files of an sdist: everything under src/ when the project uses
// the src layout, else the top-level packages (directories with an __init__.py or __init__.pyi)
// and top-level modules. An sdist with no top-level package but packages one directory down
// (setuptools' package_dir, PyYAML's lib/yaml/__init__.py) has that directory as its import
// root; directories of tests, docs, examples and build tooling never are, and of several
// candidates the first by name is. It returns the paths relative to the import root and that
// root's prefix.
func sdistModules(paths []string) (rel []string, prefix string) {
	for _, p := range paths {
		if strings.HasPrefix(p, "src/") && isSource(p) {
			prefix = "src/"
			break
		}
	}
	packages := map[string]bool{}
	nested := "" // the first directory holding a package one level down
	for _, p := range paths {
		parts := strings.Split(p, "/")
		if last := parts[len(parts)-1]; last != "__init__.py" && last != "__init__.pyi" {
			continue
		}
		switch len(parts) {
		case 2:
			packages[parts[0]] = true
		case 3:
			if !notImportRoot[strings.ToLower(parts[0])] && (nested == "" || parts[0] < nested) {
				nested = parts[0]
			}
		}
	}
	if prefix == "" && len(packages) == 0 && nested != "" {
		prefix = nested + "/"
	}
	if prefix != "" {
		for _, p := range paths {
			if r, ok := strings.CutPrefix(p, prefix); ok {
				rel = append(rel, r)
			}
		}
		return rel, prefix
	}
	for _, p := range paths {
		first, _, nested := strings.Cut(p, "/")
		if !nested && isSource(p) || nested && packages[first] {
			rel = append(rel, p)
		}
	}
	return rel, ""
}

// notImportRoot names the top-level directories of an sdist that hold packages which are not
// the distribution's (lowercase).
var notImportRoot = map[string]bool{
	"test": true, "tests": true, "testing": true, "doc": true, "docs": true, "example": true,
	"examples": true, "bench": true, "benchmarks": true, "scripts": true, "tools": true,
	"packaging": true, "build": true, "ci": true,
}
