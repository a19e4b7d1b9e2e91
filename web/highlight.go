package web

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"html"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/docidx/docidx"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Signatures and code blocks are highlighted on the server with chroma, as spans with CSS
// classes only: the pages' CSP (style-src 'self') refuses style attributes, so the colours
// are in static/chroma.css, generated from chroma's "github" and "github-dark" styles (see
// internal/gencss). chroma escapes every token with html.EscapeString; the markup around
// the tokens is written here and has no value from the package in it.

//go:generate go run ./internal/gencss -o static/chroma.css
//go:generate go run ./internal/genlexers -o lexers.zip

// maxHighlight is the most bytes of code highlighted at once: chroma's lexers are regular
// expressions, and a megabyte-long generated listing in a README would hold a page for
// seconds. Longer code is shown plain.
const maxHighlight = 64 << 10

// codeFormatter writes tokens as spans with classes, without chroma's <pre> and per-line
// spans: the page writes its own <pre class="chroma"><code>.
var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

// classStyle is the style codeFormatter formats with: writing classes, it takes no colour from
// it, so none is given. chroma's styles package is left to internal/gencss, which writes the
// colours: it parses the XML of its seventy styles when a program starts, 4 ms of every start
// of docidx, an editor's serve --stdio included.
var classStyle = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// ecosystemLanguage is the chroma language of each ecosystem's signatures.
var ecosystemLanguage = map[docidx.Ecosystem]string{
	docidx.Go:    "go",
	docidx.NPM:   "typescript",
	docidx.PyPI:  "python",
	docidx.Cargo: "rust",
	docidx.Swift: "swift",
}

// lexer returns the chroma lexer of lang, a language name or alias ("go", "ts", "py",
// "rust", "sh", …) in any case, or nil when chroma does not know it.
func lexer(lang string) chroma.Lexer {
	l := lexerNames()[strings.ToLower(strings.TrimSpace(lang))]
	if l == nil {
		return nil
	}
	return chroma.Coalesce(l)
}

// lexerNames maps the lower-cased names and aliases of chroma's lexers to them, made on first
// use. It stands for lexers.Get, which tries a name it does not know against every lexer's file
// name patterns, 12 ms each time: a README whose fences name made-up languages would take
// seconds.
var lexerNames = sync.OnceValue(func() map[string]chroma.Lexer {
	m := map[string]chroma.Lexer{}
	for _, l := range lexerRegistry().Lexers {
		c := l.Config()
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			n = strings.ToLower(n)
			if _, dup := m[n]; !dup && n != "" {
				m[n] = l
			}
		}
	}
	return m
})

// lexersZip holds chroma's lexers as XML, one file each, in the order of chroma's registry:
// those that chroma serialises, written by internal/genlexers. docidx does not import chroma's
// lexers package, whose initializer parses the configuration of every lexer when a program
// starts — 5 ms, a third of the time from the start of an editor's serve --stdio to its answer
// to initialize, for pages that serve may never show. chroma's fix (alecthomas/chroma#1356) is
// not in a release yet.
//
//go:embed lexers.zip
var lexersZip []byte

// lexerRegistry is chroma's registry of lexers made from lexersZip, on first use: as chroma's
// own but for the lexers that do not serialise (its delegating and remapping lexers, markdown,
// HTTP, Haxe, Raku, reStructuredText, Caddyfile: code in those languages is shown plain; see
// notSerialisable in the tests). A lexer that
// lexes part of its text with another (HTML's scripts as JavaScript) finds it here. A lexer
// that does not load is left out, as one chroma does not know.
var lexerRegistry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	zr, err := zip.NewReader(bytes.NewReader(lexersZip), int64(len(lexersZip)))
	if err != nil {
		return reg
	}
	for _, f := range zr.File {
		if l, err := chroma.NewXMLLexer(zr, f.Name); err == nil {
			reg.Register(l)
		}
	}
	if goLexer, ok := reg.Get("Go").(*chroma.RegexLexer); ok {
		if tmpl := reg.Get("Go Text Template"); tmpl != nil {
			reg.Register(goRawStrings(goLexer, tmpl)) // in Go's place
		}
	}
	return reg
})

// goRawString is the pattern of the Go lexer's rule for raw strings (see goRawStrings).
const goRawString = "(`)([^`]*)(`)"

// goRawStrings returns the Go lexer goLexer as chroma has it: its raw strings lexed as a Go
// text template (tmpl) whose text is a string. That rule's lexer is Go code, which does not
// serialise: internal/genlexers writes it as a plain use of tmpl, and it is put back here.
func goRawStrings(goLexer *chroma.RegexLexer, tmpl chroma.Lexer) chroma.Lexer {
	cfg := *goLexer.Config()
	return chroma.MustNewLexer(&cfg, func() chroma.Rules {
		rules, err := goLexer.Rules()
		if err != nil {
			return nil // the lexer fails to tokenise, and its code is shown plain
		}
		out := chroma.Rules{}
		for state, rs := range rules {
			out[state] = append([]chroma.Rule(nil), rs...)
			for i, r := range rs {
				if r.Pattern == goRawString {
					out[state][i].Type = chroma.ByGroups(chroma.LiteralString,
						chroma.UsingLexer(chroma.TypeRemappingLexer(tmpl, chroma.TypeMapping{{From: chroma.Other, To: chroma.LiteralString}})),
						chroma.LiteralString)
				}
			}
		}
		return out
	})
}

// highlighter highlights code, keeping what it highlighted: chroma's lexers are regular
// expressions tried one after another, some 80 µs for a one-line Go signature, which made the
// API outline of workpool 6.6 times slower (105 → 700 µs) and would add a quarter of a second
// to an outline of 3,000 symbols. A package's signatures are the same on every visit, and a
// snapshot holds few distinct ones per page viewed, so after the first visit of a page its
// code costs a map lookup. It is safe for concurrent use.
type highlighter struct {
	mu    sync.Mutex
	done  map[string]string // lang + "\x00" + code → the HTML of its tokens
	bytes int               // the length of done's keys and values
}

// highlightCacheBytes bounds the memory of a highlighter: when the code kept would pass it,
// what was kept is dropped and keeping starts again, which costs a first visit's time once.
const highlightCacheBytes = 32 << 20

// writeCode writes code as <pre class="chroma"><code>…</code></pre>, highlighted as lang
// when chroma knows lang, else plain; either way every character of code is escaped.
func (h *highlighter) writeCode(b codeWriter, lang, code string) {
	_, _ = b.WriteString(`<pre class="chroma"><code>`)
	_, _ = b.WriteString(h.tokens(lang, code))
	_, _ = b.WriteString("</code></pre>\n")
}

// code is writeCode as HTML for a template.
func (h *highlighter) code(lang, code string) template.HTML {
	var b strings.Builder
	h.writeCode(&b, lang, code)
	return template.HTML(b.String()) // every token escaped by chroma or html.EscapeString
}

// codeWriter is where code is written: a strings.Builder, goldmark's bufio.Writer.
type codeWriter interface {
	io.Writer
	io.StringWriter
}

// tokens is the HTML of code's highlighted tokens, or code escaped when it cannot be
// highlighted.
func (h *highlighter) tokens(lang, code string) string {
	if len(code) > maxHighlight {
		return html.EscapeString(code)
	}
	key := strings.ToLower(lang) + "\x00" + code
	h.mu.Lock()
	out, ok := h.done[key]
	h.mu.Unlock()
	if ok {
		return out
	}
	out = highlightTokens(lang, code)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done == nil || h.bytes+len(key)+len(out) > highlightCacheBytes {
		h.done, h.bytes = map[string]string{}, 0
	}
	h.done[key] = out
	h.bytes += len(key) + len(out)
	return out
}

// highlightTokens is the HTML of code's tokens as lang, or code escaped when chroma does not know
// lang.
func highlightTokens(lang, code string) string {
	l := lexer(lang)
	if l == nil {
		return html.EscapeString(code)
	}
	// Tokenise fails only when a lexer's rules do not compile, before any output; the
	// formatter fails only when its writer does, and a strings.Builder does not.
	it, err := l.Tokenise(nil, code)
	if err != nil {
		return html.EscapeString(code)
	}
	var b strings.Builder
	_ = codeFormatter.Format(&b, classStyle, plainSpace(it))
	return b.String()
}

// plainSpace makes whitespace tokens plain text, which the formatter writes without a span:
// no style colours whitespace, and a signature's spaces would otherwise be a third of its HTML.
func plainSpace(it chroma.Iterator) chroma.Iterator {
	return func() chroma.Token {
		t := it()
		if t.Type == chroma.TextWhitespace || t.Type == chroma.Whitespace {
			t.Type = chroma.Text
		}
		return t
	}
}

// codeRenderer renders fenced code blocks of markdown highlighted as the language their info
// string names ("```go"); blocks without a known language are plain, as goldmark has them.
// The info string itself is never written: goldmark's class="language-…" is left out.
type codeRenderer struct{ hl *highlighter }

// RegisterFuncs implements renderer.NodeRenderer.
func (r codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.renderFencedCode)
}

func (r codeRenderer) renderFencedCode(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var code strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		code.Write(seg.Value(source))
	}
	var lang string
	if l := n.Language(source); l != nil {
		lang = string(l)
	}
	r.hl.writeCode(w, lang, code.String())
	return ast.WalkSkipChildren, nil
}
