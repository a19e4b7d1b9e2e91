package web

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A search result's passage (answer.SearchResult.Snippet) is the stored text of a section or
// symbol cut around the question's words: units one per line — a paragraph, list item or
// table row — and code blocks between "```" lines, with "…" where text is left out (see
// package index's passage.go). It is shown as the markdown it is: each unit a paragraph of its
// own (consecutive list items one list, consecutive table rows one table), code highlighted
// in a <pre> as its fence's language, inline code as <code>, and the question's words marked.
// It is rendered by the same goldmark setup as the package pages (markdown.go: no raw HTML,
// links filtered), but what looks like an HTML tag in a passage is shown as its text: a
// section's stored text is its plain text, where "Array<string>" is words, not markup.

// passageMarkdown renders the passages of one results page, marking words (lower case, as
// queryWords makes them).
func (h *Handler) passageMarkdown(words []string) *markdownRenderer {
	m := &markdownRenderer{}
	m.md = goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithASTTransformers(
			// Lower runs first: ahead of linkRewriter, which drops raw HTML; marks after it, on
			// the text it keeps.
			util.Prioritized(htmlAsText{}, 50),
			util.Prioritized(linkRewriter{m}, 100),
			util.Prioritized(wordMarker{words}, 200),
		)),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(codeRenderer{h.hl}, 100),
			util.Prioritized(markRenderer{}, 100),
		)),
	)
	return m
}

// passage renders a search result's passage as HTML.
func (m *markdownRenderer) passage(p string) template.HTML {
	return m.text(passageSource(p))
}

// passageSource turns a passage's units into markdown blocks: a blank line between two units,
// but for consecutive list items and table rows, which stay one list or table; the lines of a
// code block as they are. A fence that a leading "… " or a trailing " …" shares a line with
// gets a line of its own.
func passageSource(p string) string {
	var b strings.Builder
	b.Grow(len(p) + len(p)/8)
	inCode := false
	prev := "" // the previous unit outside code, "" after a code block
	unit := func(l string) {
		if b.Len() > 0 && !(listItem(prev) && listItem(l)) && !(tableRow(prev) && tableRow(l)) {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		b.WriteByte('\n')
		prev = l
	}
	for line := range strings.Lines(p) {
		l := strings.TrimSuffix(line, "\n")
		t := strings.TrimSpace(l)
		if !inCode {
			if rest, ok := strings.CutPrefix(t, "… "); ok && strings.HasPrefix(rest, "```") {
				unit("…")
				t = rest
			}
		}
		if strings.HasPrefix(t, "```") {
			if !inCode {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(t + "\n")
			} else {
				b.WriteString("```\n")
				if rest := strings.TrimSpace(strings.TrimLeft(t, "`")); rest != "" {
					unit(rest) // "``` …"
				}
			}
			inCode, prev = !inCode, ""
			continue
		}
		if inCode {
			b.WriteString(l + "\n")
			continue
		}
		if t != "" {
			unit(t)
		}
	}
	if inCode {
		b.WriteString("```\n")
	}
	return b.String()
}

// listItem reports whether a unit is a list item.
func listItem(u string) bool {
	switch {
	case strings.HasPrefix(u, "- "), strings.HasPrefix(u, "* "), strings.HasPrefix(u, "+ "):
		return true
	}
	i := 0
	for i < len(u) && u[i] >= '0' && u[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(u) && (u[i] == '.' || u[i] == ')') && u[i+1] == ' '
}

// tableRow reports whether a unit is a row of a table.
func tableRow(u string) bool { return strings.HasPrefix(u, "|") }

// htmlAsText is the AST transformer that makes the raw HTML goldmark finds in a passage its
// text: an inline tag becomes a text node, an HTML block a paragraph of its lines.
type htmlAsText struct{}

// Transform implements parser.ASTTransformer.
func (htmlAsText) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var found []ast.Node
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n.(type) {
			case *ast.RawHTML, *ast.HTMLBlock:
				found = append(found, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range found {
		var b bytes.Buffer
		switch n := n.(type) {
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				b.Write(seg.Value(source))
			}
			n.Parent().ReplaceChild(n.Parent(), n, ast.NewString(b.Bytes()))
		case *ast.HTMLBlock:
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
			if n.HasClosure() {
				b.Write(n.ClosureLine.Value(source))
			}
			p := ast.NewParagraph()
			p.AppendChild(p, ast.NewString(bytes.TrimRight(b.Bytes(), "\n")))
			n.Parent().ReplaceChild(n.Parent(), n, p)
		}
	}
}

// kindMark is the kind of markNode.
var kindMark = ast.NewNodeKind("Mark")

// markNode is a word of the question in a passage's text, rendered as <mark>.
type markNode struct{ ast.BaseInline }

// Kind implements ast.Node.
func (n *markNode) Kind() ast.NodeKind { return kindMark }

// Dump implements ast.Node.
func (n *markNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// markRenderer renders markNode.
type markRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (markRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMark, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString("<mark>")
		} else {
			_, _ = w.WriteString("</mark>")
		}
		return ast.WalkContinue, nil
	})
}

// wordMarker is the AST transformer that marks the words of a passage's text that match the
// question's (see highlight); code, inline or in blocks, is left as it is.
type wordMarker struct{ words []string }

// Transform implements parser.ASTTransformer.
func (t wordMarker) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	if len(t.words) == 0 {
		return
	}
	source := reader.Source()
	var texts []*ast.Text
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil // goldmark renders a code span's text nodes only
		case *ast.Text:
			if entering {
				texts = append(texts, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, tx := range texts {
		seg := tx.Segment
		segs := highlight(string(seg.Value(source)), t.words)
		if !marked(segs) {
			continue
		}
		parent := tx.Parent()
		at := seg.Start
		var last *ast.Text
		for _, s := range segs {
			piece := ast.NewTextSegment(text.NewSegment(at, at+len(s.Text)))
			at += len(s.Text)
			if s.Mark {
				mk := &markNode{}
				mk.AppendChild(mk, piece)
				parent.InsertBefore(parent, tx, mk)
			} else {
				parent.InsertBefore(parent, tx, piece)
			}
			last = piece
		}
		// The text's line break, if it ends with one, follows its last piece.
		last.SetSoftLineBreak(tx.SoftLineBreak())
		last.SetHardLineBreak(tx.HardLineBreak())
		parent.RemoveChild(parent, tx)
	}
}

// marked reports whether one of segs is marked.
func marked(segs []segment) bool {
	for _, s := range segs {
		if s.Mark {
			return true
		}
	}
	return false
}
