//go:build unix

package main

import (
	"io"
	"os"
	"sync"
	"syscall"
)

// pollableStdin returns stdin as a file read through the runtime's network poller when it is a
// pipe or a socket, as an editor launches `docidx serve --stdio`, and os.Stdin otherwise (a
// terminal, a file). restore puts the descriptor back in blocking mode, as does closing in: its
// open file description is shared with whoever else holds the pipe. restore does nothing once
// in is closed, when descriptor 0 may already name another file.
//
// os.Stdin is read with blocking system calls, each holding a thread, so a request arriving
// wakes that thread and then hands the message to another; a descriptor in non-blocking mode
// parks the reading goroutine instead, and the thread that runs it runs the request too. Close
// also interrupts a read of a pollable descriptor, where a blocking read leaks its goroutine.
func pollableStdin() (in io.Reader, restore func()) {
	var st syscall.Stat_t
	if err := syscall.Fstat(0, &st); err != nil {
		return os.Stdin, func() {}
	}
	if t := st.Mode & syscall.S_IFMT; t != syscall.S_IFIFO && t != syscall.S_IFSOCK {
		return os.Stdin, func() {}
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin, func() {}
	}
	// os.NewFile sees the descriptor non-blocking and registers it with the poller.
	p := &pollStdin{File: os.NewFile(0, "/dev/stdin")}
	return p, p.restore
}

// pollStdin is stdin in non-blocking mode, put back in blocking mode once: by restore, or by
// Close before the descriptor is closed.
type pollStdin struct {
	*os.File
	once sync.Once
}

// restore puts descriptor 0 back in blocking mode, the first time it is called.
func (p *pollStdin) restore() { p.once.Do(func() { syscall.SetNonblock(0, false) }) }

// Close restores blocking mode and closes stdin.
func (p *pollStdin) Close() error {
	p.restore()
	return p.File.Close()
}
