package readme

import (
	"github.com/yuin/goldmark/ast"
	gmparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark's parser takes time that grows faster than its input on some pathological markdown:
// thousands of emphasis or link delimiters in one paragraph ("_a*_a*…", "[a]([a](…"), block
// quotes nested thousands deep on one line (">>>>…"), and thousands of link reference
// definitions in one paragraph. Measured with goldmark v1.8.7, 150 KB of "_a*" took 32 s.
// guard rewrites such spots before goldmark sees them, so that Parse stays roughly linear.
const (
	// maxNesting is how many block quote and list markers one line may open.
	maxNesting = 32
	// maxDelims is how many emphasis, strikethrough and link delimiters ('*', '_', '~', '[',
	// ']') one paragraph, heading or table row may hold.
	maxDelims = 2048
	// maxParaLines is how many lines one paragraph may span.
	maxParaLines = 1000
)

// blockParser finds paragraphs without parsing their inline content, which is where the cost is.
var blockParser = gmparser.NewParser(gmparser.WithBlockParsers(gmparser.DefaultBlockParsers()...))

// guard returns src, or when src holds markdown that goldmark parses slowly, a copy of the same
// length in which the excess is blanked out: container markers past maxNesting on a line, and
// every delimiter of a paragraph, heading or table row that holds more than maxDelims of them;
// a paragraph longer than maxParaLines lines is split by turning the first byte of every
// maxParaLines-th line into a line break. Offsets into the copy are offsets into src, so the
// caller can parse the copy and still slice text out of src. Only input no README has is changed.
func guard(src []byte) []byte {
	g := guarded{src: src, out: src}
	g.nesting()
	if !risky(g.out) {
		return g.out
	}
	doc := blockParser.Parse(text.NewReader(g.out))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindParagraph, ast.KindHeading, ast.KindTextBlock:
			g.paragraph(n.Lines())
			return ast.WalkSkipChildren, nil
		case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return g.out
}

// risky reports whether some run of lines that could be one paragraph holds more than maxDelims
// delimiters or maxParaLines lines. A paragraph never spans a blank line or an ATX heading line,
// so no paragraph can exceed a limit that no such run exceeds; this linear scan spares ordinary
// input the exact check, which parses the block structure.
func risky(s []byte) bool {
	delims, lines := 0, 0
	for i := 0; i < len(s); {
		end := i
		for end < len(s) && s[end] != '\n' {
			end++
		}
		if breaksParagraph(s[i:end]) {
			delims, lines = 0, 0
		} else {
			lines++
			for _, c := range s[i:end] {
				switch c {
				case '*', '_', '~', '[', ']':
					delims++
				}
			}
			if delims > maxDelims || lines > maxParaLines {
				return true
			}
		}
		i = end + 1
	}
	return false
}

// breaksParagraph reports whether a line always ends a paragraph: a blank line, or an ATX
// heading ("## x") indented less than four spaces.
func breaksParagraph(line []byte) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
		i++
	}
	if i == len(line) {
		return true
	}
	if i > 3 || line[i] != '#' {
		return false
	}
	j := i
	for j < len(line) && line[j] == '#' {
		j++
	}
	return j-i <= 6 && (j == len(line) || line[j] == ' ' || line[j] == '\t' || line[j] == '\r')
}

type guarded struct {
	src, out []byte // out is src until the first change, then a copy
}

func (g *guarded) set(i int, c byte) {
	if len(g.out) > 0 && &g.out[0] == &g.src[0] {
		g.out = append([]byte(nil), g.src...)
	}
	g.out[i] = c
}

// nesting blanks the block quote and list markers past maxNesting at the start of each line.
func (g *guarded) nesting() {
	s := g.out
	for i := 0; i < len(s); {
		depth := 0
	prefix:
		for i < len(s) {
			switch c := s[i]; {
			case c == ' ' || c == '\t':
				i++
			case c == '>':
				depth++
				if depth > maxNesting {
					g.set(i, ' ')
				}
				i++
			case (c == '-' || c == '+' || c == '*') && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t'):
				depth++
				if depth > maxNesting {
					g.set(i, ' ')
				}
				i += 2
			case '0' <= c && c <= '9':
				j := i
				for j < len(s) && j-i < 9 && '0' <= s[j] && s[j] <= '9' {
					j++
				}
				if j+1 >= len(s) || s[j] != '.' && s[j] != ')' || s[j+1] != ' ' && s[j+1] != '\t' {
					break prefix
				}
				depth++
				if depth > maxNesting {
					for k := i; k <= j; k++ {
						g.set(k, ' ')
					}
				}
				i = j + 2
			default:
				break prefix
			}
		}
		for i < len(s) && s[i] != '\n' {
			i++
		}
		i++
	}
}

// paragraph enforces maxParaLines and maxDelims on one leaf block's lines. A paragraph that
// looks like a table is checked row by row, since goldmark parses each cell on its own.
func (g *guarded) paragraph(lines *text.Segments) {
	n := lines.Len()
	for i := maxParaLines; i < n; i += maxParaLines {
		if seg := lines.At(i); seg.Start < seg.Stop {
			g.set(seg.Start, '\n')
		}
	}
	if n >= 2 && g.isTableDelimiterRow(lines.At(1)) {
		for i := 0; i < n; i++ {
			seg := lines.At(i)
			if g.count(seg) > maxDelims {
				g.blank(seg)
			}
		}
		return
	}
	total := 0
	for i := 0; i < n; i++ {
		total += g.count(lines.At(i))
	}
	if total > maxDelims {
		for i := 0; i < n; i++ {
			g.blank(lines.At(i))
		}
	}
}

func (g *guarded) count(seg text.Segment) int {
	n := 0
	for _, c := range g.out[seg.Start:seg.Stop] {
		switch c {
		case '*', '_', '~', '[', ']':
			n++
		}
	}
	return n
}

func (g *guarded) blank(seg text.Segment) {
	for i := seg.Start; i < seg.Stop; i++ {
		switch g.out[i] {
		case '*', '_', '~', '[', ']':
			g.set(i, ' ')
		}
	}
}

// isTableDelimiterRow reports whether a line is a GFM table's delimiter row, like "|---|:-:|".
func (g *guarded) isTableDelimiterRow(seg text.Segment) bool {
	dash, pipe := false, false
	for _, c := range g.out[seg.Start:seg.Stop] {
		switch c {
		case '-':
			dash = true
		case '|':
			pipe = true
		case ':', ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return dash && pipe
}
