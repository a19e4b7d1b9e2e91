package rustapi

import "testing"

func TestVisible(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"hidden lines of a Rust block",
			"Make a client.\n\n```\n# use reqwest::Error;\n#\n# async fn run() -> Result<(), Error> {\nlet c = reqwest::Client::new();\n## not hidden\n#![allow(unused)]\n# Ok(())\n# }\n```",
			"Make a client.\n\n```\nlet c = reqwest::Client::new();\n# not hidden\n#![allow(unused)]\n```"},
		{"attributes make a Rust block, shown as rust",
			"```no_run,edition2021\n# fn main() {}\nx();\n```", "```rust\nx();\n```"},
		{"other languages keep their lines",
			"```toml\n# a comment\n[dependencies]\n```\n~~~sh\n# install\n~~~", "```toml\n# a comment\n[dependencies]\n```\n~~~sh\n# install\n~~~"},
		{"link reference definitions",
			"See [rt] and [`Foo`].\n\n[rt]: crate::runtime\n[`Foo`]: crate::Foo \"title\"\n\nMore.",
			"See [rt] and [`Foo`].\n\n\nMore."},
		{"a definition cannot interrupt a paragraph",
			"A line\n[x]: y", "A line\n[x]: y"},
		{"definitions inside code are code",
			"```text\n[x]: y\n```", "```text\n[x]: y\n```"},
		{"a longer fence is closed only by a fence as long",
			"````\n```\n# hidden\n````\n# shown", "````\n```\n````\n# shown"},
	} {
		if got := visible(c.in); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
