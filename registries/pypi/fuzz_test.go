package pypi

import (
	"errors"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/pypi/pypitest"
	"github.com/docidx/docidx/registries/registrytest"
)

// FuzzParseMetadata feeds arbitrary bytes to the core metadata parser and what is derived from
// it: nothing may panic, and a description always yields a README document.
func FuzzParseMetadata(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "metadata", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && !strings.HasSuffix(p, ".md") {
			f.Add(b)
		}
	}
	f.Add([]byte("Name: x\nDescription: a\n       |b\n        c\nDescription-Content-Type: text/plain;;\n\nbody"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m := ParseMetadata(src)
		_ = m.ContentType()
		_ = m.LicenseName()
		_ = m.Homepage()
		_ = m.Repository()
		d, ok := descriptionDocument(m)
		if ok && d.Path == "" {
			t.Fatal("document without path")
		}
		_ = packageFromMetadata(m, Normalize(m.Name), m.Version)
	})
}

// FuzzReadArchive feeds arbitrary bytes as wheels and sdists: nothing may panic, and whatever is
// kept stays inside the archive and under the limits.
func FuzzReadArchive(f *testing.F) {
	f.Add("x-1.0-py3-none-any.whl", pypitest.Wheel("x", "1.0", "Name: x\nVersion: 1.0\n", map[string]string{"x/__init__.py": "def f(): ...\n"}))
	f.Add("x-1.0.tar.gz", pypitest.Tarball("x-1.0", map[string]string{"PKG-INFO": "Name: x\n", "x/__init__.py": "def f(): ...\n", "docs/a.rst": "A\n=\n"}))
	f.Add("x-1.0.zip", pypitest.Wheels.Build([]registrytest.Entry{{Name: "x-1.0/PKG-INFO", Body: "Name: x\n"}, {Name: "x-1.0/../../evil", Body: "x"}}))
	f.Add("x-1.0.tar.bz2", []byte("BZh91AY&SY"))
	lim := Limits{MaxUnpacked: 1 << 20, MaxEntry: 256 << 10, MaxFile: 64 << 10}.withDefaults()
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		a, err := readArchive(name, data, lim)
		if err != nil {
			return
		}
		var total int
		for p, b := range a.files {
			if strings.HasPrefix(p, "/") || strings.Contains("/"+p+"/", "/../") {
				t.Fatalf("unsafe path kept: %q", p)
			}
			if int64(len(b)) > lim.MaxFile {
				t.Fatalf("%s: %d bytes over MaxFile", p, len(b))
			}
			total += len(b)
		}
		if total > maxKept {
			t.Fatalf("kept %d bytes", total)
		}
		pd := &docidx.PackageDocs{}
		(&Registry{lim: lim, log: discard}).extractArchive(pd, a, "x", "1.0", true)
	})
}

// FuzzSimplePage feeds arbitrary bytes to the simple API page parsers (PEP 503 HTML and PEP 691
// JSON) and the JSON API parser.
func FuzzSimplePage(f *testing.F) {
	f.Add([]byte(`<a href="../../files/x-1.0.tar.gz#sha256=ab" data-requires-python="&gt;=3" data-yanked data-core-metadata="sha256=cd">x-1.0.tar.gz</a>`))
	f.Add([]byte(`{"meta":{"api-version":"1.1"},"name":"x","versions":["1.0"],"files":[{"filename":"x-1.0-py3-none-any.whl","url":"x.whl","hashes":{"sha256":"00"},"yanked":"bad","core-metadata":{"sha256":"11"}}]}`))
	f.Add([]byte(`{"info":{"name":"x","version":"1.0","keywords":["a","b"],"project_urls":null},"releases":{"1.0":[{"filename":"x-1.0.tar.gz","url":"/x","digests":{"sha256":"00"},"size":3}]}}`))
	f.Add([]byte("<A HREF=x-1.0.tar.gz>x-1.0.tar.gz</A><a href='y'><a"))
	base, _ := url.Parse("https://user:pw@index.example.test/simple/x/")
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, p := range []*project{parseSimpleHTML(body, base, "x")} {
			_ = p.candidates()
			_ = p.versions()
		}
		if p, err := parseSimpleJSON(body, base, "x"); err == nil {
			_ = p.candidates()
		}
		if p, err := parseJSONProject(body, base, "x"); err == nil {
			_ = p.info.metadata()
			_ = chooseFile(p.releases["1.0"])
		}
	})
}

// FuzzResolveVersion feeds arbitrary queries and versions to the PEP 440 resolver.
func FuzzResolveVersion(f *testing.F) {
	f.Add("1.0.post1", "~=1.0,!=1.0.1,<2")
	f.Add("1!2.0rc1.dev3+local", "===1!2.0rc1.dev3+local")
	f.Add("v1.0", ">=1.*")
	f.Fuzz(func(t *testing.T, version, query string) {
		v, err := resolveVersion("x", []candidate{{version: version, files: true}, {version: "1.0", files: true}}, query)
		if err == nil && v != version && v != "1.0" {
			t.Fatalf("resolved to %q", v)
		}
		if err != nil && !errors.Is(err, docidx.ErrNotFound) && !errors.Is(err, docidx.ErrBadSpec) {
			t.Fatalf("error %v", err)
		}
	})
}

// FuzzParsePipConf feeds arbitrary pip.conf contents.
func FuzzParsePipConf(f *testing.F) {
	f.Add([]byte("[global]\nindex-url = https://x.example.test/simple\n  continued\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m := parsePipConf(b)
		for k := range m {
			if !strings.Contains(k, ".") {
				t.Fatalf("key without section: %q", k)
			}
		}
	})
}

var discard = slog.New(slog.DiscardHandler)

// FuzzEvalMarker checks that any marker (from a distribution's Requires-Dist, untrusted) parses
// or fails with ErrBadMarker, and that an unknown result never claims to hold.
func FuzzEvalMarker(f *testing.F) {
	for _, m := range []string{`python_version < "3.10"`, `extra == "async" and (os_name == 'nt' or sys_platform in "linux")`, `platform_release >= "6"`, `((`, `"a" not in extra`} {
		f.Add(m)
	}
	env := Environment{"python_version": "3.11", "sys_platform": "linux", "os_name": "posix"}
	f.Fuzz(func(t *testing.T, marker string) {
		holds, known, err := EvalMarker(marker, env, []string{"async"})
		if err != nil && !errors.Is(err, ErrBadMarker) {
			t.Fatalf("EvalMarker(%q): %v", marker, err)
		}
		if holds && !known {
			t.Fatalf("EvalMarker(%q) holds but is unknown", marker)
		}
	})
}
