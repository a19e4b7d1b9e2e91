//go:build unix

package memfs_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// A FIFO is never opened (opening one for reading blocks until a writer comes, so this test
// would hang rather than pass if it were), and a sparse file larger than the limit is refused
// by its size before a byte is read.
func TestReadLimitedNonRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "package.json"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, err := memfs.ReadLimited(os.DirFS(dir), "package.json", 1<<20); !errors.Is(err, memfs.ErrNotRegular) {
		t.Errorf("ReadLimited(FIFO) = %v, want ErrNotRegular", err)
	}
	if _, err := memfs.ReadFileLimited(filepath.Join(dir, "package.json"), 1<<20); !errors.Is(err, memfs.ErrNotRegular) {
		t.Errorf("ReadFileLimited(FIFO) = %v, want ErrNotRegular", err)
	}
	if _, err := memfs.ReadLimited(os.DirFS("/dev"), "zero", 1<<20); !errors.Is(err, memfs.ErrNotRegular) {
		t.Errorf("ReadLimited(/dev/zero) = %v, want ErrNotRegular", err)
	}

	sparse := filepath.Join(dir, "big.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := memfs.ReadFileLimited(sparse, 4<<20); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("ReadFileLimited(1 GB sparse) = %v, want ErrTooLarge", err)
	}
	if _, err := memfs.ReadLimited(os.DirFS(dir), "big.json", 4<<20); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("ReadLimited(1 GB sparse) = %v, want ErrTooLarge", err)
	}
}
