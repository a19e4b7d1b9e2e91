package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// CorpusDir returns the directory elem names below the docidx corpus, the tree of real packages
// scripts/corpus.sh builds and `make bench` names in the environment variable DOCIDX_CORPUS. It
// skips tb when the variable is not set or that directory is not there.
func CorpusDir(tb testing.TB, elem ...string) string {
	tb.Helper()
	root := os.Getenv("DOCIDX_CORPUS")
	if root == "" {
		tb.Skip("DOCIDX_CORPUS not set (make bench sets it; scripts/corpus.sh builds the corpus)")
	}
	dir := filepath.Join(append([]string{root}, elem...)...)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		tb.Skipf("no %s in the corpus", dir)
	}
	return dir
}
