package answer

import (
	"fmt"
	"mime"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// sectionOf returns d, a document of the package version ref, cut to the section whose anchor is
// anchor and the subsections under it, or d itself when anchor is empty. It is the one answer to
// "docidx://…/readme#anchor" for resources/read and read_package_doc alike: an anchor that names
// no section of d is a not-found error (for resources/read, resource not found) that names the
// anchors d has, the closest first, at most maxAnchorsNamed of them.
func sectionOf(ref docidx.Ref, d *docidx.Document, anchor string) (*docidx.Document, error) {
	if anchor == "" {
		return d, nil
	}
	for i, sec := range d.Sections {
		if sec.Anchor != anchor {
			continue
		}
		j := i + 1
		for j < len(d.Sections) && len(d.Sections[j].Heading) > len(sec.Heading) {
			j++
		}
		cut := *d
		cut.Sections = d.Sections[i:j]
		return &cut, nil
	}
	return nil, unknownAnchor(ref, d, anchor)
}

// maxAnchorsNamed is how many of a document's anchors the error for an unknown anchor names.
const maxAnchorsNamed = 10

// unknownAnchor is the not-found error for a section anchor that document d of ref does not have: it
// names the anchors d has, at most maxAnchorsNamed, the closest to the one asked for first.
func unknownAnchor(ref docidx.Ref, d *docidx.Document, anchor string) error {
	var anchors []string
	for i := range d.Sections {
		if a := d.Sections[i].Anchor; a != "" {
			anchors = append(anchors, a)
		}
	}
	msg := fmt.Sprintf("%s@%s %s has no section %s", ref.Name, ref.Version, d.Path, docidx.Quote("#"+anchor))
	if len(anchors) == 0 {
		return notFoundf("%s; it has no sections with anchors: read it without #anchor", msg)
	}
	near := closest(anchor, anchors, 5)
	if len(near) > 0 {
		msg += "; did you mean: #" + strings.Join(near, ", #") + "?"
	}
	var others []string
	for _, a := range anchors {
		if !slices.Contains(near, a) {
			others = append(others, a)
		}
	}
	if len(others) > 0 {
		list := others[:min(len(others), maxAnchorsNamed-len(near))]
		text := "#" + strings.Join(list, ", #")
		if more := len(others) - len(list); more > 0 {
			text += fmt.Sprintf(" and %d more", more)
		}
		if len(near) > 0 {
			msg += " Its other anchors: " + text
		} else {
			msg += "; its anchors: " + text
		}
	}
	return notFoundf("%s. Read it without #anchor for the whole document.", msg)
}

// RenderDocument returns a document as markdown, its sections in order under their headings:
// the same text get_package_doc pages through. An empty document says so, so that a resource
// always has text.
func RenderDocument(d *docidx.Document) string {
	var b strings.Builder
	for i := range d.Sections {
		b.WriteString(renderSection(&d.Sections[i]))
	}
	if b.Len() == 0 {
		return "_This document has no text._\n"
	}
	return b.String()
}

// documentMIME returns the MIME type of a document by its path: markdown for markdown files,
// files without an extension and READMEs, else the registered type of the extension, else
// text/plain.
func documentMIME(d *docidx.Document) string {
	ext := strings.ToLower(path.Ext(d.Path))
	switch ext {
	case "", ".md", ".markdown", ".mdx", ".mdown":
		return MIMEMarkdown
	case ".rst":
		return "text/x-rst"
	}
	if d.Kind == docidx.DocReadme {
		return MIMEMarkdown
	}
	if t := mime.TypeByExtension(ext); t != "" {
		if mt, _, err := mime.ParseMediaType(t); err == nil {
			return mt
		}
	}
	return "text/plain"
}

// isBinary reports whether content of MIME type mt is not text: by its type (images, audio,
// video, fonts, archives, PDFs) or because it is not valid UTF-8 or holds NUL bytes.
func isBinary(mt, content string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), mt == MIMEJSON, strings.HasSuffix(mt, "+json"),
		strings.HasSuffix(mt, "+xml"), mt == "application/xml", mt == "application/javascript":
	case strings.HasPrefix(mt, "image/svg"):
	case strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "audio/"), strings.HasPrefix(mt, "video/"),
		strings.HasPrefix(mt, "font/"), strings.HasPrefix(mt, "application/"):
		return true
	}
	return !utf8.ValidString(content) || strings.IndexByte(content, 0) >= 0
}

// DocumentContents returns the contents of a document: markdown text, other text as it is, or
// a binary file's bytes as a blob (base64 on the wire). A binary file is stored as the text of
// its one section, byte for byte.
func DocumentContents(d *docidx.Document) *Contents {
	mt := documentMIME(d)
	var raw strings.Builder
	for i := range d.Sections {
		raw.WriteString(d.Sections[i].Text)
	}
	if isBinary(mt, raw.String()) {
		if mt == MIMEMarkdown || strings.HasPrefix(mt, "text/") {
			mt = "application/octet-stream"
		}
		return &Contents{MIMEType: mt, Blob: []byte(raw.String())}
	}
	if mt == MIMEMarkdown {
		return &Contents{MIMEType: mt, Text: RenderDocument(d)}
	}
	text := raw.String()
	if text == "" {
		text = "(empty file)\n"
	}
	return &Contents{MIMEType: mt, Text: text}
}

// documentPage is the page of a document in its resource URI: "readme" for the README, else
// "doc/" + its path.
func documentPage(d *docidx.Document) string {
	if d.Kind == docidx.DocReadme {
		return docidx.PageReadme
	}
	return docidx.PageDocPrefix + d.Path
}
