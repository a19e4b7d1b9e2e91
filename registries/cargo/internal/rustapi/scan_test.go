package rustapi

import (
	"fmt"
	"strings"
	"testing"
)

// show prints tokens compactly: kind letter and text, e.g. "I:pub I:fn I:f P:( P:)".
func show(toks []token) string {
	var parts []string
	for _, t := range toks {
		k := map[tokKind]string{tEOF: "EOF", tIdent: "I", tLifetime: "L", tLiteral: "S", tPunct: "P", tOuterDoc: "D", tInnerDoc: "M"}[t.kind]
		if t.kind == tEOF {
			parts = append(parts, k)
			continue
		}
		parts = append(parts, k+":"+t.text)
	}
	return strings.Join(parts, " ")
}

func TestTokenize(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"idents and paths", "pub fn f() -> crate::a::B", "I:pub I:fn I:f P:( P:) P:-> I:crate P::: I:a P::: I:B EOF"},
		{"line comments", "a // b\n//// not doc\nc", "I:a I:c EOF"},
		{"outer and inner docs", "/// outer\n//! inner\nx", "D: outer M: inner I:x EOF"},
		{"block docs", "/** outer */ /*! inner */ /**/ /*** no */ x", "D: outer  M: inner  I:x EOF"},
		{"nested block comment", "a /* x /* } */ { */ b", "I:a I:b EOF"},
		{"unterminated comment", "a /* /* */", "I:a EOF"},
		{"strings", `"a\"}" b"{" c"x"`, `S:"a\"}" S:b"{" S:c"x" EOF`},
		{"raw strings", `r"}" r#"a"b}"# br##"x"#"## cr#"y"#`, `S:r"}" S:r#"a"b}"# S:br##"x"#"## S:cr#"y"# EOF`},
		{"raw identifier", "r#type r#match", "I:r#type I:r#match EOF"},
		{"chars and lifetimes", `'a' '\'' 'a 'static '\u{1F600}' 'é' b'{' '}'`, `S:'a' S:'\'' L:'a L:'static S:'\u{1F600}' S:'é' S:b'{' S:'}' EOF`},
		{"lifetime in generics", "<'a, 'b: 'a>", "P:< L:'a P:, L:'b P:: L:'a P:> EOF"},
		{"numbers and ranges", "1..2 1.5e-3f64 0x1F_u8 x.0.1 1.", "S:1 P:.. S:2 S:1.5e-3f64 S:0x1F_u8 I:x P:. S:0.1 S:1. EOF"},
		{"punctuation", "a::<b>=>c..=d...e", "I:a P::: P:< I:b P:> P:=> I:c P:..= I:d P:... I:e EOF"},
		{"attributes", "#![no_std] #[derive(Debug)]", "P:# P:! P:[ I:no_std P:] P:# P:[ I:derive P:( I:Debug P:) P:] EOF"},
		{"shebang", "#!/usr/bin/env run\nfn", "I:fn EOF"},
		{"inner attribute is not a shebang", "#![doc = \"x\"]", `P:# P:! P:[ I:doc P:= S:"x" P:] EOF`},
		{"bom", "\uFEFFfn", "I:fn EOF"},
		{"unicode ident", "fn größe()", "I:fn I:größe P:( P:) EOF"},
		{"unterminated string", `a "b`, `I:a S:"b EOF`},
		{"stray quote", `' `, "P:' EOF"},
		{"escape at the end", `"\`, `S:"\ EOF`},
		{"char escape at the end", `'\`, `S:'\ EOF`},
		{"raw string prefix at the end", `r#`, "I:r P:# EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := show(tokenize(tc.src)); got != tc.want {
				t.Errorf("tokenize(%q)\n got %s\nwant %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestTokenLines(t *testing.T) {
	src := "a\n\"x\ny\"\nb /* c\nd */ e\nr#\"\n\"#\nf\n/// doc\ng"
	var got []string
	for _, tok := range tokenize(src) {
		got = append(got, fmt.Sprintf("%s@%d", tok.text, tok.line))
	}
	want := "a@1 \"x\ny\"@2 b@4 e@5 r#\"\n\"#@6 f@8  doc@9 g@10 @10"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("lines:\n got %q\nwant %q", s, want)
	}
}

func TestTokenGaps(t *testing.T) {
	toks := tokenize("a b\nc/*x*/d(e)")
	type gn struct{ gap, nl bool }
	want := []gn{{false, false}, {true, false}, {true, true}, {true, false}, {false, false}, {false, false}, {false, false}}
	for i, w := range want {
		if g := (gn{toks[i].gap, toks[i].nl}); g != w {
			t.Errorf("token %d %q: gap/nl = %v, want %v", i, toks[i].text, g, w)
		}
	}
}

func TestUnquote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`"a\nb\t\"c\"\\"`, "a\nb\t\"c\"\\"},
		{`"\u{48}\x49"`, "HI"},
		{"\"line \\\n    continued\"", "line continued"},
		{`r"raw \n"`, `raw \n`},
		{`r#"has "quotes""#`, `has "quotes"`},
	} {
		if got, ok := unquote(tc.in); !ok || got != tc.want {
			t.Errorf("unquote(%s) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	for _, bad := range []string{`"`, `r#"x"`, `x`, `'c'`} {
		if _, ok := unquote(bad); ok {
			t.Errorf("unquote(%s) succeeded", bad)
		}
	}
}
