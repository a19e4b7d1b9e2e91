package pyscan

import (
	"strings"

	"github.com/docidx/docidx"
)

// stubDefault is the default a typing.overload or a .pyi stub writes for a parameter that has
// one without saying which: "timeout: float = ...".
const stubDefault = "..."

// FillDefaults returns sig, a definition's signature lines, with each stub default ("= ...")
// replaced by the default the same parameter has in source, the signature lines of the
// definition that implements it (an overloaded function's implementation, or the .py module
// beside a .pyi stub), when source gives one that is not itself a stub default and fits in
// MaxValue bytes. A parameter source does not know keeps its "= ...": it has a default, and
// dropping the "= ..." would make it look required.
func FillDefaults(sig, source string) string {
	if !strings.Contains(sig, stubDefault) || source == "" {
		return sig
	}
	defaults := map[string]string{}
	for _, line := range strings.Split(source, "\n") {
		for _, part := range paramParts(line) {
			name, def := splitParam(part)
			name = cTypedName(part, name)
			if _, seen := defaults[name]; name != "" && def != "" && def != stubDefault && !seen {
				defaults[name] = def
			}
		}
	}
	if len(defaults) == 0 {
		return sig
	}
	lines := strings.Split(sig, "\n")
	for i, line := range lines {
		var b strings.Builder
		last := 0
		for _, part := range paramPartRanges(line) {
			name, def := splitParam(line[part[0]:part[1]])
			v, ok := defaults[name]
			if def != stubDefault || !ok || len(v) > MaxValue {
				continue
			}
			end := part[0] + strings.LastIndex(line[part[0]:part[1]], stubDefault)
			b.WriteString(line[last:end])
			b.WriteString(v)
			last = end + len(stubDefault)
		}
		if last > 0 {
			b.WriteString(line[last:])
			lines[i] = b.String()
		}
	}
	return strings.Join(lines, "\n")
}

// cTypedName returns the name of the rendered parameter part whose first word is first: first
// itself, or for a Cython parameter with a C type ("int x=3", "Node node not None", "char* s")
// the last word before its default.
func cTypedName(part, first string) string {
	pre := strings.TrimSpace(part)
	codeBytes(pre, 0, func(i int, c byte, depth int) bool {
		if depth == 0 && (c == '=' || c == ':') {
			pre = pre[:i]
			return false
		}
		return true
	})
	words := strings.Fields(pre)
	if n := len(words); n > 2 && words[n-1] == "None" && (words[n-2] == "not" || words[n-2] == "or") {
		words = words[:n-2]
	}
	if len(words) < 2 {
		return first
	}
	last := words[len(words)-1]
	for i := 0; i < len(last); i++ {
		if !(isIdentStart(last[i]) || i > 0 && isDigit(last[i])) {
			return first
		}
	}
	return last
}

// paramParts returns the parameters of one rendered signature line (see paramPartRanges).
func paramParts(line string) []string {
	ranges := paramPartRanges(line)
	out := make([]string, len(ranges))
	for i, r := range ranges {
		out[i] = line[r[0]:r[1]]
	}
	return out
}

// paramPartRanges returns the byte ranges of the parameters of one rendered signature line
// ("def f(a, b: int = 1, *, c=...) -> X"): the text inside its first parenthesis, split at the
// commas outside brackets and string literals. A line without a parameter list has none.
func paramPartRanges(line string) [][2]int {
	open := strings.IndexByte(line, '(')
	if open < 0 {
		return nil
	}
	var out [][2]int
	start, closed := open+1, false
	codeBytes(line, open+1, func(i int, c byte, depth int) bool {
		switch {
		case depth == 0 && (c == ')' || c == ']' || c == '}'):
			if start < i {
				out = append(out, [2]int{start, i})
			}
			closed = true
			return false
		case depth == 0 && c == ',':
			out = append(out, [2]int{start, i})
			start = i + 1
		}
		return true
	})
	if closed {
		return out
	}
	return nil // unbalanced: no parameter list to trust
}

// splitParam returns the name (without stars) and the default of one rendered parameter
// ("*, timeout: float = 30" has none: "*" is not a parameter; "timeout: float = 30" is
// "timeout", "30"). The default is the text after the first "=" outside brackets and strings.
func splitParam(part string) (name, def string) {
	part = strings.TrimSpace(part)
	n := strings.TrimLeft(part, "*")
	end := 0
	for end < len(n) && (isIdentStart(n[end]) || end > 0 && isDigit(n[end])) {
		end++
	}
	name = n[:end]
	codeBytes(n, end, func(i int, c byte, depth int) bool {
		if c == '=' && depth == 0 {
			def = strings.TrimSpace(n[i+1:])
			return false
		}
		return true
	})
	return name, def
}

// maxProseDoc bounds the description proseDocs takes from a sentence, in bytes.
const maxProseDoc = 400

// proseDocs gives each parameter of params without a description the line of docs (docstrings
// cleaned as inspect.cleandoc does) that defines it ([definitionLine]: PEP 257's "real -- the
// real part (default 0.0)"), else the first sentence that names it: as inline code (double
// backquotes, `timeout`, *timeout*) or, for a name with an underscore, as a word
// (ignore_sighup). Many docstrings describe their parameters in prose ("When the keyword
// argument timeout is specified as a number, (default: *30*), then TIMEOUT will be raised after
// …", pexpect's spawn); the sentence is the parameter's description. Code blocks and doctests
// are not searched. A description so found also gives the default it states when the
// parameter has none ([docDefault]).
func proseDocs(params []docidx.Param, docs ...string) {
	var paras []string
	for i := range params {
		p := &params[i]
		if p.Doc != "" || strings.HasPrefix(p.Name, "*") {
			continue
		}
		if d := definitionLine(docs, p.Name); d != "" {
			p.Doc = d
			if p.Default == "" {
				p.Default = docDefault(d)
			}
			continue
		}
		if paras == nil {
			paras = proseParagraphs(docs)
		}
		for _, para := range paras {
			if s := sentenceNaming(para, p.Name); s != "" {
				p.Doc = s
				if p.Default == "" {
					p.Default = docDefault(s)
				}
				break
			}
		}
	}
}

// definitionMarks are what separates a parameter's name from its description in a line that
// defines it: PEP 257's double dash (https://peps.python.org/pep-0257/#multi-line-docstrings:
// "real -- the real part (default 0.0)"), and the single dash and colon of docstrings written
// the same way without it ("limit - The total number of simultaneous connections.", aiohttp's
// BaseConnector).
var definitionMarks = []string{" -- ", " - ", ": "}

// definitionLine returns the description that a line of docs (cleaned docstrings) opening
// with name and a definitionMark gives the parameter name, with the lines below it indented
// deeper, joined on one line and cut at maxProseDoc bytes; or "". The line is the name's
// definition only when it opens with the name itself, as the signature spells it, at the
// docstring's margin: a list item ("- limit - …"), a sentence ("Limit: …" of another word), a
// literal block's or a fenced code block's line ("    timeout: 30" of a YAML example) is not.
func definitionLine(docs []string, name string) string {
	for _, doc := range docs {
		lines := strings.Split(doc, "\n")
		fenced := false
		for i, line := range lines {
			if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
				fenced = !fenced
				continue
			}
			rest, ok := strings.CutPrefix(line, name)
			if !ok || fenced {
				continue
			}
			var desc string
			for _, mark := range definitionMarks {
				if d, ok := strings.CutPrefix(rest, mark); ok {
					desc = d
					break
				}
			}
			if strings.TrimSpace(desc) == "" {
				continue
			}
			parts := []string{strings.TrimSpace(desc)}
			for _, next := range lines[i+1:] {
				t := strings.TrimLeft(next, " ")
				if t == "" || t == next {
					break
				}
				parts = append(parts, strings.TrimSpace(t))
			}
			return cut(strings.Join(parts, " "), maxProseDoc)
		}
	}
	return ""
}

// proseParagraphs returns the paragraphs of docs, each joined into one line, leaving out
// indented blocks (literal blocks, directive bodies), doctests and field lists.
func proseParagraphs(docs []string) []string {
	var out []string
	for _, doc := range docs {
		for _, para := range strings.Split(doc, "\n\n") {
			para = strings.Trim(para, "\n")
			if para == "" || para[0] == ' ' || strings.HasPrefix(para, ">>>") || strings.HasPrefix(para, ":") || strings.HasPrefix(para, "..") {
				continue
			}
			out = append(out, strings.Join(strings.Fields(para), " "))
		}
	}
	return out
}

// sentenceNaming returns the sentence of para that names name (see proseDocs), cut at
// maxProseDoc bytes, or "".
func sentenceNaming(para, name string) string {
	at := -1
	for _, mark := range []string{"``", "`", "*"} {
		if i := strings.Index(para, mark+name+mark); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if strings.Contains(name, "_") {
		if i := wordIndex(para, name); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return ""
	}
	start := 0
	if i := strings.LastIndex(para[:at], ". "); i >= 0 {
		start = i + 2
	}
	end := len(para)
	if i := strings.Index(para[at:], ". "); i >= 0 {
		end = at + i + 1
	}
	return cut(para[start:end], maxProseDoc)
}

// wordIndex returns the index of name in s as a whole word (not inside a longer identifier
// or dotted name), or -1.
func wordIndex(s, name string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(name)
		before := i == 0 || !isIdentStart(s[i-1]) && !isDigit(s[i-1]) && s[i-1] != '.'
		after := end == len(s) || !isIdentStart(s[end]) && !isDigit(s[end])
		if before && after {
			return i
		}
		off = i + 1
	}
}

// firstSentence returns the first sentence of a docstring's first paragraph, on one line, cut
// at maxProseDoc bytes.
func firstSentence(doc string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	if i := strings.Index(para, ". "); i >= 0 {
		para = para[:i+1]
	}
	return cut(para, maxProseDoc)
}
