package gomod

import (
	"go/doc"
	"go/doc/comment"
	"strings"
)

// unlinkDocLinks returns the doc comment text with the brackets of its doc links removed, as
// go doc prints them: "[Greeter]", "[*Greeter]", "[Greeter.Hello]" and "[io.Reader]" become
// "Greeter", "*Greeter", "Greeter.Hello" and "io.Reader". Doc links are what go/doc/comment's
// parser takes for one (go.dev/doc/comment#doclinks): a name the package declares or a package
// it imports. Other brackets stay: "[0]", "[text]" with a link definition "[text]: URL" (whose
// URL is worth keeping), and the lines of code blocks, which are not rewritten.
func unlinkDocLinks(p *doc.Package, text string) string {
	if !strings.Contains(text, "[") {
		return text
	}
	var links []string
	code := map[string]bool{} // the lines of code blocks, without their indent
	for _, b := range p.Parser().Parse(text).Content {
		if c, ok := b.(*comment.Code); ok {
			for _, l := range strings.Split(c.Text, "\n") {
				code[strings.TrimSpace(l)] = true
			}
			continue
		}
		links = appendDocLinks(links, b)
	}
	if len(links) == 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if !strings.Contains(l, "[") || code[strings.TrimSpace(l)] {
			continue
		}
		for _, name := range links {
			l = strings.ReplaceAll(l, "["+name+"]", name)
		}
		lines[i] = l
	}
	return strings.Join(lines, "")
}

// appendDocLinks appends the text of every doc link in the block b to links.
func appendDocLinks(links []string, b comment.Block) []string {
	switch b := b.(type) {
	case *comment.Paragraph:
		return appendTextDocLinks(links, b.Text)
	case *comment.Heading:
		return appendTextDocLinks(links, b.Text)
	case *comment.List:
		for _, item := range b.Items {
			for _, c := range item.Content {
				links = appendDocLinks(links, c)
			}
		}
	}
	return links
}

// appendTextDocLinks appends the text of every doc link in t to links.
func appendTextDocLinks(links []string, t []comment.Text) []string {
	for _, x := range t {
		if l, ok := x.(*comment.DocLink); ok {
			links = append(links, plainText(l.Text))
		}
	}
	return links
}

// plainText returns the characters of t, without markup.
func plainText(t []comment.Text) string {
	var b strings.Builder
	for _, x := range t {
		switch x := x.(type) {
		case comment.Plain:
			b.WriteString(string(x))
		case comment.Italic:
			b.WriteString(string(x))
		}
	}
	return b.String()
}
