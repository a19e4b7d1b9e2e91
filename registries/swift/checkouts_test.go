package swift

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/swift/swifttest"
)

const dequeRevision = "8f3c2e1a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e"

// writeTestBuild lays out a project whose .build holds the fixture packages the way SwiftPM
// resolves them: swift-argument-kit at a tag, swift-deque on a branch, a registry download and a
// stray checkout that workspace-state.json does not list.
func writeTestBuild(t testing.TB) (project, build string) {
	t.Helper()
	project = t.TempDir()
	build = swifttest.WriteBuild(t, project,
		swifttest.Dependency{Location: "https://github.com/example/swift-argument-kit.git", Version: "1.3.0", Files: readPackage(t, "swift-argument-kit")},
		swifttest.Dependency{Location: "git@github.com:collections/swift-deque.git", Branch: "main", Revision: dequeRevision, Files: readPackage(t, "swift-deque")},
		swifttest.Dependency{Location: "mona.LinkedList", Registry: true, Version: "1.1.0", Files: map[string]string{
			"Package.swift":                       "// swift-tools-version:5.9\nlet package = Package(name: \"LinkedList\")\n",
			"README.md":                           "# LinkedList\n\nA linked list.\n",
			"Sources/LinkedList/LinkedList.swift": "/// A list.\npublic struct LinkedList<Element> { public init() {} }\n",
		}},
		swifttest.Dependency{Location: "https://example.test/stray/Stray.git", Unlisted: true, Revision: "0123456789abcdef0123456789abcdef01234567", Files: map[string]string{
			"Package.swift":         "let package = Package(name: \"Stray\")",
			"Sources/Stray/a.swift": "public let stray = 1",
		}},
	)
	return project, build
}

func TestCheckoutsList(t *testing.T) {
	project, build := writeTestBuild(t)
	for _, dir := range []string{project, build, filepath.Join(build, "checkouts")} {
		c, err := NewCheckouts(dir, CheckoutsConfig{})
		refs := testutil.Listed(t, c, err)
		if c.Dir() != build || c.String() != build || c.Ecosystem() != docidx.Swift {
			t.Errorf("NewCheckouts(%s): Dir %s", dir, c.Dir())
		}
		want := []string{"mona.linkedlist@1.1.0", "stray@0123456789ab", "swift-argument-kit@1.3.0", "swift-deque@" + dequeRevision[:12]}
		if got := testutil.RefNames(refs); !slices.Equal(got, want) {
			t.Errorf("List = %v, want %v", got, want)
		}
	}
	if _, err := NewCheckouts(t.TempDir(), CheckoutsConfig{}); err == nil || !strings.Contains(err.Error(), "swift package resolve") {
		t.Errorf("a directory without .build: %v", err)
	}
	if _, err := NewCheckouts(filepath.Join(project, "nope"), CheckoutsConfig{}); err == nil {
		t.Error("a missing directory should fail")
	}
}

func TestCheckoutsResolve(t *testing.T) {
	project, _ := writeTestBuild(t)
	c, err := NewCheckouts(project, CheckoutsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	testutil.CheckResolve(t, c, []testutil.Resolution{
		{"swift-argument-kit", "", "1.3.0", nil},
		{"Swift-Argument-Kit", "1.3.0", "1.3.0", nil},
		{"https://github.com/example/swift-argument-kit.git", "^1.2", "1.3.0", nil}, // the location
		{"https://GitHub.com/example/swift-argument-kit", "", "1.3.0", nil},         // another form of it
		{"example/swift-argument-kit", "", "1.3.0", nil},                            // owner/repo
		{"swift-argument-kit", "v1.3.0", "1.3.0", nil},
		{"swift-argument-kit", "1.2.0..<2.0.0", "1.3.0", nil},
		{"swift-argument-kit", "1.2.0", "", docidx.ErrNotFound},
		{"swift-argument-kit", "^2", "", docidx.ErrNotFound},
		{"swift-argument-kit", ">>1", "", docidx.ErrBadSpec},
		{"swift-deque", "", dequeRevision[:12], nil},
		{"swift-deque", "main", dequeRevision[:12], nil},            // the branch
		{"swift-deque", dequeRevision, dequeRevision[:12], nil},     // the full revision
		{"swift-deque", dequeRevision[:7], dequeRevision[:12], nil}, // a short one
		{"git@github.com:collections/swift-deque.git", "", dequeRevision[:12], nil},
		{"swift-deque", "develop", "", docidx.ErrNotFound},
		{"mona.LinkedList", "", "1.1.0", nil},
		{"LinkedList", "", "1.1.0", nil}, // the Package.swift name
		{"stray", "", "0123456789ab", nil},
		{"Stray", "0123456", "0123456789ab", nil},
		{"unknown", "", "", docidx.ErrNotFound},
		{"1.1.0", "", "", docidx.ErrNotFound}, // a registry download's directory name is no alias
	})
}

func TestCheckoutsFetch(t *testing.T) {
	project, build := writeTestBuild(t)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c, err := NewCheckouts(project, CheckoutsConfig{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pd := testutil.Fetched(t, c, "https://github.com/example/swift-argument-kit.git", "1.3.0")
	want := docidx.Package{
		Ecosystem:   docidx.Swift,
		Name:        "swift-argument-kit",
		Version:     "1.3.0",
		Versions:    []string{"1.3.0"},
		Description: "Straightforward, type-safe argument parsing for Swift.",
		License:     "Apache-2.0",
		Repository:  "https://github.com/example/swift-argument-kit.git",
		Source:      filepath.Join(build, "checkouts", "swift-argument-kit"),
		CrawledAt:   now,
		Requires:    []docidx.Requirement{{Name: "swift", Range: ">=5.9"}}, // swift-tools-version:5.9
	}
	testutil.SamePackage(t, pd.Package, want)
	golden := extractDir(t, filepath.Join("testdata", "packages", "swift-argument-kit"), Limits{})
	if len(pd.Symbols) != len(golden.symbols) || len(pd.Documents) != len(golden.documents) {
		t.Errorf("%d symbols and %d documents, want %d and %d", len(pd.Symbols), len(pd.Documents), len(golden.symbols), len(golden.documents))
	}

	pd = testutil.Fetched(t, c, "swift-deque", "main")
	if pd.Package.Version != dequeRevision[:12] || pd.Package.Repository != "https://github.com/collections/swift-deque" || pd.Package.License != "MIT" {
		t.Errorf("swift-deque = %+v", pd.Package)
	}
	if s, ok := testutil.ByName(pd.Symbols)["DequeModule.Deque.popFirst()"]; !ok || s.File != "Sources/DequeModule/Deque.swift" {
		t.Errorf("Deque.popFirst() = %+v", s)
	}

	pd = testutil.Fetched(t, c, "mona.linkedlist", "1.1.0")
	if pd.Package.Source != filepath.Join(build, "registry", "downloads", "mona", "linkedlist", "1.1.0") || len(pd.Symbols) != 2 || pd.Package.Description != "A linked list." {
		t.Errorf("registry download = %+v, %d symbols", pd.Package, len(pd.Symbols))
	}

	if _, err := c.Fetch(ctx, "swift-argument-kit", "1.2.0"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("missing version: %v", err)
	}
	if _, err := c.Fetch(ctx, "nope", ""); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("missing package: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Fetch(cctx, "swift-deque", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestCheckoutsXcode reads Xcode's SourcePackages directory, which has the .build layout.
func TestCheckoutsXcode(t *testing.T) {
	derived := filepath.Join(t.TempDir(), "DerivedData", "App-abcdef", "SourcePackages")
	build := swifttest.WriteBuild(t, t.TempDir(), swifttest.Dependency{
		Location: "https://github.com/example/swift-argument-kit", Version: "1.3.0",
		Files: map[string]string{"Sources/ArgumentKit/A.swift": "public struct A {}"},
	})
	if err := os.MkdirAll(filepath.Dir(derived), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(build, derived); err != nil {
		t.Fatal(err)
	}
	c, err := NewCheckouts(derived, CheckoutsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if pd := testutil.Fetched(t, c, "swift-argument-kit", ""); len(pd.Symbols) != 1 || pd.Symbols[0].Package != "ArgumentKit" {
		t.Fatalf("Fetch = %+v", pd)
	}
}

func TestCheckoutsBadState(t *testing.T) {
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".build", "workspace-state.json"), "{not json")
	c, err := NewCheckouts(project, CheckoutsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.List(context.Background()); err == nil || !strings.Contains(err.Error(), "workspace-state.json") {
		t.Errorf("List with a corrupt state file: %v", err)
	}
}

func TestParseWorkspaceState(t *testing.T) {
	build := "/p/.build"
	data := `{
	  "object": {
	    "artifacts": [],
	    "dependencies": [
	      {"basedOn": null, "packageRef": {"identity": "Swift-NIO", "kind": "remoteSourceControl", "location": "https://github.com/apple/swift-nio.git", "name": "swift-nio"},
	       "state": {"checkoutState": {"revision": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "version": "2.65.0"}, "name": "sourceControlCheckout"}, "subpath": "swift-nio"},
	      {"packageRef": {"identity": "old", "kind": "remote", "location": "https://x.example/old.git", "name": "old"},
	       "state": {"checkoutState": {"revision": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "branch": "main"}, "name": "checkout"}, "subpath": "old"},
	      {"packageRef": {"identity": "nosub", "kind": "remoteSourceControl", "location": "https://x.example/NoSub.git", "name": "nosub"},
	       "state": {"checkoutState": {"revision": "cccc", "branch": null}, "name": "sourceControlCheckout"}},
	      {"packageRef": {"identity": "mona.linkedlist", "kind": "registry", "location": "mona.LinkedList", "name": "LinkedList"},
	       "state": {"name": "registryDownload", "version": "1.1.0"}, "subpath": "mona/linkedlist/1.1.0"},
	      {"packageRef": {"identity": "evil", "kind": "remoteSourceControl", "location": "x", "name": "evil"},
	       "state": {"checkoutState": {"revision": "dddd", "version": "1.0.0"}, "name": "sourceControlCheckout"}, "subpath": "../../etc"},
	      {"packageRef": {"identity": "evil2", "kind": "registry", "location": "a.b", "name": "b"},
	       "state": {"name": "registryDownload", "version": "1.0.0"}, "subpath": "a/../../b"},
	      {"packageRef": {"identity": "edited", "kind": "remoteSourceControl", "location": "x", "name": "edited"},
	       "state": {"name": "edited", "path": "/somewhere"}, "subpath": "edited"},
	      {"packageRef": {"identity": "local", "kind": "fileSystem", "location": "/src/local", "name": "local"},
	       "state": {"name": "fileSystem", "path": "/src/local"}, "subpath": "local"},
	      {"packageRef": {"identity": "noversion", "kind": "remoteSourceControl", "location": "x", "name": "n"},
	       "state": {"checkoutState": {"revision": "not-hex"}, "name": "sourceControlCheckout"}, "subpath": "n"},
	      "not an object"
	    ]
	  },
	  "version": 6
	}`
	deps, err := parseWorkspaceState([]byte(data), build)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range deps {
		rel, _ := filepath.Rel(build, d.dir)
		got = append(got, d.identity+"@"+d.version+" "+filepath.ToSlash(rel))
	}
	want := []string{
		"swift-nio@2.65.0 checkouts/swift-nio",
		"old@bbbbbbbbbbbb checkouts/old",
		"nosub@cccc checkouts/NoSub",
		"mona.linkedlist@1.1.0 registry/downloads/mona/linkedlist/1.1.0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("dependencies:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := parseWorkspaceState([]byte("[1, 2"), build); err == nil {
		t.Error("invalid JSON should fail")
	}
}

func TestNormalizeLocation(t *testing.T) {
	testutil.Mapping(t, "normalizeLocation", normalizeLocation, map[string]string{
		"https://github.com/Apple/swift-nio.git/": "github.com/apple/swift-nio",
		"git@github.com:apple/swift-nio.git":      "github.com/apple/swift-nio",
		"ssh://git@github.com/apple/swift-nio":    "github.com/apple/swift-nio",
		"https://user@host.example/a@b":           "host.example/a@b",
		"/local/path":                             "/local/path",
	})
}

func TestGitHead(t *testing.T) {
	dir := t.TempDir()
	rev := "0123456789abcdef0123456789abcdef01234567"
	testutil.WriteFile(t, filepath.Join(dir, "a", ".git", "HEAD"), rev+"\n")
	testutil.WriteFile(t, filepath.Join(dir, "b", ".git", "HEAD"), "ref: refs/heads/main\n")
	testutil.WriteFile(t, filepath.Join(dir, "b", ".git", "refs", "heads", "main"), rev+"\n")
	testutil.WriteFile(t, filepath.Join(dir, "c", ".git", "HEAD"), "ref: refs/heads/dev\n")
	testutil.WriteFile(t, filepath.Join(dir, "c", ".git", "packed-refs"), "# pack-refs with: peeled\n"+rev+" refs/heads/dev\n")
	testutil.WriteFile(t, filepath.Join(dir, "d", ".git"), "gitdir: ../real\n")
	testutil.WriteFile(t, filepath.Join(dir, "real", "HEAD"), rev)
	testutil.WriteFile(t, filepath.Join(dir, "e", ".git", "HEAD"), "ref: ../../../etc/passwd\n")
	for sub, want := range map[string][2]string{
		"a": {rev, ""}, "b": {rev, "main"}, "c": {rev, "dev"}, "d": {rev, ""}, "e": {"", "../../../etc/passwd"}, "none": {"", ""},
	} {
		r, b := gitHead(filepath.Join(dir, sub))
		if r != want[0] || b != want[1] {
			t.Errorf("gitHead(%s) = %q, %q; want %q, %q", sub, r, b, want[0], want[1])
		}
	}
}

func FuzzParseWorkspaceState(f *testing.F) {
	f.Add([]byte(`{"object":{"dependencies":[{"packageRef":{"identity":"a","location":"https://x/a.git"},"state":{"name":"sourceControlCheckout","checkoutState":{"revision":"abc","version":"1.0.0"}},"subpath":"a"}]},"version":6}`))
	f.Add([]byte(`{"object":{"dependencies":[{"packageRef":{"identity":"s.n"},"state":{"name":"registryDownload","version":"1"},"subpath":""}]}}`))
	f.Add([]byte(`{"object":{"dependencies":[null, 1, {"state": []}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		build := filepath.FromSlash("/b/.build")
		deps, err := parseWorkspaceState(data, build)
		if err != nil {
			return
		}
		for _, d := range deps {
			rel, err := filepath.Rel(build, d.dir)
			if err != nil || strings.HasPrefix(rel, "..") || d.identity == "" || d.version == "" {
				t.Fatalf("dependency %+v escapes %s or is incomplete", d, build)
			}
		}
	})
}
