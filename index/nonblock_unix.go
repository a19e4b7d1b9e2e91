//go:build unix

package index

import "syscall"

// openNonblock is added to the flags of every open of a snapshot file, so that a FIFO put where
// a file belongs does not block the open; the file is then refused as not regular.
const openNonblock = syscall.O_NONBLOCK
