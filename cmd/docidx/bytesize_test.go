package main

import "testing"

func TestParseByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1073741824", 1 << 30, true},
		{"1GiB", 1 << 30, true},
		{"1G", 1 << 30, true},
		{"1gb", 1 << 30, true},
		{"512MiB", 512 << 20, true},
		{" 256 MiB ", 256 << 20, true},
		{"64k", 64 << 10, true},
		{"100B", 100, true},
		{"", 0, false},
		{"GiB", 0, false},
		{"1.5GiB", 0, false},
		{"-1GiB", 0, false},
		{"1TiB", 0, false},
		{"99999999999GiB", 0, false},
	} {
		got, err := parseByteSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestRuntimeMemoryLimit(t *testing.T) {
	for _, c := range []struct{ budget, want int64 }{
		{700 << 20, 572 << 20}, // the default: the reserve left to mapped files
		{256 << 20, 128 << 20}, // half of a small budget, at least
		{64 << 20, 32 << 20},
		{4 << 30, 4<<30 - 128<<20},
	} {
		if got := runtimeMemoryLimit(c.budget); got != c.want {
			t.Errorf("runtimeMemoryLimit(%d) = %d, want %d", c.budget, got, c.want)
		}
	}
}
