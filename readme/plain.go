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
	var paras []string
	for _, para := range strings.Split(text, "\n\n") {
		if f := strings.Fields(para); len(f) > 0 {
			paras = append(paras, strings.Join(f, " "))
		}
	}
	base := path.Base(p)
	d := docidx.Document{Path: p, Kind: kind, Title: strings.TrimSuffix(base, path.Ext(base)), Sections: []docidx.Section{}}
	if len(paras) == 0 {
		return d
	}
	d.Sections = append(d.Sections, docidx.Section{Text: text, Plain: strings.Join(paras, "\n")})
	for _, para := range strings.Split(text, "\n\n") {
		lines := strings.Split(strings.TrimSpace(para), "\n")
		if n := len(lines); n <= 3 && isUnderline(lines[n-1]) {
			continue
		}
		if s := Summary(para); s != "" {
			d.Summary = s
			break
		}
	}
	return d
}

// isUnderline reports whether line is a title's underline: three or more of =, -, ~, *, #, ^
// and + alone.
func isUnderline(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) >= 3 && strings.Trim(line, "=-~*#^+") == ""
}
