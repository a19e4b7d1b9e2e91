package readme

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Plain returns a document of text that is not markdown (a README.txt, a package's long
// description in plain text, a guide in a format no parser here reads): one section, or none for
// a text without words, whose Text is the text as written and whose Plain holds one line per
// paragraph, white space collapsed, so that a passage is made of whole paragraphs rather than of
// the file's wrapped lines. Text is cut at MaxInput bytes, on a character boundary. The title is
// the file name without its extension; the summary is the first paragraph that is not a title
// underlined with a row of =, -, ~, *, #, ^ or + (a reStructuredText or setext title), as Summary
// cuts it.
func Plain(p string, kind docidx.DocKind, text string) docidx.Document {
	if n := MaxInput; len(text) > n {
		for n > 0 && !utf8.RuneStart(text[n]) { // text[n] continues the character before it
			n--
		}
		text = text[:n]
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	base := path.Base(p)
	d := docidx.Document{Path: p, Kind: kind, Title: strings.TrimSuffix(base, path.Ext(base)), Sections: []docidx.Section{}}
	var paras []string
	for _, para := range strings.Split(text, "\n\n") {
		f := strings.Fields(para)
		if len(f) == 0 {
			continue
		}
		one := strings.Join(f, " ")
		paras = append(paras, one)
		lines := strings.Split(strings.TrimSpace(para), "\n")
		if d.Summary == "" && !(len(lines) <= 3 && isUnderline(lines[len(lines)-1])) {
			d.Summary = Summary(one)
		}
	}
	if len(paras) > 0 {
		d.Sections = append(d.Sections, docidx.Section{Text: text, Plain: strings.Join(paras, "\n")})
	}
	return d
}

// isUnderline reports whether line is a title's underline: three or more of =, -, ~, *, #, ^
// and + alone.
func isUnderline(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) >= 3 && strings.Trim(line, "=-~*#^+") == ""
}
