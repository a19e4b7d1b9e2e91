//go:build unix

package main

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// mkfifo makes a named pipe at each path: scripts use it where a file is expected, to check
// that crawl skips it rather than blocking on it for ever.
func mkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo PATH...")
	}
	for _, a := range args {
		ts.Check(syscall.Mkfifo(ts.MkAbs(a), 0o644))
	}
}
