package docdirs

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
)

func TestRead(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md":              {Data: []byte("# r")},
		"FAQ.md":                 {Data: []byte("# FAQ")},
		"CONTRIBUTING.md":        {Data: []byte("# c")},
		"notes.txt":              {Data: []byte("n")},
		"Docs/a.md":              {Data: []byte("\xef\xbb\xbf# A")},
		"Docs/CHANGELOG.md":      {Data: []byte("# Change Log")},
		"Docs/change-log/1.0.md": {Data: []byte("# 1.0")},
		"Docs/.hidden/h.md":      {Data: []byte("# h")},
		"Docs/vendor/v.md":       {Data: []byte("# v")},
		"Docs/big.md":            {Data: []byte(strings.Repeat("x", 100))},
		"Docs/img.png":           {Data: []byte("png")},
		"examples/e.js":          {Data: []byte("\xef\xbb\xbfrun()")},
		"examples/e.md":          {Data: []byte("# E")},
		"guides/g.md":            {Data: []byte("# g")},
		"Docs/1/2/3/4/5/6/7/8/9": {Data: []byte("# deep")},
	}
	o := Options{
		SkipDir: "vendor",
		Keep: func(p string, kind docidx.DocKind) (func(string, []byte) []byte, bool) {
			if kind == docidx.DocExample && strings.HasSuffix(p, ".js") {
				return func(p string, src []byte) []byte { return []byte("# " + p + "\n\n" + string(src)) }, true
			}
			return nil, strings.HasSuffix(p, ".md")
		},
		MaxDocuments: 10,
		MaxFile:      50,
	}
	r := Read(fsys, 1, o)
	var got []string
	for _, d := range r.Docs {
		got = append(got, d.Path+" "+string(d.Kind)+" "+d.Title)
	}
	want := []string{"FAQ.md doc FAQ", "Docs/a.md doc A", "examples/e.js example examples/e.js", "examples/e.md example E"}
	if !slices.Equal(got, want) {
		t.Errorf("Read docs = %q, want %q", got, want)
	}
	if text := r.Docs[2].Sections[0].Text; text != "run()" {
		t.Errorf("Read example text = %q, want the converted file without its byte order mark", text)
	}
	if len(r.Skipped) != 1 || !errors.Is(r.Skipped[0], docidx.ErrTooLarge) || r.Problems != nil {
		t.Errorf("Read skipped %v, problems %q; want docs/big.md too large and no problems", r.Skipped, r.Problems)
	}

	// With 2 documents already, a cap of 3 leaves room for one, the root guide; each directory
	// reports the cap.
	o.MaxDocuments = 3
	r = Read(fsys, 2, o)
	if len(r.Docs) != 1 || !slices.Equal(r.Problems, []string{"Docs: more than 3 documents, rest skipped", "examples: more than 3 documents, rest skipped"}) {
		t.Errorf("Read with a cap: %d docs, problems %q", len(r.Docs), r.Problems)
	}
	if r = Read(fsys, 3, o); len(r.Docs) != 0 || !slices.Equal(r.Problems, []string{"more than 3 documents, root guides from FAQ.md skipped"}) {
		t.Errorf("Read at the cap: %d docs, problems %q", len(r.Docs), r.Problems)
	}

	fsys["Docs/big.md"] = &fstest.MapFile{Data: nil, Mode: 0o777 | 1<<26} // a device: not regular
	o.MaxDocuments = 10
	if r = Read(fsys, 0, o); len(r.Skipped) != 1 || !errors.Is(r.Skipped[0], memfs.ErrNotRegular) {
		t.Errorf("Read of a non-regular file: skipped %v", r.Skipped)
	}
}

// TestRootGuide checks which markdown files at a package's root are guides for its users: not the
// README, nor the files about the project (community health files, licenses and notices, change
// logs, lists of people, agent instructions), in any case and with "-" or " " for "_".
func TestRootGuide(t *testing.T) {
	for name, want := range map[string]bool{
		"FAQ.md": true, "MIGRATION_GUIDE.md": true, "UNICODE.md": true, "porting-Buffer.md": true,
		"Design.markdown": true, "docs.md": true,
		"README.md": false, "readme_zh_CN.md": false, "CONTRIBUTING.md": false, "Code-Of-Conduct.md": false,
		"SECURITY.md": false, "CHANGELOG.md": false, "release-notes.md": false, "LICENSE-MIT.md": false,
		"THIRD-PARTY-NOTICES.md": false, "SPONSORS.md": false, "AGENTS.md": false, "CLAUDE.md": false,
		"AI_POLICY.md": false, "FAQ.txt": false, "FAQ": false,
	} {
		if got := RootGuide(name); got != want {
			t.Errorf("RootGuide(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestProjectPage checks which pages of a documentation tree are about the project, by their
// file's or a directory's name, in any case and with "-" for "_".
func TestProjectPage(t *testing.T) {
	for p, want := range map[string]bool{
		"CHANGELOG.md": true, "v1/CHANGELOG.md": true, "change-log/release-3.0.md": true,
		"Contributing.rst": true, "RELEASING.md": true, "license.txt": true,
		"guide.md": false, "testing.md": false, "security.md": false, "history-of-yaml/intro.md": false,
		"api/changes_test.md": false,
	} {
		if got := ProjectPage(p); got != want {
			t.Errorf("ProjectPage(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestRelease checks that the release history at a package's root gives the entry of the
// version asked for, whatever the file's name among the usual ones, and nothing for a version it
// has no entry of, a history below the root, or one that is not markdown.
func TestRelease(t *testing.T) {
	history := []byte("# Changes\n\n## v1.2.0 (2025-01-02)\n\n- `Parse` rejects trailing garbage.\n\n## v1.1.0\n\n- Older.\n")
	for name, want := range map[string]bool{"CHANGELOG.md": true, "History.md": true, "CHANGES.markdown": true, "NEWS.txt": false} {
		fsys := fstest.MapFS{name: {Data: history}, "sub/CHANGELOG.md": {Data: history}}
		d, ok, skipped := Release(fsys, "1.2.0", 1<<20)
		if skipped != nil || ok != want || ok && (d.Path != name || len(d.Sections) != 1 || !strings.Contains(d.Sections[0].Text, "trailing garbage")) {
			t.Errorf("%s: ok %v (want %v), skipped %v, document %+v", name, ok, want, skipped, d)
		}
	}
	if _, ok, _ := Release(fstest.MapFS{"CHANGELOG.md": {Data: history}}, "1.3.0", 1<<20); ok {
		t.Error("1.3.0 has no entry: want none")
	}
	if _, ok, skipped := Release(fstest.MapFS{"CHANGELOG.md": {Data: history}}, "1.2.0", 10); ok || !errors.Is(skipped, docidx.ErrTooLarge) {
		t.Errorf("a history over the size limit: ok %v, skipped %v; want it skipped as too large", ok, skipped)
	}
}
