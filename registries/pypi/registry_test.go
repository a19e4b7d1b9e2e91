package pypi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/pypitest"
	"github.com/docidx/docidx/registries/registrytest"
)

var testNow = time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)

// newTestRegistry starts the fake index over testdata/index and a Registry over it
// (registryOver).
func newTestRegistry(t *testing.T, mod func(*RegistryConfig)) (*Registry, *pypitest.Server) {
	t.Helper()
	srv := pypitest.NewServer(t, filepath.Join("testdata", "index"))
	return registryOver(t, srv, mod), srv
}

// registryOver returns a Registry pointed at srv's simple API URL, as pip.conf would name it,
// with a client that retries once without waiting and the clock at testNow; mod, when not nil,
// changes that configuration first.
func registryOver(t *testing.T, srv *pypitest.Server, mod func(*RegistryConfig)) *Registry {
	t.Helper()
	return testutil.Configured(t, RegistryConfig{
		Config: testutil.Must(t, NewConfig, srv.SimpleURL()),
		Client: registrytest.QuickClient(srv.Client()),
		Now:    func() time.Time { return testNow },
	}, mod, NewRegistry)
}

func TestResolve(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	ctx := context.Background()
	testutil.CheckResolve(t, r, []testutil.Resolution{
		{"demo-widgets", "", "1.1.0", nil},
		{"Demo_Widgets", "latest", "1.1.0", nil},
		{"demo.widgets", "1.0.0", "1.0.0", nil},
		{"DEMO-WIDGETS", "==1.0", "1.0.0", nil},
		{"demo-widgets", ">=1.0,<1.1", "1.0.0", nil},
		{"demo-widgets", "~=1.0", "1.1.0", nil},
		{"demo-widgets", ">=1.2.0rc1", "1.2.0rc1", nil},
		{"demo-widgets", "!=1.1.0,<2", "1.0.0", nil},
		{"demo-widgets", "==2.0", "", docidx.ErrNotFound},
		{"demo-widgets", ">=3", "", docidx.ErrNotFound},
		{"demo-widgets", "~=1", "", docidx.ErrBadSpec},
		{"demo-widgets", "banana", "", docidx.ErrBadSpec},
		{"oldstyle", "", "0.1.0", nil},
		{"no-such-project", "", "", docidx.ErrNotFound},
		{"-bad-", "", "", docidx.ErrBadSpec},
		{"a/b", "", "", docidx.ErrBadSpec},
	})
	if _, err := r.Resolve(ctx, "no-such-project", ""); err == nil || !strings.Contains(err.Error(), "pypi: no-such-project not found in ") {
		t.Errorf("unknown project message: %v", err)
	}
}

func TestProjectRequests(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	ctx := context.Background()
	if _, err := r.Resolve(ctx, "Demo_Widgets", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(ctx, "demo.widgets", "~=1.0"); err != nil { // from the cache: one project
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/pypi/demo-widgets/json" || reqs[0].Accept != "application/json" {
		t.Errorf("requests = %+v, want one normalized JSON API request", reqs)
	}
}

func allText(d docidx.Document) string {
	var b strings.Builder
	for _, s := range d.Sections {
		b.WriteString(strings.Join(s.Heading, " > ") + "\n" + s.Text + "\n")
	}
	return b.String()
}

// checkWidgetsAPI checks the API of demo-widgets 1.1.0, the same from its wheel, its sdist and
// an installed copy.
func checkWidgetsAPI(t *testing.T, pd *docidx.PackageDocs, filePrefix string) {
	t.Helper()
	syms := testutil.ByName(pd.Symbols)
	for q, kind := range map[string]docidx.SymbolKind{
		"demo_widgets":                      docidx.KindPackage,
		"demo_widgets.make_widget":          docidx.KindFunc,
		"demo_widgets.old_widget":           docidx.KindFunc,
		"demo_widgets.Gadget":               docidx.KindClass,
		"demo_widgets.Gadget.__init__":      docidx.KindMethod,
		"demo_widgets.Gadget.spin":          docidx.KindMethod,
		"demo_widgets.Gadget.label":         docidx.KindProperty,
		"demo_widgets.core":                 docidx.KindPackage,
		"demo_widgets.core.Widget":          docidx.KindClass,
		"demo_widgets.core.Widget.__init__": docidx.KindMethod,
		"demo_widgets.core.Widget.resize":   docidx.KindMethod,
		"demo_widgets.core.Widget.size":     docidx.KindField,
		// __init__ declares Widget in __all__ and imports it from the public core module: it
		// is documented under both names, as Python's help shows both.
		"demo_widgets.Widget":          docidx.KindClass,
		"demo_widgets.Widget.__init__": docidx.KindMethod,
		"demo_widgets.Widget.resize":   docidx.KindMethod,
		"demo_widgets.Widget.size":     docidx.KindField,
		"demo_widgets.DEFAULT_SIZE":    docidx.KindConst,
		"demo_widgets.Gadget.MAX_SPIN": docidx.KindConst,
		"demo_widgets.Gadget.name":     docidx.KindField,
	} {
		if s, ok := syms[q]; !ok || s.Kind != kind {
			t.Errorf("symbol %s = %+v, want kind %s", q, s, kind)
		}
	}
	if len(syms) != 19 {
		t.Errorf("%d symbols, want 19 (no not_exported, NOT_LISTED, _secret, _internal, tests, _vendor, third_party): %v", len(syms), syms)
	}
	for q := range syms {
		if strings.Contains(q, "vendor") || strings.Contains(q, "third_party") || strings.Contains(q, "typeshed") {
			t.Errorf("vendored code indexed: %s", q)
		}
	}
	if s := syms["demo_widgets.make_widget"]; s.Signature != `def make_widget(size: int = 1, *, color: str | None = None) -> "Widget"` ||
		!strings.HasPrefix(s.Doc, "Make a widget of the given `size`.\n\nThe color is optional.\n\nArgs:\n") || s.File != filePrefix+"demo_widgets/__init__.py" || s.Line != 16 || s.Package != "demo_widgets" {
		t.Errorf("make_widget = %+v", s)
	}
	if s := syms["demo_widgets.make_widget"]; !reflect.DeepEqual(s.Params, []docidx.Param{
		{Name: "size", Type: "int", Default: "1", Doc: "How big, in units."},
		{Name: "color", Type: "str | None", Default: "None", Doc: "The paint, or None for bare metal."},
	}) {
		t.Errorf("make_widget params = %+v", s.Params)
	}
	if s := syms["demo_widgets"]; s.Doc != "Widgets for docidx tests.\n\nMake them with `make_widget`." {
		t.Errorf("module doc = %q", s.Doc)
	}
	if s := syms["demo_widgets.DEFAULT_SIZE"]; s.Signature != "DEFAULT_SIZE = 1" || s.Doc != "The size of a widget made without one." {
		t.Errorf("DEFAULT_SIZE = %+v", s)
	}
	if s := syms["demo_widgets.Gadget.MAX_SPIN"]; s.Signature != "MAX_SPIN = 10" || s.Parent != "Gadget" || s.Doc != "The most turns one spin makes." {
		t.Errorf("Gadget.MAX_SPIN = %+v", s)
	}
	if s := syms["demo_widgets.Gadget.name"]; s.Signature != "name: str" || s.Parent != "Gadget" || s.Doc != "What the gadget is called." {
		t.Errorf("Gadget.name = %+v", s)
	}
	if !syms["demo_widgets.old_widget"].Deprecated || syms["demo_widgets.make_widget"].Deprecated {
		t.Error("deprecation flags")
	}
	if s := syms["demo_widgets.core.Widget.resize"]; s.Signature != `def resize(self, n: int) -> "Widget"` || s.File != filePrefix+"demo_widgets/core.pyi" || s.Parent != "Widget" {
		t.Errorf("Widget.resize (from the stub) = %+v", s)
	}
	if s := syms["demo_widgets.Gadget.spin"]; s.Signature != "async def spin(self, times: int = 1) -> None" {
		t.Errorf("Gadget.spin = %q", s.Signature)
	}
}

func TestFetchWheel(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, "Demo_Widgets", "1.1.0")
	want := docidx.Package{
		Ecosystem:   docidx.PyPI,
		Name:        "demo-widgets",
		Version:     "1.1.0",
		Versions:    []string{"0.9.0", "1.0.0", "1.1.0", "1.2.0rc1"},
		Description: "Widgets for docidx tests",
		License:     "MIT",
		Homepage:    "https://widgets.example.test",
		Repository:  "https://github.com/example/demo-widgets",
		Keywords:    []string{"widgets", "testing", "docidx"},
		Published:   registrytest.Published(2),
		Source:      srv.URL + "/pypi/demo-widgets/json",
		CrawledAt:   testNow,
		Requires:    []docidx.Requirement{{Name: "python", Range: ">=3.9"}},
	}
	testutil.SamePackage(t, pd.Package, want)
	if len(pd.Documents) != 4 {
		t.Fatalf("documents = %+v, want the README and the sdist's docs/ and examples/", pd.Documents)
	}
	readme := pd.Documents[0]
	if readme.Path != "README.md" || readme.Kind != docidx.DocReadme || readme.Title != "Demo Widgets" || readme.Summary != "Demo Widgets builds widgets for docidx tests." {
		t.Errorf("README = %+v", readme)
	}
	text := allText(readme)
	if !strings.Contains(text, "Demo Widgets > Installation") || !strings.Contains(text, "pip install demo-widgets") || strings.Contains(text, "MIT, see LICENSE") {
		t.Errorf("README sections:\n%s", text)
	}
	checkWidgetsAPI(t, pd, "")
	var files []string
	for _, req := range srv.Requests() {
		if strings.HasPrefix(req.Path, "/files/") {
			files = append(files, req.Path)
		}
	}
	if strings.Join(files, ",") != "/files/Demo_Widgets-1.1.0-py3-none-any.whl,/files/Demo_Widgets-1.1.0.tar.gz" {
		t.Errorf("downloads = %v, want the pure wheel, then the sdist for its docs", files)
	}
	// from the sdist
	testutil.Documents(t, pd, map[string]docidx.DocKind{"docs/guide.md": docidx.DocGuide, "docs/api.rst": docidx.DocGuide, "examples/basic.py": docidx.DocExample})
}

func TestFetchSdist(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	srv.RemoveFiles("demo-widgets", "1.1.0", ".whl")
	pd := testutil.Fetched(t, r, "demo-widgets", "1.1.0")
	checkWidgetsAPI(t, pd, "")
	docs := testutil.Documents(t, pd, map[string]docidx.DocKind{
		"README.md": docidx.DocReadme, "docs/guide.md": docidx.DocGuide, "docs/api.rst": docidx.DocGuide, "examples/basic.py": docidx.DocExample,
	})
	if len(docs) != 4 {
		t.Errorf("documents: %v", docs)
	}
	if text := allText(docs["README.md"]); strings.Contains(text, "The sdist's README") {
		t.Errorf("the long description is the README, not the sdist's file: %s", text)
	}
	api := docs["docs/api.rst"]
	if api.Title != "API" || len(api.Sections) != 2 || api.Sections[1].Code[0].Code != "w.resize(2)\n" {
		t.Errorf("docs/api.rst = %+v", api)
	}
	if ex := docs["examples/basic.py"]; len(ex.Sections) == 0 || ex.Sections[0].Code[0].Lang != "python" {
		t.Errorf("examples/basic.py = %+v", ex)
	}
}

func TestFetchDescriptionTypes(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, "demo-widgets", "1.0.0")
	d := pd.Documents[0]
	if d.Path != "README.txt" || len(d.Sections) != 1 || d.Sections[0].Plain != "Demo Widgets 1.0.\nPlain text, kept as one section." || d.Title != "Demo_Widgets" {
		t.Errorf("text/plain README = %+v", d)
	}
	if pd.Package.Repository != "https://github.com/example/demo-widgets" || pd.Package.License != "MIT" {
		t.Errorf("1.0.0 package = %+v", pd.Package)
	}

	pd = testutil.Fetched(t, r, "demo-widgets", "0.9.0")
	d = pd.Documents[0]
	if d.Path != "README.rst" || d.Title != "Demo Widgets" || len(d.Sections) != 2 || d.Sections[1].Anchor != "usage" || d.Sections[1].Code[0].Code != "import demo_widgets\n" {
		t.Errorf("reStructuredText README (no content type) = %+v", d)
	}

	pd = testutil.Fetched(t, r, "oldstyle", "0.1.0")
	d = pd.Documents[0]
	if d.Title != "Old Style" || len(d.Sections) != 1 || d.Sections[0].Code[0].Code != "pip install oldstyle\n" || pd.Package.License != "BSD" {
		t.Errorf("old-style Description header = %+v / %+v", d, pd.Package)
	}
	if s := testutil.ByName(pd.Symbols)["oldstyle.run"]; s.Signature != "def run(argv=None)" || s.Doc != "Run it." || s.File != "oldstyle.py" {
		t.Errorf("oldstyle.run = %+v", s)
	}
}

func TestFetchYanked(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	srv.Yank("demo-widgets", "1.1.0", "broken build")
	ctx := context.Background()
	if v, err := r.Resolve(ctx, "demo-widgets", ""); err != nil || v != "1.0.0" {
		t.Errorf("latest with 1.1.0 yanked = %q, %v", v, err)
	}
	if v, err := r.Resolve(ctx, "demo-widgets", "==1.1.0"); err != nil || v != "1.1.0" {
		t.Errorf("a pin selects a yanked release: %q, %v", v, err)
	}
	if v, err := r.Resolve(ctx, "demo-widgets", ">=1.1"); err != nil || v != "1.2.0rc1" {
		t.Errorf(">=1.1 with 1.1.0 yanked = %q, %v (only the pre-release is left)", v, err)
	}
	pd := testutil.Fetched(t, r, "demo-widgets", "1.1.0")
	if pd.Package.Deprecated != "yanked: broken build" || len(pd.Symbols) == 0 {
		t.Errorf("yanked release = %+v", pd.Package)
	}
	if _, err := r.Fetch(ctx, "demo-widgets", "^1"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("Fetch of a range: %v", err)
	}
}

func TestMirrorWithoutJSONAPI(t *testing.T) {
	for _, html := range []bool{false, true} {
		t.Run(fmt.Sprintf("html=%v", html), func(t *testing.T) {
			r, srv := newTestRegistry(t, nil)
			srv.DisableJSONAPI()
			if html {
				srv.HTMLOnly()
			}
			ctx := context.Background()
			v, err := r.Resolve(ctx, "demo_widgets", "")
			if err != nil || v != "1.1.0" {
				t.Fatalf("Resolve = %q, %v", v, err)
			}
			pd := testutil.Fetched(t, r, "demo_widgets", v)
			checkWidgetsAPI(t, pd, "")
			if pd.Package.Source != srv.SimpleURL()+"demo-widgets/" || pd.Package.License != "MIT" || pd.Package.Published.IsZero() != html {
				t.Errorf("package = %+v", pd.Package)
			}
			if len(pd.Documents) != 4 || pd.Documents[0].Title != "Demo Widgets" {
				t.Errorf("documents = %+v, want the README and the sdist's three", pd.Documents)
			}
			if _, err := r.Resolve(ctx, "oldstyle", ""); err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, req := range srv.Requests() {
				paths = append(paths, req.Path)
				if strings.HasPrefix(req.Path, "/simple/") && !strings.Contains(req.Accept, "application/vnd.pypi.simple.v1+json") {
					t.Errorf("simple API request without the PEP 691 Accept header: %+v", req)
				}
			}
			want := "/pypi/demo-widgets/json /simple/demo-widgets/ /files/Demo_Widgets-1.1.0-py3-none-any.whl /files/Demo_Widgets-1.1.0.tar.gz /simple/oldstyle/"
			if strings.Join(paths, " ") != want {
				t.Errorf("requests = %v\nwant %s (the JSON API is not asked again)", paths, want)
			}
		})
	}
}

func TestMetadataOnly(t *testing.T) {
	ctx := context.Background()
	mod := func(c *RegistryConfig) { c.MetadataOnly = true }

	r, srv := newTestRegistry(t, mod)
	pd := testutil.Fetched(t, r, "demo-widgets", "1.1.0")
	if len(pd.Symbols) != 0 || len(pd.Documents) != 1 || pd.Documents[0].Title != "Demo Widgets" || pd.Package.License != "MIT" {
		t.Errorf("metadata from the JSON API: %+v", pd)
	}
	for _, req := range srv.Requests() {
		if strings.HasPrefix(req.Path, "/files/") {
			t.Errorf("downloaded %s", req.Path)
		}
	}

	// A mirror: the PEP 658 metadata file, checked against its digest.
	r, srv = newTestRegistry(t, mod)
	srv.DisableJSONAPI()
	pd = testutil.Fetched(t, r, "demo-widgets", "1.1.0")
	if len(pd.Documents) != 1 || pd.Package.Repository != "https://github.com/example/demo-widgets" {
		t.Errorf("metadata from PEP 658: %+v", pd.Package)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Path != "/files/Demo_Widgets-1.1.0-py3-none-any.whl.metadata" {
		t.Errorf("last request = %+v", last)
	}
	r, srv = newTestRegistry(t, mod)
	srv.DisableJSONAPI()
	srv.TamperDigest("Demo_Widgets-1.1.0-py3-none-any.whl.metadata")
	if _, err := r.Fetch(ctx, "demo-widgets", "1.1.0"); !errors.Is(err, docidx.ErrIntegrity) {
		t.Errorf("bad metadata digest: %v", err)
	}
}

// fault returns a set-up that makes every request whose path holds path fail with status.
func fault(path string, status int) func(*pypitest.Server) {
	return func(s *pypitest.Server) {
		s.Inject(registrytest.Fault{Path: path, Status: status, RetryAfter: "0"})
	}
}

func TestFetchFaults(t *testing.T) {
	hostile := func(files ...*pypitest.File) func(*pypitest.Server) {
		return func(s *pypitest.Server) { s.AddFiles("evil", "1.1.0", "Summary: evil\n", files...) }
	}
	// A file larger than the limit by its advertised size is never requested.
	after := func(t *testing.T, row registrytest.FetchFault[*pypitest.Server, RegistryConfig], srv *pypitest.Server) {
		if row.Case != "oversized download" {
			return
		}
		for _, req := range srv.Requests() {
			if strings.HasPrefix(req.Path, "/files/") {
				t.Errorf("a file larger than the limit by its advertised size was requested: %s", req.Path)
			}
		}
	}
	registrytest.FetchFaults(t, "pypi: ", "1.1.0", newTestRegistry, after, []registrytest.FetchFault[*pypitest.Server, RegistryConfig]{
		{Case: "project 429 exhausted", Setup: fault("/demo-widgets/", http.StatusTooManyRequests), Name: "demo-widgets", Want: docidx.ErrRetryable},
		{Case: "release 500", Setup: fault("/pypi/demo-widgets/1.1.0/json", http.StatusInternalServerError), Name: "demo-widgets", Want: docidx.ErrRetryable},
		{Case: "oversized download", Mod: func(c *RegistryConfig) { c.Limits.MaxDownload = 200 }, Name: "demo-widgets", Want: docidx.ErrTooLarge},
		{Case: "oversized project", Mod: func(c *RegistryConfig) { c.Limits.MaxProject = 200 }, Name: "demo-widgets", Want: docidx.ErrTooLarge},
		{Case: "unpacks too large", Mod: func(c *RegistryConfig) { c.Limits.MaxUnpacked = 1000 }, Name: "demo-widgets", Want: docidx.ErrTooLarge},
		{Case: "entry too large", Mod: func(c *RegistryConfig) { c.Limits.MaxEntry = 100 }, Name: "demo-widgets", Want: docidx.ErrTooLarge},
		{Case: "wheel with ..", Setup: hostile(&pypitest.File{Filename: "evil-1.1.0-py3-none-any.whl", Data: pypitest.Wheels.Build([]registrytest.Entry{
			{Name: "evil-1.1.0.dist-info/METADATA", Body: "Name: evil\nVersion: 1.1.0\n"},
			{Name: "../../etc/passwd", Body: "root"},
		})}), Name: "evil", Want: docidx.ErrUnsafePath},
		{Case: "sdist with absolute path", Setup: hostile(&pypitest.File{Filename: "evil-1.1.0.tar.gz", Data: pypitest.Sdists.Build([]registrytest.Entry{
			{Name: "evil-1.1.0/PKG-INFO", Body: "Name: evil\nVersion: 1.1.0\n"},
			{Name: "/etc/passwd", Body: "root"},
		})}), Name: "evil", Want: docidx.ErrUnsafePath},
		{Case: "wheel entry declared huge", Setup: hostile(&pypitest.File{Filename: "evil-1.1.0-py3-none-any.whl", Data: pypitest.Wheels.Build([]registrytest.Entry{
			{Name: "evil/__init__.py", Size: 2 << 20},
		})}), Mod: func(c *RegistryConfig) { c.Limits.MaxEntry = 1 << 20 }, Name: "evil", Want: docidx.ErrTooLarge},
	})
}

func TestUnauthorized(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	srv.Inject(registrytest.Fault{Path: "/demo-widgets/", Status: http.StatusUnauthorized})
	_, err := r.Resolve(context.Background(), "demo-widgets", "")
	if err == nil || !strings.Contains(err.Error(), "refused access") || !strings.Contains(err.Error(), "pip.conf") {
		t.Errorf("401: %v", err)
	}
}

func TestRegistryCacheEvictsAndRetriesFailures(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	registrytest.MetadataCache(t, registrytest.MetadataCacheSubject{Registry: r, Server: srv.Server,
		Fault: registrytest.Fault{Path: "/oldstyle/", Status: http.StatusInternalServerError}, Want: docidx.ErrRetryable,
		Name: "oldstyle", Version: "0.1.0",
		Add: func(name string) {
			srv.AddRelease(name, "1.0", "Summary: x\n", map[string]string{"p.py": "def f(): ...\n"}, nil)
		},
		Size: projectCacheSize, Len: r.cache.Len})
}

func TestNewRegistryNeedsConfig(t *testing.T) {
	if _, err := NewRegistry(RegistryConfig{}); err == nil {
		t.Error("NewRegistry without Config succeeded")
	}
	r, _ := newTestRegistry(t, nil)
	if !strings.HasPrefix(r.String(), "pypi index http://127.0.0.1:") || r.Ecosystem() != docidx.PyPI || r.Retries() != 0 {
		t.Errorf("String = %q", r.String())
	}
}

func TestChooseFile(t *testing.T) {
	f := func(name string, size int64, yanked bool) *distFile {
		return &distFile{filename: name, size: size, yanked: yanked}
	}
	for _, tc := range []struct {
		files []*distFile
		want  string
	}{
		{[]*distFile{f("x-1.0.tar.gz", 10, false), f("x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", 5, false), f("x-1.0-py2.py3-none-any.whl", 50, false)}, "x-1.0-py2.py3-none-any.whl"},
		{[]*distFile{f("x-1.0-py2-none-any.whl", 5, false), f("x-1.0-py3-none-any.whl", 50, false)}, "x-1.0-py3-none-any.whl"},
		{[]*distFile{f("x-1.0.tar.gz", 10, false), f("x-1.0-cp311-cp311-win_amd64.whl", 500, false)}, "x-1.0.tar.gz"},
		{[]*distFile{f("x-1.0-py3-none-any.whl", 5, true), f("x-1.0.tar.gz", 10, false)}, "x-1.0.tar.gz"},
		{[]*distFile{f("x-1.0-py3-none-any.whl", 5, true)}, "x-1.0-py3-none-any.whl"},
		{[]*distFile{f("x-1.0.exe", 5, false), f("x-1.0-py2.7.egg", 5, false)}, ""},
	} {
		got := chooseFile(tc.files)
		name := ""
		if got != nil {
			name = got.filename
		}
		if name != tc.want {
			t.Errorf("chooseFile = %q, want %q", name, tc.want)
		}
	}
}

func TestFileVersion(t *testing.T) {
	for _, tc := range []struct{ norm, file, want string }{
		{"demo-widgets", "Demo_Widgets-1.1.0-py3-none-any.whl", "1.1.0"},
		{"demo-widgets", "demo_widgets-1.1.0-1-py3-none-any.whl", "1.1.0"},
		{"demo-widgets", "demo-widgets-2.0rc1.tar.gz", "2.0rc1"},
		{"demo-widgets", "Demo.Widgets-0.1.zip", "0.1"},
		{"zope-interface", "zope.interface-5.4.0-py3.9.egg", "5.4.0"},
		{"foo", "foo-bar-1.0.tar.gz", ""},
		{"foo", "foo-1.0.exe", ""},
	} {
		if got, _ := fileVersion(tc.norm, tc.file); got != tc.want {
			t.Errorf("fileVersion(%s, %s) = %q, want %q", tc.norm, tc.file, got, tc.want)
		}
	}
}

// TestFetchSdistPackageDir reads an sdist whose packages sit under lib/ (setuptools'
// package_dir), laid out as PyYAML 6.0.2's, the file PyPI's smallest for that release: its API
// is lib/yaml's, without the tests, examples and build scripts beside it.
func TestFetchSdistPackageDir(t *testing.T) {
	pd, _ := fetchNewRelease(t, "PyYAML", "6.0.2", "Summary: YAML parser and emitter for Python\n", nil, map[string]string{
		"setup.py":                           "def build():\n    pass\n",
		"lib/yaml/__init__.py":               "from .loader import *\n\ndef safe_load(stream):\n    \"\"\"Parse the first YAML document in a stream.\"\"\"\n",
		"lib/yaml/loader.py":                 "class SafeLoader:\n    \"\"\"Loads only plain data.\"\"\"\n",
		"lib/_yaml/__init__.py":              "def _compat():\n    pass\n",
		"tests/legacy_tests/test_all.py":     "def test_all():\n    pass\n",
		"tests/lib/helpers/__init__.py":      "def helper():\n    pass\n",
		"examples/yaml-highlight/yaml_hl.py": "class YAMLHighlight:\n    pass\n",
		"packaging/build/smoketest.py":       "def smoke():\n    pass\n",
	})
	syms := testutil.ByName(pd.Symbols)
	testutil.Present(t, syms, "", "yaml", "yaml.safe_load", "yaml.loader.SafeLoader")
	for q := range syms {
		if !strings.HasPrefix(q, "yaml") {
			t.Errorf("symbol %s is not yaml's API", q)
		}
	}
}
