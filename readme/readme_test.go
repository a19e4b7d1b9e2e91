package readme_test

import (
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
)

func TestFrontMatter(t *testing.T) {
	src := "---\nid: error-handling\ntitle: \"🐛 Error Handling\"\nsidebar_position: 4\n---\n\nFiber supports centralized error handling.\n\n## Catching errors\n\nReturn the error.\n"
	doc := readme.Parse("docs/guide/error-handling.md", docidx.DocGuide, []byte(src))
	if doc.Title != "🐛 Error Handling" {
		t.Errorf("title = %q", doc.Title)
	}
	for _, s := range doc.Sections {
		if strings.Contains(s.Plain, "sidebar_position") || strings.Contains(s.Text, "id: error-handling") {
			t.Errorf("front matter kept in section %+v", s)
		}
	}
	if len(doc.Sections) != 2 || !strings.Contains(doc.Sections[0].Plain, "centralized error handling") {
		t.Errorf("sections = %+v", doc.Sections)
	}
	// A thematic break that is not front matter stays markdown.
	if d := readme.Parse("a.md", docidx.DocGuide, []byte("---\n\ntext\n")); len(d.Sections) == 0 {
		t.Errorf("lone --- lost the document: %+v", d)
	}
}
