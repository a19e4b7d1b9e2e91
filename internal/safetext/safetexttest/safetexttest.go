// Package safetexttest holds the hostile text that docidx's tests put into package content to
// check each edge (the CLI, MCP, the HTML pages) against safetext's rules.
package safetexttest

import (
	"context"
	"fmt"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/safetext"
)

// Hostile is text a package could carry to drive a terminal or hide what it says, each piece
// after a readable label: ED (clear screen), OSC 52 (write the clipboard), OSC 8 (a link),
// OSC 0 (the window title), DSR (ask the terminal to type an answer), BEL, backspace, a lone
// carriage return, C1 CSI, DEL, a bidi override, isolates, zero-width characters and tag
// characters. Its visible words are "label" and the labels.
const Hostile = "label ED\x1b[2J OSC52\x1b]52;c;cHduZWQ=\a OSC8\x1b]8;;http://127.0.0.1:9/\x1b\\link\x1b]8;;\x1b\\ " +
	"OSC0\x1b]0;pwned\a DSR\x1b[6n BEL\a BS\b CR\rover C1CSI\u009b2J DEL\x7f " +
	"RLO\u202eevil\u202c LRI\u2066x\u2069 ZW\u200b\u200c\u200d\u2060\ufeff TAG\U000E0041\U000E007F end"

// HostileName is a symbol or package name with invisible characters inside it.
const HostileName = "Wid\u202eget\u200b\u2066"

// CheckPeople returns an error naming where text that people are shown holds a character
// safetext.Text would have escaped, or nil.
func CheckPeople(what, text string) error { return found(what, text, safetext.IndexUnsafe(text)) }

// CheckClients returns an error naming where text that an AI client is sent holds a control
// character other than tab and newline, or a tag character, or nil.
func CheckClients(what, text string) error { return found(what, text, safetext.IndexControl(text)) }

// found is the error of CheckPeople and CheckClients for the character at byte i of text (nil
// when i < 0): the character and 40 bytes either side of it.
func found(what, text string, i int) error {
	if i < 0 {
		return nil
	}
	return fmt.Errorf("%s holds %q at byte %d, in %q", what, []rune(text[i:])[0], i, text[max(0, i-40):min(len(text), i+40)])
}

// Package returns the documentation of version (HostileVersions holds both) of an npm package,
// HostilePackage, that carries Hostile (or HostileName) in every field package content reaches:
// metadata, README title, headings, anchors, text and code, a guide's path, symbol names,
// signatures, doc comments and examples.
func Package(version string) *docidx.PackageDocs {
	h, n := Hostile, HostileName
	syms := []docidx.Symbol{
		{Kind: docidx.KindClass, Name: n, QualifiedName: n, Package: HostilePackage, Signature: "export class " + n + " // " + h, Doc: "The class " + h,
			Examples: []docidx.CodeBlock{{Name: "example " + h, Lang: "js", Code: "new " + n + "() // " + h, Output: h}}},
		{Kind: docidx.KindMethod, Name: "run" + n, Parent: n, QualifiedName: n + ".run" + n, Package: HostilePackage, Signature: "run" + n + "(): void", Doc: "run " + h},
		{Kind: docidx.KindFunc, Name: "greet", QualifiedName: "greet", Package: HostilePackage, Signature: "export function greet(name: string): string", Doc: "Greets with " + h},
	}
	if version == HostileVersions[1] {
		syms = append(syms, docidx.Symbol{Kind: docidx.KindFunc, Name: "added" + n, QualifiedName: "added" + n, Package: HostilePackage, Signature: "export function added" + n + "(): void", Doc: "Added " + h})
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: HostilePackage, Version: version, Versions: HostileVersions,
			Description: "hostile description " + h, License: "MIT\x1b]0;pwned\a", Homepage: "http://127.0.0.1:9/\u202e",
			Keywords: []string{"key" + n}, Deprecated: "deprecated " + h},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "hostile " + h, Summary: "The README says " + h,
				Sections: []docidx.Section{
					{Heading: []string{"hostile " + h}, Anchor: "hostile", Text: "The README says " + h, Plain: "The README says label"},
					{Heading: []string{"hostile " + h, "Usage " + h}, Anchor: "usage" + n, Text: "Use it:\n\n```js\ncode(\"" + h + "\")\n```\n", Plain: "Use it label"},
				}},
			{Path: "docs/guide" + n + ".md", Kind: docidx.DocGuide, Title: "Guide " + h,
				Sections: []docidx.Section{{Heading: []string{"Guide " + h}, Anchor: "guide", Text: "The guide says " + h, Plain: "The guide says label"}}},
		},
		Symbols: syms,
	}
}

// HostilePackage is the name of the npm package Package returns.
const HostilePackage = "hostile"

// HostileVersions are the versions of HostilePackage, oldest first; the second has a version
// string that is hostile too.
var HostileVersions = []string{"1.0.0", "2.0.0-\u202e\x1b[2J"}

// Snapshot writes a snapshot holding both versions of HostilePackage into a temporary
// directory of t and returns it open; it is closed when t ends.
func Snapshot(t testing.TB) *index.Reader {
	t.Helper()
	dir := t.TempDir()
	if err := WriteSnapshot(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// WriteSnapshot writes a snapshot holding both versions of HostilePackage into dir, which must
// not exist or be empty.
func WriteSnapshot(ctx context.Context, dir string) error {
	w, err := index.Create(dir)
	if err != nil {
		return err
	}
	for _, v := range HostileVersions {
		if err := w.Put(ctx, Package(v)); err != nil {
			return err
		}
	}
	_, err = w.Commit(ctx)
	return err
}
