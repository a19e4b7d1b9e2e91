package pyscan

import "strings"

// docLoop is a module-level "for NAME in A, B, C:" whose body may set each one's __doc__
// (docAssignment): mypy_extensions documents i64, i32, i16 and u8 with one such loop.
type docLoop struct {
	variable string
	names    []string
	indent   int // the for statement's
}

// docStatement reads a module-level statement (and those of a for loop's body, which the
// scanner hands over as the module's) for a docstring assigned after its definition:
// f.__doc__ = "…" and Class.method.__doc__ = "…", and in the body of a loop over names,
// var.__doc__ = "…".format(name=var.__name__) for each name, "{name}" replaced by it. The docstring goes to a defined item that has none, as a docstring of its own does.
func (s *scanner) docStatement(toks []token, ind int) {
	if s.loop != nil && ind <= s.loop.indent {
		s.loop = nil
	}
	if s.isName(toks[0], "for") {
		s.loop = s.forNames(toks, ind)
		return
	}
	target, doc, format, ok := s.docAssignment(toks)
	if !ok {
		return
	}
	if s.loop != nil && target == s.loop.variable {
		for _, name := range s.loop.names {
			d := doc
			for key, attr := range format {
				if attr == s.loop.variable+".__name__" {
					d = strings.ReplaceAll(d, "{"+key+"}", name)
				}
			}
			if it := s.byKey[name]; it != nil {
				s.setItemDoc(it, d)
			}
		}
		return
	}
	if it := s.byKey[target]; it != nil && len(format) == 0 {
		s.setItemDoc(it, doc)
	}
}

// forNames returns the loop of "for NAME in A, B, C:" (the names bare, or in parentheses or
// brackets), or nil for any other for statement.
func (s *scanner) forNames(toks []token, ind int) *docLoop {
	if len(toks) < 5 || toks[1].kind != tName || !s.isName(toks[2], "in") || !s.isOp(toks[len(toks)-1], ":") {
		return nil
	}
	l := &docLoop{variable: s.text(toks[1]), indent: ind}
	body := toks[3 : len(toks)-1]
	if len(body) > 1 && (s.isOp(body[0], "(") || s.isOp(body[0], "[")) {
		body = body[1 : len(body)-1]
	}
	for i, t := range body {
		switch {
		case i%2 == 0 && t.kind == tName:
			l.names = append(l.names, s.text(t))
		case i%2 == 1 && s.isOp(t, ","):
		default:
			return nil
		}
	}
	if len(l.names) == 0 {
		return nil
	}
	return l
}

// docAssignment reads "TARGET.__doc__ = STRING…" with an optional ".format(key=value, …)"
// after the literals (adjacent literals joined): the dotted target, the docstring, and the
// format's keyword arguments as written (key -> "var.__name__").
func (s *scanner) docAssignment(toks []token) (target, doc string, format map[string]string, ok bool) {
	i := 0
	for i+2 < len(toks) && toks[i].kind == tName && s.isOp(toks[i+1], ".") {
		i += 2
	}
	if i == 0 || i+1 >= len(toks) || !s.isName(toks[i], "__doc__") || !s.isOp(toks[i+1], "=") {
		return "", "", nil, false
	}
	target = strings.ReplaceAll(s.render(toks[:i-1]), " ", "")
	k := i + 2
	var b strings.Builder
	for ; k < len(toks) && toks[k].kind == tString; k++ {
		v, ok := stringValue(s.src[toks[k].start:toks[k].end])
		if !ok {
			return "", "", nil, false
		}
		b.WriteString(v)
	}
	if b.Len() == 0 {
		return "", "", nil, false
	}
	if k == len(toks) {
		return target, b.String(), nil, true
	}
	// '''…'''.format(name=var.__name__)
	if k+3 >= len(toks) || !s.isOp(toks[k], ".") || !s.isName(toks[k+1], "format") || !s.isOp(toks[k+2], "(") || !s.isOp(toks[len(toks)-1], ")") {
		return "", "", nil, false
	}
	format = map[string]string{}
	args := toks[k+3 : len(toks)-1]
	for len(args) > 0 {
		end := 0
		for end < len(args) && !s.isOp(args[end], ",") {
			end++
		}
		if end >= 3 && args[0].kind == tName && s.isOp(args[1], "=") {
			format[s.text(args[0])] = strings.ReplaceAll(s.render(args[2:end]), " ", "")
		}
		if end == len(args) {
			break
		}
		args = args[end+1:]
	}
	return target, b.String(), format, true
}
