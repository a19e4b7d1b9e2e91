//go:build unix

package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// canTellUnused is true where lockUnused can tell a snapshot no reader holds from one in use.
const canTellUnused = true

// lockDir takes the writer lock of an index directory without waiting, for the docidx command
// named command (crawl, compact, unpack ...), and records that command in the lock file: one
// command writes a generation at a time. Readers never take it. It returns a *BusyError,
// naming the holder, when another process holds the lock.
func lockDir(dir, command string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			err := busyError(f, dir)
			f.Close()
			return nil, err
		}
		f.Close()
		return nil, fmt.Errorf("index: locking %s: %w", dir, err)
	}
	writeHolder(f, command)
	return f, nil
}

func unlockDir(f *os.File) {
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}

// lockUnused takes an exclusive lock on the store of snapshot snap without waiting, and so
// learns whether any Reader has it open: every Reader holds a shared flock on store.db for as
// long as it is open (bbolt's read-only lock), in this process or any other. ok is true when no
// one does, or when snap has no store at all (a generation left half-written or half-removed);
// then release must be called once snap has been removed. flock locks belong to the open file,
// so a Reader in this very process counts as a holder too.
func lockUnused(snap string) (release func(), ok bool) {
	f, err := os.Open(filepath.Join(snap, StoreFile))
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, true
	}
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true // closing the file releases its lock
}
