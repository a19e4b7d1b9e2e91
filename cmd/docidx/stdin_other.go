//go:build !unix

package main

import (
	"io"
	"os"
)

// pollableStdin returns os.Stdin: only Unix pipes and sockets are switched to the poller.
func pollableStdin() (in io.Reader, restore func()) { return os.Stdin, func() {} }
