package index

import (
	"reflect"
	"testing"

	"github.com/docidx/docidx"
)

// TestCodeNames: the names a package's code imports it as, and the aliases its documentation
// binds it to, but not what a call to it returns, names of one letter or of internals, or its
// own names.
func TestCodeNames(t *testing.T) {
	readme := func(code ...string) []docidx.Document {
		var blocks []docidx.CodeBlock
		for _, c := range code {
			blocks = append(blocks, docidx.CodeBlock{Code: c})
		}
		return []docidx.Document{{Kind: docidx.DocReadme, Sections: []docidx.Section{{Code: blocks}}}}
	}
	for _, c := range []struct {
		p                docidx.Package
		docs             []docidx.Document
		syms             []docidx.Symbol
		modules, aliases []string
	}{{
		p:       docidx.Package{Ecosystem: docidx.PyPI, Name: "PyFrames"},
		docs:    readme("import frames as fr\nimport frames.io as fio\nimport numpy as np\nfrom frames import merge as m"),
		syms:    []docidx.Symbol{{QualifiedName: "frames.merge", Doc: ">>> import frames as fr\n>>> import frames as _f"}, {QualifiedName: "_frames_ext.x"}},
		modules: []string{"frames"}, aliases: []string{"fr", "fio"},
	}, {
		p:       docidx.Package{Ecosystem: docidx.NPM, Name: "iconv-lite"},
		docs:    readme("const iconv = require('iconv-lite');", "var argv = require('iconv-lite')(process.argv)", "import * as z from \"iconv-lite\"", "import codec, { encode } from 'iconv-lite'", "const other = require('iconv')"),
		aliases: []string{"iconv", "codec"},
	}, {
		p:    docidx.Package{Ecosystem: docidx.Go, Name: "github.com/json-iterator/go"},
		docs: readme("import jsoniter \"github.com/json-iterator/go\"", "import (\n\tex \"github.com/json-iterator/go/extra\"\n\tstd \"encoding/json\"\n)"),
		syms: []docidx.Symbol{{Kind: docidx.KindPackage, Name: "jsoniter", Package: "github.com/json-iterator/go"}, {Kind: docidx.KindPackage, Name: "extra", Package: "github.com/json-iterator/go/extra"},
			{Kind: docidx.KindPackage, Name: "errors", Package: "github.com/json-iterator/go/errors"}}, // the standard library's name
		modules: []string{"jsoniter"}, aliases: []string{"ex", "extra"},
	}, {
		p:    docidx.Package{Ecosystem: docidx.Go, Name: "github.com/tinylib/msgp"},
		syms: []docidx.Symbol{{Kind: docidx.KindPackage, Name: "main", Package: "github.com/tinylib/msgp"}},
	}} {
		modules, aliases := codeNames(&c.p, c.docs, c.syms)
		if !reflect.DeepEqual(modules, c.modules) || !reflect.DeepEqual(aliases, c.aliases) {
			t.Errorf("%s: codeNames = %q, %q; want %q, %q", c.p.Name, modules, aliases, c.modules, c.aliases)
		}
	}
}
