// Command genlexers writes the lexers of highlighted code, lexers.zip: every lexer of chroma's
// registry that chroma.Marshal serialises, as the XML chroma's own embedded lexers are written
// in, one file each. Run it with go generate in web/ whenever go.mod changes chroma's version.
//
// docidx does not import chroma's lexers package: its initializer parses the configuration of
// all of its lexers when a program starts, 5 ms of every start of docidx, an editor's serve
// --stdio included, whether or not a page is ever shown. web builds its registry from these
// files on the first code it highlights instead (see highlight.go). chroma's own fix, lexer
// metadata generated into Go (alecthomas/chroma#1356), is not in a release yet; once it is,
// web can import the lexers package again and this command go.
//
// The Go lexer does not serialise as it is: its raw strings are lexed as Go text templates by
// an emitter of Go code. It is written with that rule's middle group lexed as "Go Text
// Template", and web wraps it back as chroma does (see goRawStrings in highlight.go). Lexers
// that still do not serialise (chroma's delegating and remapping lexers, and those with emitters
// of Go code), or do not load again, are left out and listed: web shows their code plain.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// goRawString is the pattern of the Go lexer's rule for raw strings, whose middle group chroma
// lexes with a Go text template lexer remapped (see highlight.go's goRawStrings).
const goRawString = "(`)([^`]*)(`)"

func main() {
	out := flag.String("o", "lexers.zip", "the archive to write")
	flag.Parse()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	written := map[string]string{}
	var skipped []string
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		name := l.Config().Name
		rl, ok := l.(*chroma.RegexLexer)
		if !ok {
			skipped = append(skipped, fmt.Sprintf("%s (%T)", name, l))
			continue
		}
		if name == "Go" {
			rl = goWithoutFunc(rl)
		}
		data, err := marshal(rl)
		if err == nil {
			err = loads(data)
		}
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (%v)", name, err))
			continue
		}
		file := fileName(name) + ".xml"
		if other, dup := written[file]; dup {
			log.Fatalf("genlexers: %q and %q both make %s", other, name, file)
		}
		written[file] = name
		// No time in the header: the same lexers make the same bytes.
		w, err := zw.CreateHeader(&zip.FileHeader{Name: file, Method: zip.Deflate})
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	slices.Sort(skipped)
	fmt.Printf("genlexers: %d lexers written to %s; not serialisable, left out: %s\n", len(written), *out, strings.Join(skipped, ", "))
}

// marshal is chroma.Marshal with the lexer's states in name order, not in a map's: the same
// lexers make the same bytes.
func marshal(l *chroma.RegexLexer) ([]byte, error) {
	type state struct {
		Name  string        `xml:"name,attr"`
		Rules []chroma.Rule `xml:"rule"`
	}
	type lexer struct {
		XMLName xml.Name      `xml:"lexer"`
		Config  chroma.Config `xml:"config"`
		States  []state       `xml:"rules>state"`
	}
	rules, err := l.Rules()
	if err != nil {
		return nil, err
	}
	root := &lexer{Config: *l.Config()}
	for _, name := range slices.Sorted(maps.Keys(rules)) {
		root.States = append(root.States, state{name, rules[name]})
	}
	data, err := xml.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, err
	}
	return emptyElement.ReplaceAll(data, []byte("/>")), nil
}

// loads reports why the lexer serialised as data does not load as web loads it, if it does not.
func loads(data []byte) error {
	l, err := chroma.NewXMLLexer(fstest.MapFS{"l.xml": {Data: data}}, "l.xml")
	if err == nil {
		_, err = l.Rules()
	}
	return err
}

// emptyElement is an element's end tag right after its start tag, written as chroma.Marshal
// writes it: the start tag closed with "/>".
var emptyElement = regexp.MustCompile(`></[a-zA-Z]+>`)

// goWithoutFunc returns chroma's Go lexer with the emitter of its raw strings' middle group,
// Go code, replaced by Using("Go Text Template"), which serialises.
func goWithoutFunc(go_ *chroma.RegexLexer) *chroma.RegexLexer {
	rules, err := go_.Rules()
	if err != nil {
		log.Fatal(err)
	}
	out := chroma.Rules{}
	found := false
	for state, rs := range rules {
		out[state] = slices.Clone(rs)
		for i, r := range rs {
			if r.Pattern == goRawString {
				out[state][i].Type = chroma.ByGroups(chroma.LiteralString, chroma.Using("Go Text Template"), chroma.LiteralString)
				found = true
			}
		}
	}
	if !found {
		log.Fatalf("genlexers: chroma's Go lexer has no rule %s: see goRawStrings in highlight.go", goRawString)
	}
	cfg := *go_.Config()
	return chroma.MustNewLexer(&cfg, func() chroma.Rules { return out })
}

// fileName is the name of the file of the lexer named name: lower case, letters, digits and
// "+#-_", others as "_".
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', strings.ContainsRune("+#-_", r):
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, name)
}
