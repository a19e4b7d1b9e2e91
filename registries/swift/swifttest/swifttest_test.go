package swifttest

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

func get(t *testing.T, s *Server, path, accept string, header ...string) (*http.Response, []byte) {
	return s.Get(t, path, append([]string{"Accept", accept}, header...)...)
}

const jsonType = "application/vnd.swift.registry.v1+json"

func TestServer(t *testing.T) {
	s := NewServer(t, "")
	files := map[string]string{"Package.swift": "// swift-tools-version:5.9", "Package@swift-5.8.swift": "// 5.8", "Sources/L/L.swift": "public struct L {}"}
	s.Publish(Release{ID: "mona.LinkedList", Version: "1.0.0", Files: files, Metadata: map[string]any{"repositoryURLs": []string{"https://github.com/mona/LinkedList"}}})
	s.Publish(Release{ID: "mona.LinkedList", Version: "1.1.0", Files: files, Problem: "yanked"})
	s.Publish(Release{ID: "mona.LinkedList", Version: "2.0.0-beta", Files: files})

	resp, body := get(t, s, "/MONA/linkedlist", jsonType)
	var list struct {
		Releases map[string]struct {
			URL     string
			Problem *struct{ Status int }
		}
	}
	if err := json.Unmarshal(body, &list); err != nil || resp.StatusCode != 200 {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	if len(list.Releases) != 3 || list.Releases["1.1.0"].Problem == nil || list.Releases["1.0.0"].URL != s.URL+"/mona/LinkedList/1.0.0" {
		t.Errorf("releases %+v", list.Releases)
	}
	if links := strings.Join(resp.Header.Values("Link"), ", "); !strings.Contains(links, `/mona/LinkedList/1.0.0>; rel="latest-version"`) || !strings.Contains(links, `<https://github.com/mona/LinkedList>; rel="canonical"`) {
		t.Errorf("Link: %s", links)
	}
	if resp.Header.Get("Content-Version") != "1" {
		t.Error("no Content-Version")
	}

	_, body = get(t, s, "/mona/LinkedList/1.0.0", jsonType)
	var meta struct {
		Resources []struct{ Name, Checksum string }
	}
	json.Unmarshal(body, &meta)
	resp, archive := get(t, s, "/mona/LinkedList/1.0.0.zip", "application/vnd.swift.registry.v1+zip")
	if len(meta.Resources) != 1 || meta.Resources[0].Checksum != Checksum(archive) || resp.Header.Get("Digest") == "" {
		t.Errorf("checksum %+v does not match the archive", meta.Resources)
	}
	if names := registrytest.ZipNames(t, archive); strings.Join(names, " ") != "LinkedList/ LinkedList/Package.swift LinkedList/Package@swift-5.8.swift LinkedList/Sources/L/L.swift" {
		t.Errorf("archive entries %v", names)
	}
	// The withdrawn 1.1.0: its metadata is a 410 problem, it has no archive, its manifest is served.
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/mona/LinkedList/1.1.0", 410, `"detail":"yanked"`},
		{"/mona/LinkedList/1.1.0.zip", 404, `"detail":"release not found"`},
		{"/mona/LinkedList/1.1.0/Package.swift", 200, "// swift-tools-version:5.9"},
		{"/mona/LinkedList/1.2.0", 404, `"detail":"release not found"`},
		{"/mona/Nope/1.0.0.zip", 404, `"detail":"release not found"`},
	} {
		if resp, body := get(t, s, tc.path, jsonType); resp.StatusCode != tc.status || !strings.Contains(string(body), tc.body) {
			t.Errorf("%s: %d %s, want %d %s", tc.path, resp.StatusCode, body, tc.status, tc.body)
		}
	}

	if resp, body := get(t, s, "/mona/LinkedList/1.0.0/Package.swift", "application/vnd.swift.registry.v1+swift"); string(body) != "// swift-tools-version:5.9" || !strings.Contains(resp.Header.Get("Link"), "Package@swift-5.8.swift") {
		t.Errorf("manifest %q, Link %q", body, resp.Header.Get("Link"))
	}
	if _, body := get(t, s, "/mona/LinkedList/1.0.0/Package.swift?swift-version=5.8", "application/vnd.swift.registry.v1+swift"); string(body) != "// 5.8" {
		t.Errorf("variant %q", body)
	}
	if resp, _ := get(t, s, "/mona/LinkedList/1.0.0/Package.swift?swift-version=4", "application/vnd.swift.registry.v1+swift"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("missing variant: %d", resp.StatusCode)
	}
	if _, body := get(t, s, "/identifiers?url=https://github.com/Mona/LinkedList.git", jsonType); !strings.Contains(string(body), `"mona.LinkedList"`) {
		t.Errorf("identifiers %s", body)
	}

	for path, want := range map[string]int{
		"/mona/LinkedList/1.1.0":     http.StatusGone,
		"/mona/LinkedList/9.9.9":     http.StatusNotFound,
		"/mona/Other":                http.StatusNotFound,
		"/identifiers?url=https://x": http.StatusNotFound,
		"/identifiers":               http.StatusBadRequest,
	} {
		if resp, _ := get(t, s, path, jsonType); resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	if resp, _ := get(t, s, "/mona/LinkedList", ""); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("no Accept: %d", resp.StatusCode)
	}
	if resp, _ := get(t, s, "/mona/LinkedList", "application/vnd.swift.registry.v2+json"); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("v2: %d", resp.StatusCode)
	}

	s.SetPageSize(2)
	resp, body = get(t, s, "/mona/LinkedList", jsonType)
	if !strings.Contains(strings.Join(resp.Header.Values("Link"), ","), `?page=2>; rel="next"`) || strings.Count(string(body), `"url"`) != 2 {
		t.Errorf("page 1: %s %v", body, resp.Header.Values("Link"))
	}

	s.Inject(registrytest.Fault{Path: ".zip", Status: 429, RetryAfter: "3", Times: 1})
	if resp, _ := get(t, s, "/mona/LinkedList/1.0.0.zip", jsonType); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Errorf("fault: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := get(t, s, "/mona/LinkedList/1.0.0.zip", jsonType); resp.StatusCode != 200 {
		t.Errorf("fault did not expire: %d", resp.StatusCode)
	}
	s.TamperChecksum("MONA.linkedlist", "1.0.0")
	_, body = get(t, s, "/mona/LinkedList/1.0.0", jsonType)
	if strings.Contains(string(body), Checksum(archive)) {
		t.Error("TamperChecksum had no effect")
	}
	s.RequireAuth("Bearer x")
	if resp, _ := get(t, s, "/mona/LinkedList", jsonType); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("auth: %d", resp.StatusCode)
	}
	if resp, _ := get(t, s, "/mona/LinkedList", jsonType, "Authorization", "Bearer x"); resp.StatusCode != 200 {
		t.Errorf("with auth: %d", resp.StatusCode)
	}
	if n := len(s.Requests()); n != 25 {
		t.Errorf("%d requests logged", n)
	}
}

func TestNewServerFromTree(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "mona", "LinkedList", "1.0.0", "Sources", "L"), 0o755)
	testutil.WriteFile(t, filepath.Join(root, "mona", "LinkedList", "1.0.0", "Package.swift"), "x")
	testutil.WriteFile(t, filepath.Join(root, "mona", "LinkedList", "1.0.0.json"), `{"description": "A list"}`)
	s := NewServer(t, root)
	if _, body := get(t, s, "/mona/LinkedList/1.0.0", jsonType); !strings.Contains(string(body), `"description":"A list"`) {
		t.Errorf("metadata %s", body)
	}
}

func TestLayout(t *testing.T) {
	project := t.TempDir()
	build := WriteBuild(t, project,
		Dependency{Location: "https://github.com/apple/swift-nio.git", Version: "2.65.0", Files: map[string]string{"Package.swift": "x"}},
		Dependency{Location: "mona.LinkedList", Registry: true, Version: "1.1.0"},
		Dependency{Location: "https://example.test/x/Stray", Unlisted: true, Branch: "main"},
	)
	testutil.Exist(t, build,
		"checkouts/swift-nio/Package.swift", "checkouts/swift-nio/.git/HEAD", "checkouts/Stray/.git/HEAD",
		"registry/downloads/mona/linkedlist/1.1.0", "workspace-state.json", "../Package.resolved",
	)
	b, _ := os.ReadFile(filepath.Join(build, "workspace-state.json"))
	var ws struct {
		Version int
		Object  struct {
			Dependencies []struct {
				PackageRef struct{ Identity, Kind string }
				State      struct{ Name string }
				Subpath    string
			}
		}
	}
	if err := json.Unmarshal(b, &ws); err != nil || ws.Version != 6 || len(ws.Object.Dependencies) != 2 {
		t.Fatalf("workspace-state %s", b)
	}
	if d := ws.Object.Dependencies[0]; d.PackageRef.Identity != "swift-nio" || d.State.Name != "sourceControlCheckout" || d.Subpath != "swift-nio" {
		t.Errorf("checkout entry %+v", d)
	}
	if d := ws.Object.Dependencies[1]; d.PackageRef.Identity != "mona.linkedlist" || d.PackageRef.Kind != "registry" || d.Subpath != "mona/linkedlist/1.1.0" {
		t.Errorf("registry entry %+v", d)
	}
}
