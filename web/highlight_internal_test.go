package web

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// notSerialisable are chroma's lexers that internal/genlexers leaves out: web shows code in
// their languages plain. A chroma upgrade that changes the list regenerates lexers.zip and this.
var notSerialisable = []string{"Caddyfile", "Caddyfile Directives", "Common Lisp", "ERB", "EmacsLisp",
	"Go HTML Template", "HTTP", "Haxe", "PHTML", "Raku", "Svelte", "YAML+Jinja", "markdown", "reStructuredText"}

// highlightSamples are code of the languages of signatures, and of HTML, whose lexer lexes its
// scripts and styles with others, and the shell's, by language.
var highlightSamples = map[string]string{
	"go": "func (p *Pool) Go(ctx context.Context, f func() error) error\nconst DefaultSize = 4 // the default\n" +
		"var t = template.Must(template.New(\"x\").Parse(`Hello {{.Name}}! {{range .Items}}- {{.}}{{end}}`))\n" +
		"type S struct {\n\tA int `json:\"a,omitempty\"`\n}\n",
	"typescript": "export class Evil<T> extends Base { constructor(x: string) {} }\nfunction f(a: number): Promise<void> { return g(`t${a}`) }\n",
	"python":     "def parse(s: str, *, strict: bool = False) -> Tree:\n    \"\"\"Parse s.\"\"\"\n    return Tree(s)  # done\n",
	"rust":       "pub fn spawn<F, T>(f: F) -> JoinHandle<T> where F: FnOnce() -> T + Send + 'static { /* c */ }\n",
	"swift":      "public func map<T>(_ transform: (Element) throws -> T) rethrows -> [T]\n",
	"html":       "<div class=\"x\"><script>var a = 1; // js</script><style>p { color: red }</style></div>\n",
	"sh":         "#!/bin/sh\ngo install example.com/cmd@latest && echo \"$HOME\" | grep -v '^#' > /dev/null\n",
}

// lexers.zip holds chroma's lexers as chroma has them: every lexer of chroma's registry but those
// it cannot serialise, with the same configuration and rules, and the same tokens for code of the
// languages docidx highlights most.
func TestLexersAsChroma(t *testing.T) {
	names := lexerNames()
	for _, want := range lexers.GlobalLexerRegistry.Lexers {
		name := want.Config().Name
		got := names[strings.ToLower(name)]
		switch {
		case slices.Contains(notSerialisable, name):
			if got != nil && got.Config().Name == name {
				t.Errorf("%s is in lexers.zip: take it off notSerialisable", name)
			}
			continue
		case got == nil:
			t.Errorf("%s is not in lexers.zip", name)
			continue
		case !sameConfig(got.Config(), want.Config()):
			t.Errorf("%s: configuration %+v, want %+v", name, got.Config(), want.Config())
		case name == "Go":
			continue // a rule of Go code, put back by goRawStrings: see the tokens below
		}
		gr, gerr := got.(*chroma.RegexLexer).Rules()
		wr, werr := want.(*chroma.RegexLexer).Rules()
		if gerr != nil || werr != nil || !reflect.DeepEqual(gr, wr) {
			t.Errorf("%s: the rules differ from chroma's (%v, %v)", name, gerr, werr)
		}
	}
	for lang, text := range highlightSamples {
		if w, g := tokens(t, lexers.Get(lang), text), tokens(t, lexer(lang), text); !slices.Equal(w, g) {
			t.Errorf("%s: tokens\n%v\nwant (chroma's)\n%v", lang, g, w)
		}
	}
	if t.Failed() {
		t.Log("lexers.zip is written from chroma's lexers by internal/genlexers: run go generate in web")
	}
}

// sameConfig reports whether a and b name, match and lex alike (their analysers, for guessing a
// language, are not compared: web never guesses).
func sameConfig(a, b *chroma.Config) bool {
	return a.Name == b.Name && slices.Equal(a.Aliases, b.Aliases) && slices.Equal(a.Filenames, b.Filenames) &&
		slices.Equal(a.AliasFilenames, b.AliasFilenames) && slices.Equal(a.MimeTypes, b.MimeTypes) &&
		a.CaseInsensitive == b.CaseInsensitive && a.DotAll == b.DotAll && a.NotMultiline == b.NotMultiline &&
		a.EnsureNL == b.EnsureNL && a.Priority == b.Priority
}

// tokens returns the tokens l makes of text, coalesced as pages have them.
func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	t.Helper()
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		return []chroma.Token{{Type: chroma.Error, Value: err.Error()}}
	}
	return it.Tokens()
}
