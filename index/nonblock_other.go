//go:build !unix

package index

// openNonblock is 0 where there are no FIFOs to guard against.
const openNonblock = 0
