package dts

import (
	"strings"

	"github.com/docidx/docidx"
)

// maxParams bounds the parameters read from one doc comment.
const maxParams = 64

// params returns the parameters documented by the JSDoc @param (or @arg, @argument) tags of doc,
// a comment already cleaned by cleanDoc, in the order written
// (https://jsdoc.app/tags-param): "@param {Type} name description", "@param name - description",
// "[name]" for an optional parameter and "[name=default]" for one with a default. A tag's
// description runs to the next tag. A parameter without a {Type} takes the type its declaration
// sig gives it, if any. It returns nil when doc has no @param tag.
func params(doc, sig string) []docidx.Param {
	if !strings.Contains(doc, "@param") && !strings.Contains(doc, "@arg") {
		return nil
	}
	var out []docidx.Param
	var cur *docidx.Param
	var desc []string
	flush := func() {
		if cur != nil {
			cur.Doc = strings.TrimSpace(strings.Join(desc, "\n"))
			out = append(out, *cur)
		}
		cur, desc = nil, nil
	}
	var sigTypes map[string]string
	for _, line := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "@") {
			if cur != nil {
				desc = append(desc, t)
			}
			continue
		}
		flush()
		tag, rest, _ := strings.Cut(t, " ")
		if tag != "@param" && tag != "@arg" && tag != "@argument" || len(out) >= maxParams {
			continue
		}
		p, text, ok := paramTag(strings.TrimSpace(rest))
		if !ok {
			continue
		}
		if p.Type == "" {
			if sigTypes == nil {
				sigTypes = signatureParams(sig)
			}
			p.Type = sigTypes[p.Name]
		}
		cur = &p
		if text != "" {
			desc = append(desc, text)
		}
	}
	flush()
	return out
}

// paramTag parses what follows "@param": an optional {Type}, the name (optional in brackets,
// with a default after "="), then the description, whose leading "-" is dropped.
func paramTag(s string) (p docidx.Param, desc string, ok bool) {
	if strings.HasPrefix(s, "{") {
		end := closing(s, '{', '}')
		if end < 0 {
			return p, "", false
		}
		p.Type = strings.TrimSpace(s[1:end])
		s = strings.TrimSpace(s[end+1:])
	}
	if strings.HasPrefix(s, "[") {
		end := closing(s, '[', ']')
		if end < 0 {
			return p, "", false
		}
		name, def, _ := strings.Cut(s[1:end], "=")
		p.Name, p.Default = strings.TrimSpace(name), strings.TrimSpace(def)
		s = s[end+1:]
	} else {
		name, rest, _ := strings.Cut(s, " ")
		p.Name, s = name, rest
	}
	if p.Name == "" {
		return p, "", false
	}
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, "- "))
	if s == "-" {
		s = ""
	}
	return p, s, true
}

// closing returns the byte offset in s of the close bracket that matches the open bracket s
// starts with, or -1 when s ends first.
func closing(s string, open, close rune) int {
	depth := 0
	for i, r := range s {
		if r == open {
			depth++
		} else if r == close {
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// signatureParams returns the declared type of each parameter of the first parameter list in a
// function or method signature ("f<T>(a: string, b?: T[], ...rest: any[]): void" gives a
// "string", b "T[]", rest "any[]"). Destructured parameters are left out.
func signatureParams(sig string) map[string]string {
	out := map[string]string{}
	for _, p := range signatureParamList(sig) {
		out[p.name] = p.typ
	}
	return out
}

// sigParam is one parameter of a signature: its name and declared type.
type sigParam struct{ name, typ string }

// signatureParamList returns the parameters of signatureParams in their order.
func signatureParamList(sig string) []sigParam {
	var out []sigParam
	open := -1
	angle := 0
	for i := 0; i < len(sig); i++ {
		switch sig[i] {
		case '<':
			angle++
		case '>':
			if angle > 0 && (i == 0 || sig[i-1] != '=') {
				angle--
			}
		case '(':
			if angle == 0 {
				open = i
			}
		}
		if open >= 0 {
			break
		}
	}
	if open < 0 {
		return out
	}
	var parts []string
	depth, start := 0, open+1
	for i := open + 1; i < len(sig); i++ {
		c := sig[i]
		switch {
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == '>' && sig[i-1] == '=':
			// an arrow, not a closing angle bracket
		case c == ')' || c == ']' || c == '}' || c == '>':
			if depth == 0 && c == ')' {
				parts = append(parts, sig[start:i])
				i = len(sig)
				continue
			}
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, sig[start:i])
			start = i + 1
		}
	}
	for _, part := range parts {
		part = strings.TrimSpace(part)
		for _, mod := range []string{"public ", "private ", "protected ", "readonly ", "override "} {
			part = strings.TrimPrefix(part, mod)
		}
		part = strings.TrimPrefix(part, "...")
		name, typ, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(name), "?"))
		if name == "" || strings.ContainsAny(name, "{[ ") {
			continue
		}
		if t, _, ok := strings.Cut(typ, "="); ok && !strings.Contains(typ, "=>") {
			typ = t
		}
		out = append(out, sigParam{name, strings.TrimSpace(typ)})
	}
	return out
}
