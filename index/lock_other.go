//go:build !unix

package index

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockDir creates the lock file; platforms without flock get no mutual exclusion between crawls.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return f, nil
}

func unlockDir(f *os.File) { f.Close() }
