//go:build !unix

package main

import "os"

// pollableStdin returns os.Stdin: only Unix pipes and sockets are switched to the poller.
func pollableStdin() (in *os.File, restore func()) { return os.Stdin, func() {} }
