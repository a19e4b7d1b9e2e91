package web

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"path"
	"strings"

	"github.com/docidx/docidx"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Package content is markdown written by strangers, so it is rendered with goldmark's defaults
// that matter here — raw HTML omitted (html.WithUnsafe is never set), dangerous URLs left out —
// and every link and image goes through linkRewriter:
//
//   - docidx:// URIs become the page paths of this server;
//   - relative links to a document of the same package version that is indexed become its page
//     (the README's links to docs/guide.md, ../README.md#usage);
//   - http, https and mailto links stay, with rel="noopener noreferrer nofollow": they simply do
//     not load offline;
//   - everything else (javascript:, data:, vbscript:, file:, relative links to files that are
//     not indexed) becomes its text, so that no link on a page is broken or runs anything;
//   - images become a link to the image with its alt text: the CSP forbids remote images, and
//     the snapshot holds none.
//
// Fenced code blocks are highlighted as the language of their info string (see highlight.go).
//
// Headings inside a section are rendered without ids; the section headings, rendered by the
// document page, carry the anchors docidx uses.

// markdownRenderer renders the markdown of one package version.
type markdownRenderer struct {
	md      goldmark.Markdown
	ref     docidx.Ref
	docPath string            // the document rendered, for its relative links; "" for doc comments
	docs    map[string]string // lower-cased slash path of each indexed document → its page path
}

// newMarkdown returns the renderer of markdown in the document at docPath of ref, docs being
// the version's documents (for relative links), highlighting code with hl.
func newMarkdown(hl *highlighter, ref docidx.Ref, docPath string, docs []docidx.Document) *markdownRenderer {
	m := &markdownRenderer{ref: ref, docPath: docPath, docs: make(map[string]string, len(docs))}
	for i := range docs {
		m.docs[strings.ToLower(docs[i].Path)] = docHref(ref, &docs[i])
	}
	m.md = goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(linkRewriter{m}, 100))),
		// Ahead of goldmark's own HTML renderer (priority 1000) for fenced code blocks.
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(codeRenderer{hl}, 100))),
	)
	return m
}

// section renders one document section: its heading, with the anchor docidx gives it as id,
// then its text.
func (m *markdownRenderer) section(sec *docidx.Section) template.HTML {
	var b bytes.Buffer
	if n := len(sec.Heading); n > 0 {
		level := min(n+1, 6) // the page title is the h1
		fmt.Fprintf(&b, "<h%d", level)
		if sec.Anchor != "" {
			fmt.Fprintf(&b, ` id="%s"`, template.HTMLEscapeString(sec.Anchor))
		}
		fmt.Fprintf(&b, ">%s", template.HTMLEscapeString(sec.Title()))
		if sec.Anchor != "" {
			fmt.Fprintf(&b, ` <a class="anchor" href="#%s" aria-label="link to this section">#</a>`, template.HTMLEscapeString(sec.Anchor))
		}
		fmt.Fprintf(&b, "</h%d>\n", level)
	}
	b.WriteString(string(m.text(sec.Text)))
	return template.HTML(b.String())
}

// text renders markdown source as safe HTML.
func (m *markdownRenderer) text(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	var b bytes.Buffer
	if err := m.md.Convert([]byte(src), &b); err != nil {
		// goldmark fails only when writing to b fails, which it does not; show the text plainly.
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(b.String())
}

// linkRewriter is the AST transformer that applies the link rules above.
type linkRewriter struct{ m *markdownRenderer }

// Transform implements parser.ASTTransformer.
func (t linkRewriter) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var links []ast.Node
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Link, *ast.Image, *ast.AutoLink, *ast.RawHTML, *ast.HTMLBlock:
			links = append(links, n)
		}
		return ast.WalkContinue, nil
	})
	for _, n := range links {
		switch n := n.(type) {
		case *ast.Link:
			t.rewrite(n, string(n.Destination))
		case *ast.Image:
			// A link to the image, labelled with its alt text.
			l := ast.NewLink()
			l.Destination, l.Title = n.Destination, n.Title
			moveChildren(n, l)
			if l.FirstChild() == nil {
				l.AppendChild(l, ast.NewString([]byte("image")))
			}
			n.Parent().ReplaceChild(n.Parent(), n, l)
			t.rewrite(l, string(l.Destination))
		case *ast.AutoLink:
			l := ast.NewLink()
			dest := string(n.URL(source))
			if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
				dest = "mailto:" + dest
			}
			l.Destination = []byte(dest)
			l.AppendChild(l, ast.NewString(n.Label(source)))
			n.Parent().ReplaceChild(n.Parent(), n, l)
			t.rewrite(l, dest)
		case *ast.RawHTML, *ast.HTMLBlock:
			// Raw HTML would be replaced by a comment saying so; drop it altogether.
			n.Parent().RemoveChild(n.Parent(), n)
		}
	}
}

// rewrite points l where the rules say, or replaces it by its text.
func (t linkRewriter) rewrite(l *ast.Link, dest string) {
	href, external, ok := t.m.target(strings.TrimSpace(dest))
	if !ok {
		parent := l.Parent()
		for c := l.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, l, c)
			c = next
		}
		parent.RemoveChild(parent, l)
		return
	}
	l.Destination = []byte(href)
	if external {
		l.SetAttributeString("rel", []byte("noopener noreferrer nofollow"))
	}
}

// target is where a link to dest goes: a page path of this server, an external URL (external
// true), or nowhere (ok false).
func (m *markdownRenderer) target(dest string) (href string, external, ok bool) {
	if dest == "" {
		return "", false, false
	}
	if strings.HasPrefix(dest, "#") {
		return dest, false, true
	}
	u, err := url.Parse(dest)
	if err != nil {
		return "", false, false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return u.String(), true, true
	case docidx.URIScheme:
		if dest == docidx.SnapshotURI {
			return "/snapshot", false, true
		}
		base, frag, _ := strings.Cut(dest, "#")
		if _, _, err := docidx.ParsePageURI(base); err != nil {
			return "", false, false
		}
		if frag != "" {
			frag = "#" + frag
		}
		return uriPath(base) + frag, false, true
	case "":
	default: // javascript:, data:, vbscript:, file: and the like
		return "", false, false
	}
	if u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") {
		return "", false, false // protocol-relative, query-only or site-absolute: not in the package
	}
	p := path.Clean(path.Join(path.Dir(m.docPath), u.Path))
	page, found := m.docs[strings.ToLower(p)]
	if !found {
		return "", false, false
	}
	if u.Fragment != "" {
		page += "#" + u.EscapedFragment()
	}
	return page, false, true
}

// moveChildren moves the children of from to the end of to.
func moveChildren(from, to ast.Node) {
	for c := from.FirstChild(); c != nil; {
		next := c.NextSibling()
		to.AppendChild(to, c)
		c = next
	}
}

// inlineCode is s, one line of text from a package (a synopsis, a description), as HTML with
// its code spans as <code>: "Set `field` to `val`" shows field and val as code. Everything
// else is text, escaped; a backtick string without its closing one is text, as CommonMark has
// it. It stands for goldmark on the lists that show hundreds of synopses (the API page), where
// converting each as a document cost more than the rest of the page.
func inlineCode(s string) template.HTML {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`")) // the opening backtick string
		end := closingTicks(s[i+n:], n)
		if end < 0 {
			b.WriteString(html.EscapeString(s[:i+n]))
			s = s[i+n:]
			continue
		}
		b.WriteString(html.EscapeString(s[:i]))
		code := s[i+n : i+n+end]
		if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
			code = code[1 : len(code)-1]
		}
		b.WriteString("<code>" + html.EscapeString(code) + "</code>")
		s = s[i+n+end+n:]
	}
	b.WriteString(html.EscapeString(s))
	return template.HTML(b.String()) // every piece of s escaped
}

// closingTicks returns the offset in s of the first string of exactly n backticks, or -1.
func closingTicks(s string, n int) int {
	for at := 0; at < len(s); {
		i := strings.IndexByte(s[at:], '`')
		if i < 0 {
			return -1
		}
		i += at
		m := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
		if m == n {
			return i
		}
		at = i + m
	}
	return -1
}
