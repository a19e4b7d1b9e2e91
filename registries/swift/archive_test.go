package swift

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
	"github.com/docidx/docidx/registries/swift/swifttest"
)

var testArchiveLimits = archiveLimits{maxArchive: DefaultLimits.MaxArchive, maxEntry: DefaultLimits.MaxEntry}

func archiveFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOpenArchive(t *testing.T) {
	for name, tc := range map[string]struct {
		entries []registrytest.Entry
		want    []string
	}{
		"top directory stripped": {
			[]registrytest.Entry{{Name: "LinkedList/", Mode: fs.ModeDir | 0o755}, {Name: "LinkedList/Package.swift"}, {Name: "LinkedList/Sources/L/L.swift"}},
			[]string{"Package.swift", "Sources/L/L.swift"},
		},
		"top directory without its own entry": {
			[]registrytest.Entry{{Name: "pkg/Package.swift"}, {Name: "pkg/README.md"}},
			[]string{"Package.swift", "README.md"},
		},
		"no top directory": {
			[]registrytest.Entry{{Name: "Package.swift"}, {Name: "Sources/L/L.swift"}},
			[]string{"Package.swift", "Sources/L/L.swift"},
		},
		"two top directories": {
			[]registrytest.Entry{{Name: "a/Package.swift"}, {Name: "b/x.swift"}},
			[]string{"a/Package.swift", "b/x.swift"},
		},
		"dot slash": {
			[]registrytest.Entry{{Name: "./pkg/Package.swift"}, {Name: "./pkg/x.swift"}},
			[]string{"Package.swift", "x.swift"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			fsys, err := openArchive(swifttest.SourceArchive.Build(tc.entries), testArchiveLimits)
			if err != nil {
				t.Fatal(err)
			}
			if got := archiveFiles(t, fsys); !slices.Equal(got, tc.want) {
				t.Errorf("files = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOpenArchiveRejects(t *testing.T) {
	big := strings.Repeat("a", 64<<10)
	for name, tc := range map[string]struct {
		entries []registrytest.Entry
		lim     archiveLimits
		want    error
	}{
		"dot-dot":           {[]registrytest.Entry{{Name: "pkg/../../x"}}, testArchiveLimits, docidx.ErrUnsafePath},
		"absolute":          {[]registrytest.Entry{{Name: "/etc/passwd"}}, testArchiveLimits, docidx.ErrUnsafePath},
		"backslash":         {[]registrytest.Entry{{Name: `pkg\x`}}, testArchiveLimits, docidx.ErrUnsafePath},
		"drive letter":      {[]registrytest.Entry{{Name: "c:x"}}, testArchiveLimits, docidx.ErrUnsafePath},
		"nul":               {[]registrytest.Entry{{Name: "pkg/a\x00b"}}, testArchiveLimits, docidx.ErrUnsafePath},
		"entry too large":   {[]registrytest.Entry{{Name: "pkg/big", Body: big}}, archiveLimits{maxArchive: 1 << 20, maxEntry: 1 << 10}, docidx.ErrTooLarge},
		"zip bomb":          {[]registrytest.Entry{{Name: "pkg/a", Body: big}, {Name: "pkg/b", Body: big}}, archiveLimits{maxArchive: 100 << 10, maxEntry: 1 << 20}, docidx.ErrTooLarge},
		"archive too large": {[]registrytest.Entry{{Name: "pkg/a", Body: big}}, archiveLimits{maxArchive: 100, maxEntry: 1 << 20}, docidx.ErrTooLarge},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := openArchive(swifttest.SourceArchive.Build(tc.entries), tc.lim); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := openArchive([]byte("not a zip"), testArchiveLimits); err == nil {
		t.Error("garbage accepted")
	}
}

// TestArchiveSymlinks checks that a symbolic link entry is never read as a file: a README link to
// a file outside the package must not become its README.
func TestArchiveSymlinks(t *testing.T) {
	data := swifttest.SourceArchive.Build([]registrytest.Entry{
		{Name: "pkg/Package.swift", Body: `let package = Package(name: "p")`},
		{Name: "pkg/README.md", Link: "../../../../etc/passwd", Mode: fs.ModeSymlink | 0o777},
		{Name: "pkg/Sources/P/Link.swift", Link: "/etc/hosts", Mode: fs.ModeSymlink | 0o777},
		{Name: "pkg/Sources/P/P.swift", Body: "public func p() {}"},
	})
	fsys, err := openArchive(data, testArchiveLimits)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := extractPackage(context.Background(), fsys, "p", Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.documents) != 0 || len(pc.symbols) != 1 {
		t.Errorf("documents %v, %d symbols; want none and 1", docPaths(pc.documents), len(pc.symbols))
	}
}

func TestVerifyChecksum(t *testing.T) {
	data := []byte("archive")
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	b64 := base64.StdEncoding.EncodeToString(sum[:])
	for _, tc := range []struct {
		checksum, digest string
		ok               bool
	}{
		{hexSum, "", true},
		{strings.ToUpper(hexSum), "", true},
		{hexSum, "sha-256=" + b64, true},
		{hexSum, "SHA-256=" + hexSum, true},
		{hexSum, "md5=xyz, sha-256=" + b64, true},
		{hexSum, "sha-512=whatever", true},
		{hexSum, "sha-256=" + base64.StdEncoding.EncodeToString(make([]byte, 32)), false},
		{"00" + hexSum[2:], "", false},
		{"", "", false},
	} {
		err := verifyChecksum(data, tc.checksum, tc.digest)
		if tc.ok != (err == nil) || err != nil && !errors.Is(err, docidx.ErrIntegrity) {
			t.Errorf("verifyChecksum(%q, %q) = %v", tc.checksum, tc.digest, err)
		}
	}
}

func TestModuleOf(t *testing.T) {
	testutil.Mapping(t, "moduleOf", func(p string) string {
		if m, ok := moduleOf(p, "pkg"); ok {
			return m
		}
		return ""
	}, map[string]string{
		"Sources/ArgumentKit/Parsable Types/ParsableCommand.swift": "ArgumentKit",
		"Source/Core/a.swift":                       "Core",
		"src/Core/a.swift":                          "Core",
		"Sources/main.swift":                        "pkg",
		"Lib.swift":                                 "pkg",
		"Custom/Path/File.swift":                    "Custom",
		"Tool/a.swift":                              "Tool",
		"Package.swift":                             "",
		"Package@swift-5.9.swift":                   "",
		"Tests/FooTests/a.swift":                    "",
		"Sources/FooTests/a.swift":                  "",
		"Sources/Foo/Foo.docc/Resources/code.swift": "",
		"Benchmarks/Sources/B/b.swift":              "",
		"Plugins/P/p.swift":                         "",
		"Examples/e/main.swift":                     "",
		"Sources/.hidden/a.swift":                   "",
		"App.xcodeproj/x.swift":                     "",
	})
}

func TestDocKindOf(t *testing.T) {
	testutil.Mapping(t, "docKindOf", func(p string) docidx.DocKind { k, _ := docKindOf(p); return k }, map[string]docidx.DocKind{
		"Sources/M/M.docc/Article.md":           docidx.DocGuide,
		"Sources/M/M.docc/Extensions/Type.md":   docidx.DocGuide,
		"Documentation.docc/Intro.md":           docidx.DocGuide,
		"docs/guide.md":                         docidx.DocGuide,
		"Documentation/CHANGELOG.md":            "",
		"docs/Contributing.md":                  "",
		"Sources/History/History.docc/Intro.md": docidx.DocGuide,
		"Documentation/Design.markdown":         docidx.DocGuide,
		"Examples/repeat/Repeat.swift":          docidx.DocExample,
		"Examples/README.md":                    docidx.DocExample,
		"Snippets/A.swift":                      docidx.DocExample,
		"Examples/Package.swift":                "",
		"docs/image.png":                        "",
		"Sources/M/M.docc/Resources/code.swift": "",
		"README.md":                             "",
		"CHANGELOG.md":                          "",
		"Sources/M/notes.md":                    "",
		"docs/.hidden/x.md":                     "",
	})
}

func TestExtractLimits(t *testing.T) {
	files := fstest.MapFS{
		"Package.swift":     {Data: []byte(`let package = Package(name: "limits")`)},
		"README.md":         {Data: []byte("# Limits\n\nSmall.\n")},
		"Sources/A/a.swift": {Data: []byte("public func a1() {}\npublic func a2() {}\npublic func a3() {}")},
		"Sources/B/b.swift": {Data: []byte("public func b() {}")},
		"Sources/C/c.swift": {Data: []byte("public func c() {} // " + strings.Repeat("x", 300))},
		"docs/1.md":         {Data: []byte("# One")},
		"docs/2.md":         {Data: []byte("# Two")},
		"docs/3.md":         {Data: []byte("# Three")},
	}
	pc, err := extractPackage(context.Background(), files, "limits", Limits{MaxFile: 200, MaxFiles: 2, MaxSymbols: 2, MaxDocuments: 2}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.symbols) != 2 || len(pc.documents) != 2 || !slices.Equal(pc.modules, []string{"A", "B"}) {
		t.Errorf("symbols %d, documents %v, modules %v", len(pc.symbols), docPaths(pc.documents), pc.modules)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := extractPackage(ctx, files, "limits", Limits{}, slog.New(slog.DiscardHandler)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func FuzzOpenArchive(f *testing.F) {
	f.Add(swifttest.Zip("pkg", map[string]string{"Package.swift": `let package = Package(name: "p")`, "Sources/P/p.swift": "public func p() {}", "README.md": "# P"}))
	f.Add(swifttest.SourceArchive.Build([]registrytest.Entry{{Name: "a/../b"}, {Name: "c", Mode: fs.ModeSymlink}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys, err := openArchive(data, archiveLimits{maxArchive: 1 << 20, maxEntry: 1 << 20})
		if err != nil {
			return
		}
		_, _ = extractPackage(context.Background(), fsys, "fuzz", Limits{MaxFile: 64 << 10}, slog.New(slog.DiscardHandler))
	})
}
