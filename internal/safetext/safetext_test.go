package safetext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// tests hold each character class of the package comment, as package content carries it.
var tests = []struct {
	name, in    string
	text, ctrls string // Text(in), Controls(in)
}{
	{"plain", "Group.Go runs f — «ok» 日本 😀", "Group.Go runs f — «ok» 日本 😀", "Group.Go runs f — «ok» 日本 😀"},
	{"tab and newline", "a\tb\nc", "a\tb\nc", "a\tb\nc"},
	{"CRLF line ends", "a\r\nb\r\n", "a\nb\n", "a\nb\n"},
	{"lone CR", "safe\revil", `safe\revil`, `safe\revil`},
	{"CR CR LF", "a\r\r\n", `a\r` + "\n", `a\r` + "\n"},
	{"ED clear screen", "x\x1b[2Jy", `x\x1b[2Jy`, `x\x1b[2Jy`},
	{"OSC 52 clipboard", "\x1b]52;c;ZXZpbA==\a", `\x1b]52;c;ZXZpbA==\a`, `\x1b]52;c;ZXZpbA==\a`},
	{"OSC 8 link", "\x1b]8;;http://127.0.0.1/\x1b\\here\x1b]8;;\x1b\\", `\x1b]8;;http://127.0.0.1/\x1b\here\x1b]8;;\x1b\`, `\x1b]8;;http://127.0.0.1/\x1b\here\x1b]8;;\x1b\`},
	{"OSC 0 title", "\x1b]0;pwned\x07", `\x1b]0;pwned\a`, `\x1b]0;pwned\a`},
	{"DSR", "\x1b[6n", `\x1b[6n`, `\x1b[6n`},
	{"backspace, NUL, VT, FF", "a\bb\x00\v\f", `a\bb\x00\v\f`, `a\bb\x00\v\f`},
	{"DEL", "a\x7fb", `a\x7fb`, `a\x7fb`},
	{"C1 CSI", "a\u009b2Jb\u0085", `a\u009b2Jb\u0085`, `a\u009b2Jb\u0085`},
	{"byte 0x9b, not UTF-8", "a\x9b2J\xff", `a\x9b2J\xff`, `a\x9b2J\xff`},
	{"bidi override", "if admin \u202e } \u202d {", `if admin \u202e } \u202d {`, "if admin \u202e } \u202d {"},
	{"bidi embeddings and marks", "\u202a\u202b\u202c\u200e\u200f\u061c", `\u202a\u202b\u202c\u200e\u200f\u061c`, "\u202a\u202b\u202c\u200e\u200f\u061c"},
	{"isolates", "\u2066a\u2067b\u2068c\u2069", `\u2066a\u2067b\u2068c\u2069`, "\u2066a\u2067b\u2068c\u2069"},
	{"zero width", "pass\u200bword\u200c\u200d\u2060\u2064\ufeff", `pass\u200bword\u200c\u200d\u2060\u2064\ufeff`, "pass\u200bword\u200c\u200d\u2060\u2064\ufeff"},
	{"line separators", "a\u2028b\u2029", `a\u2028b\u2029`, "a\u2028b\u2029"},
	{"tag characters", "ok\U000E0041\U000E007F", `ok\U000e0041\U000e007f`, `ok\U000e0041\U000e007f`},
	{"neighbours kept", "\u2065\u202f\u0660\u00a0\ue000", "\u2065\u202f\u0660\u00a0\ue000", "\u2065\u202f\u0660\u00a0\ue000"},
}

func TestText(t *testing.T) {
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.text {
			t.Errorf("%s: Text(%q) = %q, want %q", tt.name, tt.in, got, tt.text)
		}
		if got := Controls(tt.in); got != tt.ctrls {
			t.Errorf("%s: Controls(%q) = %q, want %q", tt.name, tt.in, got, tt.ctrls)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, tt := range tests {
		if !utf8.ValidString(tt.in) {
			continue // encoding/json writes U+FFFD for it
		}
		data, err := json.Marshal(map[string]string{"k": tt.in})
		if err != nil {
			t.Fatal(err)
		}
		got := JSON(data)
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil || back["k"] != tt.in {
			t.Errorf("%s: JSON(%s) = %s, decodes to %q (%v), want %q", tt.name, data, got, back["k"], err, tt.in)
		}
		if i := IndexUnsafe(string(got)); i >= 0 {
			t.Errorf("%s: JSON(%s) = %s, which holds %q", tt.name, data, got, got[i:])
		}

		clean, err := JSONControls(data)
		if err != nil {
			t.Fatalf("%s: JSONControls(%s): %v", tt.name, data, err)
		}
		back = nil
		if err := json.Unmarshal(clean, &back); err != nil || back["k"] != tt.ctrls {
			t.Errorf("%s: JSONControls(%s) = %s, decodes to %q (%v), want %q", tt.name, data, clean, back["k"], err, tt.ctrls)
		}
	}
}

func TestJSONControlsUnchanged(t *testing.T) {
	for _, in := range []string{
		`{"a":"plain \t\n \"q\" \\ \u2028 <&>"}`,
		`{"a":"\\u001b is how JSON escapes ESC"}`, // an escaped backslash: no control in the value
		`[1,2.5e3,true,null,{}]`,
	} {
		got, err := JSONControls([]byte(in))
		if err != nil || string(got) != in {
			t.Errorf("JSONControls(%s) = %s, %v; want it unchanged", in, got, err)
		}
	}
	if _, err := JSONControls([]byte(`{"a":"\u001b`)); err == nil {
		t.Errorf("JSONControls of broken JSON: no error")
	}
}

func FuzzText(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, ctrls := Text(s), Controls(s)
		if i := IndexUnsafe(text); i >= 0 {
			t.Fatalf("Text(%q) = %q, which holds %q", s, text, text[i:])
		}
		if i := IndexControl(ctrls); i >= 0 {
			t.Fatalf("Controls(%q) = %q, which holds %q", s, ctrls, ctrls[i:])
		}
		if strings.Count(text, "\n") != strings.Count(s, "\n") || strings.Count(ctrls, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Text or Controls of %q changed its lines: %q, %q", s, text, ctrls)
		}
		data, _ := json.Marshal(s)
		safe := JSON(data)
		var back string
		if err := json.Unmarshal(safe, &back); err != nil || utf8.ValidString(s) && back != s {
			t.Fatalf("JSON(%s) = %s, decodes to %q (%v)", data, safe, back, err)
		}
		if i := IndexUnsafe(string(safe)); i >= 0 {
			t.Fatalf("JSON(%s) = %s, which holds %q", data, safe, safe[i:])
		}
		clean, err := JSONControls(data)
		if err != nil {
			t.Fatalf("JSONControls(%s): %v", data, err)
		}
		back = ""
		if err := json.Unmarshal(clean, &back); err != nil || IndexControl(back) >= 0 {
			t.Fatalf("JSONControls(%s) = %s, decodes to %q (%v)", data, clean, back, err)
		}
	})
}

// FuzzJSONControls checks JSONControls on whole JSON documents: valid JSON stays valid, and
// decodes to the same value with Controls applied to every string (keys included).
func FuzzJSONControls(f *testing.F) {
	for _, s := range []string{`{"a":"\u001b[2J","b":["\r\n",1,null,{"\u009b":"x\u202e"}]}`, `"\\u001b"`, `[true,"\b\f\t"]`, "\"\u0085\x7f\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		if json.Unmarshal(data, &want) != nil {
			return
		}
		clean, err := JSONControls(data)
		if err != nil {
			t.Fatalf("JSONControls(%s): %v", data, err)
		}
		var got any
		if err := json.Unmarshal(clean, &got); err != nil {
			t.Fatalf("JSONControls(%s) = %s, not JSON: %v", data, clean, err)
		}
		if a, b := mustMarshal(t, controlsAll(want)), mustMarshal(t, got); a != b {
			t.Fatalf("JSONControls(%s) = %s, want %s", data, b, a)
		}
	})
}

// controlsAll is v, a decoded JSON value, with Controls applied to every string.
func controlsAll(v any) any {
	switch v := v.(type) {
	case string:
		return Controls(v)
	case []any:
		for i, e := range v {
			v[i] = controlsAll(e)
		}
	case map[string]any:
		m := map[string]any{}
		for k, e := range v {
			m[Controls(k)] = controlsAll(e)
		}
		return m
	}
	return v
}

func mustMarshal(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
