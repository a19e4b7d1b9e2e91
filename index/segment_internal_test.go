package index

import (
	"reflect"
	"testing"
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
