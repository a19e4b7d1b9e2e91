//go:build unix

package main

import (
	"os"
	"syscall"
)

// pollableStdin returns stdin as a file read through the runtime's network poller when it is a
// pipe or a socket, as an editor launches `docidx serve --stdio`, and os.Stdin otherwise (a
// terminal, a file). restore puts the descriptor back in blocking mode: its open file
// description is shared with whoever else holds the pipe.
//
// os.Stdin is read with blocking system calls, each holding a thread, so a request arriving
// wakes that thread and then hands the message to another; a descriptor in non-blocking mode
// parks the reading goroutine instead, and the thread that runs it runs the request too. Close
// also interrupts a read of a pollable descriptor, where a blocking read leaks its goroutine.
func pollableStdin() (in *os.File, restore func()) {
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
	return os.NewFile(0, "/dev/stdin"), func() { syscall.SetNonblock(0, false) }
}
