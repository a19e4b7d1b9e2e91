// Package tsdoc renders the inline tags of JSDoc and TSDoc comments as a reader of the rendered
// documentation sees them: "{@link differenceInDays}" reads "differenceInDays", as TypeDoc and
// editors' hovers show the link's text, not its markup.
//
// It imports the standard library and codespan only.
package tsdoc

import (
	"strings"

	"github.com/docidx/docidx/registries/internal/codespan"
)

// Links returns doc with its inline link tags (JSDoc's "Inline tags", TSDoc's @link, @linkcode
// and @linkplain) as their text:
//
//   - {@link Target} reads "Target" and {@link Target|text} or {@link Target text} "text";
//   - {@linkcode Target} reads "`Target`" (TypeDoc renders it as code);
//   - a target that is a URL keeps its address: {@link https://example.test/x docs} reads
//     "[docs](https://example.test/x)", as a Markdown link;
//   - JSDoc's "[text]{@link Target}" reads "text".
//
// Code spans and fenced code blocks are left as they are, and so is a tag that is not closed.
func Links(doc string) string {
	if !strings.Contains(doc, "{@link") {
		return doc
	}
	var b strings.Builder
	fence := false
	for line := range strings.SplitAfterSeq(doc, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if fence || !strings.Contains(line, "{@link") {
			b.WriteString(line)
			continue
		}
		b.WriteString(lineLinks(line))
	}
	return b.String()
}

// lineLinks is Links for one line outside code blocks.
func lineLinks(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		switch {
		case line[i] == '`':
			end := codespan.End(line, i)
			b.WriteString(line[i:end])
			i = end
			continue
		case line[i] == '[':
			// JSDoc's "[text]{@link Target}": the bracketed text is the link's.
			if k := strings.IndexByte(line[i:], ']'); k > 0 && strings.HasPrefix(line[i+k+1:], "{@link") {
				if end := strings.IndexByte(line[i+k+1:], '}'); end > 0 {
					b.WriteString(line[i+1 : i+k])
					i += k + 1 + end + 1
					continue
				}
			}
		case strings.HasPrefix(line[i:], "{@link"):
			if end := strings.IndexByte(line[i:], '}'); end > 0 {
				b.WriteString(linkText(line[i+1 : i+end]))
				i += end + 1
				continue
			}
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// linkText returns what the tag inside the braces of "{@link…}" reads as (see Links).
func linkText(tag string) string {
	name, rest, _ := strings.Cut(tag, " ")
	rest = strings.TrimSpace(rest)
	target, text := rest, ""
	if i := strings.IndexAny(rest, "| \t"); i >= 0 {
		target, text = rest[:i], strings.TrimSpace(strings.TrimLeft(rest[i:], "| \t"))
	}
	switch {
	case target == "":
		return ""
	case strings.Contains(target, "://") && text != "":
		return "[" + text + "](" + target + ")"
	case text != "":
		return text
	case name == "@linkcode":
		return "`" + strings.TrimPrefix(target, "module:") + "`"
	}
	return strings.TrimPrefix(target, "module:")
}
