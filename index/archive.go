package index

// archive.go moves a snapshot in one file: `docidx pack`, `docidx unpack`, and `serve --index
// ARCHIVE`.
//
// An archive is a tar stream compressed with zstd (RFC 8878) or gzip (RFC 1952), told apart by
// their magic numbers. Its first entry is manifest.json, byte for byte as in the snapshot; then
// come the files the manifest lists, in sorted order of their slash paths, as regular files with
// mode 0644, uid and gid 0, no user or group names and the manifest's creation time as mtime.
// Nothing else goes in (no directories, links or other files), so packing one snapshot twice gives
// the same bytes, and an archive holds nothing that its manifest does not vouch for: extraction
// checks every file against its sha256 in the manifest as it writes it, and refuses any entry that
// the manifest does not list, a second copy of one, links, devices, names that could leave the
// target directory, and sizes over the limits below.

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/docidx/docidx"
)

// Limits on what an archive may unpack to. Each is checked while reading, before the bytes are
// written, and exceeding one fails with an error wrapping docidx.ErrTooLarge.
const (
	MaxArchiveManifest = 64 << 20 // bytes of manifest.json
	MaxArchiveFiles    = 1 << 16  // files in one snapshot
	MaxArchiveEntry    = 32 << 30 // bytes of one unpacked file
	MaxArchiveSize     = 64 << 30 // bytes of all unpacked files together
	// maxZstdWindow bounds the memory a zstd frame may ask the decoder for (bytes). Pack uses
	// a window of at most 8 MiB.
	maxZstdWindow = 128 << 20
)

// ErrCorrupt is returned when a snapshot or an archive fails verification: a checksum that does
// not match its manifest, a file missing or not listed, a damaged compressed stream, or a store
// that does not open; and by Open and Reader's methods for a snapshot file that is missing,
// truncated, damaged or not a regular file.
var ErrCorrupt = errors.New("snapshot is corrupt")

// Compression selects the compressor of an archive.
type Compression int

// Compressors.
const (
	Zstd Compression = iota // zstd (RFC 8878), level "default"; the archive's name ends in .tar.zst
	Gzip                    // gzip (RFC 1952), level 6; the archive's name ends in .tar.gz or .tgz
)

// CompressionFor returns the compression an archive named name gets: Gzip for a name ending in
// .gz or .tgz, Zstd otherwise.
func CompressionFor(name string) Compression {
	if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".tgz") {
		return Gzip
	}
	return Zstd
}

// Pack writes the current snapshot of dir (an index directory or a snapshot directory) to out as
// one archive, manifest first, checking every file against its manifest checksum on the way: a
// snapshot that fails the check is not packed (the error wraps ErrCorrupt, and what was written to
// out is garbage). The same snapshot always packs to the same bytes. It returns the manifest.
func Pack(out io.Writer, dir string, c Compression) (*Manifest, error) {
	r, err := Open(dir) // holds the generation (its store's shared lock) while it is read
	if err != nil {
		return nil, err
	}
	defer r.Close()
	snap, m := r.Dir(), r.Manifest()
	raw, err := os.ReadFile(filepath.Join(snap, ManifestFile))
	if err != nil {
		return nil, err
	}
	if m.SegmentDir != "" {
		// An archive is a single snapshot, which holds its segments itself.
		one := *m
		one.SegmentDir = ""
		if raw, err = marshalManifest(&one); err != nil {
			return nil, err
		}
	}
	var zw io.WriteCloser
	switch c {
	case Gzip:
		zw, err = gzip.NewWriterLevel(out, 6)
	default:
		// One goroutine: the frame layout then depends on the input alone.
		zw, err = zstd.NewWriter(out, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(8<<20), zstd.WithEncoderLevel(zstd.SpeedDefault))
	}
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(zw)
	mtime := m.Created.UTC().Truncate(time.Second)
	hdr := func(name string, size int64) *tar.Header {
		return &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o644, ModTime: mtime, Format: tar.FormatPAX}
	}
	if err := tw.WriteHeader(hdr(ManifestFile, int64(len(raw)))); err != nil {
		return nil, err
	}
	if _, err := tw.Write(raw); err != nil {
		return nil, err
	}
	for _, name := range sortedFiles(m) {
		if err := packFile(tw, m.filePath(snap, name), name, m.Files[name], hdr); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return m, nil
}

// packFile writes the snapshot file name, at path, to tw, checking that its sha256 is sum.
func packFile(tw *tar.Writer, path, name, sum string, hdr func(string, int64) *tar.Header) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s is missing", ErrCorrupt, path)
		}
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(hdr(name, fi.Size())); err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.CopyN(io.MultiWriter(tw, h), f, fi.Size()); err != nil {
		return fmt.Errorf("index: packing %s: %w", name, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return fmt.Errorf("%w: %s has sha256 %s, the manifest says %s: crawl again or unpack a good archive", ErrCorrupt, path, got, sum)
	}
	return nil
}

func sortedFiles(m *Manifest) []string {
	return slices.Sorted(maps.Keys(m.Files))
}

// decompress returns a reader of the tar stream inside an archive, by its magic number.
func decompress(r io.Reader) (io.Reader, func(), error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		d, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderMaxMemory(MaxArchiveSize))
		if err != nil {
			return nil, nil, err
		}
		return d, d.Close, nil
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		z.Multistream(false)
		return z, func() { z.Close() }, nil
	}
	return nil, nil, fmt.Errorf("%w: not a docidx archive (neither zstd nor gzip)", ErrCorrupt)
}

// IsArchive reports whether path is a regular file that starts like an archive (zstd or gzip),
// rather than a directory.
func IsArchive(path string) bool {
	// Stat before opening: opening a FIFO waits for a writer, and one that was already read
	// whole (an unpack that failed) would never get one.
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	return bytes.HasPrefix(magic[:n], []byte{0x28, 0xb5, 0x2f, 0xfd}) || n >= 2 && bytes.HasPrefix(magic[:n], []byte{0x1f, 0x8b})
}

// Extract unpacks the archive read from r into dst, a directory that must not exist yet (its
// parent must), checking each file against the manifest's checksum as it is written and every
// limit above. On any error dst is removed. The files are synced before Extract returns. Errors
// wrap ErrCorrupt (damaged or forged archive), docidx.ErrFormat (an archive from a newer docidx:
// "upgrade docidx"), or docidx.ErrTooLarge.
func Extract(r io.Reader, dst string) (*Manifest, error) {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	m, err := extract(r, dst)
	if err != nil {
		os.RemoveAll(dst)
		return nil, err
	}
	return m, nil
}

func extract(r io.Reader, dst string) (*Manifest, error) {
	zr, closeZ, err := decompress(r)
	if err != nil {
		return nil, err
	}
	defer closeZ()
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: archive: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	tr := tar.NewReader(zr)
	hdr, err := tr.Next()
	if err != nil {
		return nil, corrupt("reading the first entry: %v", err)
	}
	if hdr.Name != ManifestFile || hdr.Typeflag != tar.TypeReg {
		return nil, corrupt("first entry is %q, not %s: not a docidx snapshot archive", hdr.Name, ManifestFile)
	}
	if hdr.Size > MaxArchiveManifest {
		return nil, fmt.Errorf("%w: archive: %s of %d bytes (limit %d)", docidx.ErrTooLarge, ManifestFile, hdr.Size, MaxArchiveManifest)
	}
	raw, err := io.ReadAll(tr)
	if err != nil {
		return nil, corrupt("reading %s: %v", ManifestFile, err)
	}
	m, err := parseManifest(raw, "archive")
	if err != nil {
		return nil, err
	}
	if len(m.Files) > MaxArchiveFiles {
		return nil, fmt.Errorf("%w: archive lists %d files (limit %d)", docidx.ErrTooLarge, len(m.Files), MaxArchiveFiles)
	}
	for name := range m.Files {
		if !safeName(name) {
			return nil, corrupt("manifest lists the unsafe file name %q", name)
		}
	}
	seen := make(map[string]bool, len(m.Files))
	var total int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, corrupt("%v", err)
		}
		name := hdr.Name
		switch {
		case hdr.Typeflag != tar.TypeReg:
			return nil, corrupt("entry %q is not a regular file", name)
		case m.Files[name] == "":
			return nil, corrupt("entry %q is not listed in the manifest", name)
		case seen[name]:
			return nil, corrupt("entry %q appears twice", name)
		case hdr.Size < 0 || hdr.Size > MaxArchiveEntry:
			return nil, fmt.Errorf("%w: archive entry %q of %d bytes (limit %d)", docidx.ErrTooLarge, name, hdr.Size, int64(MaxArchiveEntry))
		case total+hdr.Size > MaxArchiveSize:
			return nil, fmt.Errorf("%w: archive unpacks to more than %d bytes", docidx.ErrTooLarge, int64(MaxArchiveSize))
		}
		seen[name] = true
		total += hdr.Size
		if err := extractFile(tr, dst, name, hdr.Size, m.Files[name]); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedFiles(m) {
		if !seen[name] {
			return nil, corrupt("%s is listed in the manifest but missing", name)
		}
	}
	// Read the compressed stream to its end, so that its own checksum is checked too. After the
	// tar's end only zero padding may follow (tar writers pad to their record size), and not
	// without bound: a damaged block header can turn the padding into an endless run, which must
	// not pass for the end of a good archive.
	if err := checkTrailer(zr); err != nil {
		return nil, corrupt("%v", err)
	}
	if err := writeFileSync(filepath.Join(dst, ManifestFile), raw); err != nil {
		return nil, err
	}
	if err := syncTree(dst); err != nil {
		return nil, err
	}
	return m, nil
}

// maxTrailer is how many bytes of zero padding may follow the end of an archive's tar stream.
const maxTrailer = 1 << 20

// checkTrailer reads r, the decompressed stream after the tar's end, to EOF: at most maxTrailer
// bytes, all zero. Reaching EOF makes the decompressor check the stream's own checksum.
func checkTrailer(r io.Reader) error {
	buf := make([]byte, 32<<10)
	n := 0
	for {
		k, err := r.Read(buf)
		for _, b := range buf[:k] {
			if b != 0 {
				return errors.New("data after the end of the archive")
			}
		}
		n += k
		if n > maxTrailer {
			return fmt.Errorf("more than %d bytes after the end of the archive", maxTrailer)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// safeName reports whether a manifest file name stays inside the snapshot directory on every
// platform: a clean, relative slash path with no "..", no backslash, colon or NUL, and not the
// manifest itself.
func safeName(name string) bool {
	return fs.ValidPath(name) && name != "." && name != ManifestFile && path.Clean(name) == name &&
		!strings.ContainsAny(name, `\:`+"\x00") && filepath.IsLocal(filepath.FromSlash(name))
}

func extractFile(tr io.Reader, dst, name string, size int64, sum string) error {
	p := filepath.Join(dst, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	h := sha256.New()
	_, err = io.CopyN(io.MultiWriter(f, h), tr, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w: archive: %s: %v", ErrCorrupt, name, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return fmt.Errorf("%w: archive: %s has sha256 %s, the manifest says %s", ErrCorrupt, name, got, sum)
	}
	return nil
}

// Install unpacks the archive read from r into the index directory dir (created if missing) as
// a new generation and makes it current in one atomic step, as Commit does: running servers
// switch to it at their next check, and the generation they leave is removed once none reads it.
// It takes the writer lock, so it fails with a *BusyError while another command writes to dir. A damaged archive leaves the
// current snapshot untouched.
func Install(dir string, r io.Reader) (*Manifest, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index: creating %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return nil, fmt.Errorf("%w: %s is a single snapshot (it holds %s), not an index directory: unpack into another directory",
			docidx.ErrFormat, dir, ManifestFile)
	}
	lock, err := lockDir(dir, "unpack")
	if err != nil {
		return nil, err
	}
	defer unlockDir(lock)
	cur := -1
	if snap, err := currentGen(dir); err == nil {
		cur = parseGen(filepath.Base(snap))
	} else if !errors.Is(err, docidx.ErrNoSnapshot) {
		return nil, err
	}
	removeUnused(dir, cur)
	next := max(cur+1, 1)
	gen := filepath.Join(dir, genName(next))
	m, err := Extract(r, gen)
	if err != nil {
		return nil, err
	}
	if err := openCheck(gen); err != nil {
		os.RemoveAll(gen)
		return nil, err
	}
	if err := syncDir(dir); err != nil { // gen's directory entry before CURRENT names it
		os.RemoveAll(gen)
		return nil, fmt.Errorf("index: syncing %s: %w", dir, err)
	}
	if err := writeFileSync(filepath.Join(dir, currentFile), []byte(filepath.Base(gen)+"\n")); err != nil {
		os.RemoveAll(gen)
		return nil, fmt.Errorf("index: publishing %s: %w", gen, err)
	}
	removeUnused(dir, next)
	return m, nil
}

// openCheck opens a snapshot directory as a Reader would, and closes it. A snapshot of an older
// format, which Open refuses, passes: its checksums were checked as it was extracted, and a
// crawl into its index directory rewrites it (see FormatVersion).
func openCheck(snap string) error {
	r, err := openSnapshot(snap)
	if err != nil {
		if m, merr := readManifest(snap); merr == nil && m.Format < FormatVersion && errors.Is(err, docidx.ErrFormat) {
			return nil
		}
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return (&Reader{r: r}).Close()
}

// CacheMaxAge is how long an archive unpacked by UnpackCached stays in the cache unused before a
// later UnpackCached removes it (if no Reader holds it).
const CacheMaxAge = 30 * 24 * time.Hour

// UnpackCached returns a snapshot directory holding the archive at path, unpacking it once into
// cacheDir/<sha256 of the archive>/ and reusing that directory while the archive's bytes stay the
// same. Concurrent callers (several servers started at once) unpack at most once each and all
// end up with the same directory. Unused entries older than CacheMaxAge are removed on the way.
// Errors are those of Extract.
func UnpackCached(path, cacheDir string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("index: reading %s: %w", path, err)
	}
	digest := hex.EncodeToString(h.Sum(nil))
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("index: creating %s: %w", cacheDir, err)
	}
	dst := filepath.Join(cacheDir, digest)
	if _, err := os.Stat(filepath.Join(dst, ManifestFile)); err == nil {
		now := time.Now()
		os.Chtimes(dst, now, now) // last use, for expiry
		pruneCache(cacheDir, digest)
		return dst, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	tmp := filepath.Join(cacheDir, ".tmp-"+digest[:16]+"-"+rand.Text()[:8])
	if _, err := Extract(f, tmp); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dst, ManifestFile)); serr != nil {
			return "", fmt.Errorf("index: %w", err)
		}
		// Another process unpacked the same archive first: use its copy.
	}
	syncDir(cacheDir)
	pruneCache(cacheDir, digest)
	return dst, nil
}

// pruneCache removes cache entries other than keep that were last used more than CacheMaxAge ago
// and that no Reader holds, and unpacking debris older than an hour.
func pruneCache(cacheDir, keep string) {
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() || e.Name() == keep {
			continue
		}
		p := filepath.Join(cacheDir, e.Name())
		age := time.Since(info.ModTime())
		switch {
		case strings.HasPrefix(e.Name(), ".tmp-"):
			if age > time.Hour {
				os.RemoveAll(p)
			}
		case len(e.Name()) == 64 && age > CacheMaxAge:
			if release, ok := lockUnused(p); ok {
				os.RemoveAll(p)
				release()
			}
		}
	}
}

// OpenArchive opens the snapshot in the archive at path, unpacked once into cacheDir (see
// UnpackCached). The Reader is a single snapshot: it never goes stale.
func OpenArchive(path, cacheDir string) (*Reader, error) {
	dir, err := UnpackCached(path, cacheDir)
	if err != nil {
		return nil, err
	}
	return Open(dir)
}

// DefaultCacheDir returns where archives are unpacked by default: $DOCIDX_CACHE when set, else
// the platform's per-user cache directory plus "docidx" ($XDG_CACHE_HOME/docidx, by default
// ~/.cache/docidx, on Linux).
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("DOCIDX_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("index: no cache directory for unpacking archives (%v): set DOCIDX_CACHE", err)
	}
	return filepath.Join(d, "docidx"), nil
}

// Resolve returns the snapshot or index directory that pathOrArchive stands for: an archive
// (see IsArchive) is unpacked once into cacheDir (see UnpackCached, DefaultCacheDir when
// cacheDir is empty) and the unpacked directory returned; anything else is returned as is.
func Resolve(pathOrArchive, cacheDir string) (string, error) {
	if !IsArchive(pathOrArchive) {
		return pathOrArchive, nil
	}
	if cacheDir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return "", err
		}
		cacheDir = d
	}
	return UnpackCached(pathOrArchive, cacheDir)
}
