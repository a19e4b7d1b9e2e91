package pypi

import (
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
)

// moreNewDocs returns the docstrings given with add_newdoc ([pyscan.NewDocs]) by the sources
// among files that extractAPI has not read: private modules, and the .py source beside a .pyi
// stub (numpy/_core/_add_newdocs.py, beside its stub, makes the calls), in the order of files.
// A file that cannot be read gives none.
func moreNewDocs(files []apiFile, read readFunc, lim Limits) []pyscan.NewDoc {
	var out []pyscan.NewDoc
	for _, f := range files {
		p := f.docs
		if p == "" && f.private {
			p = f.path
		}
		if p == "" {
			continue // a public module's source, which extractAPI reads
		}
		if src, err := read(p, lim.MaxFile); err == nil {
			out = append(out, pyscan.NewDocs(src)...)
		}
	}
	return out
}

// attachNewDocs gives the symbols without a doc the docstrings docs attach to their objects.
// A doc for the object Name of module Module goes to the symbol called Name (with Attr, to its
// member called Attr) that Module's file defines, wherever it is re-exported (numpy.array is
// defined in numpy/_core/multiarray.pyi, which add_newdoc names numpy._core.multiarray); when
// that file defines no such symbol (or Module has no file: an extension module), to the one the
// nearest enclosing package's file defines (numpy._core gives numpy.ndarray its docs, and
// numpy/__init__.pyi declares it). moduleOf maps a Symbol.File to its module. The docs are
// converted as every docstring is ([plainSymbol]); a symbol takes the Params of its doc only
// when it has none.
func attachNewDocs(syms []docidx.Symbol, docs []pyscan.NewDoc, moduleOf map[string]string) {
	if len(docs) == 0 {
		return
	}
	type key struct{ module, parent, name string }
	defined := map[key]bool{} // the symbols each module's file defines
	for _, s := range syms {
		if m, ok := moduleOf[s.File]; ok {
			defined[key{m, s.Parent, s.Name}] = true
		}
	}
	target := map[key]pyscan.NewDoc{} // the definition each doc goes to
	for _, d := range docs {
		k := key{d.Module, "", d.Name}
		if d.Attr != "" {
			k = key{d.Module, d.Name, d.Attr}
		}
		for !defined[k] && strings.Contains(k.module, ".") {
			k.module = k.module[:strings.LastIndexByte(k.module, '.')]
		}
		if _, dup := target[k]; defined[k] && !dup && d.Doc != "" {
			target[k] = d
		}
	}
	for i := range syms {
		s := &syms[i]
		if s.Doc != "" {
			continue
		}
		d, ok := target[key{moduleOf[s.File], s.Parent, s.Name}]
		if !ok {
			continue
		}
		s.Doc = d.Doc
		if len(s.Params) == 0 {
			s.Params = d.Params
		}
		*s = plainSymbol(*s)
	}
}
