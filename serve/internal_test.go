package serve

import (
	"bytes"
	"context"
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
			if !validPos(textUnits(units), p) {
				t.Fatalf("budget %d: next position %+v is not valid", budget, p)
			}
			text, first, end, next, more := cutPage(textUnits(units), p, budget)
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
	text, _, end, next, _ := cutPage(textUnits{"aaaa\n", "bbbbbb\n"}, pos{}, 10)
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
			text, _, _, next, more := cutPage(textUnits(units), p, budget)
			joined.WriteString(text)
			if !more {
				break
			}
			if !validPos(textUnits(units), next) {
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

// firstSentenceFields is the first implementation of firstSentence, kept as the reference the
// one-pass version is held to.
func firstSentenceFields(doc string) string {
	doc = strings.TrimSpace(doc)
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.Join(strings.Fields(doc), " ")
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(doc) || doc[i+1] == ' ') && !isAbbrevEnd(doc[:i]) {
			doc = doc[:i+1]
			break
		}
	}
	return clip(doc, maxSynopsis)
}

func FuzzFirstSentence(f *testing.F) {
	for _, s := range []string{
		"Go calls f. It returns.", "Use e.g. this one. Then that.", "Version v1.2.3 is fine.\n\nMore.",
		"  Spaces\n  across\tlines. Next", "Does it ask? Yes.", "Ends with etc. and more. Done.",
		"Ünïcode\u00a0spaces\u2003here. Next.", "a. b", ".", ". .", "x !y. z", "Word\n\n\nthree",
		strings.Repeat("word ", 100), strings.Repeat("é", 150) + ". Next.", strings.Repeat("ab ", 66) + "cd. e",
		"Invalid \xff utf-8. Next.", "VS. next. Cf. that.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if got, want := firstSentence(doc), firstSentenceFields(doc); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", doc, got, want)
		}
	})
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
	ctx := context.Background()
	readAll := func(c *stdioConn) error {
		for {
			if _, err := c.Read(ctx); err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	}
	// Unanswered: EOF after the timeout.
	c := newStdioConn(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"), io.Discard, 100*time.Millisecond, log)
	start := time.Now()
	if err := readAll(c); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("EOF after %v, before the drain timeout", d)
	}

	// Answered (in a batch, with a string ID; a notification and a response from the client
	// need no answer): EOF as soon as the answers are written.
	in := `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n" +
		`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2.0,"method":"ping"}` // no final newline
	var out bytes.Buffer
	c = newStdioConn(strings.NewReader(in), &out, time.Minute, log)
	go func() {
		time.Sleep(20 * time.Millisecond)
		a, _ := jsonrpc.MakeID("a")
		two, _ := jsonrpc.MakeID(float64(2))
		c.Write(ctx, &jsonrpc.Response{ID: a, Result: json.RawMessage(`{}`)})
		c.Write(ctx, &jsonrpc.Response{ID: two, Result: json.RawMessage(`{}`)})
	}()
	start = time.Now()
	if err := readAll(c); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("EOF after %v; the answers were written at once", d)
	}
	if want := `[{"jsonrpc":"2.0","id":"a","result":{}}]` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"; out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}

	// Cancelled requests are not waited for; Close releases a waiting reader.
	c = newStdioConn(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`+"\n"), io.Discard, time.Minute, log)
	start = time.Now()
	readAll(c)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("waited %v for a cancelled request", d)
	}
	c = newStdioConn(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"), io.Discard, time.Minute, log)
	go func() {
		time.Sleep(20 * time.Millisecond)
		c.Close()
	}()
	start = time.Now()
	readAll(c)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Close did not release the reader (%v)", d)
	}
}

// TestStdioConnWire holds stdioConn's own decoding and encoding to the SDK's
// (jsonrpc.DecodeMessage, jsonrpc.EncodeMessage).
func TestStdioConnWire(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"a"}}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":""}`,
		`{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no","data":{"a":1}}}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","ID":1,"Method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":7}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"} x`,
		`{"jsonrpc":"2.0","id":1,"method":"pi\u006eg","params":[1,2]}`,
		`[]`, `7`, `"x"`, `{`,
	} {
		want, wantErr := jsonrpc.DecodeMessage([]byte(in))
		got, gotErr := decodeMessage([]byte(in))
		if (wantErr != nil) != (gotErr != nil) {
			t.Errorf("decodeMessage(%s): error %v, the SDK's %v", in, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		w, _ := jsonrpc.EncodeMessage(want)
		g, _ := jsonrpc.EncodeMessage(got)
		if !bytes.Equal(w, g) {
			t.Errorf("decodeMessage(%s) = %s, the SDK's %s", in, g, w)
		}
	}

	id := func(v any) jsonrpc.ID {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	result := json.RawMessage(`{"content":[{"type":"text","text":"a <b> & \"c\" é"}],"structuredContent":{"n":1}}`)
	for _, m := range []jsonrpc.Message{
		&jsonrpc.Response{ID: id(float64(1)), Result: result},
		&jsonrpc.Response{ID: id(float64(-12345678901)), Result: json.RawMessage(`{}`)},
		&jsonrpc.Response{ID: id("abc-1"), Result: result},
		&jsonrpc.Response{ID: id(`a"b`), Result: result},
		&jsonrpc.Response{ID: id("é<&>"), Result: result},
		&jsonrpc.Response{ID: id("x"), Result: json.RawMessage("{\n}")},
		&jsonrpc.Response{ID: id(float64(2)), Error: &jsonrpc.Error{Code: -32602, Message: "bad"}},
		&jsonrpc.Response{ID: id(float64(2)), Error: errors.New("plain")},
		&jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level":"info"}`)},
		&jsonrpc.Request{ID: id(float64(9)), Method: "roots/list"},
	} {
		want, wantErr := jsonrpc.EncodeMessage(m)
		got, gotErr := appendMessage([]byte("prefix"), m)
		if wantErr != nil || gotErr != nil || string(got) != "prefix"+string(want) {
			t.Errorf("appendMessage(%#v) = %s, %v; the SDK's %s, %v", m, got, gotErr, want, wantErr)
		}
	}
}

// FuzzDecodeMessage holds decodeMessage to jsonrpc.DecodeMessage on any single JSON value, the
// frames the stdio connection reads: both accept or both refuse, and what is accepted encodes
// the same. Values nested more than 1,000 deep, which the SDK's decoder refuses outright and the
// SDK refuses again when it decodes the params, are left out.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"a"}}}`,
		`{"jsonrpc":"2.0","id":"abc","result":{}}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"method":""}`, `[1]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || depth(data) > 1000 {
			return
		}
		want, wantErr := jsonrpc.DecodeMessage(data)
		got, gotErr := decodeMessage(data)
		if (wantErr != nil) != (gotErr != nil) {
			t.Fatalf("decodeMessage(%s): error %v, the SDK's %v", data, gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		w, werr := jsonrpc.EncodeMessage(want)
		g, gerr := jsonrpc.EncodeMessage(got)
		if !bytes.Equal(w, g) || (werr != nil) != (gerr != nil) {
			t.Fatalf("decodeMessage(%s) encodes as %s, the SDK's as %s", data, g, w)
		}
		if gerr == nil {
			a, err := appendMessage(nil, got)
			if err != nil || !bytes.Equal(a, g) {
				t.Fatalf("appendMessage(%s) = %s, %v; EncodeMessage gives %s", data, a, err, g)
			}
		}
	})
}

// depth returns how deeply JSON value data nests arrays and objects.
func depth(data []byte) int {
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}
