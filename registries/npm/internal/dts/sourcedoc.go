package dts

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/docidx/docidx"
)

// sourceDocs gives the undocumented functions of the package's own declaration files the doc
// comment their TypeScript source gives them, when the package ships that source: a
// declaration file's declaration map ("firstValueFrom.d.ts.map", which `tsc --declarationMap`
// writes beside it) names the source it was emitted from, and there the function's doc comment
// may sit on its implementation signature, which declaration emit leaves out along with its
// comment, while the overloads it keeps have none. TypeDoc documents such overloads with the
// implementation's comment; so does docidx. rxjs 7 ships src/ and maps for every operator, and
// 30 of its functions (firstValueFrom, retry, takeWhile …) are documented only this way.
//
// own maps the File of each symbol of the package's own files (not another package's, followed
// through Options.External) to its path in fsys. A map or source that cannot be read or parsed,
// or that leaves the package, gives nothing.
func (x *extractor) sourceDocs(fsys fs.FS, own map[string]string) {
	sources := map[string]map[string]string{} // declaration file -> its source's function docs (functionDocs)
	for i := range x.res.Symbols {
		s := &x.res.Symbols[i]
		if s.Doc != "" || s.Kind != docidx.KindFunc || s.Parent != "" {
			continue
		}
		file, ok := own[s.File]
		if !ok {
			continue
		}
		docs, seen := sources[file]
		if !seen {
			docs = functionDocs(x.mappedSource(fsys, file))
			sources[file] = docs
		}
		if raw := docs[s.Name]; raw != "" {
			s.Doc, s.Deprecated = cleanDoc(raw)
			s.Params = params(s.Doc, s.Signature)
		}
	}
}

// mappedSource returns the text of the TypeScript source that the declaration map of file (a
// slash path in fsys) names, or "" when there is none in fsys: the map's first source, resolved
// against its sourceRoot and the map's directory, as source maps resolve them (Source Map
// Revision 3, "sources" and "sourceRoot").
func (x *extractor) mappedSource(fsys fs.FS, file string) string {
	data, err := x.read(fsys, file+".map")
	if err != nil {
		return ""
	}
	var m struct {
		SourceRoot string   `json:"sourceRoot"`
		Sources    []string `json:"sources"`
	}
	if json.Unmarshal(data, &m) != nil || len(m.Sources) == 0 {
		return ""
	}
	src := m.Sources[0]
	if strings.Contains(src, "://") || strings.Contains(m.SourceRoot, "://") {
		return "" // a URL, not a file the package ships
	}
	p, ok := cleanPath(path.Join(path.Dir(file), m.SourceRoot, src))
	if !ok || !hasAnySuffix(p, ".ts", ".mts", ".cts", ".tsx") || hasAnySuffix(p, ".d.ts", ".d.mts", ".d.cts") {
		return ""
	}
	text, err := x.read(fsys, p)
	if err != nil {
		return ""
	}
	return string(text)
}

// functionDoc finds a doc comment that ends right before a function declaration: the comment and
// the declaration's name.
var functionDoc = regexp.MustCompile(`(/\*\*(?:[^*]|\*+[^*/])*\*+/)\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([\p{L}\p{N}_$]+)`)

// functionDocs returns, by function name, the raw doc comment src gives each function (its first
// declaration that has one: with overloads left undocumented, the implementation's), reading src
// once; nil for a source without any.
func functionDocs(src string) map[string]string {
	var docs map[string]string
	for _, m := range functionDoc.FindAllStringSubmatch(src, -1) {
		if docs == nil {
			docs = map[string]string{}
		}
		if _, ok := docs[m[2]]; !ok {
			docs[m[2]] = m[1]
		}
	}
	return docs
}
