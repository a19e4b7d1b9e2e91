package cargotest

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

func TestServer(t *testing.T) {
	s := NewServer(t, "")
	s.AddCrate(Crate{Name: "Demo", Version: "1.0.0", Files: map[string]string{"Cargo.toml": "[package]\nname = \"Demo\"\n", "src/lib.rs": "pub fn f() {}\n"}})
	s.AddCrate(Crate{Name: "Demo", Version: "1.1.0-rc.1", Files: map[string]string{"Cargo.toml": "[package]\n"}})
	s.Yank("demo", "1.0.0", true)

	resp, body := s.Get(t, "/index/config.json")
	var cfg map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(body, &cfg) != nil || cfg["dl"] != s.URL+"/api/v1/crates" || cfg["auth-required"] != nil {
		t.Fatalf("config.json %d %s", resp.StatusCode, body)
	}
	resp, body = s.Get(t, "/index/de/mo/demo")
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if resp.StatusCode != 200 || len(lines) != 2 {
		t.Fatalf("index file %d %s", resp.StatusCode, body)
	}
	var e struct {
		Name, Vers, Cksum, Pubtime string
		Yanked                     bool
	}
	if err := json.Unmarshal([]byte(lines[0]), &e); err != nil || e.Name != "Demo" || e.Vers != "1.0.0" || !e.Yanked || e.Pubtime != "2024-03-01T12:00:00Z" {
		t.Errorf("entry %+v %v", e, err)
	}
	resp, crate := s.Get(t, "/api/v1/crates/Demo/1.0.0/download")
	if resp.StatusCode != 200 || Checksum(crate) != e.Cksum {
		t.Fatalf("download %d, checksum %s vs %s", resp.StatusCode, Checksum(crate), e.Cksum)
	}
	if names := registrytest.TarNames(t, crate); strings.Join(names, " ") != "Demo-1.0.0/Cargo.toml Demo-1.0.0/src/lib.rs" {
		t.Errorf("archive entries %q", names)
	}
	if resp, _ := s.Get(t, "/index/3/d/demo"); resp.StatusCode != 404 {
		t.Errorf("wrong index path: %d", resp.StatusCode)
	}

	s.SetDownload(s.URL + "/dl/{lowerprefix}/{crate}-{version}.crate?c={sha256-checksum}")
	if u := s.DownloadURL("Demo", "1.0.0"); u != s.URL+"/dl/de/mo/Demo-1.0.0.crate?c="+e.Cksum {
		t.Errorf("DownloadURL = %s", u)
	}
	if resp, _ := s.Get(t, strings.TrimPrefix(s.DownloadURL("Demo", "1.0.0"), s.URL)); resp.StatusCode != 200 {
		t.Errorf("templated download: %d", resp.StatusCode)
	}

	s.TamperChecksum("demo", "1.0.0")
	_, body = s.Get(t, "/index/de/mo/demo")
	if strings.Contains(string(body), e.Cksum) {
		t.Error("TamperChecksum left the checksum")
	}
	s.Inject(registrytest.Fault{Path: "/index/config.json", Status: http.StatusInternalServerError, Times: 1})
	if resp, body := s.Get(t, "/index/config.json"); resp.StatusCode != 500 || !strings.Contains(string(body), `"errors"`) {
		t.Errorf("config fault: %d %s, want 500 with a registry error object", resp.StatusCode, body)
	}

	s.RequireToken("tok")
	if resp, _ := s.Get(t, "/index/config.json"); resp.StatusCode != 401 {
		t.Errorf("without token: %d", resp.StatusCode)
	}
	resp, body = s.Get(t, "/index/config.json", "Authorization", "tok")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"auth-required":true`) {
		t.Errorf("with token: %d %s", resp.StatusCode, body)
	}
	if n := len(s.Requests()); n != 9 {
		t.Errorf("%d requests logged", n)
	}
}

func TestIndexPath(t *testing.T) {
	testutil.Mapping(t, "IndexPath", IndexPath, map[string]string{"a": "1/a", "ab": "2/ab", "Abc": "3/a/abc", "Serde": "se/rd/serde"})
}

func TestCargoHome(t *testing.T) {
	home := CargoHomeFromDir(t, filepath.Join("..", "testdata", "crates"))
	testutil.Exist(t, home,
		".package-cache",
		"registry/index/"+IndexDir+"/config.json",
		"registry/cache/"+IndexDir+"/ferris-json-1.1.0.crate",
		"registry/src/"+IndexDir+"/ferris-json-1.1.0/src/value/number.rs",
		"registry/src/"+IndexDir+"/ferris-json-1.1.0/.cargo-ok",
		"registry/src/"+IndexDir+"/Quux-2.0.0/Cargo.toml",
	)
	crates, err := LoadCrates(filepath.Join("..", "testdata", "crates"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range crates {
		got = append(got, c.Name+"@"+c.Version)
	}
	want := "Quux@2.0.0 ferris-json@0.9.0 ferris-json@1.0.0 ferris-json@1.1.0 ferris-json@1.2.0 ferris-json@2.0.0-alpha.1 tz@0.1.0"
	if strings.Join(got, " ") != want {
		t.Errorf("LoadCrates = %q", got)
	}
}
