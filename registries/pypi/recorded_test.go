package pypi

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/pypitest"
)

// recordedIndex serves the answers recorded from a real index in testdata/real (its README.md
// says how they were recorded) through the fake, at the paths they were asked for.
func recordedIndex(t *testing.T) *pypitest.Server {
	t.Helper()
	srv := pypitest.NewServer(t, "")
	for path, f := range map[string]struct{ file, contentType string }{
		"/pypi/six/json":    {"pypi-six-json.json", "application/json"},
		"/simple/six/":      {"simple-six.json", "application/vnd.pypi.simple.v1+json"},
		"/pypi/pyyaml/json": {"pypi-pyyaml-json.json", "application/json"},
		"/packages/b7/ce/149a00dd41f10bc29e5921b496af8b574d8413afcd5e30dfa0ed46c2cc5e/six-1.17.0-py2.py3-none-any.whl": {"six-1.17.0-py2.py3-none-any.whl", "application/zip"},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "real", f.file))
		if err != nil {
			t.Fatal(err)
		}
		srv.Record(path, f.contentType, b)
	}
	return srv
}

func recordedRegistry(t *testing.T, srv *pypitest.Server, simpleOnly bool) *Registry {
	t.Helper()
	return registryOver(t, srv, func(rc *RegistryConfig) {
		if simpleOnly {
			rc.Config.JSONURL = ""
		}
		// The recorded index lists six's sdist, which is not recorded: no docs from it, rather
		// than a download that fails on every run.
		rc.Limits = Limits{MaxDocsSdist: -1}
	})
}

// TestRecordedIndex reads six from a real index's recorded answers, through the JSON API and
// through the PEP 691 simple API alone, as make e2e-registries does: both find the same releases
// and files, and Fetch reads the real wheel (its sha256 checked) to the same API. The release
// document (/pypi/six/1.17.0/json) is not recorded: the index this was recorded from answered it
// 404 with an empty body, and the project document's info stands in for the latest release.
func TestRecordedIndex(t *testing.T) {
	srv := recordedIndex(t)
	var symbols [2][]string
	for i, simpleOnly := range []bool{false, true} {
		r := recordedRegistry(t, srv, simpleOnly)
		ctx := context.Background()
		v, err := r.Resolve(ctx, "Six", "")
		if err != nil || v != "1.17.0" {
			t.Fatalf("simple only %v: Resolve = %q, %v; want 1.17.0", simpleOnly, v, err)
		}
		p, err := r.project(ctx, "six")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.versions(); !reflect.DeepEqual(got, []string{"1.16.0", "1.17.0"}) && !reflect.DeepEqual(got, []string{"1.17.0", "1.16.0"}) {
			t.Errorf("simple only %v: versions %v", simpleOnly, got)
		}
		files := p.releases["1.17.0"]
		if len(files) != 2 {
			t.Fatalf("simple only %v: files of 1.17.0: %d", simpleOnly, len(files))
		}
		whl := chooseFile(files)
		if whl.filename != "six-1.17.0-py2.py3-none-any.whl" || whl.size != 11050 || whl.yanked ||
			whl.hashes["sha256"] != "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274" ||
			!strings.HasPrefix(whl.url, srv.URL+"/packages/") || whl.requiresPython == "" || whl.uploadTime.IsZero() {
			t.Errorf("simple only %v: wheel %+v", simpleOnly, whl)
		}
		// The JSON API says the wheel's METADATA is served beside it (core-metadata); the simple
		// page recorded says nothing of it.
		if whl.coreMetadata != !simpleOnly {
			t.Errorf("simple only %v: wheel core metadata %v", simpleOnly, whl.coreMetadata)
		}
		pd, err := r.Fetch(ctx, "six", "1.17.0")
		if err != nil {
			t.Fatalf("simple only %v: Fetch: %v", simpleOnly, err)
		}
		for _, s := range pd.Symbols {
			symbols[i] = append(symbols[i], s.QualifiedName)
		}
		if _, ok := testutil.ByName(pd.Symbols)["six.add_metaclass"]; !ok {
			t.Errorf("simple only %v: six.add_metaclass missing from %d symbols", simpleOnly, len(pd.Symbols))
		}
		if pd.Package.Published.IsZero() || pd.Package.Description == "" {
			t.Errorf("simple only %v: package %+v", simpleOnly, pd.Package)
		}
	}
	if !reflect.DeepEqual(symbols[0], symbols[1]) {
		t.Errorf("the JSON API and the simple API give different symbols:\n%v\n%v", symbols[0], symbols[1])
	}
}

// TestRecordedRelativeURLs reads PyYAML's JSON API document as a real index sent it, with file
// URLs relative to the document ("../../packages/…"): they resolve against the document's URL.
func TestRecordedRelativeURLs(t *testing.T) {
	srv := recordedIndex(t)
	r := recordedRegistry(t, srv, false)
	p, err := r.project(context.Background(), "PyYAML")
	if err != nil {
		t.Fatal(err)
	}
	var sdist *distFile
	for _, f := range p.releases["6.0.2"] {
		if f.kind() == "sdist" {
			sdist = f
		}
	}
	if sdist == nil {
		t.Fatalf("no sdist among %d files", len(p.releases["6.0.2"]))
	}
	if want := srv.URL + "/packages/packages/54/ed/79a089b6be93607fa5cdaedf301d7dfb23af5f25c398d5ead2525b063e17/pyyaml-6.0.2.tar.gz"; sdist.url != want {
		t.Errorf("sdist URL %s, want %s", sdist.url, want)
	}
}
