package readme

import (
	"bytes"
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Limits that keep pathological inputs cheap.
const (
	// MaxInput is how many bytes of a file Parse reads: 1 MiB. A longer file is cut at the last
	// line break before the limit and the rest ignored.
	MaxInput = 1 << 20
	// MaxSections is the most sections Parse returns for one file; later ones are left out.
	MaxSections = 500
	// MaxSummary is the most bytes of Document.Summary (and of what Summary returns).
	MaxSummary = 300
)

// markdown is safe for concurrent use: each Parse gets its own parser context.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Parse turns one markdown file into a Document: sections split by heading, code blocks, a title
// and a short summary. For docidx.DocReadme it keeps only sections that help a user (install,
// usage, API, examples, configuration …) and drops the rest (badges, contributors, sponsors,
// license text, changelog …; see Keep). p is the file's slash path inside the package.
//
// A section runs from a heading to the next heading of the same or a higher level; its Heading
// is the path of headings from the top (["Usage", "Flags"]) and its Anchor the GitHub slug of
// the last one (see Slug), numbered as GitHub numbers duplicates. The text before the first
// heading is a section with an empty Heading. Section.Text is the markdown source of the
// section's body, code blocks verbatim, without badge paragraphs (paragraphs made only of badge
// images), HTML blocks that show no text (logos, badges, comments), tables of contents (lists of
// links to anchors in the page) and link reference definitions; the definitions that the kept
// text uses are appended at its end, so each section renders on its own. Section.Plain is the
// section as plain text without code blocks, HTML or images, one line per paragraph, list item
// or table row. Section.Code lists its fenced and indented code blocks, with Lang the first word
// of the info string, lowercased. Sections left with no text are omitted.
//
// Title is the text of an HTML <h1> before the first heading (or its image's alt text), else of
// the first level-1 heading (its images' alt text when it shows only a logo) unless prose comes
// before it or every heading is of level 1 (then the headings name sections), else the file
// name without extension
// (a registry titles such a README by its package, see PackageTitle). A heading of another level
// is never the title: it names a section ("Table of contents", "Install"), not the document.
// A YAML front matter title comes first. Summary is the document's
// opening description cut by Summary: the first real paragraph (not badges, images, a line of
// links, an install command or a note/warning callout; a quoted paragraph counts) of the opening
// sections — the lead section, the first section and the first level-1 section, each with the
// chain of subsections right below it — else of an introductory section among the first few ("About",
// "Overview", "What is x?" …), never of a how-to or dropped one; failing that, the first HTML
// <p> of prose there (a centered tagline), else the first HTML <h2>…<h6>, else the part of the title (or of the first
// heading) after a dash or a name and colon ("semver -- The semantic versioner for npm",
// "iconv-lite: Pure JS character …").
//
// Parse reads at most MaxInput bytes of src, returns at most MaxSections sections, never panics
// and is deterministic. A UTF-8 byte order mark is ignored.
func Parse(p string, kind docidx.DocKind, src []byte) docidx.Document {
	return parse(p, kind, src, "")
}

// ParseReadme is Parse of a package's README (kind docidx.DocReadme) for its version: of the
// release history the README holds, the entries of version and of the release that began its
// line, with their subsections, are kept (see Keep), the others dropped. version "" keeps none,
// as Parse does.
func ParseReadme(p string, src []byte, version string) docidx.Document {
	return parse(p, docidx.DocReadme, src, version)
}

// ParseRelease parses a package's release history (a CHANGELOG.md) for version: the document of
// the entry that names version (a heading releaseVersion reads, compared by sameRelease: "##
// [5.0.0] - 2025-09-25", "## v5.0.0", "# 5.0.0 (2025-09-25)") and of the entry of the release that
// began version's line of compatible releases (lineStart: 0.4.0 for 0.4.1, 2.0.0 for 2.3.1),
// with their subsections, titled as the file is and summarized by the first entry's first
// sentence. ok is false when no heading names either. The entry of the version a project pins says
// what changed in it, and the one that began its line what broke ("after upgrading jni-sys, my
// code comparing jboolean to a u8 no longer compiles": 0.4.0's, for 0.4.1); the rest of the history
// is about other releases.
func ParseRelease(p string, src []byte, version string) (d docidx.Document, ok bool) {
	d = parse(p, docidx.DocGuide, src, "")
	kept := d.Sections[:0]
	for _, sec := range d.Sections {
		if slices.ContainsFunc(sec.Heading, func(h string) bool { return namesRelease(h, version) }) {
			kept = append(kept, sec)
		}
	}
	if len(kept) == 0 {
		return docidx.Document{}, false
	}
	d.Sections = kept
	d.Summary = Summary(kept[0].Plain)
	return d, true
}

// parse is Parse, ParseReadme and ParseRelease.
func parse(p string, kind docidx.DocKind, src []byte, version string) docidx.Document {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	src = truncate(src)
	fmTitle, src := frontMatter(src)
	safe := guard(src)
	doc := markdown.Parser().Parse(text.NewReader(safe))
	ps := &parser{src: safe, orig: src, kind: kind, version: version, refs: make(map[string]*ast.LinkReferenceDefinition)}
	ps.collectRefs(doc, 0)

	out := docidx.Document{Path: p, Kind: kind, Sections: []docidx.Section{}}
	ps.split(doc, func(rs *rawSection, index int) bool {
		ps.summarize(rs, index)
		if rs.dropped {
			return true
		}
		if sec, ok := ps.section(rs, index <= 1); ok {
			out.Sections = append(out.Sections, sec)
		}
		return len(out.Sections) < MaxSections
	})
	title, firstHeading := ps.title(doc, p)
	out.Title = title
	if fmTitle != "" {
		out.Title = fmTitle
	}
	out.Summary = ps.summary
	if out.Summary == "" {
		out.Summary = ps.htmlSummary
	}
	if out.Summary == "" {
		out.Summary = ps.htmlSubtitle
	}
	if out.Summary == "" {
		out.Summary = cmp.Or(titleTagline(out.Title), titleTagline(firstHeading))
	}
	return out
}

// maxFrontMatter bounds the YAML front matter block that static site generators (Hugo, Jekyll,
// Docusaurus) put at the top of docs pages.
const maxFrontMatter = 8 << 10

// frontMatter blanks out a leading YAML front matter block ("---" lines around "key: value"
// lines), keeping byte offsets, and returns its title. Without one, src is returned as is.
func frontMatter(src []byte) (title string, out []byte) {
	if !bytes.HasPrefix(src, []byte("---\n")) && !bytes.HasPrefix(src, []byte("---\r\n")) {
		return "", src
	}
	head := src[:min(len(src), maxFrontMatter)]
	end := -1
	for i := bytes.IndexByte(head, '\n') + 1; i > 0 && i < len(head); {
		line, _, _ := bytes.Cut(head[i:], []byte("\n"))
		if string(bytes.TrimRight(line, "\r")) == "---" {
			end = i + len(line)
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && string(bytes.TrimSpace(k)) == "title" && title == "" {
			title = strings.Trim(strings.TrimSpace(string(v)), `"'`)
		}
		next := bytes.IndexByte(head[i:], '\n')
		if next < 0 {
			break
		}
		i += next + 1
	}
	if end < 0 {
		return "", src
	}
	out = bytes.Clone(src)
	for i := 0; i < end; i++ {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	return title, out
}

// truncate cuts src to at most MaxInput bytes, at a line break when there is one, else at a
// rune boundary.
func truncate(src []byte) []byte {
	if len(src) <= MaxInput {
		return src
	}
	if i := bytes.LastIndexByte(src[:MaxInput], '\n'); i >= 0 {
		return src[:i+1]
	}
	i := MaxInput
	for i > 0 && !utf8.RuneStart(src[i]) {
		i--
	}
	return src[:i]
}

type parser struct {
	src          []byte // what goldmark parsed: the input after guard
	orig         []byte // the input, the same length as src; Section.Text is sliced from it
	kind         docidx.DocKind
	version      string                                  // a README's package version (ParseReadme), or ""
	refs         map[string]*ast.LinkReferenceDefinition // by normalized label; the first definition wins
	summary      string
	htmlSummary  string // the first HTML <p> of prose among the summary's candidate sections
	htmlSubtitle string // the first HTML <h2>…<h6> of prose there
	// The opening sections, where the summary is looked for: the first section and the first
	// level-1 section, each with the subsections that follow it.
	openLevel int  // level of the last opening section; 0 before one, -1 after the last
	openNext  int  // index a subsection must have to be opening too: the next one
	seenH1    bool // the first level-1 section was seen
	openHowTo int  // level of the opening how-to section whose chain is being read, or 0
}

// block is one top-level block and the source it spans: from the start of its first line to the
// start of the next block, so that the blank lines, closing fences and the like belong to it.
type block struct {
	node       ast.Node
	start, end int
}

// rawSection is a section before filtering.
type rawSection struct {
	path    []string // nil for the lead section
	title   string   // the heading's text; "" for the lead section
	level   int      // the heading's level; 0 for the lead section
	anchor  string
	dropped bool
	howTo   bool // the heading or one above it names a how-to section; see howTo
	blocks  []block
}

// collectRefs indexes the link reference definitions under n, so that a section can carry the
// definitions its links use wherever in the file they are.
func (ps *parser) collectRefs(n ast.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if d, ok := c.(*ast.LinkReferenceDefinition); ok {
			label := util.ToLinkReference(d.Label)
			if _, dup := ps.refs[label]; !dup {
				ps.refs[label] = d
			}
			continue
		}
		if c.Type() == ast.TypeBlock && c.HasChildren() {
			ps.collectRefs(c, depth+1)
		}
	}
}

// blocks returns the top-level blocks of doc with the source ranges they span.
func (ps *parser) blocks(doc ast.Node) []block {
	var bs []block
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		bs = append(bs, block{node: n, start: ps.startOf(n)})
	}
	// A block whose position is unknown gets an empty range at the start of the next one.
	next := len(ps.src)
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].start < 0 {
			bs[i].start = next
		}
		next = bs[i].start
	}
	prev := 0
	for i := range bs {
		bs[i].start = max(bs[i].start, prev)
		prev = bs[i].start
	}
	for i := range bs {
		if i+1 < len(bs) {
			bs[i].end = bs[i+1].start
		} else {
			bs[i].end = len(ps.src)
		}
	}
	return bs
}

// startOf returns the offset of the start of the line on which block n begins, or -1.
func (ps *parser) startOf(n ast.Node) int {
	p := firstPos(n, 0)
	if p < 0 || p > len(ps.src) {
		return -1
	}
	for p > 0 && ps.src[p-1] != '\n' {
		p--
	}
	return p
}

func firstPos(n ast.Node, depth int) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if t, ok := n.(*ast.Text); ok {
		return t.Segment.Start
	}
	if depth > maxDepth {
		return -1
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := firstPos(c, depth+1); p >= 0 {
			return p
		}
	}
	return -1
}

// split cuts the document into sections at its top-level headings, decides which ones a
// README drops, and hands each one to emit in order with its index (0 is the lead section),
// until emit returns false.
func (ps *parser) split(doc ast.Node, emit func(rs *rawSection, index int) bool) {
	type frame struct {
		level  int
		title  string
		drop   bool // dropped, and so are its subsections
		toc    bool // a table of contents: dropped itself, left out of its subsections' paths
		howTo  bool // this or a heading above it names a how-to section
		policy bool // its own text, read by the next heading, decides whether it is dropped
	}
	var (
		stack []frame
		slugs slugger
		cur   rawSection // the lead section first
		index int
	)
	// judge drops cur, the section of the top frame, when its heading is judged by its own
	// text and that text is a security policy; its subsections go with it.
	judge := func() {
		if n := len(stack); n > 0 && stack[n-1].policy && !cur.dropped && policyText(ps.text(cur.blocks)) {
			cur.dropped, stack[n-1].drop = true, true
		}
	}
	for _, b := range ps.blocks(doc) {
		h, ok := b.node.(*ast.Heading)
		if !ok {
			cur.blocks = append(cur.blocks, b)
			continue
		}
		judge()
		if !emit(&cur, index) {
			return
		}
		index++
		title := headingText(h, ps.src)
		for len(stack) > 0 && stack[len(stack)-1].level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		var parent frame
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		f := frame{level: h.Level, title: title, howTo: parent.howTo || howTo(title)}
		if ps.kind == docidx.DocReadme {
			c := classify(title, parent.howTo)
			f.drop = c == drop || parent.drop
			f.toc = c == toc
			f.policy = c == policy
			// The release entry of the version indexed is kept, under its history heading
			// too, and so are its subsections (Keep).
			if (len(stack) == 0 || historyHeading(parent.title)) && namesRelease(title, ps.version) {
				f.drop = false
			}
		}
		stack = append(stack, f)
		cur = rawSection{
			title:   title,
			level:   h.Level,
			anchor:  slugs.slug(title),
			dropped: f.drop || f.toc,
			howTo:   f.howTo,
			blocks:  cur.blocks[:0],
		}
		if !cur.dropped {
			cur.path = make([]string, 0, len(stack))
			for _, f := range stack {
				if !f.toc {
					cur.path = append(cur.path, f.title)
				}
			}
		}
	}
	judge()
	emit(&cur, index)
}

// text returns the source of blocks, in order.
func (ps *parser) text(blocks []block) string {
	var b strings.Builder
	for _, bl := range blocks {
		b.Write(ps.src[bl.start:bl.end])
	}
	return b.String()
}

// headingText returns a heading's text, or the alt text of its images when it has none.
func headingText(h *ast.Heading, src []byte) string {
	var b strings.Builder
	inlineText(&b, h, src, true, 0)
	if t := withoutAttributes(collapse(b.String())); t != "" {
		return t
	}
	b.Reset()
	imageAlt(&b, h, src, 0)
	return collapse(b.String())
}

// withoutAttributes returns heading text t without the attribute list that MkDocs, Pandoc and
// Doxygen let a heading end with ("Use in Go {#flatbuffers_guide_use_go}", "Setup {.tabs}"):
// markup, not words of the heading. A heading that is nothing but braces keeps them.
func withoutAttributes(t string) string {
	if !strings.HasSuffix(t, "}") {
		return t
	}
	i := strings.LastIndex(t, "{")
	if i <= 0 || i+1 >= len(t) || !strings.ContainsRune("#.", rune(t[i+1])) || strings.ContainsAny(t[i+1:len(t)-1], "{}") {
		return t
	}
	return strings.TrimRight(t[:i], " ")
}

// title picks the document title (see Parse) and returns the text of the first heading that
// has some, whatever its level.
func (ps *parser) title(doc ast.Node, p string) (title, first string) {
	var (
		html  string // the text of an HTML <h1> before the first heading
		lead  = true // no heading seen yet
		prose bool   // a paragraph of prose came before the first heading
	)
	// A document whose headings are all of level 1 uses that level for its sections
	// ("# Installation", "# Summary", "# Details"): none titles it.
	h1, deeper := 0, false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			if h.Level == 1 {
				h1++
			} else {
				deeper = true
			}
		}
	}
	sectionsH1 := h1 > 1 && !deeper
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Paragraph, *ast.Blockquote:
			if lead && !prose {
				var outside strings.Builder
				inlineText(&outside, n, ps.src, false, 0)
				prose = hasProse(outside.String())
			}
		case *ast.Heading:
			lead = false
			if html != "" {
				// An HTML <h1> before any heading titles the document (keyv's logo, whose
				// alt text is "keyv", before its "# Features").
				return html, cmp.Or(first, headingText(n, ps.src))
			}
			if n.Level != 1 && first != "" {
				continue
			}
			t := headingText(n, ps.src)
			// A heading after the document's opening prose names a section ("Cobra is a
			// library for …", then "# Overview").
			if n.Level == 1 && t != "" && !prose && !sectionsH1 {
				return t, cmp.Or(first, t)
			}
			if first == "" {
				first = t
			}
		case *ast.HTMLBlock:
			if !lead || html != "" {
				continue
			}
			s := htmlBlockSource(n, ps.src)
			if i := strings.Index(strings.ToLower(s), "<h1"); i >= 0 {
				s = s[i:]
				if j := strings.Index(strings.ToLower(s), "</h1"); j >= 0 {
					s = s[:j]
				}
				html = cmp.Or(htmlText(s), htmlImageAlt(s))
			}
		}
	}
	if html != "" {
		return html, first
	}
	return strings.TrimSuffix(path.Base(p), path.Ext(p)), first
}

// PackageTitle returns the title a package's README d is shown under: its own title (see Parse),
// else name, the package's name. A README has no title of its own when Parse left Title empty,
// when it was read as plain text and is titled by its file name ("README", "README.txt"), or when
// its title is a section's heading that introduces the package (introHeading: wcwidth's README
// opens with the reST title "Introduction"), which says nothing of which package a hit is of.
func PackageTitle(d docidx.Document, name string) string {
	base := path.Base(d.Path)
	if d.Title == "" || strings.EqualFold(d.Title, base) || strings.EqualFold(d.Title, strings.TrimSuffix(base, path.Ext(base))) ||
		strings.EqualFold(d.Title, "readme") || introHeading(d.Title) {
		return name
	}
	return d.Title
}

// section builds the output section from a kept raw section. top says whether the section is
// at the top of the document (the lead section or the first heading's), where a lone image is
// a logo rather than a figure. It reports false when nothing is left after stripping.
func (ps *parser) section(rs *rawSection, top bool) (docidx.Section, bool) {
	kept := make([]block, 0, len(rs.blocks))
	for _, b := range rs.blocks {
		if ps.strip(b.node, top) {
			continue
		}
		kept = append(kept, b)
	}
	// Thematic breaks at either end only separate sections.
	for len(kept) > 0 && kept[0].node.Kind() == ast.KindThematicBreak {
		kept = kept[1:]
	}
	for len(kept) > 0 && kept[len(kept)-1].node.Kind() == ast.KindThematicBreak {
		kept = kept[:len(kept)-1]
	}

	w := &writer{ps: ps}
	var textB strings.Builder
	for _, b := range kept {
		textB.Write(ps.orig[b.start:b.end])
		w.block(b.node, 0)
	}
	if len(w.lines) == 0 && len(w.code) == 0 && !w.htmlText {
		return docidx.Section{}, false
	}
	txt := trimBlankLines(textB.String())
	if defs := w.definitions(); defs != "" {
		txt += "\n\n" + defs
	}
	return docidx.Section{
		Heading: rs.path,
		Anchor:  rs.anchor,
		Text:    txt,
		Plain:   strings.Join(w.lines, "\n"),
		Code:    w.code,
	}, true
}

// trimBlankLines removes blank lines at the start of s (keeping the first line's indentation,
// which may make it a code block) and white space at its end.
func trimBlankLines(s string) string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			break
		}
		s = s[i+1:]
	}
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

// strip reports whether a top-level block is left out of a section: badge paragraphs, HTML
// blocks that show no text, tables of contents and link reference definitions (re-added where
// used).
func (ps *parser) strip(n ast.Node, top bool) bool {
	switch n := n.(type) {
	case *ast.LinkReferenceDefinition:
		return true
	case *ast.Paragraph:
		return ps.isBadges(n, top)
	case *ast.HTMLBlock:
		return htmlText(htmlBlockSource(n, ps.src)) == ""
	case *ast.List:
		links := 0
		return isTOCList(n, ps.src, &links, 0) && links >= 2
	}
	return false
}

// isBadges reports whether a paragraph holds only images (linked or not) and white space, and
// those images look like badges: more than one image, an image from a badge service, or a lone
// image at the top of the document (a logo).
func (ps *parser) isBadges(p *ast.Paragraph, top bool) bool {
	images, badge := 0, false
	if !ps.onlyImages(p, &images, &badge, 0) || images == 0 {
		return false
	}
	return badge || images > 1 || top
}

func (ps *parser) onlyImages(n ast.Node, images *int, badge *bool, depth int) bool {
	if depth > maxDepth {
		return false
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Image:
			*images++
			if isBadgeURL(string(c.Destination)) {
				*badge = true
			}
		case *ast.Link:
			if isBadgeURL(string(c.Destination)) {
				*badge = true
			}
			if !ps.onlyImages(c, images, badge, depth+1) {
				return false
			}
		case *ast.Text:
			if len(bytes.TrimSpace(c.Segment.Value(ps.src))) != 0 {
				return false
			}
		case *ast.RawHTML:
			raw := strings.ToLower(string(c.Segments.Value(ps.src)))
			if strings.HasPrefix(raw, "<img") {
				*images++
				if isBadgeURL(raw) {
					*badge = true
				}
			}
		default:
			return false
		}
	}
	return true
}

// badgeHosts are parts of the URLs of images that are status badges.
var badgeHosts = []string{
	"badge", "shields.io", "badgen.net", "travis-ci.", "circleci.com", "codecov.io",
	"coveralls.io", "goreportcard.com", "godoc.org", "gocover.io", "appveyor.com", "snyk.io",
	"nodei.co", "david-dm.org", "packagephobia.", "bundlephobia.", "gitter.im",
	"opencollective.com", "codeclimate.com", "codacy.com", "sourcegraph.com", "readthedocs",
	"status.svg", "/workflows/", "deepscan.io", "fossa.", "bestpractices.", "pypip.in",
	"img.npmjs.com", "npmcharts.com", "app.netlify.com", "sonarcloud.io", "scrutinizer-ci.com",
}

func isBadgeURL(u string) bool { return containsAny(strings.ToLower(u), badgeHosts) }

// containsAny reports whether s contains any of subs.
func containsAny(s string, subs []string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// isTOCList reports whether a list is a table of contents: every item is one link to an anchor
// in the page ("[Install](#install)"), possibly followed by a nested list of the same kind.
func isTOCList(l ast.Node, src []byte, links *int, depth int) bool {
	if depth > maxDepth {
		return false
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.Kind() {
			case ast.KindList:
				if !isTOCList(c, src, links, depth+1) {
					return false
				}
			case ast.KindParagraph, ast.KindTextBlock:
				if !isAnchorLink(c, src) {
					return false
				}
				*links++
			default:
				return false
			}
		}
	}
	return true
}

// isAnchorLink reports whether a paragraph is a single link to "#…", white space aside.
func isAnchorLink(p ast.Node, src []byte) bool {
	n := 0
	for c := p.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Link:
			if !bytes.HasPrefix(c.Destination, []byte("#")) {
				return false
			}
			n++
		case *ast.Text:
			if len(bytes.TrimSpace(c.Segment.Value(src))) != 0 {
				return false
			}
		default:
			return false
		}
	}
	return n == 1
}

// minLeadInDescription is the fewest words of a paragraph ending in ":" with no sentence
// before it that the summary takes ("Install it with:" is too short to describe anything).
const minLeadInDescription = 12

// maxSummarySection is the index of the last section an introductory heading can give the
// summary from (0 is the lead section).
const maxSummarySection = 6

// summarize looks for the document summary in rs, the section of the given index, when it is one
// of the candidates Parse's doc comment lists.
func (ps *parser) summarize(rs *rawSection, index int) {
	opening := index == 0
	switch {
	case index == 0:
	case rs.level == 1 && !ps.seenH1 || index == 1,
		// The subsection right below an opening section ("# x", "### tagline", then prose).
		ps.openLevel > 0 && index == ps.openNext && rs.level > ps.openLevel:
		ps.openLevel, ps.openNext, opening = rs.level, index+1, true
	default:
		ps.openLevel = -1
	}
	if rs.level == 1 {
		ps.seenH1 = true
	}
	if opening {
		// An opening section is a how-to when its heading starts like one ("Usage", "Getting
		// started"; not "Safer Node.js Buffer API"), or when the opening section above it is.
		if index > 0 && howTo(firstWords(rs.title, 2)) {
			ps.openHowTo = rs.level
		} else if ps.openHowTo > 0 && rs.level <= ps.openHowTo {
			ps.openHowTo = 0
		}
		if ps.openHowTo > 0 {
			return
		}
	} else if rs.howTo || !introHeading(rs.title) || index > maxSummarySection {
		return
	}
	if ps.summary != "" || rs.dropped {
		return
	}
	for _, b := range rs.blocks {
		if ps.summary != "" {
			return
		}
		if h, ok := b.node.(*ast.HTMLBlock); ok {
			src := htmlBlockSource(h, ps.src)
			if ps.htmlSummary == "" {
				ps.htmlSummary = htmlTagline(src, "p")
			}
			if ps.htmlSubtitle == "" {
				ps.htmlSubtitle = htmlTagline(src, "h2", "h3", "h4", "h5", "h6")
			}
			continue
		}
		ps.trySummary(b.node)
	}
}

// firstWords returns the first n words of s.
func firstWords(s string, n int) string {
	ws := strings.Fields(s)
	return strings.Join(ws[:min(n, len(ws))], " ")
}

// introHeading reports whether a section heading announces the package's description.
func introHeading(title string) bool {
	t := strings.ToLower(strings.TrimSpace(title))
	first, _, _ := strings.Cut(t, " ")
	switch strings.Trim(first, ":?!.") {
	case "introduction", "intro", "about", "overview", "description", "summary", "synopsis", "what", "why", "motivation":
		return true
	}
	return false
}

// htmlTagline returns the prose of an HTML block that starts with one of the elements tags and
// has words outside its links ("<p align="center">Promise based HTTP client</p>",
// "<h5 align="center">The fast, flexible … library</h5>"), or "".
func htmlTagline(src string, tags ...string) string {
	t := strings.TrimSpace(src)
	ok := false
	for _, tag := range tags {
		if n := len(tag) + 1; len(t) > n && strings.EqualFold(t[:n], "<"+tag) && strings.ContainsRune("> \t\n", rune(t[n])) {
			ok = true
		}
	}
	if !ok {
		return ""
	}
	if !hasProse(htmlText(withoutAnchors(t))) {
		return ""
	}
	s := collapse(htmlText(t))
	if isCallout(s) || strings.HasSuffix(s, ":") {
		return ""
	}
	return Summary(s)
}

// withoutAnchors removes <a …>…</a> elements from an HTML fragment.
func withoutAnchors(s string) string {
	var b strings.Builder
	for {
		lower := strings.ToLower(s)
		i := strings.Index(lower, "<a ")
		if j := strings.Index(lower, "<a>"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(lower[i:], "</a>")
		if j < 0 {
			return b.String()
		}
		s = s[i+j+len("</a>"):]
	}
}

// titleTagline returns the description a title carries after a dash ("semver(1) -- The
// semantic versioner for npm", "x — fast widgets"), or "".
func titleTagline(title string) string {
	for _, sep := range []string{" -- ", " — ", " – ", " - ", ": "} {
		if before, after, ok := strings.Cut(title, sep); ok && (sep != ": " || !strings.Contains(strings.TrimSpace(before), " ")) {
			if after = strings.TrimSpace(after); hasProse(after) && strings.Contains(after, " ") {
				return Summary(after)
			}
		}
	}
	return ""
}

// trySummary sets the document summary from n if it is a real paragraph: a top-level paragraph
// with prose outside links, images and code, or the first paragraph of a top-level block quote
// (npm READMEs often quote their description), unless it is a callout ("**Note** …",
// "> [!WARNING]") or an install command. A trailing lead-in sentence ("It provides:") is left out.
func (ps *parser) trySummary(n ast.Node) {
	if q, ok := n.(*ast.Blockquote); ok {
		n = q.FirstChild()
	}
	p, ok := n.(*ast.Paragraph)
	if !ok {
		return
	}
	var outside strings.Builder
	inlineText(&outside, p, ps.src, false, 0)
	if !hasProse(outside.String()) || onlyCode(p, ps.src) {
		return
	}
	var all strings.Builder
	inlineText(&all, p, ps.src, true, 0)
	s := collapse(all.String())
	if isCallout(s) || isInstallCommand(s) {
		return
	}
	if strings.HasSuffix(s, ":") {
		// Keep the sentences before the lead-in, if any; a long lead-in that is the whole
		// paragraph ("x is a module that …, as in this example:") is a description too.
		i := strings.LastIndexAny(s, ".!?")
		switch {
		case i >= 0:
			s = s[:i+1]
		case len(strings.Fields(s)) >= minLeadInDescription:
			s = strings.TrimSuffix(s, ":") + "."
		default:
			return
		}
		if !hasProse(s) {
			return
		}
	}
	ps.summary = Summary(s)
}

// onlyCode reports whether a paragraph's text is all code spans ("`npm i x`").
func onlyCode(p *ast.Paragraph, src []byte) bool {
	for c := p.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.CodeSpan:
		case *ast.Text:
			if len(strings.TrimSpace(string(c.Segment.Value(src)))) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isInstallCommand reports whether a paragraph is a package manager command ("npm install x",
// "$ yarn add x", "pip install x", "go get x").
func isInstallCommand(s string) bool {
	ws := strings.Fields(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	if len(ws) < 2 {
		return false
	}
	switch ws[0] {
	case "npm", "yarn", "pnpm", "bun", "npx", "pip", "pip3", "go", "cargo", "gem", "brew", "deno":
		switch ws[1] {
		case "install", "i", "add", "get", "-g", "--global":
			return true
		}
	}
	return false
}

// hasProse reports whether s has at least a word of letters.
func hasProse(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if letters == 3 {
				return true
			}
		}
	}
	return false
}

// isCallout reports whether a quoted paragraph is a note or warning rather than a description.
func isCallout(s string) bool {
	// Leading emoji (⚠️ ℹ️ 💡), their variation selectors and emphasis marks.
	s = strings.TrimLeftFunc(s, func(r rune) bool {
		return unicode.IsSymbol(r) || unicode.IsSpace(r) || r == '*' || r == '\uFE0F' || r == '❗'
	})
	if strings.HasPrefix(s, "[!") {
		return true
	}
	ws := strings.Fields(strings.ToLower(s))
	if len(ws) == 0 {
		return true
	}
	switch strings.TrimRight(ws[0], ":,.!") {
	case "note", "warning", "important", "caution", "tip", "deprecated", "attention", "notice":
		return true
	}
	return false
}

// writer renders kept blocks as plain text lines and collects their code blocks and the link
// reference definitions they use.
type writer struct {
	ps       *parser
	lines    []string
	code     []docidx.CodeBlock
	refs     []string // normalized labels, in order of first use
	seenRefs map[string]bool
	htmlText bool // an HTML block that shows text was kept
}

func (w *writer) line(n ast.Node) {
	var b strings.Builder
	inlineText(&b, n, w.ps.src, true, 0)
	if s := collapse(b.String()); s != "" {
		w.lines = append(w.lines, s)
	}
	w.inlineRefs(n, 0)
}

func (w *writer) block(n ast.Node, depth int) {
	if depth > maxDepth {
		return
	}
	src := w.ps.src
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		w.line(n)
	case *ast.FencedCodeBlock:
		lang := ""
		if n.Info != nil {
			lang = language(n.Info.Segment.Value(src))
		}
		w.addCode(lang, n.Lines())
	case *ast.CodeBlock:
		w.addCode("", n.Lines())
	case *ast.HTMLBlock:
		// Its text is the section's too: an HTML table of options or tokens is what a
		// question about them is answered by.
		if lines := htmlLines(htmlBlockSource(n, src)); len(lines) > 0 {
			w.htmlText = true
			w.lines = append(w.lines, lines...)
		}
	case *ast.ThematicBreak, *ast.LinkReferenceDefinition:
	case *ast.ListItem:
		w.item(n, depth)
	case *east.Table:
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			var cells []string
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				var b strings.Builder
				inlineText(&b, cell, src, true, 0)
				cells = append(cells, collapse(b.String()))
				w.inlineRefs(cell, 0)
			}
			if s := strings.Join(cells, " | "); strings.Trim(s, " |") != "" {
				w.lines = append(w.lines, s)
			}
		}
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			w.block(c, depth+1)
		}
	}
}

// item renders a list item: its paragraphs up to its first other block (a code block, a nested
// list) as one line opened by "- ", whatever the list's marker, so that a passage reads the
// item as one unit and shows it whole (index/passage.go); the blocks after them as block
// renders them. An ordered list's numbers are left out: a passage would read "2." as a
// number that answers "how many".
func (w *writer) item(n *ast.ListItem, depth int) {
	var b strings.Builder
	c := n.FirstChild()
	for ; c != nil; c = c.NextSibling() {
		if k := c.Kind(); k != ast.KindParagraph && k != ast.KindTextBlock {
			break
		}
		b.WriteByte(' ')
		inlineText(&b, c, w.ps.src, true, 0)
		w.inlineRefs(c, 0)
	}
	if s := collapse(b.String()); s != "" {
		w.lines = append(w.lines, "- "+s)
	}
	for ; c != nil; c = c.NextSibling() {
		w.block(c, depth+1)
	}
}

// language returns the language of a fenced code block from its info string: the first word,
// without attribute braces or a ",ignore"-style suffix, lowercased ("```Go title=x" -> "go").
func language(info []byte) string {
	f := strings.Fields(string(info))
	if len(f) == 0 {
		return ""
	}
	l := strings.TrimLeft(f[0], "{.")
	if i := strings.IndexAny(l, "{,}"); i >= 0 {
		l = l[:i]
	}
	return strings.ToLower(l)
}

func (w *writer) addCode(lang string, lines *text.Segments) {
	var b strings.Builder
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(w.ps.src))
	}
	code := strings.TrimRightFunc(b.String(), unicode.IsSpace)
	if strings.TrimSpace(code) == "" {
		return
	}
	w.code = append(w.code, docidx.CodeBlock{Lang: lang, Code: code, At: len(w.lines) + 1})
}

// inlineRefs records the reference links and images under n.
func (w *writer) inlineRefs(n ast.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		var ref *ast.ReferenceLink
		switch c := c.(type) {
		case *ast.Link:
			ref = c.Reference
		case *ast.Image:
			ref = c.Reference
		}
		if ref != nil {
			label := util.ToLinkReference(ref.Value)
			if _, ok := w.ps.refs[label]; ok && !w.seenRefs[label] {
				if w.seenRefs == nil {
					w.seenRefs = make(map[string]bool)
				}
				w.seenRefs[label] = true
				w.refs = append(w.refs, label)
			}
		}
		w.inlineRefs(c, depth+1)
	}
}

// definitions returns the link reference definitions the section uses, one per line.
func (w *writer) definitions() string {
	var b strings.Builder
	for i, label := range w.refs {
		d := w.ps.refs[label]
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte('[')
		b.Write(d.Label)
		b.WriteString("]: ")
		dest := string(d.Destination)
		if dest == "" || strings.ContainsAny(dest, " \t<>") {
			dest = "<" + strings.NewReplacer("<", `\<`, ">", `\>`).Replace(dest) + ">"
		}
		b.WriteString(dest)
		if len(d.Title) > 0 {
			b.WriteString(` "`)
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(string(d.Title)))
			b.WriteByte('"')
		}
	}
	return b.String()
}
