package readme

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// maxDepth bounds how deep Parse descends into nested blocks and inlines (lists in block quotes
// in lists …); anything deeper is left out of Plain, Code and the summary, but stays in Text.
const maxDepth = 48

// inlineText appends the visible text of n's inline children to b: text, code spans, link text
// and autolinks; not images, raw HTML or task-list check boxes. Backslash escapes and character
// references are resolved outside code spans. linkText says whether to include the text of
// links; without it only the text outside links counts (used to tell prose from a list of links).
func inlineText(b *strings.Builder, n ast.Node, src []byte, linkText bool, depth int) {
	if depth > maxDepth {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if c.IsRaw() || isInCode(c) {
				b.Write(v)
			} else {
				unescape(b, v)
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.Image, *ast.RawHTML, *east.TaskCheckBox:
		case *ast.AutoLink:
			if linkText {
				b.Write(c.Label(src))
			}
		case *ast.Link:
			if linkText {
				inlineText(b, c, src, linkText, depth+1)
			}
		default:
			inlineText(b, c, src, linkText, depth+1)
		}
	}
}

func isInCode(n ast.Node) bool {
	p := n.Parent()
	return p != nil && p.Kind() == ast.KindCodeSpan
}

// imageAlt appends the alt text of the images among n's inline children, for a heading that
// is only an image.
func imageAlt(b *strings.Builder, n ast.Node, src []byte, depth int) {
	if depth > maxDepth {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Image:
			inlineText(b, c, src, true, depth+1)
			b.WriteByte(' ')
			continue
		case *ast.RawHTML:
			var raw strings.Builder
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				raw.Write(seg.Value(src))
			}
			b.WriteString(htmlImageAlt(raw.String()))
			b.WriteByte(' ')
			continue
		}
		imageAlt(b, c, src, depth+1)
	}
}

// imgAltRE finds the alt attribute of an HTML <img> tag.
var imgAltRE = regexp.MustCompile(`(?i)<img\b[^>]*?\balt\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// htmlImageAlt returns the alt texts of the <img> tags of an HTML fragment, space-separated,
// character references resolved: what a logo shown as a heading (chi's "# <img alt="chi" …>")
// says in words.
func htmlImageAlt(s string) string {
	var alts []string
	for _, m := range imgAltRE.FindAllStringSubmatch(s, 8) {
		alts = append(alts, m[1]+m[2])
	}
	return collapse(html.UnescapeString(strings.Join(alts, " ")))
}

// unescape writes markdown text v to b with backslash escapes and HTML character references
// resolved, as a renderer would.
func unescape(b *strings.Builder, v []byte) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && isASCIIPunct(v[i+1]):
			b.WriteByte(v[i+1])
			i++
		case c == '&':
			end := -1
			for j := i + 1; j < len(v) && j <= i+32; j++ {
				if v[j] == ';' {
					end = j
					break
				}
			}
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			b.WriteString(html.UnescapeString(string(v[i : end+1])))
			i = end
		default:
			b.WriteByte(c)
		}
	}
}

// isASCIIPunct reports whether c is ASCII punctuation, which a backslash escapes in markdown.
func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// collapse trims s and turns every run of white space into one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// htmlText returns the text an HTML fragment shows: tags and comments removed, character
// references resolved, white space collapsed (its htmlLines joined by spaces).
func htmlText(s string) string { return strings.Join(htmlLines(s), " ") }

// htmlLines returns the lines of text an HTML block shows, as a browser lays them out: a block
// element (a paragraph, list item, heading, table row, <br> …) starts a line, the cells of a
// table row are joined by " | " as a Markdown table's are, and what scripts and styles hold is
// not text. fecha's "Formatting Tokens" is an HTML table: "Month | M | 1 2 ... 11 12".
func htmlLines(s string) []string {
	var lines []string
	var b strings.Builder
	cells := 0 // the cells of the current table row so far
	end := func() {
		if t := collapse(html.UnescapeString(b.String())); strings.Trim(t, " |") != "" {
			lines = append(lines, strings.TrimSuffix(strings.TrimPrefix(t, "| "), " |"))
		}
		b.Reset()
		cells = 0
	}
	for i := 0; i < len(s); {
		if s[i] != '<' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "<!--") {
			j := strings.Index(s[i+4:], "-->")
			if j < 0 {
				break
			}
			i += 4 + j + 3
			continue
		}
		if i+1 >= len(s) || !(isASCIILetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!' || s[i+1] == '?') {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		closing := s[i+1] == '/'
		from := i + 1
		if closing {
			from++
		}
		to := from
		for to < i+j && (isASCIILetter(s[to]) || '0' <= s[to] && s[to] <= '9') {
			to++
		}
		name := strings.ToLower(s[from:to])
		i += j + 1
		switch name {
		case "script", "style":
			if !closing {
				k := strings.Index(strings.ToLower(s[i:]), "</"+name)
				if k < 0 {
					i = len(s)
				} else {
					i += k
				}
			}
		case "td", "th":
			if !closing {
				if cells > 0 {
					b.WriteString(" | ")
				}
				cells++
			}
		case "p", "div", "br", "li", "tr", "table", "thead", "tbody", "ul", "ol", "dl", "dt", "dd",
			"h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "details", "summary", "hr":
			end()
		default:
			b.WriteByte(' ')
		}
	}
	end()
	return lines
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// htmlBlockSource returns the source of an HTML block, closing line included.
func htmlBlockSource(n *ast.HTMLBlock, src []byte) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(src))
	}
	return b.String()
}

// Summary returns text as one line of plain text of at most MaxSummary bytes: white space is
// collapsed and a longer text is cut after the last sentence that fits ("… in Go. It …" is cut
// after "Go."), or, when not even the first sentence fits, at a word boundary with "…" appended.
// Parse uses it on the first real paragraph of a document.
func Summary(text string) string {
	s := collapse(text)
	if len(s) <= MaxSummary {
		return s
	}
	cut := -1
	for i := 0; i < MaxSummary; i++ {
		switch s[i] {
		case '.', '!', '?':
			if s[i+1] == ' ' && !abbreviation(s[:i+1]) {
				cut = i + 1
			}
		}
	}
	if cut > 0 {
		return s[:cut]
	}
	const ellipsis = "…"
	limit := MaxSummary - len(ellipsis)
	i := strings.LastIndexByte(s[:limit+1], ' ')
	if i <= 0 {
		i = limit
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
	}
	return strings.TrimRight(s[:i], " ,;:-") + ellipsis
}

// abbreviation reports whether s ends with an abbreviation whose dot does not end a sentence.
func abbreviation(s string) bool {
	w := s[strings.LastIndexByte(s, ' ')+1:]
	switch strings.ToLower(strings.TrimLeft(w, "(\"'")) {
	case "e.g.", "i.e.", "vs.", "cf.", "etc.", "approx.", "incl.", "mr.", "dr.", "no.":
		return true
	}
	return false
}
