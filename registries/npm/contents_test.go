package npm

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/testutil"
	untarpkg "github.com/docidx/docidx/registries/internal/untar"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestManifestFields(t *testing.T) {
	for _, tc := range []struct {
		json, license, repo, deprecated string
		keywords                        []string
	}{
		{`{"license":"MIT","repository":"owner/repo","keywords":["a","b"]}`, "MIT", "https://github.com/owner/repo", "", []string{"a", "b"}},
		{`{"license":{"type":"BSD-3-Clause","url":"x"},"repository":{"type":"git","url":"git+https://github.com/o/r.git","directory":"packages/x"}}`,
			"BSD-3-Clause", "https://github.com/o/r/tree/HEAD/packages/x", "", nil},
		{`{"licenses":[{"type":"MIT"},{"type":"Apache-2.0"}],"repository":"git://github.com/o/r.git","deprecated":true}`,
			"(MIT OR Apache-2.0)", "https://github.com/o/r", "deprecated", nil},
		{`{"license":7,"repository":{"url":"git+ssh://git@gitlab.com:2222/o/r.git"},"keywords":"x, y z","deprecated":"gone"}`,
			"", "https://gitlab.com/o/r", "gone", []string{"x", "y", "z"}},
		{`{"repository":"gitlab:o/r","deprecated":false,"keywords":[1,"k"]}`, "", "https://gitlab.com/o/r", "", []string{"k"}},
		{`{"repository":"git@github.com:o/r.git"}`, "", "https://github.com/o/r", "", nil},
		{`{"repository":"bitbucket:o/r"}`, "", "https://bitbucket.org/o/r", "", nil},
		{`{"repository":"https://example.test/o/r/"}`, "", "https://example.test/o/r", "", nil},
		{`{"repository":"not a url at all"}`, "", "not a url at all", "", nil},
		{`{"repository":[1,2],"license":["MIT"]}`, "MIT", "", "", nil},
	} {
		m, err := parseManifest([]byte(tc.json))
		if err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		if m.license() != tc.license || m.repository() != tc.repo || m.deprecated() != tc.deprecated ||
			fmt.Sprint(m.keywords()) != fmt.Sprint(tc.keywords) {
			t.Errorf("%s:\n got license=%q repo=%q deprecated=%q keywords=%q", tc.json, m.license(), m.repository(), m.deprecated(), m.keywords())
		}
	}
	// Odd types in string fields never fail the whole manifest.
	m, err := parseManifest([]byte(`{"name":["x"],"version":1,"description":{"a":1},"dist":"nope"}`))
	if err != nil || m.Name != "" || m.dist().Tarball != "" {
		t.Errorf("odd types: %+v %v", m, err)
	}
}

func TestTypesEntries(t *testing.T) {
	fsys := fstest.MapFS{
		"index.d.ts":           {},
		"lib/main.d.ts":        {},
		"dist/index.d.mts":     {},
		"dist/index.d.cts":     {},
		"typings/index.d.ts":   {},
		"types/index.d.ts":     {},
		"esm/index.d.ts":       {},
		"legacy/index.d.ts":    {},
		"sub/index.d.ts":       {},
		"dir/index.d.ts":       {},
		"noext.d.ts":           {},
		"src/index.ts":         {},
		"cjs/index.d.cts":      {},
		"only-js/index.js":     {},
		"typesversions/x.d.ts": {},
	}
	for _, tc := range []struct{ json, want string }{
		{`{"types":"./types/index.d.ts","typings":"typings/index.d.ts"}`, "types/index.d.ts"},
		{`{"typings":"typings/index.d.ts"}`, "typings/index.d.ts"},
		{`{"types":"missing.d.ts","typings":"typings/index.d.ts"}`, "typings/index.d.ts"},
		{`{"exports":{"types":"./dist/index.d.mts","default":"./x.js"}}`, "dist/index.d.mts"},
		{`{"exports":{".":{"import":{"types":"./dist/index.d.mts"},"require":{"types":"./dist/index.d.cts"}}}}`, "dist/index.d.mts"},
		{`{"exports":{"types":{"require":"./dist/index.d.cts","default":"./dist/index.d.mts"}}}`, "dist/index.d.cts"},
		{`{"exports":{".":"./esm/index.js","./sub":"./sub/index.js"}}`, "esm/index.d.ts"},
		{`{"exports":{".":[{"require":"./cjs/index.cjs"},"./x.js"]}}`, "cjs/index.d.cts"},
		{`{"exports":"./esm/index.js"}`, "esm/index.d.ts"},
		{`{"main":"lib/main.js"}`, "lib/main.d.ts"},
		{`{"main":"./dir"}`, "dir/index.d.ts"},
		{`{"types":"noext"}`, "noext.d.ts"},
		{`{"types":"src/index.ts"}`, "src/index.ts"},
		{`{"main":"only-js/index.js"}`, "index.d.ts"},
		{`{}`, "index.d.ts"},
		{`{"types":"../../etc/passwd.d.ts"}`, "index.d.ts"},
		// typesVersions: the first range TypeScript 5.9 satisfies, in the order written.
		{`{"types":"x.d.ts","typesVersions":{"<=4.0":{"*":["old/*"]},">=4.2":{"*":["typesversions/*"]},"*":{"*":["none/*"]}}}`, "typesversions/x.d.ts"},
		{`{"typesVersions":{"*":{"index.d.ts":["typesversions/x.d.ts"]}}}`, "typesversions/x.d.ts"},
		{`{"types":"types/index.d.ts","typesVersions":{"<=5.6":{"*":["ts5.6/*"]}}}`, "types/index.d.ts"},
		{`{"typesVersions":["not an object"]}`, "index.d.ts"},
	} {
		m, _ := parseManifest([]byte(tc.json))
		if got := strings.Join(typesEntries(fsys, m), " "); got != tc.want {
			t.Errorf("%s: entries %q, want %q", tc.json, got, tc.want)
		}
	}
	if got := typesEntries(fstest.MapFS{}, &manifest{}); got != nil {
		t.Errorf("no declarations: %v", got)
	}
}

func TestExportName(t *testing.T) {
	testutil.Mapping(t, "exportName", exportName, map[string]string{
		"@types/express": "express", "@types/babel__core": "core", "@scope/x": "x", "lodash": "lodash", "@types/node": "node",
	})
}

func sri(alg string, sum []byte) string { return alg + "-" + base64.StdEncoding.EncodeToString(sum) }

func TestVerifyIntegrity(t *testing.T) {
	data := []byte("tarball bytes")
	s512 := sha512.Sum512(data)
	s384 := sha512.Sum384(data)
	s256 := sha256.Sum256(data)
	s1 := sha1.Sum(data)
	other := sha512.Sum512([]byte("other"))
	for _, tc := range []struct {
		integrity, shasum string
		want              error
	}{
		{sri("sha512", s512[:]), "", nil},
		{sri("sha384", s384[:]), "", nil},
		{sri("sha256", s256[:]), "", nil},
		{sri("sha1", s1[:]), "", nil},
		{sri("sha512", s512[:]) + "?opt=1", "", nil},
		{sri("sha512", other[:]) + " " + sri("sha512", s512[:]), "", nil},              // any digest of the strongest algorithm
		{sri("sha1", s1[:]) + "\n" + sri("sha512", other[:]), "", docidx.ErrIntegrity}, // only the strongest counts
		{sri("sha512", other[:]), hex.EncodeToString(s1[:]), docidx.ErrIntegrity},      // shasum is not a fallback for a bad integrity
		{"", hex.EncodeToString(s1[:]), nil},
		{"", strings.ToUpper(hex.EncodeToString(s1[:])), nil},
		{"md5-abc", hex.EncodeToString(s1[:]), nil},
		{"", "0000", docidx.ErrIntegrity},
		{"sha512-!!!notbase64", "", docidx.ErrIntegrity},
		{"sha512-" + base64.RawStdEncoding.EncodeToString(s512[:]), "", nil},
		{"", "", errNoDigest},
		{"garbage", "", errNoDigest},
	} {
		if err := verifyIntegrity(data, tc.integrity, tc.shasum); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("verifyIntegrity(%q, %q) = %v, want %v", tc.integrity, tc.shasum, err, tc.want)
		}
	}
}

var bigLimits = untarpkg.Limits{Unpacked: 1 << 20, Entry: 1 << 20, File: 1 << 20, Kept: 1 << 20}

func TestUntar(t *testing.T) {
	tgz := npmtest.Tarballs.Build([]registrytest.Entry{
		{Name: "package/package.json", Body: `{}`},
		{Name: "./package/README.md", Body: "# r"},
		{Name: "toplevel.txt", Body: "no directory"},
		{Name: "package/dir/", Typeflag: tar.TypeDir},
		{Name: "package/link.d.ts", Typeflag: tar.TypeSymlink, Link: "../../../../etc/passwd"},
		{Name: "package/hard.d.ts", Typeflag: tar.TypeLink, Link: "package/package.json"},
		{Name: "package/lib/./x.d.ts", Body: "x"},
		{Name: "package/lib/x.js", Body: "js"},
		{Name: "other-top/index.d.ts", Body: "old tarballs use another top directory"},
		{Name: "package/big.d.ts", Body: strings.Repeat("b", 100)},
	})
	keep := func(p string) bool { return p != "lib/x.js" }
	lim := bigLimits
	lim.File = 50
	files, skipped, err := untar(tgz, keep, lim)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(slices.Sorted(maps.Keys(files)))
	if got != "[README.md index.d.ts lib/x.d.ts package.json]" {
		t.Errorf("kept %s", got)
	}
	if fmt.Sprint(skipped) != "[big.d.ts]" {
		t.Errorf("skipped %v", skipped)
	}

	// An uncompressed tar works too.
	var plain bytes.Buffer
	zr, _ := gzip.NewReader(bytes.NewReader(tgz))
	if _, err := plain.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	if files, _, err := untar(plain.Bytes(), keep, bigLimits); err != nil || len(files) != 5 {
		t.Errorf("plain tar: %d files, %v", len(files), err)
	}

	for name, tc := range map[string]struct {
		entries []registrytest.Entry
		lim     untarpkg.Limits
		want    error
	}{
		"dotdot":          {[]registrytest.Entry{{Name: "package/../../x", Body: "x"}}, bigLimits, docidx.ErrUnsafePath},
		"absolute":        {[]registrytest.Entry{{Name: "/package/x", Body: "x"}}, bigLimits, docidx.ErrUnsafePath},
		"backslash":       {[]registrytest.Entry{{Name: `package\..\..\x`, Body: "x"}}, bigLimits, docidx.ErrUnsafePath},
		"drive letter":    {[]registrytest.Entry{{Name: `C:/x/y`, Body: "x"}}, bigLimits, docidx.ErrUnsafePath},
		"dotdot dir only": {[]registrytest.Entry{{Name: "package/../", Typeflag: tar.TypeDir}}, bigLimits, docidx.ErrUnsafePath},
		"entry limit":     {[]registrytest.Entry{{Name: "package/x", Body: strings.Repeat("x", 200)}}, untarpkg.Limits{Unpacked: 1000, Entry: 100, File: 1000, Kept: 1000}, docidx.ErrTooLarge},
		"total limit": {[]registrytest.Entry{{Name: "package/a", Body: strings.Repeat("x", 80)}, {Name: "package/b", Body: strings.Repeat("x", 80)}},
			untarpkg.Limits{Unpacked: 100, Entry: 100, File: 1000, Kept: 1000}, docidx.ErrTooLarge},
	} {
		_, _, err := untar(npmtest.Tarballs.Build(tc.entries), func(string) bool { return true }, tc.lim)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	if _, _, err := untar([]byte{0x1f, 0x8b, 1, 2, 3}, keep, bigLimits); err == nil {
		t.Error("corrupt gzip accepted")
	}
}

// TestUntarBomb checks that a small archive which inflates hugely stops at the limit.
func TestUntarBomb(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	const size = 64 << 20
	if err := tw.WriteHeader(&tar.Header{Name: "package/zeros", Size: size, Mode: 0o644, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	zero := make([]byte, 1<<20)
	for range size / len(zero) {
		tw.Write(zero)
	}
	tw.Close()
	zw.Close()
	_, _, err := untar(buf.Bytes(), func(string) bool { return false }, untarpkg.Limits{Unpacked: 8 << 20, Entry: 1 << 30, File: 1, Kept: 1})
	if !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("bomb: %v", err)
	}
}

func TestKeepTarballFile(t *testing.T) {
	testutil.Mapping(t, "keepTarballFile", keepTarballFile, map[string]bool{
		"package.json": true, "README.md": true, "readme": true, "Readme.markdown": true, "README.rst": true,
		"readme.js": false, "index.d.ts": true, "lib/deep/x.d.mts": true, "x.d.cts": true, "lib/x.js": false,
		"docs/a.md": true, "Docs/b/c.markdown": true, "doc/x.mdx": true, "docs/x.png": false,
		"examples/a.js": true, "example/b.ts": true, "examples/c.md": true, "examples/d.d.ts": true, "examples/e.png": false,
		"node_modules/x/index.d.ts": false, "lib/node_modules/x.d.ts": false, "CHANGELOG.md": true, "History.md": true, "CHANGELOG.txt": false, "sub/CHANGELOG.md": false, "sub/README.md": false,
		"MIGRATION_GUIDE.md": true, "porting-buffer.md": true, "CONTRIBUTING.md": false, "SECURITY.md": false, "sub/FAQ.md": false,
	})
}

func TestBuildContentsLimits(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md":         {Data: []byte("# x\n")},
		"docs/big.md":       {Data: bytes.Repeat([]byte("x"), 200)},
		"examples/a.js":     {Data: []byte("console.log('```')\n")},
		"docs/.hidden/x.md": {Data: []byte("# hidden\n")},
	}
	for i := range 5 {
		fsys[fmt.Sprintf("docs/d%d.md", i)] = &fstest.MapFile{Data: []byte("# d\n")}
	}
	c := buildContents(fsys, "pkg", "1.0.0", "", "", Limits{MaxDocuments: 3, MaxDocumentSize: 100})
	var paths []string
	for _, d := range c.docs {
		paths = append(paths, d.Path)
	}
	if fmt.Sprint(paths) != "[README.md docs/d0.md docs/d1.md docs/d2.md]" {
		t.Errorf("documents %v (problems %v)", paths, c.problems)
	}
	if len(c.problems) < 2 {
		t.Errorf("problems %v, want the big file and the document cap", c.problems)
	}
	c = buildContents(fsys, "pkg", "1.0.0", "", "", Limits{})
	for _, d := range c.docs {
		if d.Path == "examples/a.js" && !strings.Contains(testutil.Text(d), "````js") {
			t.Errorf("example fence does not outgrow the code's backticks: %q", testutil.Text(d))
		}
	}
}

func FuzzUntar(f *testing.F) {
	f.Add(npmtest.Tarball("package", map[string]string{"package.json": "{}", "README.md": "# x", "index.d.ts": "export {}"}))
	f.Add(npmtest.Tarballs.Build([]registrytest.Entry{{Name: "package/../x", Body: "x"}}))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := untarpkg.Limits{Unpacked: 1 << 20, Entry: 1 << 20, File: 1 << 16, Kept: 1 << 18}
		files, _, err := untar(data, keepTarballFile, lim)
		if err != nil {
			return
		}
		var kept int64
		for p, b := range files {
			if !fs.ValidPath(p) || strings.HasPrefix(p, "/") || strings.Contains(p, "..") && !strings.Contains(p, "...") {
				t.Fatalf("unsafe path kept: %q", p)
			}
			kept += int64(len(b))
		}
		if kept > lim.Kept {
			t.Fatalf("kept %d bytes", kept)
		}
		m := memfs.New(files)
		buildContents(m, "pkg", "1.0.0", "", "", Limits{})
		packageAPI(context.Background(), m, &manifest{}, "p", "1.0.0", Limits{}, nil)
	})
}

// FuzzTypesEntries feeds package.json files (untrusted: they come from tarballs) to
// parseManifest and typesEntries: no panic, and every entry is a clean path inside the package.
func FuzzTypesEntries(f *testing.F) {
	f.Add([]byte(`{"types":"x.d.ts","typesVersions":{">=4.2":{"*":["typesversions/*"]}}}`))
	f.Add([]byte(`{"exports":{".":{"import":{"types":"./a.d.mts"}}},"typesVersions":{"*":{"a*b*":["../*"]}}}`))
	f.Add([]byte(`{"typesVersions":{"*":{"*":[1,2]}}}`))
	fsys := fstest.MapFS{"index.d.ts": {}, "typesversions/x.d.ts": {}, "a.d.mts": {}}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(data)
		if err != nil {
			return
		}
		for _, e := range typesEntries(fsys, m) {
			if !fs.ValidPath(e) {
				t.Fatalf("entry %q is not a valid path", e)
			}
		}
	})
}

// TestSubpathPatternExports checks that a package exporting every module with "./*" (zustand)
// has a subpath for each declaration file its pattern matches, after those it names and without
// its main entry, while a pattern for a directory ("./locale/*") has none.
func TestSubpathPatternExports(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"store","exports":{
			".":{"types":"./index.d.ts","default":"./index.js"},
			"./vanilla":{"types":"./vanilla.d.ts","default":"./vanilla.js"},
			"./locale/*":"./locale/*.js",
			"./*":{"import":{"types":"./esm/*.d.mts","default":"./esm/*.mjs"},"default":{"types":"./*.d.ts","default":"./*.js"}}}}`)},
		"index.d.ts":              {Data: []byte("export declare function create(): void;\n")},
		"vanilla.d.ts":            {Data: []byte("export declare function createStore(): void;\n")},
		"middleware.d.ts":         {Data: []byte("export * from './middleware/persist';\n")},
		"middleware/persist.d.ts": {Data: []byte("/** Options of persist. */\nexport interface PersistOptions {\n  /** Merges the stored state. */\n  merge?: () => void;\n}\n")},
		"shallow.d.ts":            {Data: []byte("export declare function shallow(): boolean;\n")},
		"esm/middleware.d.mts":    {Data: []byte("export * from '../middleware/persist';\n")},
		"locale/en.d.ts":          {Data: []byte("export declare const en: string;\n")},
	}
	m, err := parseManifest(fsys["package.json"].Data)
	if err != nil {
		t.Fatal(err)
	}
	subs := subpathTypesEntries(fsys, m)
	want := []subpathTypes{{"vanilla", "vanilla.d.ts"}, {"middleware", "esm/middleware.d.mts"}, {"shallow", "shallow.d.ts"}}
	if !slices.Equal(subs, want) {
		t.Errorf("subpaths %v, want %v", subs, want)
	}
	a := packageAPI(context.Background(), fsys, m, "store", "1.0.0", Limits{}, nil)
	found := false
	for _, s := range a.symbols {
		found = found || s.QualifiedName == "PersistOptions.merge" && s.Package == "store/middleware"
	}
	if !found {
		t.Errorf("PersistOptions.merge of store/middleware missing from %d symbols", len(a.symbols))
	}
}

// TestSubpathExports: the symbols that only a subpath export declares join the package's API
// under the subpath's import specifier; those the main entry has already are not repeated.
func TestSubpathExports(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"kit","exports":{
			".":{"types":"./dist/index.d.ts","default":"./dist/index.js"},
			"./query":{"import":{"types":"./dist/query/index.d.mts"},"default":"./dist/query/index.js"},
			"./react":"./dist/react/index.js",
			"./package.json":"./package.json",
			"./locale/*":"./dist/locale/*.js",
			"./styles.css":"./dist/styles.css"}}`)},
		"dist/index.d.ts":        {Data: []byte("/** Makes a store. */\nexport declare function configureStore(): void;\n")},
		"dist/query/index.d.mts": {Data: []byte("export { configureStore } from '../index';\n/** Defines an API. */\nexport declare function createApi(): void;\n")},
		"dist/react/index.d.ts":  {Data: []byte("/** A hook. */\nexport declare function useQuery(): void;\n")},
		"dist/locale/en.d.ts":    {Data: []byte("export declare const en: string;\n")},
		"dist/styles.css":        {Data: []byte("a{}")},
		"dist/query/index.js":    {},
		"dist/react/index.js":    {},
		"dist/index.js":          {},
	}
	m, err := parseManifest(fsys["package.json"].Data)
	if err != nil {
		t.Fatal(err)
	}
	subs := subpathTypesEntries(fsys, m)
	if want := []subpathTypes{{"query", "dist/query/index.d.mts"}, {"react", "dist/react/index.d.ts"}}; !slices.Equal(subs, want) {
		t.Errorf("subpaths %v, want %v", subs, want)
	}
	a := packageAPI(context.Background(), fsys, m, "kit", "1.0.0", Limits{}, nil)
	got := map[string]string{}
	for _, s := range a.symbols {
		if _, dup := got[s.QualifiedName]; dup {
			t.Errorf("%s listed twice", s.QualifiedName)
		}
		got[s.QualifiedName] = s.Package
	}
	want := map[string]string{"configureStore": "kit", "createApi": "kit/query", "useQuery": "kit/react"}
	if !maps.Equal(got, want) {
		t.Errorf("symbols by package %v, want %v (problems %v)", got, want, a.problems)
	}
}

// TestOwnTypesTakeJSDocs: a package's own declaration files leave some symbols undocumented that
// its JavaScript documents (commander's hand-written typings); those take the JSDoc. A symbol
// the declarations document keeps its own doc, followed by the JavaScript's when that says more
// (express's "Expects an integer value between 100 and 999 inclusive." after @types/express's
// "Set status `code`."), and alone when the JavaScript's only repeats it.
func TestOwnTypesTakeJSDocs(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"dur","main":"index.js","types":"index.d.ts"}`)},
		"index.d.ts": {Data: []byte("export declare function parse(s: string): number;\n/** Formats milliseconds. */\nexport declare function format(ms: number): string;\n" +
			"/** Set the unit. */\nexport declare function unit(u: string): void;\n")},
		"index.js": {Data: []byte(`/**
 * Parses a duration such as "2h" into milliseconds; a number alone is taken as milliseconds.
 * @param {string} s the duration
 */
function parse(s) { return 0; }
/** Formats the milliseconds. */
function format(ms) { return ""; }
/** Sets the unit. Expects one of "ms", "s" or "h"; throws a RangeError for any other unit. */
function unit(u) {}
module.exports = { parse, format, unit };
`)},
	}
	m, err := parseManifest(fsys["package.json"].Data)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, s := range packageAPI(context.Background(), fsys, m, "dur", "1.0.0", Limits{}, nil).symbols {
		docs[s.QualifiedName] = s.Doc
	}
	if !strings.Contains(docs["parse"], "a number alone is taken as milliseconds") {
		t.Errorf("parse's doc = %q, want its JSDoc from index.js", docs["parse"])
	}
	if docs["format"] != "Formats milliseconds." {
		t.Errorf("format's doc = %q, want the declaration's own", docs["format"])
	}
	if want := "Set the unit.\n\nSets the unit. Expects one of"; !strings.HasPrefix(docs["unit"], want) {
		t.Errorf("unit's doc = %q, want the declaration's, then the JavaScript's (%q…)", docs["unit"], want)
	}
}
