package index

import "testing"

// WriteLegacyRank makes commits write the previous rank layout until t ends.
func WriteLegacyRank(t testing.TB) {
	writeLegacy = true
	t.Cleanup(func() { writeLegacy = false })
}
