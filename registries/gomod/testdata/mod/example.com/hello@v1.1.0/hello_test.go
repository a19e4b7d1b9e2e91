package hello

import "testing"

func TestHi(t *testing.T) {
	if Hi() == "" {
		t.Fatal("empty")
	}
}
