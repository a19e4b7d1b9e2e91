package redact

import (
	"errors"
	"strings"
	"testing"
)

// secret is the password, token or query value in every case below; it must never come back.
const secret = "s3cret"

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://alice:s3cret@127.0.0.1:1/", "https://127.0.0.1:1/"},
		{"https://alice:s3cret%zz@127.0.0.1:1/", "https://127.0.0.1:1/"},
		{"http://127.0.0.1:8080/simple/?token=s3cret#s3cret", "http://127.0.0.1:8080/simple/"},
		{"sparse+https://u:s3cret@h/index/", "sparse+https://h/index/"},
		{"alice:s3cret@host:1", "host:1"},
		{"alice:s3cret@host:1/path", "host:1/path"},
		{"alice:s3cret%zz@host", "host"},
		{"//127.0.0.1:4873/:_authToken=s3cret", "//127.0.0.1:4873/"},
		{"//host/path/:_password=s3cret", "//host/path/"},
		{"https://alice:s3/cret@host/x", "https://host/x"},
		{"https://alice:s3?cret@host/x", "https://host/x"},
		{"https://alice:s3#cret@host/x", "https://host/x"},
		{"https://alice:s3@cret@host/x", "https://host/x"},
		{"https://alice:123/s3cret@host/", "https://host/"},
		{"git+https://host/o/r.git@v1.0", "git+https://host/o/r.git@v1.0"},
		{"https://alice:ab/@s3cret@host", "https://host"},
		{"https://[::1]:8080/x", "https://[::1]:8080/x"},
		{"https://host/example.com/m/@v/list", "https://host/example.com/m/@v/list"},
		{"https://host/@scope%2fname", "https://host/@scope%2fname"},
		{"https://host/identifiers?url=git@github.example:o/s3cret.git", "https://host/identifiers"},
		{"file:///tmp/proxy", "file:///tmp/proxy"},
		{"direct", "direct"},
		{"alice:s3cret", "<invalid host>"},
		{"https://alice:s3cret", "https://<invalid host>"},
		{"https://s3cret host/", "https://<invalid host>"},
		{"  https://u:s3cret@h/  ", "https://h/"},
		{"", ""},
	} {
		got := URL(tc.in)
		if got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, secret) || strings.Contains(got, "cret") {
			t.Errorf("URL(%q) = %q, which holds the secret", tc.in, got)
		}
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-e git+https://alice:s3cret@127.0.0.1:1/o/r.git#egg=r", "-e git+https://127.0.0.1:1/o/r.git#egg=r"},
		{"rand 0.8.5: git dependency git+https://u:s3cret@host/r?tag=0.8.5#53e5753", "rand 0.8.5: git dependency git+https://host/r#53e5753"},
		{"git+https://alice:123#s3cret@host/r", "git+https://alice:123"},
		{"mypkg @ https://alice:s3cret@host/x.whl", "mypkg @ https://host/x.whl"},
		{`"x": "git+https://s3cret@host/o/r.git"`, `"x": "git+https://host/o/r.git"`},
		{"git dependency (alice:s3cret@host/r),", "git dependency (host/r),"},
		{"pin at git@github.example:o/r.git", "pin at git@github.example:o/r.git"},
		{"left-pad@https://u:s3cret@host/left-pad-1.3.0.tgz: tarball", "left-pad@https://host/left-pad-1.3.0.tgz: tarball"},
		{"black @ git+https://host/psf/black.git@24.10.0", "black @ git+https://host/psf/black.git@24.10.0"},
		{"requests==2.32.3  --hash=sha256:abc", "requests==2.32.3  --hash=sha256:abc"},
	} {
		got := Text(tc.in)
		if got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, secret) {
			t.Errorf("Text(%q) = %q, which holds the secret", tc.in, got)
		}
	}
}

func TestParse(t *testing.T) {
	for _, in := range []string{
		"https://alice:s3cret%zz@127.0.0.1:1/",
		"https://alice:s3cret@127.0.0.1:1/%zz",
		"https://alice:s3/cret@host/",
		"https://alice:s3cret@ho st/",
		"https://alice:s3cret@host/\x7f",
		"https://alice:s3cret@host/\x01",
		"https://[s3cret/",
		":s3cret",
	} {
		u, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, u.Redacted())
			continue
		}
		if !errors.Is(err, ErrBadURL) {
			t.Errorf("Parse(%q): %v does not wrap ErrBadURL", in, err)
		}
		if msg := err.Error(); strings.Contains(msg, "s3") || strings.Contains(msg, "cret") {
			t.Errorf("Parse(%q): %q quotes the secret", in, msg)
		}
	}
	u, err := Parse("https://alice:s3cret@host:1/x")
	if err != nil || u.User.Username() != "alice" || u.Host != "host:1" {
		t.Errorf("Parse of a good URL = %v, %v", u, err)
	}
}

func FuzzURL(f *testing.F) {
	f.Add("https://alice:s3cret@127.0.0.1:1/", "s3cret")
	f.Add("alice:s3cret@host", "s3cret")
	f.Fuzz(func(t *testing.T, host, password string) {
		if len(password) < 4 || strings.ContainsAny(password, "/") {
			t.Skip()
		}
		for _, s := range []string{"https://alice:" + password + "@" + host + "/", "alice:" + password + "@" + host} {
			got := URL(s)
			if strings.Contains(got, password) && !strings.Contains(host, password) && !strings.Contains("https://<invalid host>/", password) {
				t.Errorf("URL(%q) = %q holds the password", s, got)
			}
		}
	})
}
