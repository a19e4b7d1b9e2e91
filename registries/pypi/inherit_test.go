package pypi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/pypitest"
)

// inheritLayout writes a site-packages directory where webapp's classes subclass classes of
// toolkit, another installed distribution, as flask's Request subclasses werkzeug's: through a
// package __init__ that re-exports the base, whose own base is in another module of toolkit.
// evil is a symbolic link to a directory outside it.
func inheritLayout(t *testing.T) string {
	t.Helper()
	dir := pypitest.SitePackages(t, t.TempDir(),
		pypitest.Installed{
			Name: "webapp", Version: "1.0", Form: pypitest.DistInfo,
			Metadata: "Summary: A web framework\n",
			Files: map[string]string{
				"webapp/__init__.py": "",
				"webapp/wrappers.py": `from toolkit.wrappers import Request as RequestBase
from toolkit import routing
from absent.base import Thing
from evil.base import Escaped
from webapp.base import Own


class Request(RequestBase):
    """A web request."""

    def get_json(self):
        """Webapp's own get_json."""


class Router(routing.Router):
    """A router."""


class Missing(Thing):
    """Its base's distribution is not installed."""


class Outside(Escaped):
    """Its base is behind a link out of the directory."""


class Mine(Own):
    """Its base is the distribution's own, public: it documents itself."""
`,
				"webapp/base.py": `class Own:
    def mine(self):
        """Documented as webapp.base.Own.mine."""
`,
			},
		},
		pypitest.Installed{
			Name: "toolkit", Version: "2.0", Form: pypitest.DistInfo,
			Metadata: "Summary: WSGI toolkit\n",
			Files: map[string]string{
				"toolkit/__init__.py":          "",
				"toolkit/wrappers/__init__.py": "from .request import Request as Request\n",
				"toolkit/wrappers/request.py": `from ..sansio.request import Request as _SansIORequest


class Request(_SansIORequest):
    """The WSGI request."""

    def get_json(self):
        """Parse the body as JSON."""

    @property
    def form(self):
        """The form parameters."""

    def _private(self):
        """Not inherited."""
`,
				"toolkit/sansio/__init__.py": "",
				"toolkit/sansio/request.py": `class _Base:
    def close(self):
        """Close the request."""


class Request(_Base):
    """A request without I/O."""

    #: The part of the URL after the "?".
    query_string: bytes = b""

    @property
    def args(self):
        """The parsed URL parameters."""

    def form(self):
        """Hidden by the nearer base's form."""
`,
				"toolkit/routing.py": `class Router:
    def add(self, path):
        """Add a route."""
`,
			},
		},
	)
	outside := t.TempDir()
	testutil.WriteFile(t, filepath.Join(outside, "evil", "base.py"), "class Escaped:\n    def leaked(self):\n        \"\"\"Read from outside the directory.\"\"\"\n")
	if err := os.Symlink(filepath.Join(outside, "evil"), filepath.Join(dir, "evil")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	return dir
}

// TestInheritedFromAnotherDistribution checks that the public classes of an installed
// distribution list the members they inherit from a base defined in another distribution of
// the same site-packages directory, the base's own bases included, nearest first, without
// overwriting what the class defines; and that a base not installed, one behind a link out of
// the directory, and one of the distribution's own public modules give nothing.
func TestInheritedFromAnotherDistribution(t *testing.T) {
	dir := inheritLayout(t)
	pd := fetchInstalled(t, dir, SitePackagesConfig{}, "webapp", "1.0")
	got := map[string]docidx.Symbol{}
	var order []string
	for _, s := range pd.Symbols {
		got[s.QualifiedName] = s
		if s.Parent != "" {
			order = append(order, s.QualifiedName)
		}
	}
	want := map[string]struct {
		kind docidx.SymbolKind
		doc  string
		file string
	}{
		"webapp.wrappers.Request.get_json":     {docidx.KindMethod, "Webapp's own get_json.", "webapp/wrappers.py"},
		"webapp.wrappers.Request.form":         {docidx.KindProperty, "The form parameters.\n\nInherited from toolkit.wrappers.request.Request.", "toolkit/wrappers/request.py"},
		"webapp.wrappers.Request.query_string": {docidx.KindField, "The part of the URL after the \"?\".\n\nInherited from toolkit.sansio.request.Request.", "toolkit/sansio/request.py"},
		"webapp.wrappers.Request.args":         {docidx.KindProperty, "The parsed URL parameters.\n\nInherited from toolkit.sansio.request.Request.", "toolkit/sansio/request.py"},
		"webapp.wrappers.Request.close":        {docidx.KindMethod, "Close the request.\n\nInherited from toolkit.sansio.request._Base.", "toolkit/sansio/request.py"},
		"webapp.wrappers.Router.add":           {docidx.KindMethod, "Add a route.\n\nInherited from toolkit.routing.Router.", "toolkit/routing.py"},
	}
	for q, w := range want {
		s, ok := got[q]
		if !ok {
			t.Errorf("%s missing; members: %s", q, strings.Join(order, " "))
			continue
		}
		if s.Kind != w.kind || s.Doc != w.doc || s.File != w.file || s.Package != "webapp.wrappers" {
			t.Errorf("%s: kind %s, doc %q, file %s, package %s; want %s, %q, %s, webapp.wrappers", q, s.Kind, s.Doc, s.File, s.Package, w.kind, w.doc, w.file)
		}
	}
	for _, s := range pd.Symbols {
		switch s.Parent {
		case "Missing", "Outside", "Mine":
			t.Errorf("%s inherited from a base that is not another installed distribution's", s.QualifiedName)
		}
		if s.Name == "_private" {
			t.Errorf("private member %s inherited", s.QualifiedName)
		}
	}
	// Nearest first: the WSGI request's form, then what the request without I/O adds.
	if i, j := strings.Index(strings.Join(order, " "), ".form"), strings.Index(strings.Join(order, " "), ".args"); i < 0 || j < i {
		t.Errorf("members not nearest first: %s", strings.Join(order, " "))
	}
	testutil.CheckSymbols(t, pd.Symbols)

	// The same files read from a wheel: no other distribution is on disk.
	files, _ := chooseModules([]string{"webapp/__init__.py", "webapp/wrappers.py", "webapp/base.py"}, "")
	read := func(p string, limit int64) ([]byte, error) {
		if !strings.HasPrefix(p, "webapp/") {
			t.Errorf("a registry crawl read %s, another distribution's file", p)
		}
		return readLimitedFile(filepath.Join(dir, filepath.FromSlash(p)), limit)
	}
	for _, s := range extractAPI(files, read, Limits{}.withDefaults(), nil).symbols {
		if strings.Contains(s.Doc, "Inherited from") {
			t.Errorf("registry crawl: %s inherited", s.QualifiedName)
		}
	}
}

// TestSiteModulesBounds checks the reading of other distributions' modules: at most
// maxSiteModules files, each once, never a path that is not a module name, never one of the
// distribution's own files.
func TestSiteModulesBounds(t *testing.T) {
	var reads []string
	read := func(p string, limit int64) ([]byte, error) {
		reads = append(reads, p)
		return []byte("class C:\n    def m(self): ...\n"), nil
	}
	m := newSiteModules(read, []string{"own/__init__.py"}, Limits{}.withDefaults())
	for _, mod := range []string{"own", "..", "a..b", "x/y", "os.path/../../etc"} {
		if m.scan(mod) != nil {
			t.Errorf("scan(%q) read a module", mod)
		}
	}
	for i := 0; i < maxSiteModules+10; i++ {
		m.scan("dist" + strings.Repeat("x", i))
		m.scan("dist" + strings.Repeat("x", i)) // once
	}
	if len(reads) != maxSiteModules {
		t.Errorf("%d files read, want %d: %v", len(reads), maxSiteModules, reads[:min(len(reads), 5)])
	}
	for _, p := range reads {
		if strings.Contains(p, "..") || strings.HasPrefix(p, "own/") || strings.HasPrefix(p, "/") {
			t.Errorf("read %s", p)
		}
	}
}

func TestClassBases(t *testing.T) {
	testutil.Mapping(t, "classBases", func(sig string) string { return strings.Join(classBases(sig), " ") }, map[string]string{
		"class Request(RequestBase)":                               "RequestBase",
		"class APIRouter(routing.Router, Generic[T], metaclass=M)": "routing.Router",
		"class A(a.b.C, B)":                                        "B",
		"class A":                                                  "",
		"class A(B)\nclass A(C)":                                   "B",
	})
}

// TestReexportedFromAnotherDistribution: a name a public module's __all__ declares and imports
// from another installed distribution (celery.exceptions lists billiard's SoftTimeLimitExceeded)
// is documented as the module's, with the definition's doc, its members, and where it is
// defined; a name it imports without declaring it, or from a distribution not installed, is not.
func TestReexportedFromAnotherDistribution(t *testing.T) {
	dir := pypitest.SitePackages(t, t.TempDir(),
		pypitest.Installed{
			Name: "tasks", Version: "1.0", Form: pypitest.DistInfo,
			Files: map[string]string{
				"tasks/__init__.py": "",
				"tasks/exceptions.py": `from pool.exceptions import TimeLimitExceeded, Terminated, WorkerLost
from absent import Gone

__all__ = ("TimeLimitExceeded", "Terminated", "Gone", "TaskError")


class TaskError(Exception):
    """A task failed."""
`,
			},
		},
		pypitest.Installed{
			Name: "pool", Version: "2.0", Form: pypitest.DistInfo,
			Files: map[string]string{
				"pool/__init__.py":   "",
				"pool/exceptions.py": "from pool._base import TimeLimitExceeded\n\n\nclass Terminated(Exception):\n    pass\n\n\nclass WorkerLost(Exception):\n    \"\"\"The worker exited.\"\"\"\n",
				"pool/_base.py":      "class TimeLimitExceeded(Exception):\n    \"\"\"The time limit was exceeded.\"\"\"\n\n    def seconds(self):\n        \"\"\"The limit, in seconds.\"\"\"\n",
			},
		},
	)
	pd := fetchInstalled(t, dir, SitePackagesConfig{}, "tasks", "1.0")
	got := testutil.ByName(pd.Symbols)
	for q, want := range map[string]string{
		"tasks.exceptions.TimeLimitExceeded":         "The time limit was exceeded.\n\nDefined in pool._base.TimeLimitExceeded.",
		"tasks.exceptions.TimeLimitExceeded.seconds": "The limit, in seconds.",
		"tasks.exceptions.Terminated":                "",
		"tasks.exceptions.TaskError":                 "A task failed.",
	} {
		s, ok := got[q]
		if !ok {
			t.Errorf("%s missing", q)
			continue
		}
		if s.Doc != want || s.Package != "tasks.exceptions" {
			t.Errorf("%s: doc %q in %s, want %q in tasks.exceptions", q, s.Doc, s.Package, want)
		}
	}
	if s := got["tasks.exceptions.TimeLimitExceeded"]; s.File != "pool/_base.py" {
		t.Errorf("TimeLimitExceeded's file %s, want its definition's, pool/_base.py", s.File)
	}
	testutil.Absent(t, got, "not declared in __all__, or not installed", "tasks.exceptions.WorkerLost", "tasks.exceptions.Gone")
	testutil.CheckSymbols(t, pd.Symbols)
}

// TestExplicitReexportFromAnotherDistribution: in modules without __all__, a name imported as
// "from m import name as name" (the typing spec's explicit re-export) that another installed
// distribution defines is documented as the module's, directly (fastapi.requests' Request is
// starlette's) or through the distribution's own modules (fastapi's __init__ imports it from
// fastapi.requests; a private module's name too); a name imported without the redundant alias,
// one the distribution defines itself, and one of the standard library are not copied.
func TestExplicitReexportFromAnotherDistribution(t *testing.T) {
	dir := pypitest.SitePackages(t, t.TempDir(),
		pypitest.Installed{
			Name: "web", Version: "1.0", Form: pypitest.DistInfo,
			Files: map[string]string{
				"web/__init__.py": `from .requests import Request as Request
from .app import App as App
from ._compat import Headers
`,
				"web/requests.py": `from base.requests import Request as Request
from base.requests import Cookie
from contextlib import contextmanager as contextmanager
`,
				"web/app.py":     "class App:\n    \"\"\"The application.\"\"\"\n",
				"web/_compat.py": "from base.datastructures import Headers as Headers\n",
			},
		},
		pypitest.Installed{
			Name: "base", Version: "2.0", Form: pypitest.DistInfo,
			Files: map[string]string{
				"base/__init__.py":       "",
				"base/requests.py":       "class Request:\n    \"\"\"An incoming request.\"\"\"\n\n    def json(self):\n        \"\"\"The body, decoded.\"\"\"\n\n\nclass Cookie:\n    \"\"\"A cookie.\"\"\"\n",
				"base/datastructures.py": "class Headers(dict):\n    \"\"\"Case-insensitive headers.\"\"\"\n",
			},
		},
	)
	pd := fetchInstalled(t, dir, SitePackagesConfig{}, "web", "1.0")
	got := testutil.ByName(pd.Symbols)
	for q, want := range map[string]string{
		"web.requests.Request":      "An incoming request.\n\nDefined in base.requests.Request.",
		"web.requests.Request.json": "The body, decoded.",
		"web.Request":               "An incoming request.\n\nDefined in base.requests.Request.",
		"web.Request.json":          "The body, decoded.",
		"web.Headers":               "Case-insensitive headers.\n\nDefined in base.datastructures.Headers.",
		"web.app.App":               "The application.",
	} {
		s, ok := got[q]
		if !ok {
			t.Errorf("%s missing", q)
			continue
		}
		if s.Doc != want {
			t.Errorf("%s: doc %q, want %q", q, s.Doc, want)
		}
	}
	if s := got["web.Request"]; s.File != "base/requests.py" || s.Package != "web" {
		t.Errorf("web.Request in %s, file %s; want package web, its definition's file base/requests.py", s.Package, s.File)
	}
	testutil.Absent(t, got, "imported without the redundant alias, defined by the distribution, or of the standard library",
		"web.requests.Cookie", "web.App", "web.requests.contextmanager")
	testutil.CheckSymbols(t, pd.Symbols)
}
