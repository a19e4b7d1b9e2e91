package index

// docs.go turns one package version into Bleve documents: an overview of its metadata, one
// document per section and one per symbol.

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Limits on what one Bleve document carries, in bytes.
const (
	maxBody      = 16 << 10 // indexed prose of one section or doc comment
	maxCode      = 4 << 10  // indexed code of one section
	maxStoreText = 1200     // stored text from which snippets are cut
)

type searchDoc struct {
	id     string
	fields map[string]any
}

// sectionSep joins a heading path for display.
const sectionSep = " › "

func searchDocs(p *docidx.Package, docs []docidx.Document, syms []docidx.Symbol) []searchDoc {
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
	out := make([]searchDoc, 0, 1+len(syms)+4*len(docs))

	// The overview: what the package is, by its name, description and keywords. Only the overview
	// carries the package name, so a name match lifts one hit of the package, not all of them.
	ov := base(docidx.HitSection, "overview")
	ov[fPkgName] = p.Name
	ov[fPkgExact] = exactNames(p.Name)
	ov[fTitle] = p.Name
	ov[fHeading] = clip(p.Description, maxStoreText) // a package's own one-liner weighs like a heading
	ov[fAll] = allText(p.Name, identWords(p.Name), p.Description, strings.Join(p.Keywords, " "))
	ov[fSTitle] = p.Name
	ov[fSSection] = "Overview"
	ov[fSText] = clip(p.Description, maxStoreText)
	ov[fSURI] = ref.PageURI(docidx.PageOverview)
	out = append(out, searchDoc{id: ref.PageURI(docidx.PageOverview), fields: ov})

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
			text := s.Plain
			if strings.TrimSpace(text) == "" && len(s.Code) > 0 {
				text = s.Code[0].Code
			}
			f[fSTitle] = d.Title
			f[fSSection] = strings.Join(s.Heading, sectionSep)
			f[fSText] = clip(text, maxStoreText)
			hitURI := uri
			if s.Anchor != "" {
				hitURI += "#" + s.Anchor
			}
			f[fSURI] = hitURI
			out = append(out, searchDoc{id: uri + "#" + strconv.Itoa(i), fields: f})
		}
	}

	seen := map[string]int{}
	for _, s := range syms {
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
		f[fSignature] = clip(s.Signature, maxCode)
		f[fAll] = allText(names, identWords(names), clip(s.Doc, maxBody))
		f[fHeading] = s.Package
		f[fSTitle] = s.QualifiedName
		f[fSSection] = symbolSection(&s)
		f[fSText] = clip(s.Doc, maxStoreText)
		f[fSURI] = uri
		out = append(out, searchDoc{id: id, fields: f})
	}
	return out
}

// allText joins the parts of the all field, which decides which documents a query selects.
func allText(parts ...string) string { return strings.Join(parts, "\n") }

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

// symbolSection returns the one-line description of a symbol hit: the first line of its
// signature, preceded by its kind when the signature does not start with a declaration word.
func symbolSection(s *docidx.Symbol) string {
	line := firstLine(s.Signature)
	word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
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
