package pyscan

import (
	"encoding/json"
	"os"
	"testing"
)

func TestTmpTry(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("PYFILE"))
	if err != nil {
		t.Skip()
	}
	res := Scan(src, Options{Module: os.Getenv("PYMOD"), File: "x.py"})
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	for _, s := range res.Symbols {
		if os.Getenv("PYSYM") == "" || s.QualifiedName == os.Getenv("PYSYM") {
			enc.Encode(s)
		}
	}
}
