package registrytest

import (
	"archive/tar"
	"archive/zip"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, s *Server, path string) (int, http.Header, string, error) {
	t.Helper()
	resp, err := s.Client().Get(s.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body), err
}

func TestServerFaults(t *testing.T) {
	s := NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "body of "+r.URL.Path)
	}), nil)
	if code, _, body, _ := get(t, s, "/a/list"); code != 200 || body != "body of /a/list" {
		t.Fatalf("no fault: %d %q", code, body)
	}

	s.Inject(Fault{Path: "/list", Status: 429, RetryAfter: "3", Times: 2})
	for i, want := range []int{429, 429, 200} {
		code, h, _, _ := get(t, s, "/a/list")
		if code != want || want == 429 && h.Get("Retry-After") != "3" {
			t.Errorf("request %d: %d Retry-After %q, want %d", i, code, h.Get("Retry-After"), want)
		}
	}

	s.Inject(Fault{Path: ".info", Body: []byte("{}")})
	if _, h, body, _ := get(t, s, "/v1.info"); body != "{}" || h.Get("Content-Length") != "2" {
		t.Errorf("replaced body = %q, Content-Length %q", body, h.Get("Content-Length"))
	}
	if code, _, body, _ := get(t, s, "/missing?x.info"); code != 404 || body == "{}" {
		t.Errorf("a fault's Body replaced a 404: %d %q", code, body)
	}

	s.Inject(Fault{Path: ".zip", Truncate: true, Times: 1})
	resp, err := s.Client().Get(s.URL + "/m.zip")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err == nil || resp.ContentLength != int64(len("body of /m.zip")) || n != resp.ContentLength/2 {
		t.Errorf("truncated: read %d of %d bytes, err %v; want half and an error", n, resp.ContentLength, err)
	}

	picked := 0
	s.Inject(Fault{Match: func(target string) bool { picked++; return strings.HasSuffix(target, "?q=1") }, Status: 503})
	if code, _, _, _ := get(t, s, "/x?q=1"); code != 503 {
		t.Errorf("Match fault: %d", code)
	}
	if code, _, _, _ := get(t, s, "/x?q=2"); code != 200 || picked != 2 {
		t.Errorf("Match fault on another query: %d, Match called %d times", code, picked)
	}

	s.ClearFaults()
	s.Inject(Fault{Delay: time.Minute})
	ctxReq, _ := http.NewRequest(http.MethodGet, s.URL+"/slow", nil)
	c := s.Client()
	c.Timeout = 50 * time.Millisecond
	if _, err := c.Do(ctxReq); err == nil {
		t.Error("a delayed reply arrived before the client's timeout")
	}
	s.ClearFaults()

	want := []string{"/a/list", "/a/list", "/a/list", "/a/list", "/v1.info", "/missing?x.info", "/m.zip", "/x?q=1", "/x?q=2", "/slow"}
	if got := s.Targets(); !slices.Equal(got, want) {
		t.Errorf("Targets = %q\nwant      %q", got, want)
	}
}

func TestServerProblem(t *testing.T) {
	s := NewServer(t, http.NotFoundHandler(), func(w http.ResponseWriter, status int, detail string) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(status)
		io.WriteString(w, `{"detail":"`+detail+`"}`)
	})
	s.Inject(Fault{Status: http.StatusGone})
	code, h, body, _ := get(t, s, "/x")
	if code != http.StatusGone || h.Get("Content-Type") != "application/problem+json" || !strings.Contains(body, "Gone") {
		t.Errorf("problem reply: %d %q %q", code, h.Get("Content-Type"), body)
	}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/x?y=1", nil)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer t")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := s.Requests()[1]; got != (Request{Method: "GET", Path: "/x", Query: "y=1", Accept: "application/json", Authorization: "Bearer t"}) {
		t.Errorf("logged %+v", got)
	}
	if a, b, none := s.Authorized("Bearer t"), s.Authorized("Bearer"), s.Authorized(""); a != 1 || b != 0 || none != 1 {
		t.Errorf("Authorized: %d with the token, %d with a prefix of it, %d with none; want 1, 0, 1", a, b, none)
	}
}

func TestServerRequire(t *testing.T) {
	s := NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}), nil)
	// check gets path with the Authorization header authorization ("" for none) and wants the
	// reply's status and WWW-Authenticate header.
	check := func(path, authorization string, status int, challenge string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		resp, err := s.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != status || got != challenge {
			t.Errorf("GET %s as %q = %d %q, want %d %q", path, authorization, resp.StatusCode, got, status, challenge)
		}
	}
	if s.AuthRequired() {
		t.Error("AuthRequired before Require")
	}
	check("/x", "", 200, "")
	s.Require(Auth{Authorization: "Bearer all", Challenge: "Bearer"})
	s.Require(Auth{Prefix: "/@acme/", Authorization: "Bearer old", Challenge: "Bearer"})
	s.Require(Auth{Prefix: "/@acme/", Authorization: "Bearer acme", Challenge: `Basic realm="r"`})
	check("/x", "", 401, "Bearer")
	check("/x", "Bearer all", 200, "")
	check("/@acme/tools", "Bearer all", 401, `Basic realm="r"`) // the longest prefix decides
	check("/@acme%2ftools", "Bearer acme", 200, "")             // the path is matched unescaped
	check("/@acme/tools", "Bearer old", 401, `Basic realm="r"`) // replaced by the later Require
	if !s.AuthRequired() {
		t.Error("AuthRequired after Require = false")
	}
}

func TestTar(t *testing.T) {
	mtime := time.Date(2006, 7, 24, 1, 21, 28, 0, time.UTC)
	entries := append(Files("pkg", map[string]string{"b.txt": "bee", "a/x.go": "package a"}),
		Entry{Name: "pkg/dir", Mode: fs.ModeDir},
		Entry{Name: "pkg/link", Mode: fs.ModeSymlink, Link: "../../etc/passwd"},
		Entry{Name: "pkg/hard", Typeflag: tar.TypeLink, Link: "pkg/b.txt"},
		Entry{Name: "pkg/huge", Body: "x", Size: 1000},
		Entry{Name: "pkg/exec", Body: "#!", Mode: 0o755})
	data := Tar{ModTime: mtime, Format: tar.FormatGNU}.Build(entries)
	var got []string
	if err := eachTar(data, func(h *tar.Header, body []byte) {
		if !h.ModTime.Equal(mtime) || h.Format != tar.FormatGNU {
			t.Errorf("%s: mtime %v format %v", h.Name, h.ModTime, h.Format)
		}
		got = append(got, h.Name+" "+string(h.Typeflag)+" "+h.Linkname+" "+fs.FileMode(h.Mode).String()+" "+string(body[:min(len(body), 9)])+" "+strconv.Itoa(len(body)))
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"pkg/a/x.go 0  -rw-r--r-- package a 9",
		"pkg/b.txt 0  -rw-r--r-- bee 3",
		"pkg/dir 5  -rwxr-xr-x  0",
		"pkg/link 2 ../../etc/passwd -rwxrwxrwx  0",
		"pkg/hard 1 pkg/b.txt -rw-r--r--  0",
		"pkg/huge 0  -rw-r--r-- x\x00\x00\x00\x00\x00\x00\x00\x00 1000",
		"pkg/exec 0  -rwxr-xr-x #! 2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%q\nwant\n%q", got, want)
	}
}

func TestZip(t *testing.T) {
	mtime := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	entries := append([]Entry{{Name: "pkg/", Mode: fs.ModeDir | 0o755}}, Files("pkg", map[string]string{"Package.swift": "// swift"})...)
	entries = append(entries, Entry{Name: "pkg/link", Mode: fs.ModeSymlink | 0o777, Link: "/etc/hosts"}, Entry{Name: "big", Size: 100})
	data := Zip{Modified: mtime}.Build(entries)
	var got []string
	if err := eachZip(data, func(f *zip.File, body []byte) {
		if !f.Modified.Equal(mtime) {
			t.Errorf("%s: modified %v", f.Name, f.Modified)
		}
		got = append(got, f.Name+" "+f.Mode().String()+" "+strings.TrimRight(string(body), "\x00")+" "+strconv.Itoa(len(body)))
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"pkg/ drwxr-xr-x  0", "pkg/Package.swift -rw-r--r-- // swift 8", "pkg/link Lrwxrwxrwx /etc/hosts 10", "big -rw-r--r--  100"}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%q\nwant\n%q", got, want)
	}
}

// fatalTB is a testing.TB whose Fatal records the failure and ends the calling goroutine.
type fatalTB struct {
	testing.TB
	failed bool
}

func (f *fatalTB) Helper()      {}
func (f *fatalTB) Fatal(...any) { f.failed = true; runtime.Goexit() }

// fails reports whether f fails the testing.TB it is given.
func fails(t *testing.T, f func(tb testing.TB)) bool {
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(tb)
	}()
	<-done
	return tb.failed
}

func TestArchiveNames(t *testing.T) {
	entries := append(Files("pkg", map[string]string{"b.txt": "bee", "a/x.go": "package a"}), Entry{Name: "pkg/dir", Mode: fs.ModeDir})
	want := []string{"pkg/a/x.go", "pkg/b.txt", "pkg/dir"}
	tgz := Tar{}.Build(entries)
	if got := TarNames(t, tgz); !slices.Equal(got, want) {
		t.Errorf("TarNames = %q, want %q", got, want)
	}
	if got := ZipNames(t, Zip{}.Build(entries)); !slices.Equal(got, want) {
		t.Errorf("ZipNames = %q, want %q", got, want)
	}
	for name, f := range map[string]func(tb testing.TB){
		"TarNames of a zip":     func(tb testing.TB) { TarNames(tb, Zip{}.Build(entries)) },
		"TarNames of a cut tar": func(tb testing.TB) { TarNames(tb, tgz[:len(tgz)-20]) },
		"ZipNames of a tar":     func(tb testing.TB) { ZipNames(tb, tgz) },
	} {
		if !fails(t, f) {
			t.Errorf("%s did not fail", name)
		}
	}
}

func TestRecordFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "index"), 0o755)
	os.WriteFile(filepath.Join(dir, "index", "config.json"), []byte(`{"dl":"https://`+RecordedHost+`/dl"}`), 0o644)
	s := NewServer(t, http.NotFoundHandler(), TextProblem)
	s.RecordFiles(t, dir, map[string]RecordedFile{"/index/config.json": {"index/config.json", "application/json"}})
	code, h, body, _ := get(t, s, "/index/config.json")
	if code != 200 || h.Get("Content-Type") != "application/json" || body != `{"dl":"`+s.URL+`/dl"}` {
		t.Errorf("recorded reply: %d %q %s", code, h.Get("Content-Type"), body)
	}
	if !fails(t, func(tb testing.TB) {
		s.RecordFiles(tb, dir, map[string]RecordedFile{"/x": {"missing.json", "application/json"}})
	}) {
		t.Error("RecordFiles of a missing file did not fail")
	}
}

func TestReadTree(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src", "a"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "a", "x.rs"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "README"), []byte("r"), 0o644)
	os.Symlink("README", filepath.Join(dir, "link"))
	files, err := ReadTree(dir)
	if err != nil || len(files) != 2 || files["src/a/x.rs"] != "x" || files["README"] != "r" {
		t.Errorf("ReadTree = %v, %v; want two files, the link left out", files, err)
	}
	if _, err := ReadTree(filepath.Join(dir, "nope")); err == nil {
		t.Error("ReadTree of a missing directory: no error")
	}
}

func TestLessVersion(t *testing.T) {
	want := []string{"0.9.0", "1.0a1", "1.0.0-alpha", "1.0.0-beta.1", "1.0rc1", "1.0", "1.0.0", "1.0.post1", "1.0.1", "1.2.0", "1.10.0", "2.0.0-rc.1", "2.0.0"}
	got := slices.Clone(want)
	for i := range got { // reverse, then sort back
		j := len(got) - 1 - i
		if i < j {
			got[i], got[j] = got[j], got[i]
		}
	}
	sort.SliceStable(got, func(i, j int) bool { return LessVersion(got[i], got[j]) })
	if !slices.Equal(got, want) {
		t.Errorf("sorted = %q\nwant     %q", got, want)
	}
}

func TestReadVersions(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"widget/1.0.0/a", "widget/1.1.0/b", "@acme/tools/0.1.0/c", "@acme/tools/0.2.0/sub/d"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(p), 0o644)
	}
	os.WriteFile(filepath.Join(root, "widget", "packument.json"), []byte("{}"), 0o644)
	versions, err := ReadVersions(root, func(dir string) bool { return strings.HasPrefix(dir, "@") })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range versions {
		got = append(got, v.Name+"@"+v.Version+" "+strconv.Itoa(len(v.Files))+" "+filepath.Base(v.Dir))
	}
	want := []string{"@acme/tools@0.1.0 1 0.1.0", "@acme/tools@0.2.0 1 0.2.0", "widget@1.0.0 1 1.0.0", "widget@1.1.0 1 1.1.0"}
	if !slices.Equal(got, want) || versions[3].Files["sub/d"] != "" || versions[1].Files["sub/d"] != "@acme/tools/0.2.0/sub/d" {
		t.Errorf("ReadVersions = %q\nwant %q", got, want)
	}
	if _, err := ReadVersions(filepath.Join(root, "nope"), nil); err == nil {
		t.Error("ReadVersions of a missing root: no error")
	}
}

func TestTampered(t *testing.T) {
	var tm Tampered
	hex := func(b []byte) string { return string(b) }
	if got := tm.Digest("a@1", []byte("data"), hex); got != "data" {
		t.Errorf("Digest before Add = %q", got)
	}
	tm.Add("a@1")
	if got := tm.Digest("a@1", []byte("data"), hex); got == "data" {
		t.Error("Digest after Add left the digest")
	}
	if got := tm.Digest("a@2", []byte("data"), hex); got != "data" {
		t.Errorf("Digest of another key = %q", got)
	}
}
