package rustapi

import (
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"hidden lines of a Rust block",
			"Make a client.\n\n```\n# use reqwest::Error;\n#\n# async fn run() -> Result<(), Error> {\nlet c = reqwest::Client::new();\n## not hidden\n#![allow(unused)]\n# Ok(())\n# }\n```",
			"Make a client.\n\n```rust\nlet c = reqwest::Client::new();\n# not hidden\n#![allow(unused)]\n```"},
		{"attributes make a Rust block, shown as rust",
			"```no_run,edition2021\n# fn main() {}\nx();\n```", "```rust\nx();\n```"},
		{"other languages keep their lines",
			"```toml\n# a comment\n[dependencies]\n```\n~~~sh\n# install\n~~~", "```toml\n# a comment\n[dependencies]\n```\n~~~sh\n# install\n~~~"},
		{"link reference definitions",
			"See [rt] and [`Foo`].\n\n[rt]: crate::runtime\n[`Foo`]: crate::Foo \"title\"\n\nMore.",
			"See [rt] and `Foo`.\n\n\nMore."},
		{"a definition cannot interrupt a paragraph",
			"A line\n[x]: y", "A line\n[x]: y"},
		{"definitions inside code are code",
			"```text\n[x]: y\n```", "```text\n[x]: y\n```"},
		{"a longer fence is closed only by a fence as long",
			"````\n```\n# hidden\n````\n# shown", "````rust\n```\n````\n# shown"},
		{"tildes close only tildes", "~~~~\n# hidden\n```\n# still inside\n~~~~\n# Heading", "~~~~rust\n```\n~~~~\n# Heading"},
		{"an indented fence is code, not a fence", "    ```\n    # indented code\n", "    ```\n    # indented code\n"},
		{"a fence inside a list item counts its indentation from the item's text",
			"  - **Attaching context.**\n\n    Text.\n\n    ```\n    # use anyhow::bail;\n    #\n    helper().context(\"x\")?;\n        # const IGNORE: u8 = 0;\n    ```\n\n1. Two\n   ```\n   # hidden\n   shown();\n   ```\nAfter.\n\n    ```\n    # indented code again\n",
			"  - **Attaching context.**\n\n    Text.\n\n    ```rust\n    helper().context(\"x\")?;\n    ```\n\n1. Two\n   ```rust\n   shown();\n   ```\nAfter.\n\n    ```\n    # indented code again\n"},
		{"a backtick info string with a backtick is not a fence", "``` `x` ```\n# Heading", "``` `x` ```\n# Heading"},
		{"links show their text",
			"See [the runtime][Runtime], [`Handle`], [spawn](crate::task::spawn) and [`Builder::new`][new].",
			"See the runtime, `Handle`, spawn and `Builder::new`."},
		{"code spans a link kept apart are joined",
			"type [`Result`]`<T,`[`Elapsed`]`>`, a `Result<T, `[`RecvError`]`>` and [`Cursor`]`<&[u8]>`; [`a`] [`b`]",
			"type `Result<T,Elapsed>`, a `Result<T, RecvError>` and `Cursor<&[u8]>`; `a` `b`"},
		{"a link to a URL, code and plain brackets stay",
			"Per [RFC 9110](https://example.test/rfc9110), `[u8; 4]` or a slice [T] and [`a`](x y).",
			"Per [RFC 9110](https://example.test/rfc9110), `[u8; 4]` or a slice [T] and [`a`](x y)."},
		{"HTML shows as it renders",
			"<div class=\"warning\">\n\nDo not block.\n\n</div>\n- **[mio]** <code>0.7.0-<b>alpha.1</b></code> &mdash; <b>pre</b>-releases&nbsp;<br/>next",
			"\n\nDo not block.\n\n\n- **[mio]** `0.7.0-alpha.1` — **pre**-releases\u00a0  \nnext"},
		{"generics, code and fenced HTML stay",
			"A `Vec<u8>`, a Vec<T> and `<div>`, &str, &amp and a &amp; b.\n```html\n<div>x</div>\n```",
			"A `Vec<u8>`, a Vec<T> and `<div>`, &str, &amp and a & b.\n```html\n<div>x</div>\n```"},
		{"doctest attributes with a target", "```ignore-wasm32 should_panic\n# hidden\nx\n```", "```rust\nx\n```"},
	} {
		if got := visible(c.in); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// FuzzVisible checks that rewriting untrusted crate docs never panics and never adds a line, and
// that a text without a fence or a bracket is left as it is.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"```\n# x\ny\n```", "~~~ignore\n## a\n", "````\n```\n# b\n````", "   ```\n#\n", "``` `a` ```\n# h", "[a]: b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		out := visible(doc)
		if n, m := strings.Count(doc, "\n"), strings.Count(out, "\n"); m > n {
			t.Errorf("%d lines became %d", n, m)
		}
		if !strings.Contains(doc, "```") && !strings.Contains(doc, "~~~") && !strings.Contains(doc, "[") && out != doc {
			t.Errorf("no fence, yet changed: %q -> %q", doc, out)
		}
	})
}
