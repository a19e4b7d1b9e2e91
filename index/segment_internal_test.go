package index

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
)

func TestSegmentParts(t *testing.T) {
	sizes := map[string]int{"a": 40, "b": 50, "c": 30, "d": 200, "e": 10}
	for _, c := range []struct {
		keys  []string
		limit int
		want  [][]string
	}{
		{nil, 100, nil},
		{[]string{"a", "b", "c", "d", "e"}, 100, [][]string{{"a", "b"}, {"c"}, {"d"}, {"e"}}},
		{[]string{"a", "b", "c", "e"}, 1000, [][]string{{"a", "b", "c", "e"}}},
		{[]string{"d"}, 100, [][]string{{"d"}}}, // larger than the limit alone
	} {
		if got := segmentParts(c.keys, sizes, c.limit); !reflect.DeepEqual(got, c.want) {
			t.Errorf("segmentParts(%v, %d) = %v, want %v", c.keys, c.limit, got, c.want)
		}
	}
}

// A version that no segment of the snapshot searches is damage, not a version silently missing
// from every search.
func TestVersionWithoutSegment(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "lost", Version: "1.0.0", Description: "a package"}})
	store := filepath.Join(r.Dir(), StoreFile)
	r.Close()
	db, err := bolt.Open(store, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketWhere).Put(versionKey(docidx.Ref{Ecosystem: docidx.NPM, Name: "lost", Version: "1.0.0"}), []byte("seg-000009"))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(filepath.Dir(r.Dir()))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `npm:lost@1.0.0 is searched in segment "seg-000009"`) {
		t.Fatalf("Open: %v, want ErrCorrupt naming the version and segment", err)
	}
}
