package npmtest

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/docidx/docidx/registries/registrytest"
)

func TestServer(t *testing.T) {
	s := NewServer(t, "")
	s.AddPackage("@s/p", "1.0.0", map[string]string{"README.md": "# p"})
	s.AddPackage("@s/p", "2.0.0-rc.1", nil)
	s.SetDistTag("@s/p", "next", "2.0.0-rc.1")

	for _, path := range []string{"@s%2fp", "@s%2Fp", "@s/p"} {
		resp, body := s.Get(t, "/"+path)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		var doc struct {
			DistTags map[string]string `json:"dist-tags"`
			Versions map[string]struct {
				Name string `json:"name"`
				Dist struct{ Tarball, Integrity, Shasum string }
			} `json:"versions"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.DistTags["latest"] != "1.0.0" || doc.DistTags["next"] != "2.0.0-rc.1" {
			t.Errorf("dist-tags %v", doc.DistTags)
		}
		v := doc.Versions["1.0.0"]
		if v.Name != "@s/p" || v.Dist.Tarball != s.URL+"@s/p/-/p-1.0.0.tgz" {
			t.Errorf("version 1.0.0 = %+v", v)
		}
		resp, tgz := s.Get(t, "/@s/p/-/p-1.0.0.tgz")
		sum := sha1.Sum(tgz)
		if resp.StatusCode != 200 || Integrity(tgz) != v.Dist.Integrity || hex.EncodeToString(sum[:]) != v.Dist.Shasum {
			t.Errorf("tarball %d does not match its dist", resp.StatusCode)
		}
	}

	s.RequireToken("@s", "tok")
	if resp, _ := s.Get(t, "/@s%2fp"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without token: %d", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/@s%2fp", "Authorization", "Bearer tok"); resp.StatusCode != 200 {
		t.Errorf("with token: %d", resp.StatusCode)
	}
	s.Inject(registrytest.Fault{Path: "/@s%2fp", Status: http.StatusInternalServerError, Times: 1})
	if resp, body := s.Get(t, "/@s%2fp", "Authorization", "Bearer tok"); resp.StatusCode != 500 || !json.Valid(body) {
		t.Errorf("fault: %d %s, want 500 with an npm error object", resp.StatusCode, body)
	}
	if resp, _ := s.Get(t, "/missing"); resp.StatusCode != 404 {
		t.Errorf("missing: %d", resp.StatusCode)
	}
	if n := len(s.Requests()); n != 10 {
		t.Errorf("%d requests logged", n)
	}
}
