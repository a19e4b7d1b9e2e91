package limit

import "testing"

func TestDefault(t *testing.T) {
	for _, tc := range []struct{ in, want int64 }{{0, 7}, {-1, 7}, {3, 3}} {
		v := tc.in
		Default(&v, 7)
		if v != tc.want {
			t.Errorf("Default(%d, 7) = %d, want %d", tc.in, v, tc.want)
		}
	}
}
