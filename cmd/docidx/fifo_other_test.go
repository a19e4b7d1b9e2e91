//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

// mkfifo skips the script: named pipes are a Unix thing.
func mkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("no named pipes on this system")
}
