package rst

import (
	"strings"
)

// Inline converts the reStructuredText inline markup of s
// (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html#inline-markup) to
// markdown and to plain text: double-backquoted literals and code-like roles (:func:`f`,
// :class:`~a.B`) become code spans, `title <url>`_ hyperlinks become [title](url), **strong**
// and *emphasis* stay as they are in markdown, references (name_, `name`_, footnotes [1]_) keep
// only their text, and substitutions (|name|) are replaced by their definition's text (none for
// an image) or, undefined, by their name. Plain text has no markup at all. Line
// breaks are kept. Markup does not span paragraphs (text blocks apart by a blank line), as
// docutils recognises it within a text block: the "*" of a signature line's "(*, like=None)"
// starts no emphasis that a "*not*" five paragraphs below would end.
func Inline(s string) (markdown, plain string) {
	if !strings.Contains(s, "\n") {
		return (&inliner{s: s}).convert()
	}
	var md, pl strings.Builder
	md.Grow(len(s))
	pl.Grow(len(s))
	block := 0 // where the paragraph being read starts
	flush := func(end int) {
		if block < end {
			m, p := (&inliner{s: s[block:end]}).convert()
			md.WriteString(m)
			pl.WriteString(p)
		}
	}
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			break
		}
		end := i + j + 1 // the line s[i:end], its line break included
		if strings.TrimLeft(s[i:end], " \t\r\f\v\n") == "" {
			flush(i)
			md.WriteString(s[i:end])
			pl.WriteString(s[i:end])
			block = end
		}
		i = end
	}
	flush(len(s))
	return md.String(), pl.String()
}

// subst is the replacement text of a substitution ("" for images and other non-text ones).
type subst struct{ md, plain string }

// inliner converts one text block. subs holds the document's substitution definitions.
type inliner struct {
	s    string
	subs map[string]subst
	md   strings.Builder
	pl   strings.Builder
	memo [nKinds]memo
}

// Delimiter kinds whose end strings findEnd looks for.
const (
	kLiteral  = iota // ``
	kBacktick        // ` (interpreted text, hyperlink references, roles)
	kStrong          // **
	kEmph            // *
	kSub             // |
	nKinds
)

// memo remembers the first valid end string at or after from (at == -1: none), so that every
// search is amortised linear: inline markup recognition never goes quadratic on hostile input.
type memo struct {
	set      bool
	from, at int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

// startOK applies the inline markup recognition rule for start strings: at the start of the
// text, or after white space or opening punctuation.
func (in *inliner) startOK(i int) bool {
	if i == 0 {
		return true
	}
	c := in.s[i-1]
	return isSpace(c) || strings.IndexByte("'\"([{<-/:", c) >= 0 || c >= 0x80
}

// endOK applies the recognition rule for what follows an end string: the end of the text, white
// space or closing punctuation.
func (in *inliner) endOK(p int) bool {
	if p >= len(in.s) {
		return true
	}
	c := in.s[p]
	return isSpace(c) || strings.IndexByte("'\")]}>-/:.,;!?\\", c) >= 0 || c >= 0x80
}

// refSuffix returns the length of a reference suffix ("_" or "__") at p that is followed by an
// acceptable end, or -1.
func (in *inliner) refSuffix(p int) int {
	s := in.s
	if p < len(s) && s[p] == '_' {
		if p+1 < len(s) && s[p+1] == '_' {
			if in.endOK(p + 2) {
				return 2
			}
			return -1
		}
		if in.endOK(p + 1) {
			return 1
		}
	}
	return -1
}

// roleSuffix returns the length of a ":role:" suffix at p followed by an acceptable end, or -1.
func (in *inliner) roleSuffix(p int) int {
	s := in.s
	if p >= len(s) || s[p] != ':' {
		return -1
	}
	j := p + 1
	for j < len(s) && isRoleChar(s[j]) {
		j++
	}
	// The run after the first colon is "name:" (or "domain:name:").
	if j-p < 3 || s[j-1] != ':' || s[j-2] == ':' || !in.endOK(j) {
		return -1
	}
	return j - p
}

func isRoleChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.' || c == '+' || c == ':'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// validEnd reports whether an end string of kind k is at p.
func (in *inliner) validEnd(k, p int) bool {
	s := in.s
	if p == 0 || isSpace(s[p-1]) {
		return false
	}
	switch k {
	case kLiteral:
		return strings.HasPrefix(s[p:], "``") && in.endOK(p+2)
	case kBacktick:
		if s[p] != '`' || p+1 < len(s) && s[p+1] == '`' {
			return false
		}
		return in.endOK(p+1) || in.refSuffix(p+1) > 0 || in.roleSuffix(p+1) > 0
	case kStrong:
		return strings.HasPrefix(s[p:], "**") && in.endOK(p+2)
	case kEmph:
		return s[p] == '*' && s[p-1] != '*' && in.endOK(p+1)
	case kSub:
		return s[p] == '|' && (in.endOK(p+1) || in.refSuffix(p+1) > 0)
	}
	return false
}

// findEnd returns the position of the first valid end string of kind k at or after from, or -1.
func (in *inliner) findEnd(k, from int) int {
	m := &in.memo[k]
	if m.set && m.from <= from && (m.at < 0 || from <= m.at) {
		return m.at
	}
	at := -1
	first := kindByte(k)
	for p := from; p < len(in.s); p++ {
		if in.s[p] == first && in.validEnd(k, p) {
			at = p
			break
		}
	}
	*m = memo{set: true, from: from, at: at}
	return at
}

func kindByte(k int) byte {
	switch k {
	case kLiteral, kBacktick:
		return '`'
	case kStrong, kEmph:
		return '*'
	}
	return '|'
}

func (in *inliner) both(s string) {
	in.md.WriteString(s)
	in.pl.WriteString(s)
}

func (in *inliner) convert() (string, string) {
	s := in.s
	in.md.Grow(len(s))
	in.pl.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			d := s[i+1]
			switch {
			case isSpace(d):
				if d == '\n' {
					in.both("\n")
				}
			case strings.IndexByte("*_`|[]<>#", d) >= 0:
				in.md.WriteByte('\\')
				in.md.WriteByte(d)
				in.pl.WriteByte(d)
			default:
				in.both(string(d))
			}
			i += 2
			continue
		case c == '`' && strings.HasPrefix(s[i:], "``") && in.startOK(i) && i+2 < len(s) && !isSpace(s[i+2]):
			if end := in.findEnd(kLiteral, i+3); end > 0 {
				in.code(s[i+2 : end])
				i = end + 2
				continue
			}
			in.both("``")
			i += 2
			continue
		case c == ':' && in.startOK(i):
			if n := in.role(i); n > 0 {
				i += n
				continue
			}
		case c == '`' && in.startOK(i) && i+1 < len(s) && !isSpace(s[i+1]):
			if end := in.findEnd(kBacktick, i+2); end > 0 {
				i = in.interpreted(i, end)
				continue
			}
		case c == '*' && strings.HasPrefix(s[i:], "**") && in.startOK(i) && i+2 < len(s) && !isSpace(s[i+2]):
			if end := in.findEnd(kStrong, i+3); end > 0 {
				in.md.WriteString(s[i : end+2])
				in.pl.WriteString(s[i+2 : end])
				i = end + 2
				continue
			}
			in.both("**")
			i += 2
			continue
		case c == '*' && in.startOK(i) && i+1 < len(s) && !isSpace(s[i+1]) && s[i+1] != '*':
			if end := in.findEnd(kEmph, i+2); end > 0 {
				in.md.WriteString(s[i : end+1])
				in.pl.WriteString(s[i+1 : end])
				i = end + 1
				continue
			}
		case c == '|' && in.startOK(i) && i+1 < len(s) && !isSpace(s[i+1]):
			if end := in.findEnd(kSub, i+2); end > 0 {
				name := strings.Join(strings.Fields(s[i+1:end]), " ")
				if r, ok := in.subs[name]; ok {
					in.md.WriteString(r.md)
					in.pl.WriteString(r.plain)
				} else {
					// A substitution defined elsewhere (Sphinx's rst_prolog, a docstring's
					// |jedi|) keeps its name: dropping it drops a word of the sentence.
					in.md.WriteString(name)
					in.pl.WriteString(name)
				}
				i = end + 1
				if n := in.refSuffix(i); n > 0 {
					i += n
				}
				continue
			}
		case c == '[' && in.startOK(i):
			if n := in.footnoteRef(i); n > 0 {
				// Drop the reference and the space before it.
				trimTrailingSpace(&in.md)
				trimTrailingSpace(&in.pl)
				i += n
				continue
			}
		case (c == 'h' || c == 'H') && (strings.HasPrefix(s[i:], "http://") || strings.HasPrefix(s[i:], "https://")) && (i == 0 || !isAlnum(s[i-1])):
			j := i
			for j < len(s) && !isSpace(s[j]) && s[j] != '>' && s[j] != '`' {
				j++
			}
			in.both(s[i:j])
			i = j
			continue
		case isAlnum(c) && (i == 0 || !isAlnum(s[i-1]) && s[i-1] != '_'):
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_' || (s[j] == '-' || s[j] == '.' || s[j] == '+') && j+1 < len(s) && isAlnum(s[j+1])) {
				j++
			}
			word := s[i:j]
			switch {
			case strings.HasSuffix(word, "__") && len(word) > 2 && isAlnum(word[len(word)-3]) && in.endOK(j):
				in.both(word[:len(word)-2])
			case strings.HasSuffix(word, "_") && !strings.HasSuffix(word, "__") && len(word) > 1 && in.endOK(j):
				in.both(word[:len(word)-1])
			default:
				in.both(word)
			}
			i = j
			continue
		}
		in.md.WriteByte(c)
		in.pl.WriteByte(c)
		i++
	}
	return in.md.String(), in.pl.String()
}

func trimTrailingSpace(b *strings.Builder) {
	s := b.String()
	t := strings.TrimRight(s, " ")
	if len(t) != len(s) {
		b.Reset()
		b.WriteString(t)
	}
}

// code writes a code span.
func (in *inliner) code(text string) {
	if strings.Contains(text, "`") {
		in.md.WriteString("`` " + text + " ``")
	} else {
		in.md.WriteString("`" + text + "`")
	}
	in.pl.WriteString(text)
}

// role handles ":role:`text`" at i and returns the bytes consumed, or 0.
func (in *inliner) role(i int) int {
	s := in.s
	// The role name (letters, digits, "_-.+", and ":" between a domain and a name) ends at ":`".
	j := i + 1
	for j < len(s) && j-i < 64 && isRoleChar(s[j]) && !(s[j] == ':' && j+1 < len(s) && s[j+1] == '`') {
		j++
	}
	if j == i+1 || j+1 >= len(s) || s[j] != ':' || s[j+1] != '`' || s[j-1] == ':' {
		return 0
	}
	start := j + 2
	if start >= len(s) || isSpace(s[start]) {
		return 0
	}
	end := in.findEnd(kBacktick, start+1)
	if end < 0 {
		return 0
	}
	in.roleText(s[i+1:j], s[start:end])
	n := end + 1 - i
	if k := in.refSuffix(end + 1); k > 0 {
		n += k
	}
	return n
}

// codeRoles are the roles whose text is code (Python and C domains, standard roles).
var codeRoles = map[string]bool{
	"func": true, "meth": true, "class": true, "mod": true, "attr": true, "data": true, "obj": true,
	"exc": true, "const": true, "type": true, "code": true, "command": true, "file": true,
	"envvar": true, "option": true, "program": true, "samp": true, "kbd": true, "literal": true,
	"macro": true, "member": true, "var": true, "struct": true, "enum": true, "expr": true,
	"makevar": true, "regexp": true, "mimetype": true, "paramref": true, "decorator": true,
	"property": true, "function": true, "module": true, "fn": true, "setting": true,
}

// roleText writes the text of :role:`content`.
func (in *inliner) roleText(role, content string) {
	name := role[strings.LastIndexByte(role, ':')+1:]
	content = strings.Join(strings.Fields(content), " ")
	title, _, explicit := explicitTitle(content)
	if !explicit {
		title = strings.TrimPrefix(content, "!")
		if strings.HasPrefix(title, "~") {
			title = title[1:]
			title = title[strings.LastIndexByte(title, '.')+1:]
		}
	}
	switch name {
	case "pep":
		in.both("PEP " + title)
	case "rfc":
		in.both("RFC " + title)
	case "strong":
		in.md.WriteString("**" + title + "**")
		in.pl.WriteString(title)
	case "emphasis":
		in.md.WriteString("*" + title + "*")
		in.pl.WriteString(title)
	case "abbr":
		if k := strings.Index(title, " ("); k > 0 {
			title = title[:k]
		}
		in.both(title)
	default:
		if codeRoles[name] {
			in.code(title)
			return
		}
		in.both(title)
	}
}

// explicitTitle splits "title <target>" into its parts.
func explicitTitle(content string) (title, target string, ok bool) {
	if !strings.HasSuffix(content, ">") {
		return "", "", false
	}
	lt := strings.LastIndex(content, "<")
	if lt < 0 {
		return "", "", false
	}
	if lt > 0 && content[lt-1] != ' ' {
		return "", "", false
	}
	return strings.TrimSpace(content[:lt]), content[lt+1 : len(content)-1], true
}

// interpreted handles `…` from i to the closing backtick at end, with what follows it (a
// reference suffix or a trailing role), and returns the position after it.
func (in *inliner) interpreted(i, end int) int {
	s := in.s
	content := strings.Join(strings.Fields(s[i+1:end]), " ")
	next := end + 1
	if n := in.refSuffix(next); n > 0 {
		next += n
		title, target, explicit := explicitTitle(content)
		switch {
		case !explicit:
			in.both(content)
		case strings.HasSuffix(target, "_") || target == "":
			in.both(title)
		case title == "":
			in.md.WriteString("<" + target + ">")
			in.pl.WriteString(target)
		default:
			in.md.WriteString("[" + title + "](" + strings.ReplaceAll(target, " ", "") + ")")
			in.pl.WriteString(title)
		}
		return next
	}
	if n := in.roleSuffix(next); n > 0 {
		in.roleText(s[next+1:next+n-1], content)
		return next + n
	}
	in.code(content)
	return next
}

// footnoteRef returns the length of a footnote or citation reference ([1]_, [#]_, [#note]_,
// [*]_, [CIT2002]_) at i, or 0.
func (in *inliner) footnoteRef(i int) int {
	s := in.s
	j := strings.IndexByte(s[i:], ']')
	if j <= 1 || j > 64 {
		return 0
	}
	label := s[i+1 : i+j]
	for k := 0; k < len(label); k++ {
		c := label[k]
		if !(isAlnum(c) || c == '#' || c == '*' || c == '_' || c == '-' || c == '.') {
			return 0
		}
	}
	p := i + j + 1
	if p < len(s) && s[p] == '_' && in.endOK(p+1) {
		return j + 2
	}
	return 0
}
