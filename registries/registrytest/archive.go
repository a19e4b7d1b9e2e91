package registrytest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Entry is one raw archive entry. Name is written as is (no prefix, no cleaning), so tests can
// build hostile archives ("package/../../x", "/abs", "other-dir/file").
type Entry struct {
	Name string // the entry name as stored
	Body string // the content of a regular file
	// Mode is the entry's mode: 0 means a regular file 0644; fs.ModeDir makes a directory and
	// fs.ModeSymlink a symbolic link to Link.
	Mode fs.FileMode
	// Link is the target of a symbolic link (Mode has fs.ModeSymlink) or, in a tar, of a hard
	// link (Typeflag tar.TypeLink).
	Link string
	// Size, when larger than len(Body), is the size the entry declares; the body is padded with
	// zeros to it, so tests can declare huge entries cheaply.
	Size int64
	// Typeflag, when non-zero, is a tar entry's type as written (tar.TypeLink, tar.TypeChar …),
	// overriding Mode. Zip archives ignore it.
	Typeflag byte
}

// Files returns an entry per file (slash path relative to the archive's top directory →
// contents) under the top directory prefix, sorted by name; prefix "" puts them at the root.
func Files(prefix string, files map[string]string) []Entry {
	names := slices.Sorted(maps.Keys(files))
	entries := make([]Entry, 0, len(names))
	for _, n := range names {
		name := n
		if prefix != "" {
			name = path.Join(prefix, n)
		}
		entries = append(entries, Entry{Name: name, Body: files[n]})
	}
	return entries
}

// body returns e's content padded with zeros to its declared size.
func (e Entry) body() []byte {
	b := []byte(e.Body)
	if e.Size > int64(len(b)) {
		b = append(b, make([]byte, e.Size-int64(len(b)))...)
	}
	return b
}

// Tar builds gzip-compressed tar archives (npm tarballs, sdists, .crate files) with a fixed
// modification time and header format, as the tool that packs them writes.
type Tar struct {
	ModTime time.Time
	Format  tar.Format // tar.FormatPAX, tar.FormatGNU …; 0 lets archive/tar choose
}

// Build returns the gzip-compressed tar of entries, in order. It panics when archive/tar
// refuses an entry: the entries are a test's own.
func (t Tar) Build(entries []Entry) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		body := e.body()
		hdr := &tar.Header{Name: e.Name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg,
			ModTime: t.ModTime, Format: t.Format}
		switch {
		case e.Typeflag != 0:
			hdr.Typeflag, hdr.Linkname = e.Typeflag, e.Link
		case e.Mode&fs.ModeSymlink != 0:
			hdr.Typeflag, hdr.Linkname, hdr.Mode = tar.TypeSymlink, e.Link, 0o777
		case e.Mode.IsDir():
			hdr.Typeflag, hdr.Mode = tar.TypeDir, 0o755
		case e.Mode != 0:
			hdr.Mode = int64(e.Mode.Perm())
		}
		if hdr.Typeflag != tar.TypeReg {
			hdr.Size, body = 0, nil
		}
		if err := tw.WriteHeader(hdr); err != nil {
			panic(err)
		}
		if _, err := tw.Write(body); err != nil {
			panic(err)
		}
	}
	if err := tw.Close(); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Zip builds zip archives (wheels, Swift source archives) with a fixed modification time.
// Files are deflated, directories stored.
type Zip struct {
	Modified time.Time
}

// Build returns the zip of entries, in order. It panics when archive/zip refuses an entry.
func (z Zip) Build(entries []Entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		mode := e.Mode
		if mode == 0 {
			mode = 0o644
		}
		body := e.body()
		if mode&fs.ModeSymlink != 0 {
			body = []byte(e.Link)
		}
		hdr := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: z.Modified}
		hdr.SetMode(mode)
		if mode.IsDir() {
			hdr.Method, body = zip.Store, nil
		}
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			panic(err)
		}
		if _, err := w.Write(body); err != nil {
			panic(err)
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// TarNames returns the entry names of data, a gzip-compressed tar such as Tar.Build writes, in
// archive order. It fails tb when data is not one or ends in the middle of an entry.
func TarNames(tb testing.TB, data []byte) []string {
	tb.Helper()
	var names []string
	if err := eachTar(data, func(h *tar.Header, _ []byte) { names = append(names, h.Name) }); err != nil {
		tb.Fatal(err)
	}
	return names
}

// ZipNames returns the entry names of data, a zip such as Zip.Build writes, in archive order. It
// fails tb when data is not a zip or an entry cannot be read.
func ZipNames(tb testing.TB, data []byte) []string {
	tb.Helper()
	var names []string
	if err := eachZip(data, func(f *zip.File, _ []byte) { names = append(names, f.Name) }); err != nil {
		tb.Fatal(err)
	}
	return names
}

// eachTar calls f with the header and the body of each entry of data, a gzip-compressed tar, in
// archive order; it returns the first error reading data.
func eachTar(data []byte, f func(h *tar.Header, body []byte)) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		f(h, body)
	}
}

// eachZip calls f with each entry of data, a zip, and its uncompressed body, in archive order;
// it returns the first error reading data.
func eachZip(data []byte, f func(zf *zip.File, body []byte)) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		f(zf, body)
	}
	return nil
}

// ReadTree reads every regular file under dir (symbolic links are left out) into a map keyed by
// slash path relative to dir.
func ReadTree(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return files, err
}

// LessVersion orders fixture versions well enough for every ecosystem's fakes: the leading
// dot-separated numbers compared as numbers (missing ones count as 0), then a pre-release
// ("1.0.0-beta.1", "1.0rc1") before its release and a post-release ("1.0.post1") after it,
// then the strings. It is no ecosystem's full version order.
func LessVersion(a, b string) bool {
	ra, pa := splitVersion(a)
	rb, pb := splitVersion(b)
	for i := 0; i < len(ra) || i < len(rb); i++ {
		var x, y int
		if i < len(ra) {
			x = ra[i]
		}
		if i < len(rb) {
			y = rb[i]
		}
		if x != y {
			return x < y
		}
	}
	switch {
	case pa == pb:
		return a < b
	case pa == "":
		return false
	case pb == "":
		return true
	}
	return pa < pb
}

// splitVersion splits v into its leading numbers and the pre-release tag that follows ("" for
// a release; a post-release counts as one more number).
func splitVersion(v string) ([]int, string) {
	var nums []int
	i := 0
	for i < len(v) {
		j := i
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		if j == i {
			break
		}
		n, _ := strconv.Atoi(v[i:j])
		nums = append(nums, n)
		i = j
		if i < len(v) && v[i] == '.' && i+1 < len(v) && v[i+1] >= '0' && v[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	rest := strings.TrimLeft(v[i:], ".-_")
	if strings.HasPrefix(rest, "post") {
		return append(nums, 0, 1), ""
	}
	return nums, rest
}

// Version is one version directory of a fixture tree (see ReadVersions).
type Version struct {
	Name    string            // slash path from the root to the package directory: "widget", "@acme/tools", "mona/LinkedList"
	Version string            // the version directory's name, e.g. "1.1.0"
	Dir     string            // the version directory
	Files   map[string]string // its regular files by slash path (see ReadTree)
}

// ReadVersions reads a fixture tree laid out as <root>/<package>/<version>/<files>, where a
// top-level directory for which group returns true holds packages instead of being one
// (<root>/<scope>/<package>/<version>/…); group nil means none does. Files beside the version
// directories (packument.json, yanked) are left to the caller. Versions come in the order of
// their directory names.
func ReadVersions(root string, group func(dir string) bool) ([]Version, error) {
	top, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range top {
		if !d.IsDir() {
			continue
		}
		if group == nil || !group(d.Name()) {
			names = append(names, d.Name())
			continue
		}
		inner, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			return nil, err
		}
		for _, in := range inner {
			if in.IsDir() {
				names = append(names, d.Name()+"/"+in.Name())
			}
		}
	}
	var out []Version
	for _, name := range names {
		dir := filepath.Join(root, filepath.FromSlash(name))
		vers, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, v := range vers {
			if !v.IsDir() {
				continue
			}
			vdir := filepath.Join(dir, v.Name())
			files, err := ReadTree(vdir)
			if err != nil {
				return nil, err
			}
			out = append(out, Version{Name: name, Version: v.Name(), Dir: vdir, Files: files})
		}
	}
	return out, nil
}
