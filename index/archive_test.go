package index_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func pack(t testing.TB, dir string, c index.Compression) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := index.Pack(&buf, dir, c); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeArchive(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "snap.tar.zst")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// entries lists the tar entries of an archive.
func entries(t *testing.T, data []byte) []*tar.Header {
	t.Helper()
	var r io.Reader
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		z, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r = z
	} else {
		z, err := zstd.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		r = z
	}
	tr := tar.NewReader(r)
	var out []*tar.Header
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, h)
	}
}

func TestPackIsDeterministic(t *testing.T) {
	dir := build(t, goModule("v0.9.0"), goModule("v0.10.0"), npmPackage("commander", "12.1.0", "cli"))
	for _, c := range []index.Compression{index.Zstd, index.Gzip} {
		a, b := pack(t, dir, c), pack(t, dir, c)
		if !bytes.Equal(a, b) {
			t.Errorf("compression %d: packing twice gave different bytes", c)
		}
		hs := entries(t, a)
		if hs[0].Name != index.ManifestFile {
			t.Errorf("first entry %q, want the manifest", hs[0].Name)
		}
		r := open(t, dir)
		if len(hs) != len(r.Manifest().Files)+1 {
			t.Errorf("%d entries for %d files", len(hs), len(r.Manifest().Files))
		}
		for i, h := range hs {
			if i > 1 && hs[i-1].Name >= h.Name {
				t.Errorf("entries out of order: %s before %s", hs[i-1].Name, h.Name)
			}
			if h.Mode != 0o644 || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Typeflag != tar.TypeReg || !h.ModTime.Equal(r.Manifest().Created) {
				t.Errorf("entry %s: %+v", h.Name, h)
			}
		}
	}
	// A copy of the snapshot in another directory packs to the same bytes too.
	other := filepath.Join(t.TempDir(), "idx")
	if _, err := index.Install(other, bytes.NewReader(pack(t, dir, index.Zstd))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pack(t, dir, index.Zstd), pack(t, other, index.Zstd)) {
		t.Error("an unpacked copy packs to different bytes")
	}
}

func TestInstallAndOpenArchive(t *testing.T) {
	src := build(t, goModule("v0.10.0"), npmPackage("commander", "12.1.0", "cli"))
	for _, c := range []index.Compression{index.Zstd, index.Gzip} {
		data := pack(t, src, c)
		dst := filepath.Join(t.TempDir(), "idx")
		m, err := index.Install(dst, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r := open(t, dst)
		if r.Generation() != "gen-000001" || len(m.Files) == 0 {
			t.Errorf("installed generation %q", r.Generation())
		}
		if hits := search(t, r, index.Query{Text: "SetLimit"}); len(hits) == 0 {
			t.Error("no hits from the installed snapshot")
		}
		// Installing again makes a new generation and keeps the one the reader holds.
		if _, err := index.Install(dst, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		if cur, _ := index.Current(dst); cur != "gen-000002" || !r.Stale() {
			t.Errorf("second install: CURRENT %s", cur)
		}
		if _, err := index.Verify(context.Background(), dst, ""); err != nil {
			t.Errorf("verify installed: %v", err)
		}
	}

	data := pack(t, src, index.Zstd)
	path := writeArchive(t, data)
	cache := t.TempDir()
	r1, err := index.OpenArchive(path, cache)
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	sum := sha256.Sum256(data)
	if want := filepath.Join(cache, hex.EncodeToString(sum[:])); r1.Dir() != want || r1.Stale() {
		t.Errorf("archive unpacked into %s, want %s", r1.Dir(), want)
	}
	// Served again: the cache is used, not unpacked twice.
	os.WriteFile(filepath.Join(r1.Dir(), "marker"), nil, 0o644)
	r2, err := index.OpenArchive(path, cache)
	if err != nil {
		t.Fatal(err)
	}
	r2.Close()
	if _, err := os.Stat(filepath.Join(r1.Dir(), "marker")); err != nil {
		t.Error("second OpenArchive unpacked again")
	}
	if dir, err := index.Resolve(src, cache); dir != src || err != nil {
		t.Errorf("Resolve(dir) = %q, %v", dir, err)
	}
	if v, err := index.Verify(context.Background(), path, ""); err != nil || v.Archive != path || v.Files == 0 || v.Versions != 2 {
		t.Errorf("Verify(archive) = %+v, %v", v, err)
	}
}

func TestFlippedByte(t *testing.T) {
	src := build(t, goModule("v0.10.0"), npmPackage("commander", "12.1.0", "cli"))
	data := pack(t, src, index.Zstd)
	// Every region of the archive: headers, the manifest, store pages, index segments, the end.
	for _, off := range []int{0, 10, len(data) / 7, len(data) / 3, len(data) / 2, 2 * len(data) / 3, len(data) - 10, len(data) - 1} {
		bad := bytes.Clone(data)
		bad[off] ^= 0x20
		if sameContent(t, bad, data) {
			// Some bits of a compressed block say nothing (padding of its bit streams, unused
			// table entries): the archive still holds the same snapshot, and serving it is right.
			continue
		}
		path := writeArchive(t, bad)
		if _, err := index.OpenArchive(path, t.TempDir()); err == nil {
			t.Errorf("flipped byte at %d of %d: archive served", off, len(data))
		}
		if _, err := index.Verify(context.Background(), path, ""); err == nil {
			t.Errorf("flipped byte at %d of %d: verify passed", off, len(data))
		}
		if _, err := index.Install(filepath.Join(t.TempDir(), "idx"), bytes.NewReader(bad)); err == nil {
			t.Errorf("flipped byte at %d: installed", off)
		}
	}

	// In a snapshot directory: verify names the file.
	r := open(t, src)
	snap := r.Dir()
	r.Close()
	store := filepath.Join(snap, index.StoreFile)
	b, _ := os.ReadFile(store)
	b[len(b)/2] ^= 1
	os.WriteFile(store, b, 0o644)
	_, err := index.Verify(context.Background(), src, "")
	if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), "store.db has sha256") {
		t.Errorf("flipped byte in store.db: %v", err)
	}
	if _, err := index.Pack(io.Discard, src, index.Zstd); !errors.Is(err, index.ErrCorrupt) {
		t.Errorf("packing a corrupt snapshot: %v", err)
	}
	os.WriteFile(filepath.Join(src, "seg-000001", "search.bleve", "extra"), nil, 0o644)
	os.Remove(filepath.Join(src, "seg-000001", "search.bleve", "index_meta.json"))
	if _, err := index.Verify(context.Background(), src, ""); err == nil ||
		!strings.Contains(err.Error(), "seg-000001/search.bleve/extra is not listed") || !strings.Contains(err.Error(), "index_meta.json is missing") {
		t.Errorf("extra and missing files: %v", err)
	}
}

func TestNewerFormatArchive(t *testing.T) {
	src := build(t, goModule("v0.10.0"))
	r := open(t, src)
	mpath := filepath.Join(r.Dir(), index.ManifestFile)
	r.Close()
	data, _ := os.ReadFile(mpath)
	// A future format may change anything else too: it must still be refused as newer.
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["format"], m["counts"], m["files"] = 7, map[string]any{"v": 2}, []string{"chunked"}
	data, _ = json.Marshal(m)
	arch := rawArchive(t, map[string]string{index.ManifestFile: string(data)}, []string{index.ManifestFile})
	path := writeArchive(t, arch)
	for _, err := range []error{
		func() error { _, err := index.OpenArchive(path, t.TempDir()); return err }(),
		func() error { _, err := index.Verify(context.Background(), path, ""); return err }(),
		func() error { _, err := index.Install(t.TempDir(), bytes.NewReader(arch)); return err }(),
	} {
		if !errors.Is(err, docidx.ErrFormat) || !strings.Contains(err.Error(), "format 7") || !strings.Contains(err.Error(), "upgrade docidx") {
			t.Errorf("newer format: %v", err)
		}
	}
}

// rawArchive builds a zstd tar with the given entries in the given order.
func rawArchive(t testing.TB, files map[string]string, order []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z, _ := zstd.NewWriter(&buf)
	tw := tar.NewWriter(z)
	for _, name := range order {
		body := files[name]
		typ := byte(tar.TypeReg)
		link := ""
		if strings.HasPrefix(body, "symlink:") {
			typ, link, body = tar.TypeSymlink, strings.TrimPrefix(body, "symlink:"), ""
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: typ, Linkname: link, Size: int64(len(body)), Mode: 0o644}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	z.Close()
	return buf.Bytes()
}

func manifestFor(files map[string]string) string {
	sums := map[string]string{}
	for name, body := range files {
		sum := sha256.Sum256([]byte(body))
		sums[name] = hex.EncodeToString(sum[:])
	}
	data, _ := json.Marshal(map[string]any{"format": 1, "docidxVersion": "test", "created": "2026-01-02T03:04:05Z", "counts": []any{}, "files": sums})
	return string(data)
}

func TestExtractRefusesForgedArchives(t *testing.T) {
	good := map[string]string{"store.db": "x"}
	for _, c := range []struct {
		name   string
		listed map[string]string // files the manifest lists
		order  []string          // entries after the manifest
		bodies map[string]string // entry bodies (default: listed)
		want   string
	}{
		{"traversal", map[string]string{"../evil": "x"}, []string{"../evil"}, nil, "unsafe file name"},
		{"absolute", map[string]string{"/etc/evil": "x"}, []string{"/etc/evil"}, nil, "unsafe file name"},
		{"backslash", map[string]string{`a\..\..\evil`: "x"}, []string{`a\..\..\evil`}, nil, "unsafe file name"},
		{"unlisted", good, []string{"store.db", "evil"}, map[string]string{"store.db": "x", "evil": "y"}, "not listed"},
		{"twice", good, []string{"store.db", "store.db"}, nil, "appears twice"},
		{"symlink", good, []string{"store.db"}, map[string]string{"store.db": "symlink:/etc/passwd"}, "not a regular file"},
		{"missing", map[string]string{"store.db": "x", "other": "y"}, []string{"store.db"}, nil, "missing"},
		{"checksum", good, []string{"store.db"}, map[string]string{"store.db": "y"}, "has sha256"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bodies := c.bodies
			if bodies == nil {
				bodies = c.listed
			}
			files := map[string]string{index.ManifestFile: manifestFor(c.listed)}
			for k, v := range bodies {
				files[k] = v
			}
			arch := rawArchive(t, files, append([]string{index.ManifestFile}, c.order...))
			root := t.TempDir()
			dst := filepath.Join(root, "snap")
			_, err := index.Extract(bytes.NewReader(arch), dst)
			if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want ErrCorrupt with %q", err, c.want)
			}
			if _, err := os.Stat(dst); err == nil {
				t.Error("target directory left behind")
			}
			if _, err := os.Stat(filepath.Join(root, "evil")); err == nil {
				t.Error("file written outside the target")
			}
		})
	}
	// Not an archive at all, and an archive without a manifest first.
	if _, err := index.Extract(strings.NewReader("plain text"), filepath.Join(t.TempDir(), "x")); !errors.Is(err, index.ErrCorrupt) {
		t.Errorf("plain text: %v", err)
	}
	arch := rawArchive(t, map[string]string{"store.db": "x"}, []string{"store.db"})
	if _, err := index.Extract(bytes.NewReader(arch), filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "not manifest.json") {
		t.Errorf("no manifest first: %v", err)
	}
}

func FuzzExtract(f *testing.F) {
	files := map[string]string{"store.db": "x", "search.bleve/a": "y"}
	files[index.ManifestFile] = manifestFor(map[string]string{"store.db": "x", "search.bleve/a": "y"})
	f.Add(rawArchive(f, files, []string{index.ManifestFile, "search.bleve/a", "store.db"}))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		dst := filepath.Join(root, "snap")
		if _, err := index.Extract(bytes.NewReader(data), dst); err != nil {
			if _, serr := os.Stat(dst); serr == nil {
				t.Fatal("failed extract left its directory")
			}
		}
		entries, _ := os.ReadDir(root)
		if len(entries) > 1 || len(entries) == 1 && entries[0].Name() != "snap" {
			t.Fatalf("extract wrote outside its directory: %v", entries)
		}
	})
}

// sameContent reports whether the zstd archives a and b decompress to the same bytes.
func sameContent(t *testing.T, a, b []byte) bool {
	t.Helper()
	unzstd := func(p []byte) ([]byte, error) {
		d, err := zstd.NewReader(bytes.NewReader(p))
		if err != nil {
			return nil, err
		}
		defer d.Close()
		return io.ReadAll(d)
	}
	x, errA := unzstd(a)
	y, errB := unzstd(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// TestArchiveTrailingData checks that data after the end of an archive's tar stream (here a
// second zstd frame) makes the archive corrupt rather than ignored.
func TestArchiveTrailingData(t *testing.T) {
	src := build(t, goModule("v0.10.0"))
	data := pack(t, src, index.Zstd)
	var extra bytes.Buffer
	zw, err := zstd.NewWriter(&extra)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte("not part of the snapshot"))
	zw.Close()
	path := writeArchive(t, append(bytes.Clone(data), extra.Bytes()...))
	if _, err := index.OpenArchive(path, t.TempDir()); !errors.Is(err, index.ErrCorrupt) {
		t.Errorf("archive with trailing data: %v, want ErrCorrupt", err)
	}
}

// TestIsArchiveFIFO checks that IsArchive does not open a FIFO: an unpack that read its archive
// from a FIFO and failed asks IsArchive how to word its error, and no writer is left to end the
// open (it hung for ever).
func TestIsArchiveFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tar.zst")
	if err := mkfifo(p); err != nil {
		t.Skip(err)
	}
	if index.IsArchive(p) {
		t.Errorf("IsArchive(FIFO) = true, want false")
	}
}
