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

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello", 9, "hello"},
		{"hello", 3, "hel"},
		{"héllo", 2, "h"}, // é is 2 bytes: cutting at 2 would split it
		{"héllo", 3, "hé"},
		{"日本", 4, "日"},
		{"日本", 2, ""},
		{"\x80\x80x", 2, "\x80\x80"}, // cut before x, which starts a character
		{"\x80\x80", 1, ""},          // no place but 0 to cut at
		{"", 0, ""},
	} {
		if got := Cut(tc.s, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestFill(t *testing.T) {
	type limits struct {
		A int64
		B int
		C int64
	}
	defaults := limits{A: 10, B: 20, C: 30}
	got := Fill(limits{A: 1, B: -1}, defaults)
	if want := (limits{A: 1, B: 20, C: 30}); got != want {
		t.Errorf("Fill = %+v, want %+v", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("Fill of a struct with a string field did not panic")
		}
	}()
	Fill(struct{ S string }{}, struct{ S string }{"x"})
}
