package serve

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestCutPage(t *testing.T) {
	units := []string{"# A\n\nshort\n\n", strings.Repeat("line of ten\n", 10), "tail\n", "αβγδεζηθικλμνξοπρστυφχψω\n"}
	for _, budget := range []int{1, 5, 12, 13, 30, 64, 200, 1000} {
		var joined strings.Builder
		p := pos{}
		for pages := 0; ; pages++ {
			if pages > 1000 {
				t.Fatalf("budget %d: no progress", budget)
			}
			if !validPos(units, p) {
				t.Fatalf("budget %d: next position %+v is not valid", budget, p)
			}
			text, first, end, next, more := cutPage(units, p, budget)
			if text == "" {
				t.Fatalf("budget %d: empty page at %+v", budget, p)
			}
			if first != p.unit || end <= first {
				t.Errorf("budget %d: units [%d,%d) from %+v", budget, first, end, p)
			}
			if len(text) > budget && !(p.off == 0 && utf8.RuneCountInString(text) == 1) {
				// Over budget only for a unit cut that had to take one character.
				if strings.Contains(text[:len(text)-1], "\n") || len(text) > utf8.UTFMax {
					t.Errorf("budget %d: page of %d bytes: %q", budget, len(text), text)
				}
			}
			if !utf8.ValidString(text) {
				t.Errorf("budget %d: page cut inside a character: %q", budget, text)
			}
			joined.WriteString(text)
			if !more {
				break
			}
			p = next
		}
		if joined.String() != strings.Join(units, "") {
			t.Errorf("budget %d: pages joined = %q", budget, joined.String())
		}
	}
	// Whole units are never split when they fit a page of their own.
	text, _, end, next, _ := cutPage([]string{"aaaa\n", "bbbbbb\n"}, pos{}, 10)
	if text != "aaaa\n" || end != 1 || next != (pos{1, 0}) {
		t.Errorf("cutPage stopped at %q end %d next %+v; want the first unit only", text, end, next)
	}
}

func FuzzCutPage(f *testing.F) {
	f.Add("a\nb\n", "ccc", 3)
	f.Add("αβγ", "\n\n\n", 1)
	f.Fuzz(func(t *testing.T, a, b string, budget int) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) || budget <= 0 || budget > 1<<16 {
			t.Skip()
		}
		units := []string{a, b, a}
		var joined strings.Builder
		p := pos{}
		for i := 0; ; i++ {
			if i > len(a)*2+len(b)+3 {
				t.Fatal("no progress")
			}
			text, _, _, next, more := cutPage(units, p, budget)
			joined.WriteString(text)
			if !more {
				break
			}
			if !validPos(units, next) {
				t.Fatalf("invalid next %+v", next)
			}
			p = next
		}
		if joined.String() != a+b+a {
			t.Fatalf("joined %q", joined.String())
		}
	})
}

func TestCursorRoundTrip(t *testing.T) {
	h := requestHash(ToolSearch, "q", "golang")
	c := cursor{Tool: ToolSearch, Hash: h, Unit: 7, Byte: 3}
	got, err := decodeCursor(c.encode(), ToolSearch, h)
	if err != nil || got.Unit != 7 || got.Byte != 3 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for _, bad := range []struct{ s, tool, hash string }{
		{c.encode(), ToolSearch, requestHash(ToolSearch, "q", "npm")},
		{c.encode(), ToolGetDoc, h},
		{"!!!", ToolSearch, h},
		{"e30", ToolSearch, h}, // {}
		{cursor{Tool: ToolSearch, Hash: h, Unit: -1}.encode(), ToolSearch, h},
	} {
		_, err := decodeCursor(bad.s, bad.tool, bad.hash)
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("decodeCursor(%q): %v, want -32602", bad.s, err)
		}
	}
	if requestHash("t", "ab", "c") == requestHash("t", "a", "bc") {
		t.Error("requestHash does not separate its arguments")
	}
}

func FuzzDecodeCursor(f *testing.F) {
	h := requestHash(ToolSearch, "q")
	f.Add(cursor{Tool: ToolSearch, Hash: h, Unit: 3}.encode())
	f.Add("")
	f.Add("eyJ2IjoxfQ")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor(s, ToolSearch, h)
		if err == nil && s != "" && (c.Hash != h || c.Tool != ToolSearch || c.Unit < 0 || c.Byte < 0) {
			t.Fatalf("accepted %q as %+v", s, c)
		}
	})
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Go calls f. It returns.":                    "Go calls f.",
		"Use e.g. this one. Then that.":              "Use e.g. this one.",
		"Version v1.2.3 is fine.\n\nMore.":           "Version v1.2.3 is fine.",
		"No period here\n\nSecond paragraph.":        "No period here",
		"  Spaces\n  across\tlines. Next":            "Spaces across lines.",
		"":                                           "",
		"Does it ask? Yes.":                          "Does it ask?",
		"Wraps io.Reader and returns io.EOF at end.": "Wraps io.Reader and returns io.EOF at end.",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFirstSentenceBounded(t *testing.T) {
	got := firstSentence(strings.Repeat("word ", 100))
	if len(got) > maxSynopsis || !strings.HasSuffix(got, "word…") {
		t.Errorf("firstSentence of 500 bytes = %q (%d bytes)", got, len(got))
	}
}

func TestCompactSignature(t *testing.T) {
	for in, want := range map[string]string{
		"func F()":                    "func F()",
		"type T struct {\n\tA int\n}": "type T struct { … }",
		"export interface O {\n  strict?: bool;\n}": "export interface O { … }",
		"const (\n\tA = 1\n\tB = 2\n)":              "const ( …",
	} {
		if got := compactSignature(in); got != want {
			t.Errorf("compactSignature(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"Pool.Go", "Pool.TryGo", "New", "Pool.Close", "DefaultSize"}
	if got := closest("Pool.Gox", names, 3); len(got) == 0 || got[0] != "Pool.Go" {
		t.Errorf("closest(Pool.Gox) = %v", got)
	}
	if got := closest("trygo", names, 3); len(got) == 0 || got[0] != "Pool.TryGo" {
		t.Errorf("closest(trygo) = %v", got)
	}
	if got := closest("zzzzzzzz", names, 3); len(got) != 0 {
		t.Errorf("closest(zzzzzzzz) = %v, want none", got)
	}
}

// TestDrainTimeout checks that EOF is withheld only while a request read is unanswered, and
// at most for the timeout.
func TestDrainTimeout(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	read := func(tr *drainTransport) error {
		_, err := io.ReadAll(tr.Reader)
		return err
	}
	// Unanswered: EOF after the timeout.
	tr := newDrainTransport(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"), io.Discard, 100*time.Millisecond, log)
	start := time.Now()
	if err := read(tr); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("EOF after %v, before the drain timeout", d)
	}

	// Answered (in a batch, with a string ID; a notification and a response from the client
	// need no answer): EOF as soon as the answer is written.
	in := `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n" +
		`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2.0,"method":"ping"}` // no final newline
	tr = newDrainTransport(strings.NewReader(in), io.Discard, time.Minute, log)
	go func() {
		time.Sleep(20 * time.Millisecond)
		tr.Writer.Write([]byte(`[{"jsonrpc":"2.0","id":"a","result":{}}]` + "\n"))
		tr.Writer.Write([]byte(`{"jsonrpc":"2.0","id":2,`))
		tr.Writer.Write([]byte(`"result":{}}` + "\n"))
	}()
	start = time.Now()
	if err := read(tr); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("EOF after %v; the answers were written at once", d)
	}

	// Cancelled requests are not waited for; Close releases a waiting reader.
	tr = newDrainTransport(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`+"\n"), io.Discard, time.Minute, log)
	start = time.Now()
	read(tr)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("waited %v for a cancelled request", d)
	}
	tr = newDrainTransport(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"), io.Discard, time.Minute, log)
	go func() {
		time.Sleep(20 * time.Millisecond)
		tr.Reader.Close()
	}()
	start = time.Now()
	read(tr)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Close did not release the reader (%v)", d)
	}
}

// TestWireIDFastPaths holds idKey and peekMessage's shortcuts to what decoding gives.
func TestWireIDFastPaths(t *testing.T) {
	for _, raw := range []string{`1`, `0`, `-0`, `-7`, `42`, `007`, `1.5`, `1e3`, `123456789012345`, `1234567890123456789`,
		`"a"`, `""`, `"a\"b"`, `"é"`, `"tab\t"`, `"x y"`, `null`, `true`, `{}`, `[1]`, `"unterminated`} {
		gk, gok := idKey(json.RawMessage(raw))
		wk, wok := decodedIDKey(json.RawMessage(raw))
		if gk != wk || gok != wok {
			t.Errorf("idKey(%s) = %q, %v; want %q, %v", raw, gk, gok, wk, wok)
		}
	}
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":"abc","error":{"code":-32602,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":"a\"b","result":{}}`,
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
		`{"jsonrpc":"2.0","id":4,"method":"roots/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`,
		`{"id":5,"jsonrpc":"2.0","result":{}}`,
	} {
		id, method, ok := peekMessage([]byte(line))
		var m wireMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		gk, _ := idKey(id)
		wk, _ := idKey(m.ID)
		if !ok || gk != wk || method != m.Method {
			t.Errorf("peekMessage(%s) = %s, %q, %v; want %s, %q", line, id, method, ok, m.ID, m.Method)
		}
	}
}
