package npmtest

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/docidx/docidx/registries/registrytest"
)

func get(t *testing.T, s *Server, path string, header ...string) (int, []byte) {
	resp, body := registrytest.Get(t, s.URL+path, header...)
	return resp.StatusCode, body
}

func TestServer(t *testing.T) {
	s := NewServer(t, "")
	s.AddPackage("@s/p", "1.0.0", map[string]string{"README.md": "# p"})
	s.AddPackage("@s/p", "2.0.0-rc.1", nil)
	s.SetDistTag("@s/p", "next", "2.0.0-rc.1")

	for _, path := range []string{"@s%2fp", "@s%2Fp", "@s/p"} {
		code, body := get(t, s, path)
		if code != 200 {
			t.Fatalf("GET %s: %d", path, code)
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
		code, tgz := get(t, s, "@s/p/-/p-1.0.0.tgz")
		sum := sha1.Sum(tgz)
		if code != 200 || Integrity(tgz) != v.Dist.Integrity || hex.EncodeToString(sum[:]) != v.Dist.Shasum {
			t.Errorf("tarball %d does not match its dist", code)
		}
	}

	s.RequireToken("@s", "tok")
	if code, _ := get(t, s, "@s%2fp"); code != http.StatusUnauthorized {
		t.Errorf("without token: %d", code)
	}
	if code, _ := get(t, s, "@s%2fp", "Authorization", "Bearer tok"); code != 200 {
		t.Errorf("with token: %d", code)
	}
	s.Inject(registrytest.Fault{Path: "/@s%2fp", Status: http.StatusInternalServerError, Times: 1})
	if code, body := get(t, s, "@s%2fp", "Authorization", "Bearer tok"); code != 500 || !json.Valid(body) {
		t.Errorf("fault: %d %s, want 500 with an npm error object", code, body)
	}
	if code, _ := get(t, s, "missing"); code != 404 {
		t.Errorf("missing: %d", code)
	}
	if n := len(s.Requests()); n != 10 {
		t.Errorf("%d requests logged", n)
	}
}
