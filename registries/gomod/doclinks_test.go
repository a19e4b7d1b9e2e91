package gomod

import (
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestDocLinksUnbracketed: doc links lose their brackets in every symbol's doc, as go doc shows
// them, while brackets that are no doc link (an index, a link with a definition, code) stay.
func TestDocLinksUnbracketed(t *testing.T) {
	src := `// Package v greets; see [Greeter] and [New].
package v

import "io"

// Greeter writes greetings to an [io.Writer], or to [*Greeter.Out] if set.
// Its [Greeter.Hello] method says hello; see [the spec].
//
// Items [0] and [Unknown] are no links, nor is this code:
//
//	g := [Greeter]{}
//
// [the spec]: https://example.com/spec
type Greeter struct {
	// Out is where [Greeter.Hello] writes.
	Out io.Writer
}

// Hello says hello.
//
//   - it calls [New] first
func (g *Greeter) Hello() {}

// New returns a [Greeter].
func New() *Greeter { return nil }
`
	syms := extractSource(t, src)
	testutil.Docs(t, syms, map[string]string{
		"m.example/v": "Package v greets; see Greeter and New.\n",
		"v.Greeter": "Greeter writes greetings to an io.Writer, or to *Greeter.Out if set.\n" +
			"Its Greeter.Hello method says hello; see [the spec].\n\n" +
			"Items [0] and [Unknown] are no links, nor is this code:\n\n" +
			"\tg := [Greeter]{}\n\n" +
			"[the spec]: https://example.com/spec\n",
		"v.Greeter.Out":   "Out is where Greeter.Hello writes.\n",
		"v.Greeter.Hello": "Hello says hello.\n\n  - it calls New first\n",
		"v.New":           "New returns a Greeter.\n",
	})
}
