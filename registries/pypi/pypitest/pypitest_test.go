package pypitest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

func get(t *testing.T, s *Server, path, accept string) (*http.Response, []byte) {
	return s.Get(t, path, "Accept", accept)
}

func TestServer(t *testing.T) {
	s := NewServer(t, "")
	s.AddRelease("My_Pkg", "1.0", "Summary: one\nProject-URL: Source, https://x.example.test\n\n# Body\n", map[string]string{"my_pkg/__init__.py": "x = 1\n"}, map[string]string{"docs/a.md": "# A\n"})
	s.AddRelease("My_Pkg", "2.0b1", "Summary: beta\n", map[string]string{"my_pkg/__init__.py": "x = 2\n"}, nil)

	resp, body := get(t, s, "/pypi/my-pkg/json", "")
	var doc struct {
		Info struct {
			Name, Version, Summary, Description string
			ProjectURLs                         map[string]string `json:"project_urls"`
		}
		Releases map[string][]struct {
			Filename, URL string
			Digests       map[string]string
		}
	}
	if err := json.Unmarshal(body, &doc); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if doc.Info.Version != "1.0" || doc.Info.Name != "My_Pkg" || doc.Info.Description != "# Body\n" || doc.Info.ProjectURLs["Source"] != "https://x.example.test" || len(doc.Releases) != 2 {
		t.Errorf("project document = %+v", doc)
	}
	wheel := doc.Releases["1.0"][0]
	if wheel.Filename != "My_Pkg-1.0-py3-none-any.whl" || wheel.URL != s.FileURL(wheel.Filename) {
		t.Errorf("wheel = %+v", wheel)
	}
	_, data := get(t, s, "/files/"+wheel.Filename, "")
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != wheel.Digests["sha256"] {
		t.Error("sha256 does not match the file")
	}
	if names := registrytest.ZipNames(t, data); strings.Join(names, " ") != "My_Pkg-1.0.dist-info/METADATA My_Pkg-1.0.dist-info/WHEEL my_pkg/__init__.py My_Pkg-1.0.dist-info/RECORD" {
		t.Errorf("wheel entries = %v", names)
	}

	resp, body = get(t, s, "/simple/MY.PKG/", "application/vnd.pypi.simple.v1+json")
	if resp.Header.Get("Content-Type") != "application/vnd.pypi.simple.v1+json" || !strings.Contains(string(body), `"versions":["1.0","2.0b1"]`) || !strings.Contains(string(body), `"core-metadata"`) {
		t.Errorf("simple JSON = %s", body)
	}
	resp, body = get(t, s, "/simple/my-pkg/", "text/html")
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), `<a href="../../files/My_Pkg-1.0.tar.gz#sha256=`) {
		t.Errorf("simple HTML = %s", body)
	}
	if _, body := get(t, s, "/files/My_Pkg-1.0-py3-none-any.whl.metadata", ""); !strings.Contains(string(body), "Name: My_Pkg\nVersion: 1.0\n") {
		t.Errorf("PEP 658 metadata = %s", body)
	}

	s.Yank("my-pkg", "1.0", "")
	if _, body := get(t, s, "/pypi/my-pkg/json", ""); !strings.Contains(string(body), `"yanked":true`) {
		t.Errorf("yank not shown: %s", body)
	}
	s.DisableJSONAPI()
	if resp, _ := get(t, s, "/pypi/my-pkg/json", ""); resp.StatusCode != 404 {
		t.Errorf("JSON API disabled: %d", resp.StatusCode)
	}
	if n := len(s.Requests()); n != 7 {
		t.Errorf("%d requests recorded", n)
	}
}

func TestSitePackagesLayout(t *testing.T) {
	dir := SitePackages(t, t.TempDir(),
		Installed{Name: "a.b-c", Version: "1.0", Form: DistInfo, Files: map[string]string{"ab/__init__.py": ""}},
		Installed{Name: "d", Version: "2.0", Form: EggInfoDir, InstalledFiles: true, Files: map[string]string{"d.py": ""}},
		Installed{Name: "e", Version: "3.0", Form: EggInfoFile},
	)
	files := testutil.Must(t, registrytest.ReadTree, dir)
	for _, p := range []string{
		"a_b_c-1.0.dist-info/METADATA", "a_b_c-1.0.dist-info/RECORD", "a_b_c-1.0.dist-info/top_level.txt", "ab/__init__.py",
		"d-2.0-py3.11.egg-info/PKG-INFO", "d-2.0-py3.11.egg-info/installed-files.txt", "d-2.0-py3.11.egg-info/SOURCES.txt", "d.py",
		"e-3.0-py3.11.egg-info",
	} {
		if _, ok := files[p]; !ok {
			t.Errorf("%s missing", p)
		}
	}
	if m := files["a_b_c-1.0.dist-info/METADATA"]; !strings.HasPrefix(m, "Metadata-Version: 2.1\nName: a.b-c\nVersion: 1.0\n") {
		t.Errorf("METADATA = %q", m)
	}
}

func TestWithNameVersion(t *testing.T) {
	got := WithNameVersion("Metadata-Version: 1.2\nName: wrong\nDescription: a\n        b\n        \nVersion: 0\n\nbody\n", "right", "1.0")
	want := "Metadata-Version: 1.2\nName: right\nVersion: 1.0\nDescription: a\n        b\n        \n\nbody\n"
	if got != want {
		t.Errorf("WithNameVersion = %q\nwant %q", got, want)
	}
}
