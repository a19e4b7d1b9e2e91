//go:build unix

package main

import (
	"io"
	"syscall"
	"testing"
)

// TestPollableStdin puts a pipe on descriptor 0 and checks that pollableStdin reads it in
// non-blocking mode, and that closing it leaves the pipe's shared description blocking again,
// as the process that passed the pipe expects it.
func TestPollableStdin(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(p[1])
	saved, err := syscall.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Dup2(saved, 0)
		syscall.Close(saved)
	}()
	if err := syscall.Dup2(p[0], 0); err != nil {
		t.Fatal(err)
	}
	nonblocking := func() bool { // read through p[0], which shares descriptor 0's description
		flags, err := fcntl(p[0], syscall.F_GETFL)
		if err != nil {
			t.Fatal(err)
		}
		return flags&syscall.O_NONBLOCK != 0
	}

	in, restore := pollableStdin()
	defer restore()
	ps, ok := in.(*pollStdin)
	if !ok {
		t.Fatalf("a pipe on stdin: got %T, want *pollStdin", in)
	}
	if !nonblocking() {
		t.Fatal("stdin is not in non-blocking mode")
	}
	syscall.Write(p[1], []byte("ping\n"))
	buf := make([]byte, 16)
	if n, err := in.Read(buf); err != nil || string(buf[:n]) != "ping\n" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if err := ps.Close(); err != nil {
		t.Fatal(err)
	}
	if nonblocking() {
		t.Error("Close left the pipe in non-blocking mode")
	}
	if _, err := in.Read(buf); err == nil || err == io.EOF {
		t.Errorf("Read after Close: %v, want a closed-file error", err)
	}
	syscall.Close(p[0])
}

func fcntl(fd, cmd int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}
