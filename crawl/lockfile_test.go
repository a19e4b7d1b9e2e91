package crawl

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/lockfiles")

// lockfileCases are the fixtures under testdata/lockfiles, written in each tool's own format: the
// directory and the lockfile in it. Each has a golden file testdata/lockfiles/<dir>.golden.
var lockfileCases = []struct{ dir, file string }{
	{"requirements", "requirements.txt"},
	{"poetry", "poetry.lock"},
	{"uv", "uv.lock"},
	{"pyproject", "pyproject.toml"},
	{"pyproject-dynamic", "pyproject.toml"},
	{"cargo-manifest", "Cargo.toml"},
	{"cargo-v1", "Cargo.lock"},
	{"cargo-v3", "Cargo.lock"},
	{"cargo-v4", "Cargo.lock"},
	{"resolved-v1", "Package.resolved"},
	{"resolved-v2", "Package.resolved"},
	{"resolved-v3", "Package.resolved"},
	{"pnpm-v5", "pnpm-lock.yaml"},
	{"pnpm-v6", "pnpm-lock.yaml"},
	{"pnpm-v9", "pnpm-lock.yaml"},
	{"yarn-v1", "yarn.lock"},
	{"yarn-berry", "yarn.lock"},
}

// render writes a Lockfile the way the golden files hold it.
func render(lf *Lockfile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "format: %s\n", strings.TrimSpace(lf.Format+" "+lf.Version))
	b.WriteString("files:\n")
	for _, f := range lf.Files {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	b.WriteString("specs:\n")
	for _, s := range lf.Specs {
		exact := ""
		if !s.Exact {
			exact = " NOT EXACT"
		}
		if s.Requirement {
			exact += " requirement"
		}
		if s.Extras != "" {
			exact += " extras=" + s.Extras
		}
		if s.Marker != "" {
			exact += " marker: " + s.Marker
		}
		fmt.Fprintf(&b, "  %s (%s)%s\n", s, s.Origin, exact)
	}
	b.WriteString("skipped:\n")
	for _, s := range lf.Skipped {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	return b.String()
}

func TestLockfileGolden(t *testing.T) {
	fsys := os.DirFS(filepath.Join("testdata", "lockfiles"))
	for _, c := range lockfileCases {
		t.Run(c.dir, func(t *testing.T) {
			lf, err := ParseLockfileFS(fsys, c.dir+"/"+c.file)
			if err != nil {
				t.Fatal(err)
			}
			got := render(lf)
			golden := filepath.Join("testdata", "lockfiles", c.dir+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n%s", c.dir, golden, diffLines(string(want), got))
			}

			// The in-memory parser agrees, except that it cannot follow includes.
			data, err := fs.ReadFile(fsys, c.dir+"/"+c.file)
			if err != nil {
				t.Fatal(err)
			}
			specs, err := ParseLockfile(c.file, data)
			if c.dir == "requirements" {
				var le *LockfileError
				if !errors.As(err, &le) || le.Line != 11 || !strings.Contains(err.Error(), "-r base.txt") {
					t.Errorf("ParseLockfile with -r: err = %v, want a LockfileError at line 11 naming the include", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range specs {
				specs[i].Origin = lf.Specs[i].Origin // the base name either way
			}
			if !slices.Equal(specs, lf.Specs) {
				t.Errorf("ParseLockfile = %v\nParseLockfileFS = %v", specs, lf.Specs)
			}
		})
	}
}

// diffLines lists the lines only in want (-) and only in got (+).
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

// TestLockfileSpecs checks a few specs of every format by hand, so that a golden file written
// with a bug would not go unnoticed.
func TestLockfileSpecs(t *testing.T) {
	fsys := os.DirFS(filepath.Join("testdata", "lockfiles"))
	tests := []struct {
		dir, file string
		eco       docidx.Ecosystem
		has       []string // name@version that must be there
		hasNot    []string // names that must not be there
		skipped   []string // entries that must be skipped
	}{
		{"requirements", "requirements.txt", docidx.PyPI,
			[]string{"flask@3.1.0", "itsdangerous@2.2.0", "jinja2@3.1.4", "markupsafe@2.1.5", "markupsafe@3.0.2",
				"torch@2.5.1+cpu", "typing-extensions@4.12.2", "zope-interface@7.1.1", "requests@2.32.3", "structlog@24.4.0", "ruff@0.8.1", "pywin32@308"},
			[]string{"werkzeug-git", "black", "httpx", "acme-plugin", "urllib3<3"},
			[]string{"-e ./libs/acme-core", "black @ git+https://github.com/psf/black.git@24.10.0", "-c constraints.txt", "-r ../base.txt"}},
		{"poetry", "poetry.lock", docidx.PyPI,
			[]string{"certifi@2025.1.31", "acme-sdk@4.2.0", "pyyaml@6.0.2", "typing-extensions@4.12.2"},
			[]string{"black", "acme-shared", "pendulum"},
			[]string{"black 24.10.0", "acme-shared 0.1.0", "pendulum 3.0.0"}},
		{"uv", "uv.lock", docidx.PyPI,
			[]string{"anyio@4.8.0", "pydantic-core@2.27.2", "typing-extensions@4.12.2"},
			[]string{"acme-app", "acme-core", "acme-tools", "httpx", "legacy-tool", "shared-utils", "vendored-client"},
			[]string{"acme-app 0.1.0", "acme-tools", "httpx 0.28.1", "shared-utils 1.4.0"}},
		{"cargo-v4", "Cargo.lock", docidx.Cargo,
			[]string{"syn@1.0.109", "syn@2.0.96", "serde@1.0.217", "internal-metrics@2.0.1", "clap_builder@4.5.27"},
			[]string{"acme-cli", "acme-core", "tokio-util"},
			[]string{"acme-cli 0.1.0", "tokio-util 0.7.13"}},
		{"cargo-v1", "Cargo.lock", docidx.Cargo, []string{"libc@0.2.62", "cfg-if@0.1.10"}, []string{"legacy-app"}, nil},
		{"resolved-v1", "Package.resolved", docidx.Swift,
			[]string{"https://github.com/apple/swift-argument-parser@0.5.0", "https://github.com/apple/swift-protobuf.git@1.18.0"},
			[]string{"https://github.com/onevcat/Kingfisher.git"}, []string{"Kingfisher", "SwiftyJSON"}},
		{"resolved-v2", "Package.resolved", docidx.Swift,
			[]string{"https://github.com/apple/swift-nio.git@2.65.0", "git@github.com:apple/swift-system.git@1.4.0"},
			[]string{"/Users/dev/src/shared-kit"}, []string{"shared-kit", "swift-format"}},
		{"resolved-v3", "Package.resolved", docidx.Swift,
			[]string{"mona.linkedlist@1.1.0", "https://github.com/Alamofire/Alamofire.git@5.10.2"},
			nil, []string{"swift-docc-plugin"}},
		{"pnpm-v5", "pnpm-lock.yaml", docidx.NPM,
			[]string{"@types/react@18.0.26", "react-dom@18.2.0", "react@18.2.0"}, []string{"is-positive", "local-lib"},
			[]string{"file:../local-lib", "github.com/kevva/is-positive/97edff6f525f192a3f83cea1944765f769ae2678"}},
		{"pnpm-v6", "pnpm-lock.yaml", docidx.NPM,
			[]string{"@babel/runtime@7.23.2", "react-dom@18.2.0", "lodash@4.17.21"}, []string{"is-positive", "lodash-es"}, nil},
		{"pnpm-v9", "pnpm-lock.yaml", docidx.NPM,
			[]string{"@tanstack/react-query@5.62.16", "react-dom@18.3.1", "zod@3.24.1"}, []string{"is-positive", "local-lib"},
			[]string{"local-lib@file:../local-lib"}},
		{"yarn-v1", "yarn.lock", docidx.NPM,
			[]string{"@babel/code-frame@7.22.13", "debug@2.6.9", "debug@4.3.4", "lodash@4.17.21", "typescript@5.3.3"},
			[]string{"is-positive", "local-lib", "my-fork", "left-pad", "lodash-es"},
			[]string{`local-lib@file:../local-lib`}},
		{"yarn-berry", "yarn.lock", docidx.NPM,
			[]string{"@babel/code-frame@7.26.2", "fsevents@2.3.3", "resolve@1.22.10", "lodash@4.17.21", "typescript@5.7.3"},
			[]string{"@acme/utils", "acme-monorepo", "linked", "local-lib", "my-fork", "portal-pkg", "lodash-es"},
			[]string{"acme-monorepo@workspace:."}},
	}
	for _, tt := range tests {
		lf, err := ParseLockfileFS(fsys, tt.dir+"/"+tt.file)
		if err != nil {
			t.Errorf("%s: %v", tt.dir, err)
			continue
		}
		got := map[string]bool{}
		names := map[string]bool{}
		for _, s := range lf.Specs {
			// A requirements file's ranges are range specs (see TestRequirementRanges).
			if s.Ecosystem != tt.eco || (!s.Exact || s.Query == "") && !s.Requirement {
				t.Errorf("%s: spec %+v: want an exact %s spec", tt.dir, s, tt.eco)
			}
			got[s.Name+"@"+s.Query] = true
			names[s.Name] = true
		}
		for _, h := range tt.has {
			if !got[h] {
				t.Errorf("%s: %s missing", tt.dir, h)
			}
		}
		for _, n := range tt.hasNot {
			if names[n] {
				t.Errorf("%s: %s should have been skipped", tt.dir, n)
			}
		}
		for _, e := range tt.skipped {
			if !slices.ContainsFunc(lf.Skipped, func(s Skipped) bool { return s.Entry == e && s.Reason != "" }) {
				t.Errorf("%s: %q not in skipped %v", tt.dir, e, lf.Skipped)
			}
		}
		if !slices.IsSortedFunc(lf.Specs, func(a, b Spec) int {
			if c := strings.Compare(a.Name, b.Name); c != 0 {
				return c
			}
			return strings.Compare(a.Query, b.Query)
		}) {
			t.Errorf("%s: specs not sorted: %v", tt.dir, lf.Specs)
		}
	}
}

func TestLockfileNames(t *testing.T) {
	tests := map[string]string{
		"go.mod":                FormatGoMod,
		"web/package-lock.json": FormatPackageLock,
		"npm-shrinkwrap.json":   FormatPackageLock,
		"pnpm-lock.yaml":        FormatPnpmLock,
		`C:\src\app\yarn.lock`:  FormatYarnLock,
		"requirements.txt":      FormatRequirements,
		"requirements-dev.txt":  FormatRequirements,
		"Requirements_Test.TXT": FormatRequirements,
		"test-requirements.txt": FormatRequirements,
		"requirements.lock":     FormatRequirements,
		"requirements-dev.lock": FormatRequirements,
		"requirements/base.txt": FormatRequirements,
		"poetry.lock":           FormatPoetryLock,
		"uv.lock":               FormatUVLock,
		"rust/Cargo.lock":       FormatCargoLock,
		"App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": FormatPackageResolved,
	}
	for name, want := range tests {
		got, err := lockfileFormat(name)
		if err != nil || got != want {
			t.Errorf("lockfileFormat(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"Gemfile.lock", "cargo.lock", "notes.txt", "package.json", "Pipfile.lock", "requirements.in"} {
		if _, err := lockfileFormat(name); !errors.Is(err, ErrUnknownLockfile) {
			t.Errorf("lockfileFormat(%q) err = %v, want ErrUnknownLockfile", name, err)
		}
		if _, err := ReadLockfile(name); !errors.Is(err, ErrUnknownLockfile) {
			t.Errorf("ReadLockfile(%q) err = %v, want ErrUnknownLockfile", name, err)
		}
	}
}

func TestParseRequirement(t *testing.T) {
	tests := []struct {
		in        string
		name      string // "" when skipped
		specifier string
		pinned    string
		extras    string
		marker    string
		skip      string
	}{
		{"requests==2.32.3", "requests", "==2.32.3", "2.32.3", "", "", ""},
		{"Requests == 2.32.3", "requests", "==2.32.3", "2.32.3", "", "", ""},
		{"zope.interface==7.1.1", "zope-interface", "==7.1.1", "7.1.1", "", "", ""},
		{"Foo__Bar-.baz==1.0", "foo-bar-baz", "==1.0", "1.0", "", "", ""},
		{"flask[async, dotenv]==3.1.0", "flask", "==3.1.0", "3.1.0", "async,dotenv", "", ""},
		{"flask [Async]==3.1.0", "flask", "==3.1.0", "3.1.0", "async", "", ""},
		{`flask==3.1.0; python_version >= "3.9" and sys_platform != "win32"`, "flask", "==3.1.0", "3.1.0", "", `python_version >= "3.9" and sys_platform != "win32"`, ""},
		{`flask==3.1.0 ;python_version>="3.9"`, "flask", "==3.1.0", "3.1.0", "", `python_version>="3.9"`, ""},
		{"itsdangerous===2.2.0", "itsdangerous", "===2.2.0", "2.2.0", "", "", ""},
		{"weird===1.0-custom", "weird", "===1.0-custom", "1.0-custom", "", "", ""},
		{"torch==2.5.1+cu121", "torch", "==2.5.1+cu121", "2.5.1+cu121", "", "", ""},
		{"epoch==1!2.0", "epoch", "==1!2.0", "1!2.0", "", "", ""},
		{"pinned>=1.0,==1.2.3", "pinned", ">=1.0,==1.2.3", "1.2.3", "", "", ""},
		{"old (==1.0)", "old", "==1.0", "1.0", "", "", ""},
		// Ranges are kept as specifier sets (issue 27: they used to be skipped).
		{"django==4.2.*", "django", "==4.2.*", "", "", "", ""},
		{"django >= 4.2, < 5", "django", ">=4.2,<5", "", "", "", ""},
		{"django~=4.2", "django", "~=4.2", "", "", "", ""},
		{"django!=4.2", "django", "!=4.2", "", "", "", ""},
		{"jsonschema>=4.0", "jsonschema", ">=4.0", "", "", "", ""},
		{"django", "django", "", "", "", "", ""},
		{"uvicorn[standard]", "uvicorn", "", "", "standard", "", ""},
		{`uvicorn; python_version > "3"`, "uvicorn", "", "", "", `python_version > "3"`, ""},
		{`Werkzeug (>=3.1.0) ; extra == "async"`, "werkzeug", ">=3.1.0", "", "", `extra == "async"`, ""},
		{"pkg @ https://example.com/pkg-1.0.tar.gz", "", "", "", "", "", "direct URL reference"},
		{"pkg@https://example.com/pkg-1.0.tar.gz", "", "", "", "", "", "direct URL reference"},
		{"black @ git+https://github.com/psf/black.git@24.10.0", "", "", "", "", "", "VCS requirement"},
		{"git+https://github.com/psf/black.git@24.10.0#egg=black", "", "", "", "", "", "VCS requirement"},
		{"hg+https://hg.example.com/repo#egg=x", "", "", "", "", "", "VCS requirement"},
		{"https://files.example.com/attrs-24.2.0.tar.gz", "", "", "", "", "", "URL requirement"},
		{"file:///tmp/x-1.0.whl", "", "", "", "", "", "URL requirement"},
		{"./vendor/x-1.0-py3-none-any.whl", "", "", "", "", "", "local or remote archive"},
		{"x-1.0-py3-none-any.whl", "", "", "", "", "", "local or remote archive"},
		{"foo-1.0.tar.gz", "", "", "", "", "", "local or remote archive"},
		{"./libs/acme", "", "", "", "", "", "local path"},
		{"../acme", "", "", "", "", "", "local path"},
		{"libs/acme", "", "", "", "", "", "local path"},
		{`C:\src\acme`, "", "", "", "", "", "local path"},
		{"pkg==${PKG_VERSION}", "", "", "", "", "", "uses environment variables, which docidx does not expand"},
	}
	for _, tt := range tests {
		r, err := parseRequirement(tt.in)
		if err != nil || r.name != tt.name || r.specifier != tt.specifier || r.pinned != tt.pinned || joinExtras(r.extras) != tt.extras || r.marker != tt.marker || r.skip != tt.skip {
			t.Errorf("parseRequirement(%q) = %+v, %v; want %q %q %q [%s] ;%s skip %q", tt.in, r, err, tt.name, tt.specifier, tt.pinned, tt.extras, tt.marker, tt.skip)
		}
	}
	for _, bad := range []string{"flask==", "flask[async==1.0", "flask = 1.0", "flask==1.0 2.0", "flask (==1.0", "flask==1.0,", "flask[bad extra]==1"} {
		if _, err := parseRequirement(bad); err == nil {
			t.Errorf("parseRequirement(%q): no error", bad)
		}
	}
}

// TestRequirementRanges checks that a requirements file's ranges and unpinned names become range
// specs marked as requirements, with their extras and markers, where they used to be skipped
// as "not pinned with ==" (issue 27).
func TestRequirementRanges(t *testing.T) {
	data := "jsonschema>=4.0\nflask[Dotenv,async]\nDjango ~= 4.2 ; python_version >= \"3.10\"\nrequests==2.32.3\n"
	lf, err := ParseLockfileFS(fstest.MapFS{"requirements.txt": {Data: []byte(data)}}, "requirements.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Spec{
		{Ecosystem: docidx.PyPI, Name: "django", Query: "~=4.2", Origin: "requirements.txt:3", Requirement: true, Marker: `python_version >= "3.10"`},
		{Ecosystem: docidx.PyPI, Name: "flask", Origin: "requirements.txt:2", Requirement: true, Extras: "async,dotenv"},
		{Ecosystem: docidx.PyPI, Name: "jsonschema", Query: ">=4.0", Origin: "requirements.txt:1", Requirement: true},
		{Ecosystem: docidx.PyPI, Name: "requests", Query: "2.32.3", Exact: true, Origin: "requirements.txt:4", Requirement: true},
	}
	if !slices.Equal(lf.Specs, want) || len(lf.Skipped) != 0 {
		t.Errorf("specs = %+v, skipped %v\nwant %+v", lf.Specs, lf.Skipped, want)
	}
}

func TestRequirementLines(t *testing.T) {
	data := "a==1 \\\n  --hash=sha256:00 \\\n  --hash=sha256:11\n# comment \\\nb==2#not-a-comment\n  c==3   # comment\n\\\n\nd==4 \\"
	got := requirementLines([]byte(data))
	want := []reqLine{
		{1, "a==1   --hash=sha256:00   --hash=sha256:11"},
		{5, "b==2#not-a-comment"},
		{6, "c==3"},
		{9, "d==4"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("requirementLines:\n got %v\nwant %v", got, want)
	}
}

// TestRequirementsIncludes covers what a file system allows: includes in subdirectories,
// diamonds read once, cycles, the depth limit, missing files and includes leaving the root.
func TestRequirementsIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"app/requirements.txt":     {Data: []byte("-r a.txt\n-r b.txt\n--requirement ../shared/c.txt\nz==1\n")},
		"app/a.txt":                {Data: []byte("a==1\n-r common.txt\n")},
		"app/b.txt":                {Data: []byte("b==1\n-rcommon.txt\n")},
		"app/common.txt":           {Data: []byte("common==1\n-r requirements.txt\n")},
		"shared/c.txt":             {Data: []byte("\uFEFFc==1 --hash=sha256:ab\n")},
		"missing/requirements.txt": {Data: []byte("x==1\n\n-r nope.txt\n")},
		"escape/requirements.txt":  {Data: []byte("-r ../../etc/passwd\n")},
		"abs/requirements.txt":     {Data: []byte("-r /etc/requirements.txt\n")},
		"remote/requirements.txt":  {Data: []byte("-r https://example.com/requirements.txt\nx==1\n")},
		"bad/requirements.txt":     {Data: []byte("-r base.txt\n")},
		"bad/base.txt":             {Data: []byte("ok==1\nbroken==\n")},
	}
	// A chain deeper than MaxIncludeDepth.
	for i := 0; i <= MaxIncludeDepth+1; i++ {
		fsys[fmt.Sprintf("deep/requirements%d.txt", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "p%d==1\n-r requirements%d.txt\n", i, i+1)}
	}

	lf, err := ParseLockfileFS(fsys, "app/requirements.txt")
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, s := range lf.Specs {
		specs = append(specs, s.String()+" "+s.Origin)
	}
	wantSpecs := []string{"pypi:a@1 a.txt:1", "pypi:b@1 b.txt:1", "pypi:c@1 c.txt:1", "pypi:common@1 common.txt:1", "pypi:z@1 requirements.txt:4"}
	if !slices.Equal(specs, wantSpecs) {
		t.Errorf("specs = %q, want %q", specs, wantSpecs)
	}
	wantFiles := []string{"app/requirements.txt", "app/a.txt", "app/common.txt", "app/b.txt", "shared/c.txt"}
	if !slices.Equal(lf.Files, wantFiles) {
		t.Errorf("files = %q, want %q", lf.Files, wantFiles)
	}
	if len(lf.Skipped) != 1 || lf.Skipped[0].String() != "app/common.txt:2: -r requirements.txt: include cycle: the file is already being read" {
		t.Errorf("skipped = %v, want the cycle only", lf.Skipped)
	}

	lf, err = ParseLockfileFS(fsys, "remote/requirements.txt")
	if err != nil || len(lf.Specs) != 1 || len(lf.Skipped) != 1 {
		t.Errorf("remote include: %+v, %v; want x==1 and a skipped include", lf, err)
	}

	errTests := []struct {
		name string
		line int
		want string
		is   error
	}{
		{"missing/requirements.txt", 3, "-r nope.txt", fs.ErrNotExist},
		{"escape/requirements.txt", 1, "outside the file system", nil},
		{"abs/requirements.txt", 1, "outside the file system", nil},
		{"bad/requirements.txt", 0, `bad/base.txt:2: requirement "broken==": missing version after ==`, nil},
		{"deep/requirements0.txt", 0, "nested deeper than", ErrIncludeLimit},
	}
	for _, tt := range errTests {
		_, err := ParseLockfileFS(fsys, tt.name)
		var le *LockfileError
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: err = %v, want it to say %q", tt.name, err, tt.want)
		case tt.is != nil && !errors.Is(err, tt.is):
			t.Errorf("%s: err = %v, want errors.Is %v", tt.name, err, tt.is)
		case !errors.As(err, &le):
			t.Errorf("%s: err = %v, not a *LockfileError", tt.name, err)
		case tt.line > 0 && le.Line != tt.line:
			t.Errorf("%s: err at line %d, want %d", tt.name, le.Line, tt.line)
		}
	}
}

// TestReadLockfile reads from the operating system, where includes may climb out of the
// lockfile's directory as pip allows.
func TestReadLockfile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shared/base.txt", "certifi==2024.8.30\n")
	write("app/requirements.txt", "-r ../shared/base.txt\n-r "+filepath.Join(dir, "shared", "base.txt")+"\nflask==3.1.3\nclick==8.4.0\n")
	lf, err := ReadLockfile(filepath.Join(dir, "app", "requirements.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range lf.Specs {
		got = append(got, s.String())
	}
	if want := []string{"pypi:certifi@2024.8.30", "pypi:click@8.4.0", "pypi:flask@3.1.3"}; !slices.Equal(got, want) {
		t.Errorf("specs = %q, want %q", got, want)
	}
	if len(lf.Files) != 2 {
		t.Errorf("files = %q, want the lockfile and base.txt once", lf.Files)
	}
	if _, err := ReadLockfile(filepath.Join(dir, "nope", "requirements.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want fs.ErrNotExist", err)
	}
}

func TestLockfileTooLarge(t *testing.T) {
	big := make([]byte, MaxLockfile+1)
	if _, err := ParseLockfile("Cargo.lock", big); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("ParseLockfile: err = %v, want ErrTooLarge", err)
	}
	fsys := fstest.MapFS{"requirements.txt": {Data: []byte("-r big.txt\n")}, "big.txt": {Data: big}}
	if _, err := ParseLockfileFS(fsys, "requirements.txt"); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("ParseLockfileFS include: err = %v, want ErrTooLarge", err)
	}
}

// TestLockfileErrors checks that malformed files give a LockfileError that names the line and
// says what is wrong.
func TestLockfileErrors(t *testing.T) {
	tests := []struct {
		name, data string
		line       int
		want       string
	}{
		{"requirements.txt", "a==1\n\nflask[x==1\n", 3, "unclosed ["},
		{"requirements.txt", "a==1\n--index-url\n", 2, "needs a value"},
		{"requirements.txt", "a==1\nb = 1\n", 2, "not a version specifier"},
		{"poetry.lock", "[[package]]\nname = \"a\"\nversion = \n", 3, ""},
		{"poetry.lock", "[[package]]\nname = \"a\"\n\n[[package]]\nname = \"b\"\nversion = \"1\"\n", 1, "no name or version"},
		{"poetry.lock", "# empty\n", 0, "not a poetry.lock"},
		{"uv.lock", "[[package]]\nname = \"a\"\n", 0, "not a uv.lock"},
		{"uv.lock", "version = 1\n\n[[package]]\nname = \"a\"\nsource = { registry = \"https://pypi.org/simple\" }\n", 3, "has no version"},
		{"Cargo.lock", "version = 4\n[[package]]\nname = \"a\"\nversion = \"1\"\nsource = [\n", 5, "expected value"},
		{"Cargo.lock", "version = 4\n\n[[package]]\nversion = \"1.0.0\"\n", 3, "no name or version"},
		{"Cargo.lock", "", 0, "not a Cargo.lock"},
		{"Package.resolved", "{\n  \"pins\" : [\n    {\n      \"identity\" : 3\n", 5, "truncated JSON"},
		{"Package.resolved", "{\n  \"pins\" : [\n    {\n      \"identity\" : 3\n}]}", 4, "cannot unmarshal"},
		{"Package.resolved", "{\"pins\": []}", 0, "not a Package.resolved"},
		{"Package.resolved", "{\"version\": 2, \"pins\": [{\"state\": {\"version\": \"1.0.0\"}}]}", 0, "no identity or location"},
		{"Package.resolved", "{\"version\": 2,\n \"pins\": [\n", 3, "truncated JSON"},
		{"package-lock.json", "{", 1, "truncated JSON"},
		{"pnpm-lock.yaml", "importers: {}\n", 0, "no lockfileVersion"},
		{"pnpm-lock.yaml", "lockfileVersion: x\n", 1, "not a number"},
		{"pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages:\n  a@1.0.0: [\n", 3, "did not find expected node content"},
		{"yarn.lock", "# yarn lockfile v1\n\nleft-pad@^1.3.0:\n  resolved \"x\"\n", 3, "has no version"},
		{"yarn.lock", "# yarn lockfile v1\n\nleft-pad@^1.3.0\n  version \"1.3.0\"\n", 3, "expected an entry"},
		{"yarn.lock", "  version \"1.3.0\"\n", 1, "outside an entry"},
		{"yarn.lock", "\"left-pad@^1.3.0:\n  version \"1.3.0\"\n", 1, "unterminated"},
		{"yarn.lock", "__metadata:\n  version: 8\n\n\"a@npm:^1\":\n  version: 1.0.0\n", 4, "has no resolution"},
		{"yarn.lock", "__metadata:\n  version: 8\n\"a@npm:^1\": [\n", 3, "did not find expected node content"},
		{"yarn.lock", "__metadata:\n  version: 8\n\"a@npm:^1\": 3\n", 3, "not a mapping"},
	}
	for _, tt := range tests {
		_, err := ParseLockfile(tt.name, []byte(tt.data))
		var le *LockfileError
		switch {
		case err == nil:
			t.Errorf("%s %q: no error", tt.name, tt.data)
		case !errors.As(err, &le):
			t.Errorf("%s %q: err = %v, not a *LockfileError", tt.name, tt.data, err)
		case le.Line != tt.line:
			t.Errorf("%s %q: err = %v at line %d, want line %d", tt.name, tt.data, err, le.Line, tt.line)
		case !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s %q: err = %v, want it to say %q", tt.name, tt.data, err, tt.want)
		case !strings.HasPrefix(err.Error(), tt.name+":"):
			t.Errorf("%s: err = %v, want it to start with the file name", tt.name, err)
		}
	}
}

// TestLockfileEdgeCases covers entries the fixtures do not.
func TestLockfileEdgeCases(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string
	}{
		// uv before 0.3 named the tables [[distribution]].
		{"uv.lock", "version = 1\n[[distribution]]\nname = \"Anyio\"\nversion = \"3.7.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n", []string{"pypi:anyio@3.7.0"}},
		// Windows line endings and a byte order mark.
		{"requirements.txt", "\uFEFFFlask==3.1.3\r\nclick==8.4.0 \\\r\n  --hash=sha256:00\r\n", []string{"pypi:click@8.4.0", "pypi:flask@3.1.3"}},
		// Constraints and editables only.
		{"requirements.txt", "-c c.txt\n-e .\n--pre\n", nil},
		// An empty but valid lockfile of each kind.
		{"Cargo.lock", "version = 4\n", nil},
		{"pnpm-lock.yaml", "lockfileVersion: '9.0'\n", nil},
		{"yarn.lock", "# yarn lockfile v1\n\n\n", nil},
		{"yarn.lock", "", nil},
		{"Package.resolved", `{"pins": [], "version": 3}`, nil},
		// pnpm: a config document before the lockfile, peers with underscores in early v6 files.
		{"pnpm-lock.yaml", "---\nlockfileVersion: '9.0'\nimporters: {}\n---\nlockfileVersion: '9.0'\npackages:\n  '@scope/a@1.0.0':\n    resolution: {integrity: sha512-x}\n", []string{"npm:@scope/a@1.0.0"}},
		{"pnpm-lock.yaml", "lockfileVersion: '6.0'\npackages:\n  /a@1.0.0_b@2.0.0:\n    dev: false\n  /@s/c@2.0.0(b@2.0.0)(d@1.0.0):\n    dev: false\n", []string{"npm:@s/c@2.0.0", "npm:a@1.0.0"}},
		// yarn berry: npm bindings, an alias, a patch of a git dependency.
		{"yarn.lock", "__metadata:\n  version: 6\n\"a@npm:^1\":\n  version: 1.0.0\n  resolution: \"a@npm:1.0.0::__archiveUrl=https%3A%2F%2Fr.example%2Fa.tgz\"\n" +
			"\"x@npm:y@^2\":\n  version: 2.0.0\n  resolution: \"y@npm:2.0.0\"\n" +
			"\"g@patch:g@https://github.com/a/g.git%23commit=abc#./p.patch::locator=r%40workspace%3A.\":\n  version: 1.0.0\n  resolution: \"g@patch:g@https%3A//github.com/a/g.git%23commit=abc#./p.patch::version=1.0.0&hash=1&locator=r%40workspace%3A.\"\n",
			[]string{"npm:a@1.0.0", "npm:y@2.0.0"}},
		// yarn classic: unquoted version, several patterns in one quoted string, npm: alias without a name.
		{"yarn.lock", "# yarn lockfile v1\n\n\"a@^1, a@^1.1\":\n  version 1.1.0\n\n\"b@npm:^2\":\n  version \"2.0.0\"\n", []string{"npm:a@1.1.0", "npm:b@2.0.0"}},
		// Package.resolved: a pin whose kind is new to docidx is skipped, not an error.
		{"Package.resolved", `{"version": 3, "pins": [{"identity": "x", "kind": "fileSystem", "location": "/x", "state": {"version": "1.0.0"}}]}`, nil},
	}
	for _, tt := range tests {
		specs, err := ParseLockfile(tt.name, []byte(tt.data))
		if err != nil {
			t.Errorf("%s %q: %v", tt.name, tt.data, err)
			continue
		}
		var got []string
		for _, s := range specs {
			got = append(got, s.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %q:\n got %q\nwant %q", tt.name, tt.data, got, tt.want)
		}
	}
}

func TestNormalizePyPIName(t *testing.T) {
	for in, want := range map[string]string{
		"Flask": "flask", "zope.interface": "zope-interface", "typing_extensions": "typing-extensions",
		"Foo__Bar-.-baz": "foo-bar-baz", "PyYAML": "pyyaml", "a": "a", "_x_": "-x-", "": "",
	} {
		if got := NormalizePyPIName(in); got != want {
			t.Errorf("NormalizePyPIName(%q) = %q, want %q", in, got, want)
		}
	}
}

// lockfileSeeds returns every fixture of the given base name, for fuzzing.
func lockfileSeeds(f *testing.F, base string) {
	f.Helper()
	for _, c := range lockfileCases {
		if c.file != base && !(base == "requirements.txt" && strings.HasSuffix(c.file, ".txt")) {
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", "lockfiles", c.dir, c.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// fuzzLockfile parses data as the lockfile base and checks that it neither panics nor returns
// empty specs or non-exact ones where a lockfile pins versions (a requirement may be any version;
// a Cargo.toml names requirements), and that every error is a *LockfileError.
func fuzzLockfile(t *testing.T, base string, data []byte) {
	lf, err := parseLockfile(base, data, nil)
	if err != nil {
		var le *LockfileError
		if !errors.As(err, &le) && !errors.Is(err, docidx.ErrTooLarge) {
			t.Fatalf("%s: error %v (%T) is not a *LockfileError", base, err, err)
		}
		return
	}
	for _, s := range lf.Specs {
		manifest := s.Requirement || base == "Cargo.toml"
		if s.Name == "" || s.Ecosystem == "" || !manifest && (s.Query == "" || !s.Exact) || base == "Cargo.toml" && s.Query == "" {
			t.Fatalf("%s: bad spec %+v", base, s)
		}
	}
	for _, s := range lf.Skipped {
		if s.Reason == "" {
			t.Fatalf("%s: skipped %+v without a reason", base, s)
		}
	}
}

func FuzzRequirements(f *testing.F) {
	lockfileSeeds(f, "requirements.txt")
	f.Add([]byte("a==1 \\\n--hash=sha256:0\n-e .\n-c c.txt\nb[x]===2 ; os_name=='nt'\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "requirements.txt", data) })
}

// FuzzRequirementsIncludes fuzzes two requirements files that include each other.
func FuzzRequirementsIncludes(f *testing.F) {
	f.Add([]byte("-r b.txt\na==1\n"), []byte("-r ../x/requirements.txt\nb==1\n-r c.txt\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		fsys := fstest.MapFS{"x/requirements.txt": {Data: a}, "x/b.txt": {Data: b}, "x/c.txt": {Data: a}}
		lf, err := ParseLockfileFS(fsys, "x/requirements.txt")
		if err != nil {
			return
		}
		for _, s := range lf.Specs {
			// A name without a pin ("0", "jsonschema>=4.0") is a requirement the installed
			// distribution resolves; a pinned one carries its version.
			if s.Name == "" || !s.Requirement && s.Query == "" {
				t.Fatalf("bad spec %+v", s)
			}
		}
		for _, f := range lf.Files {
			if !fs.ValidPath(f) || path.Dir(f) != "x" {
				t.Fatalf("read %q, outside x/", f)
			}
		}
	})
}

func FuzzPoetryLock(f *testing.F) {
	lockfileSeeds(f, "poetry.lock")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "poetry.lock", data) })
}

func FuzzUVLock(f *testing.F) {
	lockfileSeeds(f, "uv.lock")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "uv.lock", data) })
}

func FuzzCargoLock(f *testing.F) {
	lockfileSeeds(f, "Cargo.lock")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "Cargo.lock", data) })
}

func FuzzPyproject(f *testing.F) {
	lockfileSeeds(f, "pyproject.toml")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "pyproject.toml", data) })
}

func FuzzCargoManifest(f *testing.F) {
	lockfileSeeds(f, "Cargo.toml")
	f.Add([]byte("[workspace.dependencies]\na = { workspace = true }\n[package]\n[dependencies]\na = { workspace = true }\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "Cargo.toml", data) })
}

func FuzzPackageResolved(f *testing.F) {
	lockfileSeeds(f, "Package.resolved")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "Package.resolved", data) })
}

func FuzzPnpmLock(f *testing.F) {
	lockfileSeeds(f, "pnpm-lock.yaml")
	f.Add([]byte("lockfileVersion: 5.4\npackages:\n  /a/1.0.0_b@1.0.0:\n    dev: false\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "pnpm-lock.yaml", data) })
}

func FuzzYarnLock(f *testing.F) {
	lockfileSeeds(f, "yarn.lock")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLockfile(t, "yarn.lock", data) })
}

// BenchmarkLockfiles parses each fixture; b.SetBytes reports throughput.
func BenchmarkLockfiles(b *testing.B) {
	for _, c := range lockfileCases {
		data, err := os.ReadFile(filepath.Join("testdata", "lockfiles", c.dir, c.file))
		if err != nil {
			b.Fatal(err)
		}
		if c.dir == "requirements" {
			data = []byte(strings.ReplaceAll(string(data), "-r ", "# -r "))
			data = []byte(strings.ReplaceAll(string(data), "--requirement=", "# --requirement="))
		}
		b.Run(c.dir, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseLockfile(c.file, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLockfileSkippedGoNPM checks what go.mod and package-lock.json report as skipped.
func TestLockfileSkippedGoNPM(t *testing.T) {
	tests := map[string][]string{
		"go.mod": {"testdata/go.mod:9: example.com/local v0.0.0: replaced by local directory ../local"},
		"package-lock.json": {
			"testdata/package-lock.json: node_modules/from-git: not a registry version: git+ssh://example.com/x.git#abc",
			"testdata/package-lock.json: node_modules/linked: link to a workspace package or local folder",
		},
	}
	for file, want := range tests {
		lf, err := ReadLockfile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range lf.Skipped {
			got = append(got, filepath.ToSlash(s.String()))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: skipped\n %q\nwant %q", file, got, want)
		}
	}
}

// TestSkippedDropsCredentials checks that an entry docidx does not crawl is reported without the
// credentials its URL carries: skips are printed and logged.
func TestSkippedDropsCredentials(t *testing.T) {
	dir := t.TempDir()
	req := filepath.Join(dir, "requirements.txt")
	content := "-e git+https://alice:s3cretXYZ@127.0.0.1:1/o/r.git#egg=r\n" +
		"mypkg @ https://alice:s3cretXYZ@127.0.0.1:1/x.whl\n" +
		"git+https://s3cretXYZ@127.0.0.1:1/o/r2.git\n"
	if err := os.WriteFile(req, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	lf, err := ReadLockfile(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(lf.Skipped) != 3 {
		t.Fatalf("skipped %v, want the three lines", lf.Skipped)
	}
	for _, s := range lf.Skipped {
		if strings.Contains(s.String(), "s3cretXYZ") {
			t.Errorf("skip %q holds the credential", s)
		}
	}
}

// TestRequirementsKeepExtrasAndMarkers: one distribution required with and without an extra, or
// under two markers, stays two requirements; only true repeats collapse.
func TestRequirementsKeepExtrasAndMarkers(t *testing.T) {
	specs, err := ParseLockfile("requirements.txt", []byte("uvicorn\nuvicorn[standard]\nfoo>=1 ; sys_platform == \"win32\"\nfoo>=1 ; sys_platform == \"linux\"\nuvicorn\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range specs {
		got = append(got, s.Name+"["+s.Extras+"]"+s.Query+";"+s.Marker)
	}
	if len(specs) != 4 {
		t.Errorf("%d specs, want 4 (uvicorn, uvicorn[standard], foo for win32, foo for linux): %q", len(specs), got)
	}
}
