package jsapi

import (
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/npm/internal/tsdoc"
)

// maxDoc bounds the bytes of one symbol's Doc (limit.Doc); longer text is cut at a line and
// marked " …".
const maxDoc = limit.Doc

// jsdoc is a /** … */ comment read as JSDoc (https://jsdoc.app/).
type jsdoc struct {
	text       string // description and tag lines, delimiters and leading "*" removed
	params     []docidx.Param
	optional   []bool // per params entry: written [name] or [name=default]
	examples   []docidx.CodeBlock
	deprecated bool
	throws     bool // a @throws or @exception tag
	private    bool // @private, @internal, @ignore, @protected, @access private, @api private
	isConst    bool // @constant / @const
}

// noiseTags are JSDoc tags that say nothing a reader of the API needs (they describe how the
// docs site files the symbol); their lines are dropped from Doc.
var noiseTags = map[string]bool{
	"static": true, "memberOf": true, "memberof": true, "category": true, "name": true, "function": true,
	"func": true, "method": true, "public": true, "instance": true, "alias": true, "kind": true,
	"module": true, "exports": true, "namespace": true, "type": true, "lends": true, "inner": true,
	"global": true, "class": true, "constructor": true, "this": true, "license": true, "api": true,
	"access": true, "typedef": true, "callback": true, "property": true, "prop": true, "template": true,
	"constant": true, "const": true, "augments": true, "extends": true, "override": true,
	"jsx": true, "flow": true, "ts-ignore": true, "nocollapse": true, "suppress": true, "export": true,
}

// parseJSDoc reads a raw /** … */ comment, its inline link tags as their text (tsdoc.Links). Doc
// text keeps the description, then one readable line per kept tag: "@param {T} name desc" as written, "Returns: {T} desc", "Throws: …",
// "Deprecated: …", "Default: …", "Since: …", "See: …"; @example bodies go to examples.
func parseJSDoc(raw string) jsdoc {
	var d jsdoc
	if raw == "" {
		return d
	}
	raw = strings.TrimPrefix(raw, "/**")
	raw = strings.TrimSuffix(raw, "*/")
	lines := strings.Split(raw, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "*") {
			t = strings.TrimPrefix(t[1:], " ")
		} else if i > 0 {
			t = strings.TrimLeft(l, " \t")
		}
		lines[i] = t
	}
	// Split into the description and tag blocks: a tag starts a line with "@".
	type tag struct {
		name string
		body []string
	}
	var desc []string
	var tags []tag
	inFence := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(l, "@") && len(l) > 1 {
			name, rest, _ := strings.Cut(l[1:], " ")
			name, rest2, _ := strings.Cut(name, "\t")
			if rest2 != "" {
				rest = rest2 + " " + rest
			}
			tags = append(tags, tag{name: name, body: []string{strings.TrimSpace(rest)}})
			continue
		}
		if len(tags) > 0 {
			tags[len(tags)-1].body = append(tags[len(tags)-1].body, l)
		} else {
			desc = append(desc, l)
		}
	}
	out := trimBlank(desc)
	if len(out) > 0 {
		out = append(out, "")
	}
	nOut := len(out)
	for _, t := range tags {
		first := t.body[0]
		rest := strings.TrimSpace(strings.Join(trimBlank(t.body[1:]), "\n"))
		full := strings.TrimSpace(first + "\n" + rest)
		switch t.name {
		case "private", "internal", "ignore", "protected", "hidden":
			d.private = true
			continue
		case "access", "api":
			if w := firstWord(first); w == "private" || w == "protected" || w == "internal" {
				d.private = true
			}
			continue
		case "constant", "const":
			d.isConst = true
			continue
		case "deprecated":
			d.deprecated = true
			out = append(out, strings.TrimSpace("Deprecated: "+reflow(full)))
			continue
		case "example":
			code := strings.TrimSpace(strings.Join(t.body, "\n"))
			code = strings.TrimSuffix(strings.TrimPrefix(code, "```js"), "```")
			if code = strings.Trim(code, "\n"); strings.TrimSpace(code) != "" {
				d.examples = append(d.examples, docidx.CodeBlock{Lang: "js", Code: code})
				out = append(out, "Example:", "```js", code, "```")
			}
			continue
		case "param", "arg", "argument":
			if p, optional, ok := parseParam(full); ok {
				d.params = append(d.params, p)
				d.optional = append(d.optional, optional)
			}
			out = append(out, "@param "+reflow(full))
			continue
		case "returns", "return":
			out = append(out, "Returns: "+reflow(full))
			continue
		case "throws", "exception":
			d.throws = true
			out = append(out, "Throws: "+reflow(full))
			continue
		case "default", "defaultvalue":
			out = append(out, "Default: "+reflow(full))
			continue
		case "since", "see", "version", "yields", "fires", "emits", "async", "generator", "readonly", "abstract":
			out = append(out, strings.ToUpper(t.name[:1])+t.name[1:]+": "+reflow(full))
			continue
		}
		if noiseTags[t.name] {
			continue
		}
		out = append(out, "@"+t.name+" "+reflow(full))
	}
	if len(out) == nOut && nOut > 0 {
		out = out[:nOut-1]
	}
	d.text = tsdoc.Links(strings.TrimSpace(strings.Join(out, "\n")))
	for i := range d.params {
		d.params[i].Doc = tsdoc.Links(d.params[i].Doc)
	}
	if len(d.text) > maxDoc {
		cut := strings.LastIndexByte(d.text[:maxDoc], '\n')
		if cut < maxDoc/2 {
			cut = len(limit.Cut(d.text, maxDoc))
		}
		d.text = d.text[:cut] + " …"
	}
	return d
}

func trimBlank(ls []string) []string {
	for len(ls) > 0 && strings.TrimSpace(ls[0]) == "" {
		ls = ls[1:]
	}
	for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// reflow returns a tag's body with its wrapped lines joined and its Markdown blocks kept apart:
// a list item ("* `times` - The number of attempts…", "- ", "+ ", "1. "), a fenced code block
// (its lines as written) and a paragraph after a blank line each start a line. async's retry
// documents each field of its options object as an item of a list under @param opts; joined
// into one line, a passage could show the item before or after the one a question asks about,
// not that item alone.
func reflow(s string) string {
	var b strings.Builder
	fence, open := false, false // in a code block; a line is being joined to
	for line := range strings.SplitSeq(s, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = !fence
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
			open = false
			continue
		case fence:
			b.WriteByte('\n')
			b.WriteString(strings.TrimRight(line, " \t"))
			continue
		case t == "":
			open = false
			continue
		}
		if open && !listItem(t) {
			b.WriteByte(' ')
		} else if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(oneLine(t))
		open = true
	}
	return b.String()
}

// listItem reports whether line t (trimmed) opens a Markdown list item: "* ", "- ", "+ " or a
// number and ". " or ") ".
func listItem(t string) bool {
	if len(t) > 1 && strings.IndexByte("*-+", t[0]) >= 0 && t[1] == ' ' {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// closing returns the index of the right bracket r that balances the left bracket l s starts
// with, or -1.
func closing(s string, l, r byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case l:
			depth++
		case r:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// parseParam reads the body of an @param tag: "{Type} [name=default] - description", the type,
// brackets, default and hyphen each optional. optional reports the brackets, or a type ending
// in "=" (Closure's optional mark).
func parseParam(s string) (p docidx.Param, optional, ok bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "{") {
		end := closing(s, '{', '}')
		if end < 0 {
			return p, false, false
		}
		p.Type = oneLine(s[1:end])
		if strings.HasSuffix(p.Type, "=") {
			optional = true
			p.Type = strings.TrimSuffix(p.Type, "=")
		}
		s = strings.TrimSpace(s[end+1:])
	}
	if strings.HasPrefix(s, "[") {
		end := closing(s, '[', ']')
		if end < 0 {
			return p, false, false
		}
		optional = true
		inner := s[1:end]
		name, def, ok := strings.Cut(inner, "=")
		p.Name = strings.TrimSpace(name)
		if ok {
			p.Default = strings.TrimSpace(def)
		}
		s = s[end+1:]
	} else {
		i := 0
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			i++
		}
		p.Name = s[:i]
		s = s[i:]
	}
	if p.Name == "" {
		return p, false, false
	}
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, "-"))
	p.Doc = oneLine(s)
	return p, optional, true
}
