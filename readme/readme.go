package readme

import (
	"path"
	"strings"

	"github.com/docidx/docidx"
)

// Parse turns one markdown file into a Document: sections split by heading, code blocks, a title
// and a short summary. For docidx.DocReadme it keeps only sections that help a user (install,
// usage, API, examples, configuration …) and drops the rest (badges, contributors, sponsors,
// license text, changelog …). path is the file's slash path inside the package.
//
// STUB: replaced by the goldmark implementation.
func Parse(p string, kind docidx.DocKind, src []byte) docidx.Document {
	text := string(src)
	return docidx.Document{
		Path:     p,
		Kind:     kind,
		Title:    strings.TrimSuffix(path.Base(p), path.Ext(p)),
		Sections: []docidx.Section{{Text: text, Plain: text}},
	}
}
