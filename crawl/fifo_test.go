//go:build unix

package crawl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/docidx/docidx"
)

// A lockfile that is a FIFO is refused without being opened (the open would block until a
// writer came, and this test would hang), and a 1 GB sparse one by its size.
func TestReadLockfileNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "go.mod")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, err := ReadLockfile(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadLockfile(FIFO) = %v, want 'not a regular file'", err)
	}
	if _, err := ParseLockfileFS(os.DirFS(dir), "go.mod"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ParseLockfileFS(FIFO) = %v, want 'not a regular file'", err)
	}
	big := filepath.Join(dir, "package-lock.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadLockfile(big); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("ReadLockfile(1 GB sparse) = %v, want ErrTooLarge", err)
	}
}
