package pypi

import (
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
)

// readSource reads the source at slash path p for rx, noting the docstrings it gives with
// add_newdoc (noteNewDocs).
func (rx *reexporter) readSource(p string) ([]byte, error) {
	src, err := rx.read(p, rx.lim.MaxFile)
	if err == nil {
		rx.noteNewDocs(p, src)
	}
	return src, err
}

// noteNewDocs adds the docstrings src, the source at path p, gives with add_newdoc
// ([pyscan.NewDocs]) to rx.newDocs, once per path: a source the extraction reads is searched for
// them as it is read.
func (rx *reexporter) noteNewDocs(p string, src []byte) {
	if !rx.sourced[p] {
		rx.sourced[p] = true
		rx.newDocs = append(rx.newDocs, pyscan.NewDocs(src)...)
	}
}

// allNewDocs returns the docstrings every source of the distribution among files gives with
// add_newdoc: those noted as the extraction read them, then those of the private modules and of
// the .py sources beside .pyi stubs that it did not read (numpy/_core/_add_newdocs.py, beside
// its stub, makes the calls), read now in the order of files. A file that cannot be read gives
// none.
func (rx *reexporter) allNewDocs(files []apiFile) []pyscan.NewDoc {
	for _, f := range files {
		for _, p := range []string{f.path, f.docs} {
			if p == "" || rx.sourced[p] || p == f.path && !f.private {
				continue // read, or a public module extractAPI reads (or left out: MaxFiles)
			}
			rx.readSource(p)
		}
	}
	return rx.newDocs
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
