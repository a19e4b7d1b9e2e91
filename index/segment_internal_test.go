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

// A crawl's new versions are cut into about equal runs, one per core at least, none over
// maxSegmentDocs and none much under minPartDocs.
func TestBalancedParts(t *testing.T) {
	sizes := map[string]int{"a": 40, "b": 50, "c": 30, "d": 20, "e": 60}
	keys := []string{"a", "b", "c", "d", "e"}
	for _, c := range []struct {
		n    int
		want [][]string
	}{
		{1, [][]string{{"a", "b", "c", "d", "e"}}},
		{2, [][]string{{"a", "b", "c"}, {"d", "e"}}},
		{3, [][]string{{"a", "b"}, {"c", "d"}, {"e"}}},
		{9, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}},
	} {
		if got := balancedParts(keys, sizes, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("balancedParts(%d) = %v, want %v", c.n, got, c.want)
		}
	}
	// A run over maxSegmentDocs is cut again.
	big := map[string]int{"a": maxSegmentDocs, "b": maxSegmentDocs / 2, "c": maxSegmentDocs / 2}
	if got, want := balancedParts([]string{"a", "b", "c"}, big, 1), [][]string{{"a"}, {"b", "c"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("balancedParts over maxSegmentDocs = %v, want %v", got, want)
	}
	for _, c := range []struct{ docs, cores, want int }{
		{0, 2, 1}, {100, 2, 1}, {2 * minPartDocs, 2, 2}, {97_000, 2, 2}, {598_000, 2, 2}, {598_000, 1, 1}, {598_000, 4, 4}, {2*maxSegmentDocs + 1, 2, 4}, {2*maxSegmentDocs + 1, 1, 3}, {3 * minPartDocs, 8, 3},
	} {
		if got := partCount(c.docs, c.cores); got != c.want {
			t.Errorf("partCount(%d, %d) = %d, want %d", c.docs, c.cores, got, c.want)
		}
	}
}
