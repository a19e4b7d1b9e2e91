//go:build !unix

package index

import (
	"fmt"
	"os"
	"path/filepath"
)

// canTellUnused is false: without flock, a writer cannot learn whether a server still reads an
// old generation, so it keeps the one before the current and removes only older ones.
const canTellUnused = false

// lockDir creates the lock file and records command in it; platforms without flock get no
// mutual exclusion between writers.
func lockDir(dir, command string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	writeHolder(f, command)
	return f, nil
}

func unlockDir(f *os.File) { f.Close() }

// lockUnused cannot tell here: it reports every snapshot as in use.
func lockUnused(snap string) (release func(), ok bool) { return nil, false }
