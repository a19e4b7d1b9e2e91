package pyscan

// PEP 727 documentation in annotations: a parameter or attribute written
// "name: Annotated[T, Doc("…")]" (typing_extensions.Doc, annotated_doc.Doc) is documented by
// the string, as mkdocstrings' griffe-typingdoc shows it, and its type is T. FastAPI documents
// every parameter of its API so and leaves the docstrings' parameter sections out: FastAPI's
// title is "The title of the API. It will be added to the generated OpenAPI …", of type str.

// docCall is the name PEP 727 gives the documentation in an Annotated: Doc, typing_extensions.Doc
// and annotated_doc.Doc are the same class.
const docCall = "Doc"

// annotatedDoc returns the documentation annotation toks (a parameter's or attribute's
// annotation, without its ": ") carries as Annotated[T, Doc("…")], cleaned as a docstring is;
// "" when it carries none.
func (s *scanner) annotatedDoc(toks []token) string {
	if !s.mentionsDoc(toks) {
		return ""
	}
	for i := range toks {
		if a, ok := s.annotatedAt(toks, i); ok {
			for _, arg := range a.args {
				if doc, ok := s.docArg(arg); ok {
					return cleandoc(doc)
				}
			}
		}
	}
	return ""
}

// withoutDocs returns toks (a signature or an annotation) without the Doc("…") arguments of the
// Annotated[…] subscripts they hold: Annotated[T, Doc("…")] becomes T, Annotated[T, Doc("…"),
// deprecated("…")] becomes Annotated[T, deprecated("…")]. toks itself is returned when it holds
// no such argument.
func (s *scanner) withoutDocs(toks []token) []token {
	if !s.mentionsDoc(toks) {
		return toks
	}
	var out []token
	changed := false
	for i := 0; i < len(toks); i++ {
		a, ok := s.annotatedAt(toks, i)
		if !ok {
			out = append(out, toks[i])
			continue
		}
		var kept [][]token
		for _, arg := range a.args {
			if _, isDoc := s.docArg(arg); !isDoc {
				kept = append(kept, arg)
			}
		}
		if len(kept) == len(a.args) {
			out = append(out, toks[i])
			continue
		}
		changed = true
		if len(kept) == 1 {
			// Annotated[T] is T: the qualifier of "typing.Annotated" goes too.
			space := toks[i].space
			for len(out) >= 2 && s.isOp(out[len(out)-1], ".") && out[len(out)-2].kind == tName {
				space = out[len(out)-2].space
				out = out[:len(out)-2]
			}
			first := s.withoutDocs(kept[0])
			if len(first) > 0 {
				first = append([]token(nil), first...)
				first[0].space = space
			}
			out = append(out, first...)
		} else {
			out = append(out, toks[i], toks[i+1])
			for k, arg := range kept {
				if k > 0 {
					out = append(out, token{kind: tOp, start: a.comma.start, end: a.comma.end, line: arg[0].line})
				}
				arg = append([]token(nil), s.withoutDocs(arg)...)
				arg[0].space = k > 0
				out = append(out, arg...)
			}
			out = append(out, toks[a.close])
		}
		i = a.close
	}
	if !changed {
		return toks
	}
	return out
}

// mentionsDoc reports whether toks hold the name Doc, which withoutDocs and annotatedDoc look
// for: most annotations do not, and are returned at once.
func (s *scanner) mentionsDoc(toks []token) bool {
	for _, t := range toks {
		if s.isName(t, docCall) {
			return true
		}
	}
	return false
}

// annotated is an Annotated[…] subscript of a token list: its arguments (the type first) and the
// index of its closing bracket, and one of its commas, to write between arguments kept.
type annotated struct {
	args  [][]token
	close int
	comma token
}

// annotatedAt reads the Annotated[…] subscript whose name is toks[i] ("Annotated", or the last
// name of "typing.Annotated"). ok is false when toks[i] does not start one, or it is not closed.
func (s *scanner) annotatedAt(toks []token, i int) (a annotated, ok bool) {
	if !s.isName(toks[i], "Annotated") || i+1 >= len(toks) || !s.isOp(toks[i+1], "[") {
		return a, false
	}
	depth, start := 0, i+2
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		depth += s.nesting(t)
		switch {
		case depth == 1 && s.isOp(t, ","):
			if j > start {
				a.args = append(a.args, toks[start:j])
			}
			a.comma, start = t, j+1
		case depth == 0:
			if j > start {
				a.args = append(a.args, toks[start:j])
			}
			a.close = j
			return a, len(a.args) >= 2
		}
	}
	return a, false
}

// docArg returns the string of arg when it is a Doc("…") call, its argument one string literal
// or several adjacent ones; ok is false for any other argument.
func (s *scanner) docArg(arg []token) (doc string, ok bool) {
	i := 0
	for i+2 < len(arg) && arg[i].kind == tName && s.isOp(arg[i+1], ".") {
		i += 2 // typing_extensions.Doc, annotated_doc.Doc
	}
	if len(arg) < i+4 || !s.isName(arg[i], docCall) || !s.isOp(arg[i+1], "(") || !s.isOp(arg[len(arg)-1], ")") {
		return "", false
	}
	return s.docstring(arg[i+2 : len(arg)-1])
}
