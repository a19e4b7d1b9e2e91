package gomod

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/mod/module"

	"github.com/docidx/docidx"
)

// openZip checks a module zip held in memory by golang.org/x/mod/zip's rules (CheckZip) and
// returns its files rooted at the module root. Every entry must sit under "<mod>@<version>/" with
// a clean, valid file path (module.CheckFilePath: no "..", no absolute or backslash paths), no two
// paths may differ only in case, go.mod may appear only at the root, and there are no symlinks;
// a violation fails with an error wrapping docidx.ErrUnsafePath. A zip over maxZip bytes, a
// total uncompressed size over maxZip, or a go.mod over MaxGoMod fails with one wrapping
// docidx.ErrTooLarge.
func openZip(data []byte, modPath, version string, maxZip int64) (fs.FS, error) {
	if int64(len(data)) > maxZip {
		return nil, fmt.Errorf("module zip of %d bytes: %w (limit %d bytes)", len(data), docidx.ErrTooLarge, maxZip)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("reading module zip: %w", err)
	}
	prefix := modPath + "@" + version + "/"
	bad := func(name, why string) error {
		return fmt.Errorf("module zip entry %q: %s: %w", name, why, docidx.ErrUnsafePath)
	}
	folded := make(map[string]string, len(zr.File))
	var total uint64
	for _, zf := range zr.File {
		rest, ok := strings.CutPrefix(zf.Name, prefix)
		if !ok {
			return nil, bad(zf.Name, "not under "+prefix)
		}
		if rest == "" {
			continue
		}
		isDir := strings.HasSuffix(rest, "/")
		name := strings.TrimSuffix(rest, "/")
		if path.Clean(name) != name {
			return nil, bad(zf.Name, "path is not clean")
		}
		if err := module.CheckFilePath(name); err != nil {
			return nil, bad(zf.Name, err.Error())
		}
		if zf.Mode()&fs.ModeType != 0 && !(isDir && zf.Mode().IsDir()) {
			return nil, bad(zf.Name, "not a regular file")
		}
		key := strings.ToLower(name)
		if other, dup := folded[key]; dup && !isDir {
			return nil, bad(zf.Name, "collides with "+other)
		}
		folded[key] = name
		if isDir {
			continue
		}
		if base := path.Base(name); strings.EqualFold(base, "go.mod") && name != "go.mod" {
			return nil, bad(zf.Name, "go.mod file not in module root directory")
		}
		if name == "go.mod" && zf.UncompressedSize64 > MaxGoMod {
			return nil, fmt.Errorf("module zip: go.mod of %d bytes: %w (limit %d bytes)", zf.UncompressedSize64, docidx.ErrTooLarge, MaxGoMod)
		}
		total += zf.UncompressedSize64
		if total > uint64(maxZip) {
			return nil, fmt.Errorf("module zip: total uncompressed size: %w (limit %d bytes)", docidx.ErrTooLarge, maxZip)
		}
	}
	return fs.Sub(zr, strings.TrimSuffix(prefix, "/"))
}
