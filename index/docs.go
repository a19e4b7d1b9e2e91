package index

// docs.go turns one package version into Bleve documents: an overview of its metadata, one
// document per section and one per symbol.

import (
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Limits on what one Bleve document carries, in bytes.
const (
	maxBody = 16 << 10 // indexed prose of one section or doc comment
	maxCode = 4 << 10  // indexed code of one section
	// maxStoreSection and maxStoreDoc bound the stored text passages are chosen from (see
	// passage.go): a section's prose and code, a symbol's doc comment. They equal maxBody, so
	// that a hit found by words of its text can show them: at 3 KiB for a doc, pygments'
	// HtmlFormatter was found by its `noclasses` option but its passage could not reach it.
	// Most sections and docs are shorter; the corpus snapshot grew by 0.15%.
	maxStoreSection = maxBody
	maxStoreDoc     = maxBody
	// maxStoreSignature bounds the stored whole signature of a symbol whose hit shows it cut.
	maxStoreSignature = 1 << 10
	// maxStoreLine bounds one stored line of metadata (a package's description).
	maxStoreLine = 1200
	// maxSectionSignature bounds the compact signature a symbol hit shows as its section.
	maxSectionSignature = 240
)

type searchDoc struct {
	id     string
	fields map[string]any
}

// sectionSep joins a heading path for display.
const sectionSep = " › "

// searchDocs yields the search documents of package version p, whose documents and symbols
// are docs and syms: its overview, a document per non-empty section, a document per symbol. One
// at a time, as a segment's build indexes them: made all at once, the documents of a version of
// 20,000 symbols held tens of megabytes while they were indexed.
func searchDocs(p *docidx.Package, docs []docidx.Document, syms []docidx.Symbol) iter.Seq[searchDoc] {
	return func(yield func(searchDoc) bool) {
		ref := p.Ref()
		base := func(hit docidx.HitKind, kind string) map[string]any {
			f := map[string]any{
				fEco:     string(p.Ecosystem),
				fPkg:     p.Name,
				fVersion: p.Version,
				fHit:     string(hit),
				fKind:    kind,
			}
			return f
		}

		// The overview: what the package is, by its name, description and keywords. Only the overview
		// carries the package name, so a name match lifts one hit of the package, not all of them.
		ov := base(docidx.HitSection, "overview")
		ov[fPkgName] = p.Name
		exact := exactNames(p.Name)
		modules, aliases := codeNames(p, docs, syms)
		for _, a := range aliases {
			exact = append(exact, aliasPrefix+a)
		}
		for _, m := range modules {
			exact = append(exact, modulePrefix+m)
		}
		for _, c := range commandNames(p) {
			exact = append(exact, commandPrefix+c)
		}
		ov[fPkgExact] = exact
		ov[fTitle] = p.Name
		ov[fHeading] = clip(p.Description, maxStoreLine) // a package's own one-liner weighs like a heading
		// What it needs to run ("Requires node >=18.") is shown with the overview, and searched
		// only by the words of requirementWords in the mention field: among the overview's
		// words it made the overviews that have one longer than those that have none, and
		// BM25's length normalization moved three labelled queries ("terminal string styling
		// colors": chalk under ansi-styles); as its signature field, numbers included, it cost
		// a held-out question its README answer (zeebo/xxh3).
		var requires string
		if len(p.Requires) > 0 {
			requires = "Requires " + docidx.RequirementsText(p.Requires) + "."
		}
		// The commands it installs are shown and searched the same way: "the normalizer
		// command" finds charset-normalizer's overview.
		var commands string
		switch len(p.Commands) {
		case 0:
		case 1:
			commands = "Installs the command " + p.Commands[0] + "."
		default:
			commands = "Installs the commands " + strings.Join(p.Commands, ", ") + "."
		}
		ov[fAll] = allText(p.Name, identWords(p.Name), p.Description, strings.Join(p.Keywords, " "))
		ov[fSTitle] = p.Name
		ov[fSSection] = "Overview"
		ov[fSText] = clip(sentences(sentences(CollapseSpace(p.Description), requires), commands), maxStoreLine)
		if w := strings.TrimSpace(requirementWords(p.Requires) + " " + commandWords(p.Commands)); w != "" {
			ov[fMention] = w
		}
		ov[fSURI] = ref.PageURI(docidx.PageOverview)
		if !yield(searchDoc{id: ref.PageURI(docidx.PageOverview), fields: ov}) {
			return
		}

		for _, d := range docs {
			page := docidx.PageReadme
			if d.Kind != docidx.DocReadme {
				page = docidx.PageDocPrefix + d.Path
			}
			uri := ref.PageURI(page)
			for i, s := range d.Sections {
				if strings.TrimSpace(s.Plain) == "" && len(s.Code) == 0 && len(s.Heading) == 0 {
					continue
				}
				f := base(docidx.HitSection, string(d.Kind))
				f[fTitle] = d.Title
				f[fHeading] = strings.Join(s.Heading, " ")
				f[fAll] = allText(d.Title, strings.Join(s.Heading, " "), clip(s.Plain, maxBody))
				var code strings.Builder
				for _, c := range s.Code {
					if code.Len() >= maxCode {
						break
					}
					code.WriteString(c.Code)
					code.WriteByte('\n')
				}
				if code.Len() > 0 {
					f[fSignature] = clip(code.String(), maxCode)
				}
				f[fSTitle] = d.Title
				f[fSSection] = strings.Join(s.Heading, sectionSep)
				f[fSText] = storeSection(&s, maxStoreSection)
				hitURI := uri
				if s.Anchor != "" {
					hitURI += "#" + s.Anchor
				}
				f[fSURI] = hitURI
				if !yield(searchDoc{id: uri + "#" + strconv.Itoa(i), fields: f}) {
					return
				}
			}
		}

		seen := map[string]int{}
		mentions, siblings := siblingMentions(syms)
		prose := proseMentions(docs, syms)
		for i, s := range syms {
			uri := ref.PageURI(docidx.PageSymbolPrefix + s.QualifiedName)
			id := uri
			if n := seen[uri]; n > 0 {
				id = uri + "#" + strconv.Itoa(n)
			}
			seen[uri]++
			f := base(docidx.HitSymbol, string(s.Kind))
			names := s.Name
			if k := s.Key(); k != s.Name {
				names += " " + k
			}
			if s.QualifiedName != s.Key() {
				names += " " + s.QualifiedName
			}
			f[fName] = names
			f[fSignature] = clip(withoutBlockComments(s.Signature), maxCode)
			doc := s.DocWithParams()
			if s.Undocumented() {
				f[fUndoc] = undocumented
			}
			f[fAll] = allText(names, identWords(names), clip(doc, maxBody))
			m := mentions[i]
			for _, pm := range prose[i] {
				m += pm.sentence + "\n"
			}
			if m != "" {
				f[fMention] = m
			}
			f[fHeading] = s.Package
			f[fSTitle] = s.QualifiedName
			f[fSSection] = symbolSection(&s)
			f[fSText] = withoutMarks(storeSymbol(&s, doc)) + storeMentions(append(siblings[i], prose[i]...))
			f[fSURI] = uri
			if !yield(searchDoc{id: id, fields: f}) {
				return
			}
		}
	}
}

// undocumented is the fUndoc value of a symbol without a doc comment.
const undocumented = "1"

// allText joins the parts of the all field, which decides which documents a query selects.
func allText(parts ...string) string { return strings.Join(parts, "\n") }

// sentences joins a and b, either possibly empty, as two sentences: a period ends a when it
// ends without one ("Fast web framework" and "Requires node >=18." read "Fast web framework.
// Requires node >=18.").
func sentences(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	case !strings.ContainsAny(a[len(a)-1:], ".!?"):
		a += "."
	}
	return a + " " + b
}

// identWords spells identifiers as words ("PersistentFlags Group.Go" -> "Persistent Flags Group
// Go"), so prose queries meet names in the all field.
func identWords(s string) string {
	var b strings.Builder
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '.' || r == '/' || r == ':' }) {
		for _, p := range splitIdent([]byte(tok)) {
			b.Write([]byte(tok)[p[0]:p[1]])
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// declWords are the words a declaration starts with in the ecosystems docidx reads; a signature
// that starts with one already says what kind of symbol it is.
var declWords = map[string]bool{
	"func": true, "type": true, "const": true, "var": true, "package": true, // Go
	"export": true, "declare": true, "function": true, "class": true, "interface": true, "let": true,
	"enum": true, "namespace": true, "module": true, "abstract": true, "async": true, // TypeScript
	"def": true,                                                                                  // Python
	"pub": true, "fn": true, "struct": true, "trait": true, "macro_rules!": true, "unsafe": true, // Rust
	"public": true, "open": true, "protocol": true, "extension": true, "static": true, "final": true, // Swift
}

// symbolSection returns the one-line description of a symbol hit: its compact signature (see
// compactSignature), preceded by its kind when the signature does not start with a declaration
// word.
func symbolSection(s *docidx.Symbol) string {
	line, _ := compactSignature(s.Signature, s.Name, maxSectionSignature)
	word, _, _ := strings.Cut(line, " ")
	if line == "" {
		return string(s.Kind)
	}
	if declWords[word] {
		return line
	}
	return string(s.Kind) + " " + line
}

// exactNames returns the lowercased package name and, for path-like names, its last element
// ("github.com/spf13/cobra" -> "cobra", "@types/node" -> "node").
func exactNames(name string) []string {
	n := strings.ToLower(name)
	out := []string{n}
	if i := strings.LastIndexByte(n, '/'); i >= 0 && i+1 < len(n) {
		last := n[i+1:]
		// Go major version suffixes: "github.com/go-chi/chi/v5" -> "chi".
		if len(last) > 1 && last[0] == 'v' && isDigits(last[1:]) {
			if j := strings.LastIndexByte(n[:i], '/'); j >= 0 {
				last = n[j+1 : i]
			}
		}
		out = append(out, last)
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// withoutBlockComments returns a declaration with its block comments ("/* … */") left out, for
// the signature field: in a declaration they are placeholders, not its words — rustdoc's
// "pub struct Limited<B> { /* private fields */ }", which made every Rust struct with private
// fields match a question's "fields" ("will serde write the same Rc in two fields once" ranked
// ten of serde's "A deserializer holding a …" structs first). An unclosed comment runs to the
// end. Line comments stay: Go's field comments are the fields' docs.
func withoutBlockComments(sig string) string {
	i := strings.Index(sig, "/*")
	if i < 0 {
		return sig
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(sig[:i])
		end := strings.Index(sig[i+2:], "*/")
		if end < 0 {
			return b.String()
		}
		sig = sig[i+2+end+2:]
		i = strings.Index(sig, "/*")
	}
	b.WriteString(sig)
	return b.String()
}

// clip cuts s to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// compactSignature returns the signature of a symbol named name on one line in at most about n
// bytes: the whole declaration with its white space collapsed (parameters spread over lines, a
// constant's value); for a longer one, or one with comments between its lines, declared in a block ("const (", "var ("), the block's
// line that declares name, after the block's keyword; else its first line when that is a whole
// declaration ("type Options struct {"), else its opening cut after its last whole parameter
// (else at a word, never after "=") with "…". clipped
// reports whether part of the declaration is left out.
func compactSignature(sig, name string, n int) (line string, clipped bool) {
	one := CollapseSpace(sig)
	// A declaration whose lines hold comments does not read on one line: its comments would
	// swallow what follows them ("type Pool struct { // contains … }").
	commented := strings.ContainsRune(sig, '\n') && (strings.Contains(sig, "//") || strings.Contains(sig, "/*") || strings.Contains(sig, "# "))
	if len(one) <= n && !commented {
		return one, false
	}
	if strings.ContainsRune(sig, '\n') {
		first := CollapseSpace(firstLine(sig))
		if kw, ok := strings.CutSuffix(first, " ("); ok && name != "" {
			for l := range strings.SplitSeq(sig, "\n") {
				t := strings.TrimSpace(l)
				if rest, ok := strings.CutPrefix(t, name); ok && (rest == "" || strings.IndexByte(" =:,", rest[0]) >= 0) {
					if d := kw + " " + CollapseSpace(t); len(d) <= n {
						return d, true
					}
				}
			}
		}
		if strings.HasSuffix(first, "{") && len(first)+len(" … }") <= n {
			return first + " … }", true // "type Pool struct { … }", as godoc's outline shows a type
		}
		if len(first) <= n {
			return first, true
		}
	}
	cut := clip(one, n)
	switch i, j := strings.LastIndex(cut, ", "), strings.LastIndexByte(cut, ' '); {
	case i > n/2:
		// After whole parameters: a cut at any space can end on "explain: bool =", a name
		// whose default it hides.
		cut = cut[:i+1]
	case j > n/2:
		cut = strings.TrimRight(cut[:j], " =:")
	}
	return cut + " …", true
}

// storeSymbol returns the stored text of a symbol: fullDoc, its doc with its parameters
// (Symbol.DocWithParams, made once by the caller), as storeDoc keeps it, after its whole
// signature as code when the compact one its hit shows leaves part out of a function's
// parameters (with their defaults) or a constant's or variable's declaration, so that a passage
// can show the part a question asks about. A type's members are symbols of their own: its
// signature is not stored again.
func storeSymbol(s *docidx.Symbol, fullDoc string) string {
	doc := storeDoc(fullDoc, maxStoreDoc)
	switch s.Kind {
	case docidx.KindFunc, docidx.KindMethod, docidx.KindConst, docidx.KindVar, docidx.KindProperty, docidx.KindField:
	default:
		return doc
	}
	if _, clipped := compactSignature(s.Signature, s.Name, maxSectionSignature); !clipped {
		return doc
	}
	var b strings.Builder
	addCode(&b, "", paramLines(s.Signature), maxStoreSignature)
	if doc != "" {
		b.WriteByte('\n')
		b.WriteString(doc)
	}
	return b.String()
}

// paramLines returns a one-line signature longer than maxSectionSignature with its parameters
// one a line, as gofmt and Black lay out a long one:
//
//	def prompt(
//	    text: str,
//	    default: t.Any | None = None,
//	) -> t.Any
//
// so that a passage, which keeps a code block's lines whole, shows a parameter with its default
// rather than a line cut after "=". The parameters are those of the parenthesized list with the
// most parameters (not a Go method's receiver), split at its own commas, not at those inside
// brackets or quotes. Any other signature is returned as it is.
func paramLines(sig string) string {
	if len(sig) <= maxSectionSignature || strings.ContainsRune(sig, '\n') {
		return sig
	}
	var (
		depth                 int
		quote                 byte
		open, bestOpen        = -1, -1
		bestClose, bestCommas = -1, 0
		commas                []int // top-level commas of the list being read
		best                  []int
	)
	for i := 0; i < len(sig); i++ {
		c := sig[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			if depth == 0 && c == '(' {
				open, commas = i, commas[:0]
			}
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 && c == ')' && open >= 0 && (len(commas) > bestCommas || len(commas) == bestCommas && i-open > bestClose-bestOpen) {
				bestOpen, bestClose, bestCommas = open, i, len(commas)
				best = append(best[:0], commas...)
			}
			if depth < 0 {
				return sig // unbalanced: not a signature this can lay out
			}
		case c == ',' && depth == 1 && open >= 0:
			commas = append(commas, i)
		}
	}
	if bestOpen < 0 || len(best) == 0 {
		return sig
	}
	var b strings.Builder
	b.WriteString(sig[:bestOpen+1])
	from := bestOpen + 1
	for _, end := range append(best, bestClose) {
		if p := strings.TrimSpace(sig[from:end]); p != "" {
			b.WriteString("\n    " + p + ",")
		}
		from = end + 1
	}
	b.WriteString("\n" + sig[bestClose:])
	return b.String()
}

// storeSection returns the stored text of a section (see passage.go for its form): each line of
// its plain text (a paragraph, list item or table row) as a unit and its code blocks fenced, in
// their order in the section (CodeBlock.At; a block without a place after the lines), in at
// most n bytes. Plain text rather than the markdown: no link targets, emphasis or HTML take a
// passage's bytes, and its words are the words the all field indexed. In order, a sentence
// that introduces an example ("… do the following:") is followed by it, and a passage shows the
// two together (continues).
func storeSection(s *docidx.Section, n int) string {
	var b strings.Builder
	next := 0 // the next code block
	code := func(before int) bool {
		for ; next < len(s.Code) && s.Code[next].At > 0 && s.Code[next].At <= before; next++ {
			if !addCode(&b, s.Code[next].Lang, s.Code[next].Code, n) {
				return false
			}
		}
		return true
	}
	line := 0
	for text := range strings.SplitSeq(s.Plain, "\n") {
		line++
		if !code(line) || !addUnit(&b, CollapseSpace(text), n) {
			return b.String()
		}
	}
	for ; next < len(s.Code); next++ {
		if !addCode(&b, s.Code[next].Lang, s.Code[next].Code, n) {
			break
		}
	}
	return b.String()
}

// storeDoc returns the stored text of a doc comment in at most n bytes: its paragraphs (lines
// joined), list items, parameter entries ("@param x …", ":param x:", "x (int): …" after a line
// ending in ":") and tag lines each as a unit, indented blocks and fenced blocks as code.
func storeDoc(doc string, n int) string {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	// base is the least indentation of a non-blank line after the first: a docstring as
	// written indents all but its first line.
	base := -1
	for k, l := range lines {
		if k == 0 && len(lines) > 1 {
			continue
		}
		if strings.TrimSpace(l) != "" {
			if ind := indentOf(l); base < 0 || ind < base {
				base = ind
			}
		}
	}
	var para strings.Builder
	paraLines, paraInd := 0, 0 // the lines in para, and the indentation of the last prose line
	flush := func() bool {
		if para.Len() == 0 {
			return true
		}
		ok := addUnit(&b, CollapseSpace(para.String()), n)
		para.Reset()
		paraLines = 0
		return ok
	}
	base = max(base, 0)
	prevColon, prevEntry := false, false
	// colonBefore tells a blank line after a paragraph that ends with a colon: the indented
	// entries of jsonschema's "Arguments:" may follow it, as they may follow the colon's line.
	colonBefore := false
	entry := -1
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		afterColon := colonBefore
		if t != "" {
			colonBefore = false
		}
		switch {
		case t == "" && prevEntry && para.Len() > 0:
			// An entry named alone ("meta_schema:") keeps its description, below a blank
			// line, as its own.
			continue
		case t == "":
			if !flush() {
				return b.String()
			}
			colonBefore = afterColon || prevColon
			prevColon = false
			continue
		case strings.HasPrefix(t, "```"):
			// A fenced block, to its closing fence.
			if !flush() {
				return b.String()
			}
			lang := strings.TrimSpace(strings.TrimLeft(t, "`"))
			// The block's lines lose the indentation of its fence (a block in a list item).
			fence := indentOf(l)
			var code strings.Builder
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code.WriteString(dedentBy(lines[i], fence))
				code.WriteByte('\n')
			}
			if !addCode(&b, lang, code.String(), n) {
				return b.String()
			}
			prevColon = false
			continue
		case t == "@example" || strings.HasPrefix(t, "@example "):
			// A JSDoc example: the text after the tag, to the next tag, is code
			// (https://jsdoc.app/tags-example); a <caption> names it.
			if !flush() {
				return b.String()
			}
			rest := strings.TrimSpace(strings.TrimPrefix(t, "@example"))
			label := "@example"
			if c, ok := strings.CutPrefix(rest, "<caption>"); ok {
				c, after, _ := strings.Cut(c, "</caption>")
				label, rest = label+" "+strings.TrimSpace(c), strings.TrimSpace(after)
			}
			if !addUnit(&b, label, n) {
				return b.String()
			}
			ind := indentOf(l)
			var code strings.Builder
			if rest != "" {
				code.WriteString(rest)
				code.WriteByte('\n')
			}
			fenced := false // inside a fence of the example, "@Injectable()" is code, not a tag
			for i++; i < len(lines) && (fenced || !strings.HasPrefix(strings.TrimSpace(lines[i]), "@")); i++ {
				line := lines[i]
				if strings.HasPrefix(strings.TrimSpace(line), "```") {
					fenced = !fenced
				}
				code.WriteString(dedentBy(line, ind))
				code.WriteByte('\n')
			}
			i--
			// An example written as a fenced block is that block.
			body, lang := strings.TrimSpace(code.String()), ""
			if open, inner, ok := strings.Cut(body, "\n"); ok && strings.HasPrefix(open, "```") && strings.HasSuffix(inner, "```") {
				lang = strings.TrimSpace(strings.TrimLeft(open, "`"))
				body = strings.TrimRight(strings.TrimSuffix(inner, "```"), "`")
			}
			if strings.TrimSpace(body) != "" && !addCode(&b, lang, body+"\n", n) {
				return b.String()
			}
			prevColon, prevEntry = false, false
			continue
		case strings.HasPrefix(t, ">>> ") || t == ">>>":
			// A doctest block, to the next blank line: its prompts and their output are code,
			// as Python's doctest and Sphinx read them.
			if !flush() {
				return b.String()
			}
			ind := indentOf(l)
			var code strings.Builder
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				code.WriteString(dedentBy(lines[i], ind))
				code.WriteByte('\n')
			}
			i--
			if !addCode(&b, "pycon", code.String(), n) {
				return b.String()
			}
			prevColon, prevEntry = false, false
			continue
		case paraLines == 1 && underline(t):
			// A NumPy-style section heading ("Parameters" over "----------"): a unit of its
			// own, its underline dropped.
			if !flush() {
				return b.String()
			}
			prevColon, prevEntry, entry = false, false, -1
			continue
		case indentOf(l) >= base+4 && indentOf(l) > paraInd && para.Len() == 0 && !prevColon && !listMarked(t) && !(indentOf(l) == entry && paramEntry(t)) && !(afterColon && paramEntry(t)):
			// An indented block after a blank line: code (Go doc comments, rST literal blocks).
			// One that opens with a list marker is a list, as Go's doc comments have it
			// (go.dev/doc/comment) and a docstring's nested list under "Can be one of:" is;
			// one no deeper than the paragraph above it continues that paragraph's entry (a
			// NumPy-style description's second paragraph).
			var code strings.Builder
			for ; i < len(lines) && (strings.TrimSpace(lines[i]) == "" || indentOf(lines[i]) >= base+4); i++ {
				code.WriteString(lines[i])
				code.WriteByte('\n')
			}
			i--
			if !addCode(&b, "", code.String(), n) {
				return b.String()
			}
			continue
		}
		ind := indentOf(l)
		if (prevColon || afterColon) && !prevEntry && (entry < 0 || ind <= entry) {
			entry = ind // the entries of a list after "Args:" start at this indentation
		} else if ind < entry {
			entry = -1
		}
		// A line less indented than the one before it ends that one's paragraph: the next
		// entry of a NumPy-style list ("decimals : int, optional" after "    Input data.").
		if para.Len() > 0 && (prevColon && !prevEntry || ind == entry && entry > base || startsUnit(t) || ind < paraInd) {
			if !flush() {
				return b.String()
			}
		}
		if para.Len() > 0 {
			para.WriteByte(' ')
		}
		para.WriteString(t)
		paraLines++
		paraInd = ind
		prevColon = strings.HasSuffix(t, ":")
		// An entry that names its parameter alone ("wrapper_class:", reStructuredText's
		// ":param firstresult:") has its description on the lines below it, which continue it
		// rather than start a list of their own.
		prevEntry = prevColon && (ind == entry && paramEntry(t) || strings.HasPrefix(t, ":") && len(t) > 2)
	}
	flush()
	return b.String()
}

// dedentBy removes up to ind columns of leading white space from line (a tab counts as
// indentOf counts it): a block's lines lose the indentation of the line that opens it.
func dedentBy(line string, ind int) string {
	for col := 0; col < ind && line != "" && (line[0] == ' ' || line[0] == '\t'); line = line[1:] {
		col += indentOf(line[:1])
	}
	return line
}

// underline reports whether a trimmed line underlines the heading above it, as NumPy-style
// docstrings and reStructuredText write section headings: three or more of one of - = ~ ^.
func underline(t string) bool {
	return len(t) >= 3 && strings.Trim(t, t[:1]) == "" && strings.Contains("-=~^", t[:1])
}

// paramEntry reports whether a trimmed line opens an entry of a docstring's parameter list
// (Google style): a name, optionally its type in parentheses, and a colon, then its description
// or nothing ("processors: The processor chain.", "timeout (float): …", "wrapper_class:",
// "**kwargs: …"). A blank line between entries does not end the list, and an entry is never
// the start of a code block.
func paramEntry(t string) bool {
	t = strings.TrimLeft(t, "*")
	n := 0
	for n < len(t) && (t[n] == '_' || isAlnum(t[n])) {
		n++
	}
	if n == 0 || t[0] >= '0' && t[0] <= '9' {
		return false
	}
	rest := t[n:]
	if strings.HasPrefix(rest, " (") {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return false
		}
		rest = rest[end+1:]
	}
	return rest == ":" || strings.HasPrefix(rest, ": ")
}

// listMarked reports whether a trimmed line opens a list item: "- ", "* ", "+ ", "• ", or a
// number followed by ". " or ") ".
func listMarked(t string) bool {
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "), strings.HasPrefix(t, "• "):
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// startsUnit reports whether a trimmed line of a doc comment starts a unit of its own: a list
// item, a JSDoc or rST tag, or a parameter entry ("name: …", "name (type): …").
func startsUnit(t string) bool {
	return listMarked(t) || strings.HasPrefix(t, "@") || strings.HasPrefix(t, ":") ||
		strings.HasPrefix(t, "|") || strings.HasPrefix(t, ">>>")
}

// indentOf returns the width of a line's leading white space, a tab counting four.
func indentOf(l string) int {
	n := 0
	for _, c := range []byte(l) {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// addUnit appends a prose unit as a line of b, cut at a word when it does not fit in n bytes in
// all. It reports whether there is room for more.
func addUnit(b *strings.Builder, unit string, n int) bool {
	if unit == "" {
		return true
	}
	room := n - b.Len() - 1
	if room < 40 {
		return false
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	if len(unit) > room {
		cut := clip(unit, room)
		if i := strings.LastIndexByte(cut, ' '); i > room/2 {
			cut = cut[:i]
		}
		b.WriteString(cut)
		return false
	}
	b.WriteString(unit)
	return true
}

// addCode appends a code block fenced by "```" lines (the first naming lang), without blank
// lines or trailing white space, and as many of its lines as fit in n bytes in all. It reports
// whether there is room for more.
func addCode(b *strings.Builder, lang, code string, n int) bool {
	lang = strings.Map(func(r rune) rune {
		if r == '`' || r == '\n' {
			return -1
		}
		return r
	}, lang)
	open := "```" + lang
	if n-b.Len() < len(open)+40 {
		return false
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(open)
	full := true
	for line := range strings.SplitSeq(code, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		if b.Len()+1+len(line)+4 > n {
			full = false
			if strings.HasSuffix(b.String(), open) {
				// Not even the first line fits whole: keep its opening.
				b.WriteByte('\n')
				b.WriteString(clip(line, max(0, n-b.Len()-4)))
			}
			break
		}
		b.WriteByte('\n')
		b.WriteString(line)
	}
	b.WriteString("\n```")
	return full
}

// commandWords returns the words by which the overview's mention field finds the commands
// cmds a package installs: "commands" and each name, which the analyzer splits into its words
// ("pip-compile": "pip", "compile"); "" for none.
func commandWords(cmds []string) string {
	if len(cmds) == 0 {
		return ""
	}
	return "commands " + strings.Join(cmds, " ")
}

// requirementWords returns the words by which a question asks for what a package version
// requires to run ("what's the minimum Node.js version for Express 5?", "minimum Rust version
// for displaydoc"): each requirement's name and "minimum supported version required", or ""
// for none. They are the overview's mention field, what is said of the package rather than
// by it: words of its own, so that the overview's all field keeps its length (see the
// overview's requires above), and no version numbers, which would meet the numbers of
// questions that are not about requirements.
func requirementWords(rs []docidx.Requirement) string {
	if len(rs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("requires")
	for _, r := range rs {
		b.WriteByte(' ')
		b.WriteString(r.Name)
	}
	b.WriteString(": minimum supported version required")
	return b.String()
}
