package rustapi

import (
	"html"
	"regexp"
	"strings"

	"github.com/docidx/docidx/registries/internal/codespan"
)

// visible returns a doc comment's Markdown as rustdoc shows it to a reader, so that the index
// holds the words a reader sees and a passage spends no bytes on what rustdoc hides:
//
//   - In a Rust code block, the lines rustdoc hides are dropped: a line that is "#" alone or
//     starts with "# " after its indentation, and a leading "##" shows as "#" (The rustdoc book,
//     "Documentation tests", Hiding portions of the example; librustdoc's map_line). A code block
//     is Rust when its info string is empty or holds only rustdoc's code block attributes
//     ("rust", "ignore", "no_run", "should_panic", "compile_fail", "edition2021", ...); its info
//     string then becomes "rust", which is what rustdoc highlights it as.
//   - A link reference definition ("[name]: target" on a line of its own, after a blank line or
//     another definition) is dropped: Markdown shows nothing of it (CommonMark 0.31, 4.7), and
//     rustdoc resolves intra-doc targets ("[Foo]: crate::Foo") into the link it applies.
//   - A link shows its text, as a reader sees it (plainLinks): "[the runtime][Runtime]",
//     "[the runtime](crate::runtime)" and the intra-doc "[`Runtime`]" read "the runtime" and
//     "`Runtime`". A link to a URL ("[RFC 9110](https://…)") is kept whole: its address says
//     where to read on.
//   - HTML shows as what it renders (plainHTML): rustdoc's Markdown passes HTML through, and
//     crates write "<div class="warning">" around a warning, "<code>1.0.0-<b>rc.0</b></code>"
//     and "&mdash;". An element of HTML's own names loses its tags (code, b or strong, i or em
//     become Markdown's marks; br a line break), and a character reference its escape; a
//     generic written outside backticks ("Vec<T>") is no HTML element and stays.
//
// Fences follow CommonMark 0.31, 4.5: three or more backticks or tildes, indented at most three
// spaces, closed by a fence of the same character at least as long. Indented code blocks are
// left as they are. Inside a list item (5.2) those three spaces count from the item's content
// column: anyhow's Context documents two ways to add context as list items, each with an
// example fenced four spaces in, whose set-up lines rustdoc hides too.
func visible(text string) string {
	lines := strings.Split(text, "\n")
	out := lines[:0]
	var fence string // the open fence's marker, "" outside a code block
	rust := false    // the open code block is Rust
	prevBlank := true
	item := -1 // the content column of the list item the lines are in, -1 outside a list
	base := 0  // the column the open fence's indentation counts from: 0, or its list item's
	for _, l := range lines {
		t := strings.TrimLeft(l, " ")
		indent := len(l) - len(t)
		if fence == "" {
			if t != "" {
				if c, ok := listItem(t); ok {
					item = indent + c
				} else if indent < item {
					item = -1
				}
			}
			from := 0
			if item >= 0 && indent >= item {
				from = item
			}
			if marker, info, ok := openFence(t, indent-from); ok {
				fence, rust, base = marker, isRustInfo(info), from
				if rust {
					l = l[:indent] + marker + "rust"
				}
				out = append(out, l)
				prevBlank = false
				continue
			}
			if prevBlank && indent < 4 && linkDef.MatchString(t) {
				continue // prevBlank stays: a definition may follow a definition
			}
			out = append(out, plainHTML(plainLinks(l)))
			prevBlank = strings.TrimSpace(l) == ""
			continue
		}
		if indent >= base && indent-base < 4 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
			fence = ""
			out = append(out, l)
			prevBlank = false
			continue
		}
		if rust {
			trimmed := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(trimmed, "##"):
				l = strings.Replace(l, "##", "#", 1)
			case trimmed == "#", strings.HasPrefix(trimmed, "# "), strings.HasPrefix(trimmed, "#\t"):
				continue
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// listItem reports whether t, a line without its indentation, opens a list item (CommonMark
// 0.31, 5.2: "-", "+" or "*", or up to nine digits and "." or ")", then one to four spaces
// before the item's text), with the item's content column counted from the marker.
func listItem(t string) (int, bool) {
	n := 0
	switch {
	case t == "":
		return 0, false
	case t[0] == '-' || t[0] == '+' || t[0] == '*':
		n = 1
	default:
		for n < len(t) && n < 9 && isDigitByte(t[n]) {
			n++
		}
		if n == 0 || n >= len(t) || t[n] != '.' && t[n] != ')' {
			return 0, false
		}
		n++
	}
	sp := 0
	for n+sp < len(t) && t[n+sp] == ' ' {
		sp++
	}
	if sp == 0 || n+sp == len(t) {
		return 0, false
	}
	if sp > 4 { // an indented code block inside the item: its content starts one space in
		sp = 1
	}
	return n + sp, true
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// linkDef matches the start of a link reference definition: a bracketed label, a colon, and a
// destination on the same line.
var linkDef = regexp.MustCompile(`^\[(?:[^\]\\]|\\.)+\]:[ \t]*\S`)

// openFence reports whether t, a line without its indentation of indent spaces, opens a fenced
// code block, with the fence's marker (its run of backticks or tildes) and its info string.
func openFence(t string, indent int) (marker, info string, ok bool) {
	if indent > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(t[n:])
	if t[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	return t[:n], info, true
}

// isRustInfo reports whether a code block with this info string is Rust to rustdoc: empty, or
// only the attributes rustdoc reads (librustdoc's LangString::parse), separated by commas or
// spaces.
func isRustInfo(info string) bool {
	for _, tok := range strings.FieldsFunc(info, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		switch {
		case tok == "rust", tok == "ignore", tok == "no_run", tok == "should_panic",
			tok == "compile_fail", tok == "test_harness", tok == "standalone_crate",
			tok == "allow_fail":
		case strings.HasPrefix(tok, "edition"), strings.HasPrefix(tok, "ignore-"),
			strings.HasPrefix(tok, "E0"), strings.HasPrefix(tok, "{"):
		default:
			return false
		}
	}
	return true
}

// plainLinks returns line with its links as their text (see visible), code spans left as they
// are. Code spans that a link's brackets kept apart and that now touch are joined into one, as
// rustdoc renders them side by side: "[`Result`]`<T,`[`Elapsed`]`>`" reads "`Result<T,Elapsed>`",
// where the two backticks between "Result" and "<T," would leave one span open until the next
// single backtick.
func plainLinks(line string) string {
	if !strings.Contains(line, "[") {
		return line
	}
	out := make([]byte, 0, len(line))
	spanEnd := -1 // len(out) just after the last single-backtick code span written
	code := func(span string) {
		if !singleTickSpan(span) {
			out = append(out, span...)
			return
		}
		if spanEnd == len(out) {
			out = append(out[:len(out)-1], span[1:]...)
		} else {
			out = append(out, span...)
		}
		spanEnd = len(out)
	}
	for i := 0; i < len(line); {
		switch line[i] {
		case '`':
			end := codespan.End(line, i)
			code(line[i:end])
			i = end
			continue
		case '[':
			if text, end, ok := linkAt(line, i); ok {
				if singleTickSpan(text) {
					code(text)
				} else {
					out = append(out, text...)
				}
				i = end
				continue
			}
		}
		out = append(out, line[i])
		i++
	}
	return string(out)
}

// singleTickSpan reports whether s is one code span delimited by single backticks and holding
// none: "`Foo`", not a span of double backticks, nor an unclosed one.
func singleTickSpan(s string) bool {
	return len(s) > 2 && s[0] == '`' && s[len(s)-1] == '`' && !strings.Contains(s[1:len(s)-1], "`")
}

// linkAt reads the link whose text opens at line[i] ("["): a full or collapsed reference link
// ("[text][label]", "[text][]"), an inline link to a path ("[text](crate::x)"), or a shortcut
// link whose text is one code span ("[`Foo`]"). It returns the link's text and where the link
// ends; ok is false for anything else, a link to a URL included.
func linkAt(line string, i int) (text string, end int, ok bool) {
	k := i + 1
	for k < len(line) && line[k] != ']' {
		switch line[k] {
		case '[':
			return "", 0, false
		case '`':
			k = codespan.End(line, k)
			continue
		}
		k++
	}
	if k >= len(line) || k == i+1 {
		return "", 0, false
	}
	text = line[i+1 : k]
	rest := line[k+1:]
	switch {
	case strings.HasPrefix(rest, "["):
		if m := strings.IndexByte(rest, ']'); m > 0 {
			return text, k + 1 + m + 1, true
		}
	case strings.HasPrefix(rest, "("):
		m := strings.IndexByte(rest, ')')
		if m > 0 && !strings.Contains(rest[:m], "://") && !strings.ContainsAny(rest[1:m], " \t") {
			return text, k + 1 + m + 1, true
		}
	case len(text) > 2 && text[0] == '`' && codespan.End(text, 0) == len(text):
		return text, k + 1, true
	}
	return "", 0, false
}

// htmlTag matches an HTML start or end tag (CommonMark 0.31, 6.6, raw HTML): its name and, for
// a start tag, its attributes.
var htmlTag = regexp.MustCompile(`</?([A-Za-z][A-Za-z0-9-]*)(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>` + "`" + `]+))?)*\s*/?>`)

// charRef matches a character reference: named, decimal or hexadecimal, ending in ";".
var charRef = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// htmlMarks are the elements whose tags become Markdown's marks; htmlElements the other names of
// HTML elements (the WHATWG HTML standard's) whose tags are dropped, their text kept.
var (
	htmlMarks    = map[string]string{"code": "`", "b": "**", "strong": "**", "i": "*", "em": "*"}
	htmlElements = map[string]bool{
		"a": true, "abbr": true, "br": true, "center": true, "dd": true, "del": true, "details": true,
		"div": true, "dl": true, "dt": true, "font": true, "h1": true, "h2": true, "h3": true, "h4": true,
		"h5": true, "h6": true, "hr": true, "img": true, "ins": true, "kbd": true, "li": true, "mark": true,
		"ol": true, "p": true, "pre": true, "q": true, "s": true, "samp": true, "small": true,
		"span": true, "sub": true, "summary": true, "sup": true, "table": true, "tbody": true,
		"td": true, "tfoot": true, "th": true, "thead": true, "tr": true, "tt": true, "u": true,
		"ul": true, "var": true, "wbr": true,
	}
)

// plainHTML returns line with its HTML as it renders (see visible), code spans left as they are.
func plainHTML(line string) string {
	if !strings.ContainsAny(line, "<&") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		j := strings.IndexByte(line[i:], '`')
		if j < 0 {
			j = len(line)
		} else {
			j += i
		}
		b.WriteString(htmlText(line[i:j]))
		if j == len(line) {
			break
		}
		end := codespan.End(line, j)
		b.WriteString(line[j:end])
		i = end
	}
	return b.String()
}

// htmlText returns text, a line's run outside code spans, with the tags of HTML elements
// replaced as plainHTML says (no marks inside <code>, which Markdown shows as written) and its
// character references resolved.
func htmlText(text string) string {
	inCode := false
	text = htmlTag.ReplaceAllStringFunc(text, func(tag string) string {
		name := strings.ToLower(htmlTag.FindStringSubmatch(tag)[1])
		switch {
		case name == "code":
			inCode = !strings.HasPrefix(tag, "</")
			return "`"
		case htmlMarks[name] != "":
			if inCode {
				return ""
			}
			return htmlMarks[name]
		case name == "br":
			return "  \n"
		case name == "td" || name == "th":
			return " " // cells stay apart
		case htmlElements[name]:
			return ""
		}
		return tag
	})
	return charRef.ReplaceAllStringFunc(text, html.UnescapeString)
}
