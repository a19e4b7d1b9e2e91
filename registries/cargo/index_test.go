package cargo

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestIndexPath(t *testing.T) {
	testutil.Mapping(t, "IndexPath", IndexPath, map[string]string{
		"a":           "1/a",
		"xz":          "2/xz",
		"tz":          "2/tz",
		"syn":         "3/s/syn",
		"Quux":        "qu/ux/quux",
		"serde":       "se/rd/serde",
		"cargo-fetch": "ca/rg/cargo-fetch",
		"MD5":         "3/m/md5",
	})
	testutil.Mapping(t, "indexPrefix", indexPrefix, map[string]string{"a": "1", "xz": "2", "Syn": "3/S", "Quux": "Qu/ux"})
}

func TestValidName(t *testing.T) {
	for _, ok := range []string{"a", "serde", "serde_json", "md-5", "Inflector", "_priv", strings.Repeat("x", 64)} {
		if !ValidName(ok) {
			t.Errorf("ValidName(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", "1up", "-x", "a b", "a/b", "a.b", "..", "é", strings.Repeat("x", 65), "a\x00"} {
		if ValidName(bad) {
			t.Errorf("ValidName(%q) = true", bad)
		}
	}
}

func TestParseIndexFile(t *testing.T) {
	data := []byte(`{"name":"foo","vers":"1.0.0","deps":[],"cksum":"aa","features":{},"yanked":false}

{"name":"foo","vers":"1.1.0","deps":[{"name":"bar","req":"^1","features":[],"optional":false,"default_features":true,"target":null,"kind":"normal"}],"cksum":"bb","features":{"x":[]},"features2":{"y":["dep:bar"]},"yanked":true,"links":null,"v":2,"rust_version":"1.70","pubtime":"2025-11-12T10:11:12Z"}
not json
{"name":"foo","vers":"01.0.0","cksum":"cc"}
{"name":"foo","vers":"2.0.0"}
{"vers":"2.0.0","cksum":"dd"}
{"name":"foo","vers":"2.0.0-rc.1+build.5","cksum":"ee","v":3,"future_field":[1,2]}`)
	entries, skipped := ParseIndexFile(data)
	if skipped != 4 || len(entries) != 3 {
		t.Fatalf("entries %+v, skipped %d", entries, skipped)
	}
	if e := entries[1]; e.Vers != "1.1.0" || !e.Yanked || e.Cksum != "bb" || e.V != 2 || !e.published().Equal(time.Date(2025, 11, 12, 10, 11, 12, 0, time.UTC)) {
		t.Errorf("entry = %+v", e)
	}
	if !entries[0].published().IsZero() {
		t.Error("an entry without pubtime has a time")
	}
	if e, n := ParseIndexFile(nil); len(e) != 0 || n != 0 {
		t.Errorf("empty file: %v %d", e, n)
	}
}

func TestResolveVersion(t *testing.T) {
	versions := []string{"0.1.0", "0.1.1", "0.2.0-beta.1", "0.2.0", "0.3.0", "1.0.0-rc.1"}
	yanked := func(v string) bool { return v == "0.3.0" }
	for _, tc := range []struct {
		q, want string
		err     error
	}{
		{"", "0.2.0", nil},
		{"0.3.0", "0.3.0", nil},
		{"^0.1", "0.1.1", nil},
		{"0.1", "0.1.1", nil},
		{"0.1.0", "0.1.0", nil}, // a complete version is exact, not ^0.1.0
		{"=0.1.0", "0.1.0", nil},
		{"~0.1.0", "0.1.1", nil},
		{">=0.2", "0.2.0", nil},
		{">=0.2.0-beta", "0.2.0", nil},
		{"0.2.0-beta.1", "0.2.0-beta.1", nil},
		{"^1.0.0-rc", "1.0.0-rc.1", nil},
		{"^1", "", docidx.ErrNotFound},
		{"0.3", "", docidx.ErrNotFound}, // only a yanked version matches
		{"1.2.3.4", "", docidx.ErrBadSpec},
		{",", "", docidx.ErrBadSpec},
	} {
		got, err := resolveVersion("foo", versions, yanked, tc.q)
		testutil.Result(t, fmt.Sprintf("resolveVersion(%q)", tc.q), got, err, tc.want, tc.err)
	}
	// Only pre-releases, or everything yanked.
	if v, err := resolveVersion("p", []string{"1.0.0-alpha.1", "1.0.0-alpha.2"}, func(string) bool { return false }, ""); err != nil || v != "1.0.0-alpha.2" {
		t.Errorf("pre-releases only: %q %v", v, err)
	}
	if _, err := resolveVersion("y", []string{"1.0.0"}, func(string) bool { return true }, ""); !errors.Is(err, docidx.ErrNotFound) || !strings.Contains(err.Error(), "yanked") {
		t.Errorf("all yanked: %v", err)
	}
}

func TestSplitDirName(t *testing.T) {
	for dir, want := range map[string][2]string{
		"serde-1.0.200":             {"serde", "1.0.200"},
		"serde_json-1.0.117":        {"serde_json", "1.0.117"},
		"md-5-0.10.6":               {"md-5", "0.10.6"},
		"windows-x86_64-gnu-0.52.6": {"windows-x86_64-gnu", "0.52.6"},
		"foo-1.0.0-rc.1":            {"foo", "1.0.0-rc.1"},
		"foo-bar-2.0.0-alpha-1":     {"foo-bar", "2.0.0-alpha-1"},
		"foo-1.0.0+build.2":         {"foo", "1.0.0+build.2"},
		"Inflector-0.11.4":          {"Inflector", "0.11.4"},
		"a-0.0.1":                   {"a", "0.0.1"},
	} {
		n, v, ok := SplitDirName(dir)
		if !ok || n != want[0] || v != want[1] {
			t.Errorf("SplitDirName(%q) = %q %q %v; want %q %q", dir, n, v, ok, want[0], want[1])
		}
	}
	for _, bad := range []string{"serde", "serde-1.0", "serde-01.0.0", "-1.0.0", "1.0.0", "serde1.0.0", "se rde-1.0.0", "x-1.0.0.tmp", ".cache-1.0.0", "serde-v1.0.0"} {
		if n, v, ok := SplitDirName(bad); ok {
			t.Errorf("SplitDirName(%q) = %q %q, want not ok", bad, n, v)
		}
	}
}

// FuzzParseIndexFile checks that index parsing never panics and keeps only entries with a name,
// a checksum and a semantic version.
func FuzzParseIndexFile(f *testing.F) {
	f.Add([]byte(`{"name":"foo","vers":"1.0.0","cksum":"aa","yanked":false}` + "\n" + `{"name":"foo","vers":"1.0.1","cksum":"bb","pubtime":"2025-01-01T00:00:00Z"}`))
	f.Add([]byte("\n\n{}\n{\"name\":1}\n[1,2]\nnull\n"))
	f.Add([]byte(`{"name":"x","vers":"1.0.0-` + strings.Repeat("a.", 1000) + `","cksum":"c"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, skipped := ParseIndexFile(data)
		if skipped < 0 || len(entries) > len(data) {
			t.Fatalf("%d entries, %d skipped from %d bytes", len(entries), skipped, len(data))
		}
		for _, e := range entries {
			if e.Name == "" || e.Cksum == "" {
				t.Fatalf("entry without name or checksum: %+v", e)
			}
			_, _ = resolveEntries(entries, e.Vers)
			_ = e.published()
		}
		if len(entries) > 0 {
			_, _ = resolveEntries(entries, "")
			_, _ = resolveEntries(entries, "^1, <2")
		}
	})
}

// FuzzSplitDirName checks that directory-name parsing never panics and that what it accepts
// round-trips.
func FuzzSplitDirName(f *testing.F) {
	for _, s := range []string{"serde-1.0.200", "md-5-0.10.6", "foo-1.0.0-rc.1", "x-.", "-", "a-1.", "a-1.2.3-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dir string) {
		n, v, ok := SplitDirName(dir)
		if ok && n+"-"+v != dir {
			t.Fatalf("SplitDirName(%q) = %q, %q", dir, n, v)
		}
	})
}
