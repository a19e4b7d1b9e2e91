package rst

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestGolden parses the reStructuredText long descriptions of real distributions
// (testdata/SOURCES.md) and compares with testdata/golden/*.json; -update rewrites them.
func TestGolden(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "in", "*.rst"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".rst")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			doc := Parse("README.rst", docidx.DocReadme, src)
			got, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			goldenPath := filepath.Join("testdata", "golden", name+".json")
			golden.Check(t, goldenPath, got)
		})
	}
}

// TestRealSpotChecks pins facts about the real inputs.
func TestRealSpotChecks(t *testing.T) {
	parse := func(name string) docidx.Document {
		src, err := os.ReadFile(filepath.Join("testdata", "in", name+".rst"))
		if err != nil {
			t.Fatal(err)
		}
		return Parse("README.rst", docidx.DocReadme, src)
	}
	sec := func(d docidx.Document, heading ...string) *docidx.Section {
		for i := range d.Sections {
			if strings.Join(d.Sections[i].Heading, "/") == strings.Join(heading, "/") {
				return &d.Sections[i]
			}
		}
		return nil
	}

	js := parse("jsonschema")
	if js.Title != "jsonschema" || !strings.HasPrefix(js.Summary, "jsonschema is an implementation of the JSON Schema specification") {
		t.Errorf("jsonschema title/summary = %q / %q", js.Title, js.Summary)
	}
	top := sec(js, "jsonschema")
	if top == nil || strings.Contains(top.Text, "|PyPI|") || strings.Contains(top.Text, "image::") || len(top.Code) != 1 || top.Code[0].Lang != "python" {
		t.Fatalf("jsonschema lead section: %+v", top)
	}
	if s := sec(js, "jsonschema", "Installation", "Extras"); s == nil || s.Anchor != "extras" || s.Code[0].Code != "$ pip install jsonschema'[format]'\n" {
		t.Errorf("Extras (a deeper level by style order) = %+v", s)
	}

	sc := parse("sortedcontainers")
	if sc.Title != "Python Sorted Containers" {
		t.Errorf("overline and underline of different lengths still make a title: %q", sc.Title)
	}
	if s := sec(sc, "Python Sorted Containers", "Quickstart"); s == nil || len(s.Code) != 2 || s.Code[0].Lang != "console" {
		t.Errorf("Quickstart literal blocks = %+v", s)
	}

	wr := parse("wrapt")
	if s := sec(wr, "wrapt", "Installation"); s == nil || !strings.Contains(s.Text, "Install from PyPI using pip:\n\n```\npip install wrapt\n```") {
		t.Errorf("wrapt Installation (paragraph ending in ::) = %+v", s)
	}

	idna := parse("idna")
	if s := sec(idna, "Internationalized Domain Names in Applications (IDNA)", "Usage", "Compatibility Mapping (UTS #46)"); s == nil || s.Code[0].Lang != "pycon" {
		t.Errorf("idna UTS 46 section = %+v", s)
	}
	if !strings.Contains(idna.Sections[0].Text, "[Internationalized Domain Names in Applications (IDNA)](https://tools.ietf.org/html/rfc5891)") {
		t.Errorf("a hyperlink spanning lines: %q", idna.Sections[0].Text)
	}
}

func TestTitles(t *testing.T) {
	src := `Lead paragraph before any title.

=========
 Project
=========

Intro text.

Usage
=====

Use it.

Details
-------

Deep.

Usage
=====

Again.

ab
==

Short underline with a short title is a title.

Not a title
==

Because the underline is too short.

A paragraph
that goes on
-------------

is not a title either (the underline follows a two-line paragraph).

----

Above was a transition.
`
	d := Parse("README.rst", docidx.DocGuide, []byte(src))
	var got []string
	for _, s := range d.Sections {
		got = append(got, strings.Join(s.Heading, " > ")+" #"+s.Anchor)
	}
	want := []string{
		" #",
		"Project #project",
		"Project > Usage #usage",
		"Project > Usage > Details #details",
		"Project > Usage #usage-1",
		"Project > ab #ab",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A paragraph before the first title: as docutils, no title names the document (pytest's
	// "The pytest framework makes it easy …" before "Features").
	if d.Title != "README" || d.Summary != "Lead paragraph before any title." {
		t.Errorf("title/summary = %q / %q", d.Title, d.Summary)
	}
	last := d.Sections[len(d.Sections)-1]
	if !strings.Contains(last.Text, "Not a title\n==") || strings.Contains(last.Text, "\n\n----\n") || !strings.Contains(last.Plain, "Above was a transition.") {
		t.Errorf("last section = %q", last.Text)
	}
}

func TestBlocks(t *testing.T) {
	src := `Title
=====

A paragraph with ` + "``code``" + `, :func:` + "`~pkg.mod.func`" + `, :class:` + "`Widget <pkg.Widget>`" + `,
*emphasis*, **strong**, ` + "`a link <https://example.test/>`_" + `, a reference_ and
` + "`interpreted`" + ` text, :pep:` + "`8`" + `, a footnote [1]_ and |sub|.

.. |sub| replace:: a *substitution*
.. |badge| image:: https://img.shields.io/badge.svg
.. _reference: https://example.test/ref
.. a comment
   spanning lines

|badge| |badge|

Install it::

    pip install thing

Expanded form ::

    two

::

    three

.. code-block:: python
   :linenos:

   import thing
   thing.run()

>>> thing.add(1, 2)
3

* item one
* item two
  continued

  - nested
    item

#. first
#. second

.. note:: Be careful.

   Really.

.. versionadded:: 2.0
   The *run* function.

.. deprecated:: 3.0

.. image:: logo.png
   :alt: logo

.. toctree::

   api

term
    Its definition.

:Author: Someone
:License: MIT

+--------+-------+
| Name   | Value |
+========+=======+
| a      | 1     |
+--------+-------+
| b      | 2     |
+--------+-------+

=====  =====
Col A  Col B
=====  =====
x      y
=====  =====

| line one
| line two

.. rubric:: A Rubric

.. function:: run(x, y=1)

   Runs.

    An indented block quote.
`
	d := Parse("doc.rst", docidx.DocGuide, []byte(src))
	if len(d.Sections) != 1 {
		t.Fatalf("%d sections", len(d.Sections))
	}
	s := d.Sections[0]
	for _, want := range []string{
		"A paragraph with `code`, `func`, `Widget`,\n*emphasis*, **strong**, [a link](https://example.test/), a reference and\n`interpreted` text, PEP 8, a footnote and a *substitution*.",
		"Install it:\n\n```\npip install thing\n```",
		"Expanded form\n\n```\ntwo\n```",
		"```\nthree\n```",
		"```python\nimport thing\nthing.run()\n```",
		"```pycon\n>>> thing.add(1, 2)\n3\n```",
		"- item one\n- item two\n  continued\n\n  - nested\n    item\n\n1. first\n1. second",
		"> **Note:** Be careful.\n>\n> Really.",
		"> **New in version 2.0:** The *run* function.",
		"> **Deprecated since version 3.0**",
		"**term**\n\nIts definition.",
		"**Author:** Someone\n\n**License:** MIT",
		"| Name | Value |\n| --- | --- |\n| a | 1 |\n| b | 2 |",
		"| Col A | Col B |\n| --- | --- |\n| x | y |",
		"line one  \nline two",
		"**A Rubric**",
		"`run(x, y=1)`\n\nRuns.",
		"An indented block quote.",
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("text lacks %q\n--- text:\n%s", want, s.Text)
		}
	}
	for _, bad := range []string{"|badge|", "logo.png", "toctree", "a comment", "linenos", "_reference", "[1]_"} {
		if strings.Contains(s.Text, bad) {
			t.Errorf("text keeps %q", bad)
		}
	}
	var langs []string
	for _, c := range s.Code {
		langs = append(langs, c.Lang)
	}
	if strings.Join(langs, ",") != ",,,python,pycon" {
		t.Errorf("code langs = %v", langs)
	}
	for _, want := range []string{
		"A paragraph with code, func, Widget, emphasis, strong, a link, a reference and interpreted text, PEP 8, a footnote and a substitution.",
		"Note: Be careful.", "Really.", "Author: Someone", "Name | Value", "a | 1", "Col A | Col B", "line one line two", "run(x, y=1)",
	} {
		if !strings.Contains(s.Plain, want) {
			t.Errorf("plain lacks %q\n--- plain:\n%s", want, s.Plain)
		}
	}
	if strings.Contains(s.Plain, "pip install thing") {
		t.Error("plain text carries code")
	}
}

func TestReadmeFilter(t *testing.T) {
	src := "Thing\n=====\n\nDoes things.\n\nInstallation\n------------\n\n::\n\n  pip install thing\n\nContributing\n------------\n\nSend patches.\n\n" +
		// A security policy goes, with what is under it; the package's own security options stay.
		"Security\n--------\n\nReport vulnerabilities to the maintainers.\n\nVersions\n~~~~~~~~\n\nThe latest.\n\n" +
		"Notes\n-----\n\nSecurity\n~~~~~~~~\n\n``strict_keys`` limits map keys to strings.\n\nLicense\n-------\n\nMIT.\n"
	d := Parse("README.rst", docidx.DocReadme, []byte(src))
	var heads []string
	for _, s := range d.Sections {
		heads = append(heads, strings.Join(s.Heading, "/"))
	}
	if strings.Join(heads, ",") != "Thing,Thing/Installation,Thing/Notes/Security" {
		t.Errorf("kept %v", heads)
	}
	d = Parse("guide.rst", docidx.DocGuide, []byte(src))
	if len(d.Sections) != 7 {
		t.Errorf("a guide keeps every section: %d", len(d.Sections))
	}
	if d := Parse("docs/empty.rst", docidx.DocGuide, nil); d.Title != "empty" || len(d.Sections) != 0 {
		t.Errorf("empty = %+v", d)
	}
}

// TestReadmeRelease checks that a README parsed for its version keeps that version's entry of
// its changelog and drops the others, as readme.Keep decides.
func TestReadmeRelease(t *testing.T) {
	src := "bcrypt\n======\n\nHashes passwords.\n\nChangelog\n=========\n\n5.0.0\n-----\n\n" +
		"* ``hashpw`` now raises ``ValueError`` for a password over 72 bytes.\n\n4.3.0\n-----\n\n* Dropped PyPy 3.8.\n"
	var heads []string
	for _, s := range ParseReadme("README.rst", []byte(src), "5.0.0").Sections {
		heads = append(heads, strings.Join(s.Heading, "/"))
	}
	if got := strings.Join(heads, ","); got != "bcrypt,Changelog/5.0.0" {
		t.Errorf("kept %q, want bcrypt and Changelog/5.0.0", got)
	}
}

func TestInline(t *testing.T) {
	for _, tc := range []struct{ in, md, plain string }{
		{"``x = 1``", "`x = 1`", "x = 1"},
		// An undefined substitution (jedi's docstrings use |jedi|) keeps its name.
		{"One feature of |jedi| is this.", "One feature of jedi is this.", "One feature of jedi is this."},
		{"``a`b``", "`` a`b ``", "a`b"},
		{":meth:`Flask.route`", "`Flask.route`", "Flask.route"},
		{":py:class:`~flask.app.Flask`", "`Flask`", "Flask"},
		{":ref:`the guide <guide>`", "the guide", "the guide"},
		{":doc:`/testing`", "/testing", "/testing"},
		{":rfc:`2616`", "RFC 2616", "RFC 2616"},
		{":abbr:`LIFO (last-in, first-out)`", "LIFO", "LIFO"},
		{"`Python <https://python.org>`__", "[Python](https://python.org)", "Python"},
		{"`<https://python.org>`_", "<https://python.org>", "https://python.org"},
		{"`Sphinx`_ and Sphinx_ and Sphinx__", "Sphinx and Sphinx and Sphinx", "Sphinx and Sphinx and Sphinx"},
		{"`text <other_>`_", "text", "text"},
		{"`f`:func:", "`f`", "f"},
		{"2 * 3 * 4", "2 * 3 * 4", "2 * 3 * 4"},
		{"a*b*c", "a*b*c", "a*b*c"},
		{"snake_case_name and __init__", "snake_case_name and __init__", "snake_case_name and __init__"},
		{"https://example.test/a_ b", "https://example.test/a_ b", "https://example.test/a_ b"},
		{"\\*not emphasis\\*", "\\*not emphasis\\*", "*not emphasis*"},
		{"unclosed ``literal and `tick and **bold", "unclosed ``literal and `tick and **bold", "unclosed ``literal and `tick and **bold"},
		{"see [#]_ and [CIT2002]_.", "see and.", "see and."},
		{"(*)", "(*)", "(*)"},
		// Markup stays within its paragraph: the signature line's "*" ends at no "*" below.
		{"functions(*, like=None)\n\nMimics ``like``.\n  \nIt is *not* pure.",
			"functions(*, like=None)\n\nMimics `like`.\n  \nIt is *not* pure.",
			"functions(*, like=None)\n\nMimics like.\n  \nIt is not pure."},
		{"``a\nb``\n", "`a\nb`\n", "a\nb\n"},
	} {
		md, plain := Inline(tc.in)
		if md != tc.md || plain != tc.plain {
			t.Errorf("Inline(%q) = %q, %q; want %q, %q", tc.in, md, plain, tc.md, tc.plain)
		}
	}
}

// TestPathological times hostile inputs against an ordinary document parsed in the same run: no
// input may cost much more than linear time.
func TestPathological(t *testing.T) {
	ordinary, err := os.ReadFile(filepath.Join("testdata", "in", "colorama.rst"))
	if err != nil {
		t.Fatal(err)
	}
	base := bigger(ordinary, 200<<10)
	parse := func(src []byte) { Parse("x.rst", docidx.DocGuide, src) }
	testutil.Linear(t, parse, base, map[string][]byte{
		"backticks":   []byte(strings.Repeat("`a ", 70000)),
		"stars":       []byte(strings.Repeat("*a ", 70000)),
		"literals":    []byte(strings.Repeat("``a ", 50000)),
		"roles":       []byte(strings.Repeat(":x:`a ", 35000)),
		"pipes":       []byte(strings.Repeat("|a ", 70000)),
		"nesting":     []byte(nested(3000)),
		"adornments":  []byte(strings.Repeat("==\nab\n==\n", 20000)),
		"list items":  []byte(strings.Repeat("* ", 100000)),
		"directives":  []byte(strings.Repeat(".. note:: x\n   ", 20000)),
		"table cells": []byte("+" + strings.Repeat("-+", 50000) + "\n|" + strings.Repeat("a|", 50000) + "\n"),
	})
}

func bigger(b []byte, n int) []byte {
	var out []byte
	for len(out) < n {
		out = append(out, b...)
		out = append(out, '\n')
	}
	return out
}

func nested(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i) + "* item\n\n")
	}
	return b.String()
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"jsonschema", "wrapt"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "in", name+".rst")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("T\n=\n\n.. note:: x\n\n   * a\n\n     ::\n\n       code\n\n+--+\n|a |\n+==+\n"))
	f.Add([]byte("==\nT\n==\n\n:f: `x <y>`_ |s|_ [1]_ ``z``\n\n===  ===\na    b\n===  ===\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d := Parse("x.rst", docidx.DocReadme, src)
		if len(d.Sections) > readme.MaxSections {
			t.Fatalf("%d sections", len(d.Sections))
		}
		for _, s := range d.Sections {
			lines := 0
			if s.Plain != "" {
				lines = strings.Count(s.Plain, "\n") + 1
			}
			for _, c := range s.Code {
				if c.At < 1 || c.At > lines+1 {
					t.Fatalf("section %q: code block at %d of %d plain lines", s.Heading, c.At, lines)
				}
			}
		}
		md, plain := Inline(string(src))
		_, _ = md, plain
		if !utf8.Valid(src) {
			return
		}
		if tables := Tables(string(src)); !strings.Contains(string(src), "==") && !strings.Contains(string(src), "+-") && tables != string(src) {
			t.Fatalf("Tables changed a docstring without a border")
		}
	})
}

func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "in", "colorama.rst"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Parse("README.rst", docidx.DocReadme, src)
	}
}

// TestTitleAfterBadges checks that images, their options, substitutions and comments before the
// first title leave it the document's title, and that a paragraph does not.
func TestTitleAfterBadges(t *testing.T) {
	badges := ".. image:: https://example.test/logo.svg\n   :target: https://example.test\n\n|ci| |coverage|\n\n.. comment\n\n"
	if d := Parse("README.rst", docidx.DocReadme, []byte(badges+"Project\n=======\n\nText.\n")); d.Title != "Project" {
		t.Errorf("title after badges = %q, want Project", d.Title)
	}
	if d := Parse("README.rst", docidx.DocReadme, []byte(badges+"The project makes it easy.\n\nFeatures\n--------\n\nMany.\n")); d.Title != "README" {
		t.Errorf("title after a paragraph = %q, want the file name", d.Title)
	}
}

// TestTables checks that a docstring's simple and grid tables become GitHub tables with their
// cells' inline markup converted, at the table's indentation, and that the rest of the
// docstring, reST or not, is left byte for byte.
func TestTables(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"simple", "Types:\n\n==================  =====\nPython              BSON\n==================  =====\nNone                null\n:class:`~a.Int64`   int64\n==================  =====\n\n.. [#x] A note.",
			"Types:\n\n| Python | BSON |\n| --- | --- |\n| None | null |\n| `Int64` | int64 |\n\n.. [#x] A note."},
		{"indented", "Options:\n\n    ====  =====\n    name  value\n    ====  =====\n    a     ``1``\n    ====  =====\n",
			"Options:\n\n    | name | value |\n    | --- | --- |\n    | a | `1` |\n"},
		{"grid", "+------+-------+\n| Code | Means |\n+======+=======+\n| 200  | OK    |\n+------+-------+",
			"| Code | Means |\n| --- | --- |\n| 200 | OK |"},
		{"no table", "Parameters\n----------\nx : int\n    The value, ``x == y``.\n\nExamples\n========\n>>> f(1)", ""},
		{"border after text", "Text\n====  ====\na     b\n====  ====", ""},
	} {
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if got := Tables(tc.in); got != want {
			t.Errorf("%s: Tables =\n%q\nwant\n%q", tc.name, got, want)
		}
	}
}

// A list item is one plain line opened by "- ", and a definition's term, with its classifiers,
// leads its definition's first paragraph, as the Markdown reader writes a list: a passage shows
// an option whole, what it defines included (tqdm's "* disable : bool, optional" with its
// indented definition below).
func TestItemsAndDefinitions(t *testing.T) {
	src := "Title\n=====\n\nParameters\n----------\n\n" +
		"* iterable  : iterable, optional  \n    Iterable to decorate with a progressbar.\n    Leave blank to manage the updates.\n" +
		"* disable  : bool, optional  \n    Whether to disable the bar [default: False].\n\n      More about it.\n\n" +
		"Options\n-------\n\nverbose\n    Print more.\n\n    Second paragraph.\ninit(strip=None):\n    Pass True or False.\nexample\n    Run it::\n\n        go()\n"
	d := Parse("README.rst", docidx.DocReadme, []byte(src))
	want := map[string]string{
		"Parameters": "- iterable (iterable, optional): Iterable to decorate with a progressbar. Leave blank to manage the updates.\n" +
			"- disable (bool, optional): Whether to disable the bar [default: False]. More about it.",
		"Options": "verbose: Print more.\nSecond paragraph.\ninit(strip=None): Pass True or False.\nexample\nRun it:",
	}
	for _, s := range d.Sections {
		if w, ok := want[s.Title()]; ok && s.Plain != w {
			t.Errorf("%s: plain\n%s\nwant\n%s", s.Title(), s.Plain, w)
		}
		if s.Title() == "Parameters" && !strings.Contains(s.Text, "- **disable** (bool, optional)\n") {
			t.Errorf("Parameters: markdown %q lacks the term in bold with its classifiers", s.Text)
		}
		if s.Title() == "Options" && (len(s.Code) != 1 || s.Code[0].At != 6) {
			t.Errorf("Options: code %+v, want go() after the fifth plain line (At 6)", s.Code)
		}
	}
}
