// Package rst splits a reStructuredText document — the long description of most Python
// distributions, and many files under their docs/ — into a docidx.Document: sections by heading,
// each with its text rendered as markdown for display, as plain text for the search index, and
// its code blocks.
//
// It follows the reStructuredText specification
// (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html) as far as splitting and
// indexing need: section titles are lines underlined (or over- and underlined) with one repeated
// punctuation character, and a title's level is the order in which its adornment style first
// appears in the document; literal blocks follow a paragraph ending in "::"; doctest blocks start
// with ">>>"; "code-block", "code" and "sourcecode" directives carry a language; admonitions
// (note, warning, versionadded …) become block quotes; images, substitution definitions,
// hyperlink targets, comments, toctrees and raw blocks are dropped; grid and simple tables become
// GitHub tables; inline markup is converted by Inline. Docutils' error cases are read leniently
// (an overline and underline of different lengths still make a title).
//
// It imports docidx, readme (for the README keep/drop rules, slugs and summaries),
// pypi/internal/pystr (tab expansion) and the standard library only. Parse never fails and never panics.
package rst

import (
	"bytes"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/pypi/internal/pystr"
)

// maxDepth bounds nested blocks (block quotes, list items, directives) converted; deeper content
// is kept as plain paragraphs.
const maxDepth = 12

// Parse turns one reStructuredText file into a Document, the way readme.Parse does for markdown:
// p is its slash path inside the package; for docidx.DocReadme, sections that readme.Keep rejects
// (contributors, license, changelog …) are dropped.
//
// A section runs from a title to the next title of the same or a higher level; its Heading is the
// path of titles from the top and its Anchor the GitHub-style slug of the last one (numbered when
// repeated). Text before the first title is a section with an empty Heading. Section.Text is the
// section's body as markdown (code blocks fenced with their language), Section.Plain the same as
// plain text without code, one line per paragraph, list item or table row, and Section.Code its
// literal, doctest and code-directive blocks. Sections with no text are omitted.
//
// Title is the first title of the top level when it is the first title and no paragraph comes
// before it, else the file name without extension; Summary is
// the first paragraph of prose (badge-only paragraphs and directives skipped) cut by
// readme.Summary. Parse reads at most readme.MaxInput bytes and returns at most
// readme.MaxSections sections.
func Parse(p string, kind docidx.DocKind, src []byte) docidx.Document {
	return parse(p, kind, src, "")
}

// ParseReadme is Parse of a package's README for its version: of the release history the README
// holds, the entries of version and of the release that began its line, with their subsections,
// are kept, the others dropped (readme.Keep).
func ParseReadme(p string, src []byte, version string) docidx.Document {
	return parse(p, docidx.DocReadme, src, version)
}

// parse is Parse and ParseReadme.
func parse(p string, kind docidx.DocKind, src []byte, version string) docidx.Document {
	ls := splitLines(src)
	d := &document{subs: collectSubs(ls)}
	d.split(ls)

	out := docidx.Document{Path: p, Kind: kind, Sections: []docidx.Section{}}
	var (
		sl      slugger
		dropped []string // the path of the last section readme.Keep dropped for its own text
	)
	for _, rs := range d.sections {
		if len(out.Sections) >= readme.MaxSections {
			break
		}
		var anchor string
		if len(rs.path) > 0 {
			anchor = sl.slug(rs.path[len(rs.path)-1])
		}
		var code []docidx.CodeBlock
		c := &conv{doc: d, code: &code}
		c.blocks(rs.lines, 0)
		text := c.markdown()
		if kind == docidx.DocReadme {
			// Keep cannot see the text of the headings above the last: a section under one it
			// dropped for its text (a security policy) is dropped here. Keep(path, "") tells
			// those from sections dropped for a heading, whose subsections Keep judges itself.
			if dropped != nil && len(rs.path) > len(dropped) && slices.Equal(rs.path[:len(dropped)], dropped) {
				continue
			}
			if !readme.Keep(rs.path, text, version) {
				if readme.Keep(rs.path, "", version) {
					dropped = rs.path
				}
				continue
			}
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		out.Sections = append(out.Sections, docidx.Section{
			Heading: rs.path,
			Anchor:  anchor,
			Text:    text,
			Plain:   strings.Join(c.plainLines(), "\n"),
			Code:    code,
		})
	}
	out.Title = d.title
	if out.Title == "" {
		base := path.Base(p)
		out.Title = strings.TrimSuffix(base, path.Ext(base))
	}
	out.Summary = d.summary
	return out
}

// line is one physical line: tabs expanded, its indentation counted and removed, trailing white
// space removed. A blank line has empty text.
type line struct {
	text   string
	indent int
}

// splitLines cuts src into lines (at most readme.MaxInput bytes of it, at a line break).
func splitLines(src []byte) []line {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if len(src) > readme.MaxInput {
		if i := bytes.LastIndexByte(src[:readme.MaxInput], '\n'); i >= 0 {
			src = src[:i+1]
		} else {
			i := readme.MaxInput
			for i > 0 && !utf8.RuneStart(src[i]) {
				i--
			}
			src = src[:i]
		}
	}
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	raw := strings.Split(s, "\n")
	ls := make([]line, 0, len(raw))
	for _, r := range raw {
		if strings.ContainsAny(r, "\t\f\v") {
			r = pystr.ExpandTabs(formFeeds.Replace(r))
		}
		t := strings.TrimLeft(r, " ")
		ls = append(ls, line{text: strings.TrimRight(t, " "), indent: len(r) - len(t)})
	}
	for len(ls) > 0 && ls[len(ls)-1].text == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// formFeeds turns form feeds and vertical tabs into spaces, as docutils' string2lines does before
// it expands tabs.
var formFeeds = strings.NewReplacer("\f", " ", "\v", " ")

// adornmentChars are the characters a section title may be adorned with.
const adornmentChars = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// adornment returns the character of an adornment line (one punctuation character repeated, at
// least twice, starting in column 0), or 0.
func adornment(l line) byte {
	t := l.text
	if l.indent != 0 || len(t) < 2 || strings.IndexByte(adornmentChars, t[0]) < 0 {
		return 0
	}
	for i := 1; i < len(t); i++ {
		if t[i] != t[0] {
			return 0
		}
	}
	return t[0]
}

type rawSection struct {
	path  []string
	lines []line
}

// document holds what is shared by all sections of one file.
type document struct {
	subs     map[string]subst // substitution name -> replacement text (empty for images)
	sections []rawSection
	title    string
	summary  string
}

// split cuts the lines into sections at titles.
func (d *document) split(ls []line) {
	levels := map[string]int{}
	var stack []string
	cur := rawSection{}
	flush := func() {
		if len(cur.path) > 0 || len(cur.lines) > 0 {
			d.sections = append(d.sections, cur)
		}
	}
	prevBlank := true
	// prose: a paragraph came before the first title (not a directive, its options, a
	// substitution or a comment), so no title names the document: pytest's README opens with
	// its logo, badges and "The pytest framework makes it easy …", then "Features".
	prose, titled := false, false
	for i := 0; i < len(ls); {
		if text, style, n := titleAt(ls, i, prevBlank); n > 0 {
			flush()
			_, plain := Inline(text)
			plain = strings.Join(strings.Fields(plain), " ")
			lvl, ok := levels[style]
			if !ok {
				lvl = len(levels) + 1
				levels[style] = lvl
			}
			if lvl-1 < len(stack) {
				stack = stack[:lvl-1]
			}
			p := append(append([]string(nil), stack...), plain)
			stack = p
			if lvl == 1 && !titled && !prose {
				d.title = plain
			}
			titled = true
			cur = rawSection{path: p}
			i += n
			prevBlank = true
			continue
		}
		l := ls[i]
		// A transition (a long adornment line between blank lines) only separates.
		if l.text != "" && adornment(l) != 0 && len(l.text) >= 4 && prevBlank && (i+1 >= len(ls) || ls[i+1].text == "") {
			i++
			continue
		}
		if !titled && l.indent == 0 && l.text != "" && !strings.HasPrefix(l.text, "..") && !strings.HasPrefix(l.text, "|") && !strings.HasPrefix(l.text, ":") {
			prose = true
		}
		cur.lines = append(cur.lines, l)
		prevBlank = l.text == ""
		i++
	}
	flush()
}

// titleAt reports a section title starting at line i: its text, its style (adornment character,
// with "o" prepended for over- and underlined titles) and the lines it spans (0: no title).
func titleAt(ls []line, i int, prevBlank bool) (text, style string, n int) {
	if !prevBlank {
		return "", "", 0
	}
	l := ls[i]
	if c := adornment(l); c != 0 && i+2 < len(ls) {
		mid, under := ls[i+1], ls[i+2]
		if mid.text != "" && adornment(mid) == 0 && adornment(under) == c && !strings.HasPrefix(mid.text, "..") {
			return mid.text, "o" + string(c), 3
		}
	}
	if l.text == "" || l.indent != 0 || i+1 >= len(ls) || adornment(l) != 0 || strings.HasPrefix(l.text, "..") {
		return "", "", 0
	}
	u := ls[i+1]
	c := adornment(u)
	if c == 0 {
		return "", "", 0
	}
	if len(u.text) < 4 && utf8.RuneCountInString(l.text) > len(u.text) {
		return "", "", 0
	}
	// An adornment line followed by text and no matching underline is an overline of a broken
	// title, not this line's underline.
	return l.text, string(c), 2
}

// collectSubs reads the substitution definitions (.. |name| replace:: text, .. |name| image:: …).
func collectSubs(ls []line) map[string]subst {
	subs := map[string]subst{}
	for _, l := range ls {
		t := l.text
		if !strings.HasPrefix(t, ".. |") {
			continue
		}
		end := strings.IndexByte(t[4:], '|')
		if end < 0 {
			continue
		}
		name := strings.Join(strings.Fields(t[4:4+end]), " ")
		rest := strings.TrimSpace(t[4+end+1:])
		if v, ok := strings.CutPrefix(rest, "replace::"); ok {
			md, plain := Inline(strings.TrimSpace(v))
			subs[name] = subst{md, plain}
		} else {
			subs[name] = subst{}
		}
	}
	return subs
}

// outBlock is one converted block of a section.
type outBlock struct {
	md    string
	plain []string
	item  string // a list item's marker kind ("- ", "1. "): joined to a neighbouring item of the same kind by one line break
}

// conv converts the body lines of one section (or of a nested block).
type conv struct {
	doc  *document
	out  []outBlock
	code *[]docidx.CodeBlock
	// before is how many of the section's plain lines come before this conv's own: its code
	// blocks' docidx.CodeBlock.At counts from there.
	before int
}

// child returns a conv for a block nested at the end of c's output so far.
func (c *conv) child() *conv {
	return &conv{doc: c.doc, code: c.code, before: c.before + c.plainCount()}
}

// plainCount is len(c.plainLines()), without building them.
func (c *conv) plainCount() int {
	n := 0
	for _, o := range c.out {
		for _, p := range o.plain {
			if p != "" {
				n++
			}
		}
	}
	return n
}

func (c *conv) markdown() string {
	var b strings.Builder
	for i, o := range c.out {
		if i > 0 {
			if o.item != "" && o.item == c.out[i-1].item {
				b.WriteString("\n")
			} else {
				b.WriteString("\n\n")
			}
		}
		b.WriteString(o.md)
	}
	return b.String()
}

func (c *conv) plainLines() []string {
	var out []string
	for _, o := range c.out {
		for _, p := range o.plain {
			if p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func (c *conv) inline(text string) (string, string) {
	in := &inliner{s: text, subs: c.doc.subs}
	return in.convert()
}

// dedent removes the common indentation of ls (blank lines ignored).
func dedent(ls []line) []line {
	m := -1
	for _, l := range ls {
		if l.text != "" && (m < 0 || l.indent < m) {
			m = l.indent
		}
	}
	if m <= 0 {
		return ls
	}
	out := make([]line, len(ls))
	for i, l := range ls {
		if l.text != "" {
			l.indent -= m
		}
		out[i] = l
	}
	return out
}

// indentedEnd returns the index of the first non-blank line at or after from whose indentation is
// at most base.
func indentedEnd(ls []line, from, base int) int {
	for j := from; j < len(ls); j++ {
		if ls[j].text != "" && ls[j].indent <= base {
			return j
		}
	}
	return len(ls)
}

// codeText joins (dedented) lines into code, keeping relative indentation.
func codeText(ls []line) string {
	ls = dedent(ls)
	for len(ls) > 0 && ls[0].text == "" {
		ls = ls[1:]
	}
	for len(ls) > 0 && ls[len(ls)-1].text == "" {
		ls = ls[:len(ls)-1]
	}
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l.text != "" {
			b.WriteString(strings.Repeat(" ", l.indent))
			b.WriteString(l.text)
		}
	}
	return b.String()
}

func (c *conv) addCode(lang, code string) {
	if strings.TrimSpace(code) == "" {
		return
	}
	// At places the block among the section's plain lines, as the Markdown reader does, so
	// that "Load the local timezone:" is followed by its example, not by the next sentence.
	*c.code = append(*c.code, docidx.CodeBlock{Lang: lang, Code: code + "\n", At: c.before + c.plainCount() + 1})
	fence := "```"
	for strings.Contains(code, fence) {
		fence += "`"
	}
	c.out = append(c.out, outBlock{md: fence + lang + "\n" + code + "\n" + fence})
}

// blocks converts body lines, whose indentation is relative to the enclosing block.
func (c *conv) blocks(ls []line, depth int) {
	if depth > maxDepth {
		c.flat(ls)
		return
	}
	for i := 0; i < len(ls); {
		l := ls[i]
		if l.text == "" {
			i++
			continue
		}
		if l.indent > 0 {
			j := indentedEnd(ls, i, 0)
			c.blocks(dedent(ls[i:j]), depth+1)
			i = j
			continue
		}
		t := l.text
		switch {
		case t == ".." || strings.HasPrefix(t, ".. "):
			j := indentedEnd(ls, i+1, 0)
			c.explicit(ls[i:j], depth)
			i = j
		case strings.HasPrefix(t, ">>>"):
			j := i
			for j < len(ls) && ls[j].text != "" {
				j++
			}
			c.addCode("pycon", codeText(ls[i:j]))
			i = j
		case isGridBorder(t):
			j := i
			for j < len(ls) && ls[j].text != "" && ls[j].indent == 0 && (ls[j].text[0] == '+' || ls[j].text[0] == '|') {
				j++
			}
			c.gridTable(ls[i:j])
			i = j
		case isSimpleBorder(t):
			j := simpleTableEnd(ls, i)
			c.simpleTable(ls[i:j])
			i = j
		default:
			if marker, width, ok := listMarker(t); ok {
				j := i + 1
				for j < len(ls) && (ls[j].text == "" || ls[j].indent >= width) {
					j++
				}
				for j > i+1 && ls[j-1].text == "" {
					j--
				}
				content := append([]line{{text: strings.TrimSpace(t[min(width, len(t)):])}}, shift(ls[i+1:j], width)...)
				c.item(marker, content, depth)
				i = j
				continue
			}
			if name, rest, ok := fieldMarker(t); ok {
				j := indentedEnd(ls, i+1, 0)
				content := append([]line{{text: rest}}, dedent(ls[i+1:j])...)
				c.item("**"+name+":** ", content, depth)
				c.out[len(c.out)-1].item = ""
				i = j
				continue
			}
			if strings.HasPrefix(t, "| ") || t == "|" {
				j := i
				for j < len(ls) && ls[j].indent == 0 && (strings.HasPrefix(ls[j].text, "| ") || ls[j].text == "|") {
					j++
				}
				c.lineBlock(ls[i:j])
				i = j
				continue
			}
			j := i + 1
			for j < len(ls) && ls[j].text != "" && ls[j].indent == 0 {
				j++
			}
			if j == i+1 && j < len(ls) && ls[j].text != "" && ls[j].indent > 0 && !strings.HasSuffix(t, "::") {
				// A definition list item: a term, then its indented definition.
				k := indentedEnd(ls, j, 0)
				c.definition(t, dedent(ls[j:k]), depth)
				i = k
				continue
			}
			literal := c.paragraph(ls[i:j])
			i = j
			if literal {
				k := i
				for k < len(ls) && ls[k].text == "" {
					k++
				}
				if k < len(ls) && ls[k].indent > 0 {
					e := indentedEnd(ls, k, 0)
					code := codeText(ls[k:e])
					c.addCode(literalLang(code), code)
					i = e
				}
			}
		}
	}
}

// shift removes up to n columns of indentation from each line.
func shift(ls []line, n int) []line {
	out := make([]line, len(ls))
	for i, l := range ls {
		if l.text != "" {
			l.indent = max(l.indent-n, 0)
		}
		out[i] = l
	}
	return out
}

// flat keeps deeply nested content as plain paragraphs.
func (c *conv) flat(ls []line) {
	var para []line
	for _, l := range append(ls, line{}) {
		if l.text != "" {
			para = append(para, line{text: l.text})
			continue
		}
		if len(para) > 0 {
			c.paragraph(para)
			para = para[:0]
		}
	}
}

// literalLang guesses the language of a literal block: a Python session, a shell session, or
// nothing.
func literalLang(code string) string {
	switch {
	case strings.HasPrefix(code, ">>>"):
		return "pycon"
	case strings.HasPrefix(code, "$ "):
		return "console"
	}
	return ""
}

// paragraph converts a paragraph and reports whether it ends with "::" (a literal block follows).
func (c *conv) paragraph(ls []line) (literal bool) {
	texts := make([]string, len(ls))
	for i, l := range ls {
		texts[i] = l.text
	}
	text := strings.Join(texts, "\n")
	switch {
	case text == "::":
		return true
	case strings.HasSuffix(text, " ::") || strings.HasSuffix(text, "\n::"):
		text = strings.TrimRight(text[:len(text)-2], " \n")
		literal = true
	case strings.HasSuffix(text, "::"):
		text = text[:len(text)-1]
		literal = true
	}
	md, plain := c.inline(text)
	plain = strings.Join(strings.Fields(plain), " ")
	if strings.TrimSpace(md) == "" {
		// Only substitutions (badges), footnote references or escapes.
		return literal
	}
	c.out = append(c.out, outBlock{md: md, plain: []string{plain}})
	if c.doc.summary == "" && isProse(plain) {
		c.doc.summary = readme.Summary(plain)
	}
	return literal
}

// isProse reports whether plain reads like a sentence: several words and mostly letters.
func isProse(plain string) bool {
	if len(strings.Fields(plain)) < 4 {
		return false
	}
	letters := 0
	for _, r := range plain {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r > 0x7f || r == ' ' {
			letters++
		}
	}
	return letters*10 >= utf8.RuneCountInString(plain)*7
}

// listMarker recognises a bullet ("* ", "- ", "+ ", "• ") or enumerator ("1. ", "#. ", "a) ",
// "(2) ") at the start of t. marker is its markdown form; width is the column the item's text
// starts in.
func listMarker(t string) (marker string, width int, ok bool) {
	if len(t) == 0 {
		return "", 0, false
	}
	spaces := func(from int) (int, bool) {
		if from == len(t) {
			return from + 1, true
		}
		if t[from] != ' ' {
			return 0, false
		}
		n := from
		for n < len(t) && t[n] == ' ' {
			n++
		}
		if n == len(t) {
			return from + 1, true
		}
		return n, true
	}
	switch t[0] {
	case '*', '-', '+':
		if w, ok := spaces(1); ok {
			return "- ", w, true
		}
		return "", 0, false
	}
	for _, b := range []string{"•", "‣", "⁃"} {
		if strings.HasPrefix(t, b) {
			if w, ok := spaces(len(b)); ok {
				return "- ", w, true
			}
		}
	}
	open := 0
	if t[0] == '(' {
		open = 1
	}
	j := open
	for j < len(t) && '0' <= t[j] && t[j] <= '9' && j-open < 9 {
		j++
	}
	num := t[open:j]
	if j == open && j < len(t) && (t[j] == '#' || 'a' <= t[j] && t[j] <= 'z' && j+1 < len(t) && (t[j+1] == '.' || t[j+1] == ')')) {
		j++
	}
	if j == open || j >= len(t) {
		return "", 0, false
	}
	switch {
	case open == 1 && t[j] == ')', open == 0 && (t[j] == '.' || t[j] == ')'):
	default:
		return "", 0, false
	}
	w, ok := spaces(j + 1)
	if !ok || w > len(t) && num == "" {
		return "", 0, false
	}
	if n, err := strconv.Atoi(num); err == nil {
		return strconv.Itoa(n) + ". ", w, true
	}
	return "1. ", w, true
}

// fieldMarker recognises a field list item ":name: text".
func fieldMarker(t string) (name, rest string, ok bool) {
	if len(t) < 3 || t[0] != ':' {
		return "", "", false
	}
	end := strings.Index(t[1:], ":")
	if end <= 0 {
		return "", "", false
	}
	name = t[1 : 1+end]
	after := t[2+end:]
	if strings.ContainsAny(name, "`") || after != "" && after[0] != ' ' {
		return "", "", false
	}
	return name, strings.TrimSpace(after), true
}

// item converts a list item (or field) whose content lines start at column 0, and prefixes its
// first line with marker.
func (c *conv) item(marker string, content []line, depth int) {
	sub := c.child()
	codes := len(*c.code)
	sub.blocks(content, depth+1)
	md := sub.markdown()
	pad := strings.Repeat(" ", utf8.RuneCountInString(marker))
	if strings.HasPrefix(marker, "**") {
		pad = "  "
	}
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		switch {
		case i == 0:
			lines[i] = strings.TrimRight(marker+l, " ")
		case l != "":
			lines[i] = pad + l
		}
	}
	plain := sub.plainLines()
	if strings.HasPrefix(marker, "**") {
		label := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(marker), "**"), ":**")
		if len(plain) > 0 {
			plain[0] = label + ": " + plain[0]
		} else {
			plain = []string{label}
		}
	} else if len(plain) > 0 {
		// A list item is one plain line opened by "- ", its paragraphs joined, as the
		// Markdown reader writes one: a passage then shows an item whole. An item that holds a
		// code block keeps its lines, which the block's place among them counts.
		if len(*c.code) == codes {
			plain = []string{strings.Join(plain, " ")}
		}
		plain[0] = "- " + plain[0]
	}
	kind := "- "
	if marker[0] >= '0' && marker[0] <= '9' {
		kind = "1. "
	}
	c.out = append(c.out, outBlock{md: strings.Join(lines, "\n"), plain: plain, item: kind})
}

// definition converts a definition list item: the term in bold with its classifiers
// ("disable : bool, optional" is disable (bool, optional)), then the definition. In plain text
// the term and the definition's first paragraph are one line, "disable (bool, optional):
// Whether to disable …", so that a passage never shows a definition without what it defines;
// a definition that holds a code block keeps the term on a line of its own, which the block's
// place counts.
func (c *conv) definition(term string, def []line, depth int) {
	parts := strings.Split(term, " : ")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	md, plain := c.inline(parts[0])
	if classes := slices.DeleteFunc(parts[1:], func(s string) bool { return s == "" }); len(classes) > 0 {
		cmd, cplain := c.inline(strings.Join(classes, ", "))
		md += "** (" + cmd + ")"
		plain += " (" + cplain + ")"
	} else {
		md += "**"
	}
	head := len(c.out)
	c.out = append(c.out, outBlock{md: "**" + md, plain: []string{plain}})
	sub := c.child()
	codes := len(*c.code)
	sub.blocks(def, depth+1)
	c.out = append(c.out, sub.out...)
	if len(*c.code) == codes && len(c.out) > head+1 && c.out[head+1].item == "" && len(c.out[head+1].plain) > 0 &&
		!strings.HasPrefix(c.out[head+1].md, "|") { // a paragraph, not a table
		first := &c.out[head+1]
		sep := ": "
		if strings.HasSuffix(plain, ":") {
			sep = " " // "init(strip=None):" is its own lead-in
		}
		first.plain = append([]string{plain + sep + first.plain[0]}, first.plain[1:]...)
		c.out[head].plain = nil
	}
}

func (c *conv) lineBlock(ls []line) {
	var mds, plains []string
	for _, l := range ls {
		t := strings.TrimSpace(strings.TrimPrefix(l.text, "|"))
		md, plain := c.inline(t)
		mds = append(mds, md)
		plains = append(plains, plain)
	}
	c.out = append(c.out, outBlock{md: strings.Join(mds, "  \n"), plain: []string{strings.Join(strings.Fields(strings.Join(plains, " ")), " ")}})
}

// directive parses "name:: argument" (the text after ".. ").
func directive(s string) (name, arg string, ok bool) {
	i := strings.Index(s, "::")
	if i <= 0 {
		return "", "", false
	}
	name = s[:i]
	for j := 0; j < len(name); j++ {
		if !isRoleChar(name[j]) {
			return "", "", false
		}
	}
	rest := s[i+2:]
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	return strings.ToLower(name), strings.TrimSpace(rest), true
}

var (
	codeDirectives = map[string]bool{
		"code-block": true, "code": true, "sourcecode": true, "testcode": true, "doctest": true,
		"ipython": true, "jupyter-execute": true, "parsed-literal": true, "prompt": true,
		"code-cell": true, "testsetup": true, "testoutput": true,
	}
	dropDirectives = map[string]bool{
		"image": true, "figure": true, "raw": true, "toctree": true, "contents": true, "include": true,
		"meta": true, "index": true, "role": true, "default-role": true, "sectnum": true,
		"highlight": true, "currentmodule": true, "module": true, "literalinclude": true,
		"graphviz": true, "uml": true, "mermaid": true, "plot": true, "tabularcolumns": true,
		"spelling": true, "title": true, "header": true, "footer": true, "target-notes": true,
		"todo": true, "todolist": true, "automodule": true, "autoclass": true, "autofunction": true,
		"automethod": true, "autoattribute": true, "autodata": true, "autoexception": true,
		"autosummary": true, "autoprogram": true, "click": true, "argparse": true, "csv-table": true,
		"math": true, "unicode": true, "date": true, "replace": true,
		"program": true, "moduleauthor": true, "sectionauthor": true, "codeauthor": true,
		"youtube": true, "video": true, "embed": true, "badge": true,
	}
	admonitionLabels = map[string]string{
		"note": "Note", "warning": "Warning", "tip": "Tip", "important": "Important", "hint": "Hint",
		"caution": "Caution", "danger": "Danger", "attention": "Attention", "error": "Error",
		"seealso": "See also",
	}
	versionLabels = map[string]string{
		"versionadded": "New in version", "versionchanged": "Changed in version",
		"deprecated": "Deprecated since version", "versionremoved": "Removed in version",
	}
	signatureDirectives = map[string]bool{
		"function": true, "class": true, "method": true, "attribute": true, "data": true,
		"exception": true, "decorator": true, "decoratormethod": true, "staticmethod": true,
		"classmethod": true, "property": true, "type": true, "option": true, "envvar": true,
		"describe": true, "object": true, "cmdoption": true, "setting": true,
	}
)

// explicit converts an explicit markup block (".. " and its indented content).
func (c *conv) explicit(ls []line, depth int) {
	first := strings.TrimSpace(strings.TrimPrefix(ls[0].text, ".."))
	switch {
	case first == "", strings.HasPrefix(first, "_"), strings.HasPrefix(first, "|"), strings.HasPrefix(first, "["):
		// Comment, hyperlink target, substitution definition, footnote or citation.
		return
	}
	name, arg, ok := directive(first)
	if !ok {
		return // a comment
	}
	body := dedent(ls[1:])
	// Options: a field list right after the directive line.
	k := 0
	for k < len(body) && body[k].text != "" && strings.HasPrefix(body[k].text, ":") && body[k].indent == 0 {
		k++
	}
	content := body[k:]
	short := name[strings.LastIndexByte(name, ':')+1:] // "py:function" -> "function"
	switch {
	case codeDirectives[short]:
		lang := ""
		if f := strings.Fields(arg); len(f) > 0 {
			lang = strings.ToLower(f[0])
		}
		switch short {
		case "doctest":
			lang = "pycon"
		case "testcode", "testsetup":
			lang = "python"
		case "ipython":
			lang = "ipython"
		}
		c.addCode(lang, codeText(content))
	case dropDirectives[short]:
	case admonitionLabels[short] != "" || short == "admonition":
		label := admonitionLabels[short]
		if short == "admonition" {
			_, label = c.inline(arg)
			arg = ""
		}
		c.admonition(label, prepend(arg, content), depth)
	case versionLabels[short] != "":
		version, rest, _ := strings.Cut(arg, " ")
		c.admonition(versionLabels[short]+" "+version, prepend(strings.TrimSpace(rest), content), depth)
	case short == "rubric" || short == "topic" || short == "sidebar":
		if arg != "" {
			md, plain := c.inline(arg)
			c.out = append(c.out, outBlock{md: "**" + md + "**", plain: []string{plain}})
		}
		c.sub(content, depth)
	case signatureDirectives[short]:
		if arg != "" {
			for _, sig := range strings.Split(arg, "\n") {
				c.out = append(c.out, outBlock{md: "`" + sig + "`", plain: []string{sig}, item: "sig"})
			}
		}
		c.sub(content, depth)
	default:
		c.sub(content, depth)
	}
}

func (c *conv) sub(content []line, depth int) {
	if depth >= maxDepth {
		c.flat(content)
		return
	}
	c.blocks(dedent(content), depth+1)
}

// prepend puts the directive argument (text on the directive line) before its content.
func prepend(arg string, content []line) []line {
	if arg == "" {
		return content
	}
	return append([]line{{text: arg}}, content...)
}

// admonition converts a note, warning, versionadded … into a block quote led by its label.
func (c *conv) admonition(label string, content []line, depth int) {
	sub := c.child()
	if depth < maxDepth {
		sub.blocks(dedent(content), depth+1)
	} else {
		sub.flat(content)
	}
	md := sub.markdown()
	lines := strings.Split(md, "\n")
	var b strings.Builder
	head := "**" + label + ":**"
	if md == "" {
		head = "**" + label + "**"
	}
	if md == "" || strings.HasPrefix(lines[0], "```") || strings.HasPrefix(lines[0], "- ") || strings.HasPrefix(lines[0], "|") {
		b.WriteString("> " + head)
		if md != "" {
			b.WriteString("\n>")
		}
	} else {
		b.WriteString("> " + head + " " + lines[0])
		lines = lines[1:]
	}
	if md != "" {
		for _, l := range lines {
			if l == "" {
				b.WriteString("\n>")
			} else {
				b.WriteString("\n> " + l)
			}
		}
	}
	plain := sub.plainLines()
	if len(plain) > 0 {
		plain[0] = label + ": " + plain[0]
	} else {
		plain = []string{label}
	}
	c.out = append(c.out, outBlock{md: b.String(), plain: plain})
}

// Tables returns doc, a docstring cleaned as inspect.cleandoc does, with its simple and grid
// tables written as GitHub tables, as Parse writes those of a README, and the rest of doc as it
// is: a docstring is not a reST document (Google and NumPy sections, markdown), so only its
// tables, whose column layout nothing else reads, are converted. A table starts at a border line
// after a blank line (or the start) and is read at its border's indentation. Its cells have their
// inline markup converted (Inline), as Parse converts a README's.
func Tables(doc string) string {
	if !strings.Contains(doc, "==") && !strings.Contains(doc, "+-") {
		return doc
	}
	raw := strings.Split(doc, "\n")
	var b strings.Builder
	changed := false
	for i := 0; i < len(raw); {
		r := raw[i]
		t := strings.TrimSpace(r)
		ind := len(r) - len(strings.TrimLeft(r, " "))
		grid, simple := isGridBorder(t), isSimpleBorder(t)
		if (!grid && !simple) || i > 0 && strings.TrimSpace(raw[i-1]) != "" || strings.ContainsRune(r[:ind], '\t') {
			b.WriteString(r)
			if i+1 < len(raw) {
				b.WriteByte('\n')
			}
			i++
			continue
		}
		// The table's lines, at its border's indentation.
		var ls []line
		j := i
		for ; j < len(raw); j++ {
			l := raw[j]
			lt := strings.TrimLeft(l, " ")
			li := len(l) - len(lt)
			if lt != "" && li < ind {
				break
			}
			if lt == "" {
				ls = append(ls, line{})
			} else {
				ls = append(ls, line{text: strings.TrimRight(lt, " "), indent: li - ind})
			}
		}
		c := &conv{doc: &document{}}
		var n int
		if grid {
			for n < len(ls) && ls[n].text != "" && ls[n].indent == 0 && (ls[n].text[0] == '+' || ls[n].text[0] == '|') {
				n++
			}
			c.gridTable(ls[:n])
		} else {
			n = simpleTableEnd(ls, 0)
			c.simpleTable(ls[:n])
		}
		if len(c.out) != 1 || n < 3 {
			b.WriteString(r)
			if i+1 < len(raw) {
				b.WriteByte('\n')
			}
			i++
			continue
		}
		pad := strings.Repeat(" ", ind)
		for k, row := range strings.Split(c.out[0].md, "\n") {
			if k > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(pad + row)
		}
		if i+n < len(raw) {
			b.WriteByte('\n')
		}
		i += n
		changed = true
	}
	if !changed {
		return doc
	}
	return b.String()
}

// isGridBorder reports whether t is a grid table border: "+---+----+" or "+===+".
func isGridBorder(t string) bool {
	if len(t) < 3 || t[0] != '+' || t[len(t)-1] != '+' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if c := t[i]; c != '-' && c != '=' && c != '+' {
			return false
		}
	}
	return strings.ContainsAny(t, "-=")
}

// isSimpleBorder reports whether t is a simple table border: runs of "=" separated by spaces,
// at least two columns.
func isSimpleBorder(t string) bool {
	if len(t) < 3 || t[0] != '=' {
		return false
	}
	cols, prevSpace := 1, false
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '=':
			if prevSpace {
				cols++
			}
			prevSpace = false
		case ' ':
			prevSpace = true
		default:
			return false
		}
	}
	return cols >= 2
}

// simpleTableEnd returns the end of a simple table starting at its top border ls[i]: after the
// border that is followed by a blank line (or the end), or at a blank line after the last row.
func simpleTableEnd(ls []line, i int) int {
	for j := i + 1; j < len(ls); j++ {
		if ls[j].indent == 0 && isSimpleBorder(ls[j].text) && (j+1 >= len(ls) || ls[j+1].text == "") {
			return j + 1
		}
		if j-i > 5000 {
			return j
		}
	}
	return len(ls)
}

// gridTable converts a grid table to a GitHub table. Cells spanning columns or rows are read
// column by column, which keeps their text.
func (c *conv) gridTable(ls []line) {
	if len(ls) == 0 {
		return
	}
	border := ls[0].text
	var cols []int
	for i := 0; i < len(border); i++ {
		if border[i] == '+' {
			cols = append(cols, i)
		}
	}
	if len(cols) < 2 {
		c.flat(ls)
		return
	}
	var rows [][]string
	header := -1
	var cur []string
	flushRow := func() {
		if cur != nil {
			rows = append(rows, cur)
			cur = nil
		}
	}
	for _, l := range ls[1:] {
		t := l.text
		if isGridBorder(t) {
			flushRow()
			if strings.Contains(t, "=") && header < 0 {
				header = len(rows)
			}
			continue
		}
		if cur == nil {
			cur = make([]string, len(cols)-1)
		}
		for k := 0; k+1 < len(cols); k++ {
			a, b := cols[k]+1, cols[k+1]
			if a >= len(t) {
				break
			}
			cell := strings.TrimSpace(strings.Trim(t[a:min(b, len(t))], "|"))
			if cell != "" {
				cur[k] = strings.TrimSpace(cur[k] + " " + cell)
			}
		}
	}
	flushRow()
	c.table(rows, header)
}

// simpleTable converts a simple table to a GitHub table.
func (c *conv) simpleTable(ls []line) {
	border := ls[0].text
	type span struct{ a, b int }
	var spans []span
	for i := 0; i < len(border); {
		if border[i] != '=' {
			i++
			continue
		}
		j := i
		for j < len(border) && border[j] == '=' {
			j++
		}
		spans = append(spans, span{i, j})
		i = j
	}
	var rows [][]string
	header, borders := -1, 1
	for _, l := range ls[1:] {
		t := strings.Repeat(" ", l.indent) + l.text
		if l.text == "" {
			continue
		}
		if isSimpleBorder(l.text) {
			borders++
			if borders == 2 && header < 0 {
				header = len(rows)
			}
			continue
		}
		if strings.Trim(l.text, "- ") == "" {
			continue
		}
		cells := make([]string, len(spans))
		for k, sp := range spans {
			end := len(t)
			if k+1 < len(spans) {
				end = min(spans[k+1].a, len(t))
			}
			if sp.a < len(t) && sp.a < end {
				cells[k] = strings.TrimSpace(t[sp.a:end])
			}
		}
		if cells[0] == "" && len(rows) > 0 {
			for k := range cells {
				if cells[k] != "" {
					rows[len(rows)-1][k] = strings.TrimSpace(rows[len(rows)-1][k] + " " + cells[k])
				}
			}
			continue
		}
		rows = append(rows, cells)
	}
	if borders < 3 {
		header = -1
	}
	c.table(rows, header)
}

// table writes rows as a GitHub table; header is how many rows are headers (-1: none, the first
// row is used).
func (c *conv) table(rows [][]string, header int) {
	if len(rows) == 0 {
		return
	}
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	if n == 0 {
		return
	}
	head := 1
	if header > 0 {
		head = header
	}
	var b strings.Builder
	var plain []string
	writeRow := func(r []string) {
		b.WriteString("|")
		var ps []string
		for k := 0; k < n; k++ {
			cell := ""
			if k < len(r) {
				cell = r[k]
			}
			md, pl := c.inline(cell)
			b.WriteString(" " + strings.ReplaceAll(strings.Join(strings.Fields(md), " "), "|", `\|`) + " |")
			if pl = strings.Join(strings.Fields(pl), " "); pl != "" {
				ps = append(ps, pl)
			}
		}
		b.WriteString("\n")
		if len(ps) > 0 {
			plain = append(plain, strings.Join(ps, " | "))
		}
	}
	// GitHub tables have one header row: join several.
	hr := make([]string, n)
	for _, r := range rows[:min(head, len(rows))] {
		for k := 0; k < n && k < len(r); k++ {
			hr[k] = strings.TrimSpace(hr[k] + " " + r[k])
		}
	}
	writeRow(hr)
	b.WriteString("|" + strings.Repeat(" --- |", n) + "\n")
	for _, r := range rows[min(head, len(rows)):] {
		writeRow(r)
	}
	c.out = append(c.out, outBlock{md: strings.TrimRight(b.String(), "\n"), plain: plain})
}

// slugger numbers repeated anchors as GitHub does ("usage", "usage-1" …).
type slugger struct{ seen map[string]int }

func (s *slugger) slug(heading string) string {
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	base := readme.Slug(heading)
	slug := base
	for {
		if _, taken := s.seen[slug]; !taken {
			break
		}
		s.seen[base]++
		slug = base + "-" + strconv.Itoa(s.seen[base])
	}
	s.seen[slug] = 0
	return slug
}
