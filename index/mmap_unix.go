//go:build unix

package index

import (
	"os"
	"syscall"
)

// mapFile maps path read-only into memory and returns its bytes and a function unmapping them.
// Pages are read from the page cache as they are touched, and count toward the process's
// memory only while they are.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
