package crawl

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in   string
		want Spec
	}{
		{"go:github.com/spf13/cobra@v1.8.0", Spec{Ecosystem: docidx.Go, Name: "github.com/spf13/cobra", Query: "v1.8.0"}},
		{"golang:golang.org/x/sync", Spec{Ecosystem: docidx.Go, Name: "golang.org/x/sync"}},
		{"npm:express@^4", Spec{Ecosystem: docidx.NPM, Name: "express", Query: "^4"}},
		{"npm:@types/node@20.1.0", Spec{Ecosystem: docidx.NPM, Name: "@types/node", Query: "20.1.0"}},
		{"npm:@types/node", Spec{Ecosystem: docidx.NPM, Name: "@types/node"}},
		{"npm:zod@latest", Spec{Ecosystem: docidx.NPM, Name: "zod"}},
		{"pypi:requests==2.32.3", Spec{Ecosystem: docidx.PyPI, Name: "requests", Query: "2.32.3", Exact: true}},
		{"python:flask>=3,<4", Spec{Ecosystem: docidx.PyPI, Name: "flask", Query: ">=3,<4"}},
		{"crates:serde", Spec{Ecosystem: docidx.Cargo, Name: "serde"}},
		{"rust:serde@1.0.200", Spec{Ecosystem: docidx.Cargo, Name: "serde", Query: "1.0.200"}},
		{"pkg:cargo/serde@1.0.200", Spec{Ecosystem: docidx.Cargo, Name: "serde", Query: "1.0.200", Exact: true}},
		{"pkg:npm/%40types/node@20.1.0", Spec{Ecosystem: docidx.NPM, Name: "@types/node", Query: "20.1.0", Exact: true}},
		{"pkg:golang/github.com/google/uuid@v1.6.0?type=module", Spec{Ecosystem: docidx.Go, Name: "github.com/google/uuid", Query: "v1.6.0", Exact: true}},
		{"pkg:npm/zod", Spec{Ecosystem: docidx.NPM, Name: "zod"}},
		// Through the purl library: unencoded scopes, qualifiers and subpaths; Go keeps its case.
		{"pkg:npm/@types/node@20.1.0?arch=x64#index.d.ts", Spec{Ecosystem: docidx.NPM, Name: "@types/node", Query: "20.1.0", Exact: true}},
		{"pkg:golang/github.com/BurntSushi/toml@v1.4.0#internal", Spec{Ecosystem: docidx.Go, Name: "github.com/BurntSushi/toml", Query: "v1.4.0", Exact: true}},
		// A repository URL's credentials are not part of the package.
		{"swift:https://alice:s3cret@host.example/o/r.git@1.0.0", Spec{Ecosystem: docidx.Swift, Name: "https://host.example/o/r.git", Query: "1.0.0"}},
		{"swift:https://s3cret@host.example/o/r.git", Spec{Ecosystem: docidx.Swift, Name: "https://host.example/o/r.git"}},

		// pypi: PEP 503 names, extras dropped, == and === pin.
		{"pypi:Flask==3.1.3", Spec{Ecosystem: docidx.PyPI, Name: "flask", Query: "3.1.3", Exact: true}},
		{"pypi:PyYAML", Spec{Ecosystem: docidx.PyPI, Name: "pyyaml"}},
		{"pypi:zope.interface == 7.1.1", Spec{Ecosystem: docidx.PyPI, Name: "zope-interface", Query: "7.1.1", Exact: true}},
		{"pypi:requests[socks]==2.32.3", Spec{Ecosystem: docidx.PyPI, Name: "requests", Query: "2.32.3", Exact: true}},
		{"pypi:requests[socks]", Spec{Ecosystem: docidx.PyPI, Name: "requests"}},
		{"pypi:itsdangerous===2.2.0", Spec{Ecosystem: docidx.PyPI, Name: "itsdangerous", Query: "2.2.0", Exact: true}},
		{"pypi:django==4.2.*", Spec{Ecosystem: docidx.PyPI, Name: "django", Query: "==4.2.*"}},
		{"py:typing_extensions~=4.12", Spec{Ecosystem: docidx.PyPI, Name: "typing-extensions", Query: "~=4.12"}},
		{"pkg:pypi/Django_REST.framework@3.15.2", Spec{Ecosystem: docidx.PyPI, Name: "django-rest-framework", Query: "3.15.2", Exact: true}},

		// cargo
		{"crates:serde_json@1.0.138", Spec{Ecosystem: docidx.Cargo, Name: "serde_json", Query: "1.0.138"}},
		{"cargo:tokio", Spec{Ecosystem: docidx.Cargo, Name: "tokio"}},
		{"pkg:cargo/rand", Spec{Ecosystem: docidx.Cargo, Name: "rand"}},

		// swift: registry identities, repository URLs (with their own "@"), purls.
		{"swift:mona.LinkedList@1.1.0", Spec{Ecosystem: docidx.Swift, Name: "mona.LinkedList", Query: "1.1.0"}},
		{"swift:apple/swift-nio", Spec{Ecosystem: docidx.Swift, Name: "apple/swift-nio"}},
		{"swift:https://github.com/apple/swift-nio.git@2.65.0", Spec{Ecosystem: docidx.Swift, Name: "https://github.com/apple/swift-nio.git", Query: "2.65.0"}},
		{"swift:https://github.com/apple/swift-nio.git", Spec{Ecosystem: docidx.Swift, Name: "https://github.com/apple/swift-nio.git"}},
		{"swift:git@github.com:apple/swift-nio.git", Spec{Ecosystem: docidx.Swift, Name: "git@github.com:apple/swift-nio.git"}},
		{"swift:git@github.com:apple/swift-nio.git@2.65.0", Spec{Ecosystem: docidx.Swift, Name: "git@github.com:apple/swift-nio.git", Query: "2.65.0"}},
		{"swift:ssh://git@github.com/apple/swift-nio.git", Spec{Ecosystem: docidx.Swift, Name: "ssh://git@github.com/apple/swift-nio.git"}},
		{"swift:https://github.com/apple/swift-nio@latest", Spec{Ecosystem: docidx.Swift, Name: "https://github.com/apple/swift-nio"}},
		{"pkg:swift/github.com/apple/swift-nio@2.65.0", Spec{Ecosystem: docidx.Swift, Name: "https://github.com/apple/swift-nio", Query: "2.65.0", Exact: true}},
		{"pkg:swift/github.com/Alamofire/Alamofire", Spec{Ecosystem: docidx.Swift, Name: "https://github.com/Alamofire/Alamofire"}},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.in, err)
			continue
		}
		got.Origin = ""
		if got != tt.want {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{"", "express", "npm:", "nope:x", "npm:express@", "pkg:npm", "pkg:nope/x@1", "npm:a b",
		"pypi:requests==", "pypi:==1.0", "pypi:requests[socks", "pypi:-bad-==1", "swift:https://github.com/apple/swift-nio.git@",
		"pkg:npm/x@", "pkg:npm/x?a=1&a=2", "pkg:npm/x#a/../b", "pkg:npm/%zz"} {
		if _, err := ParseSpec(bad); !errors.Is(err, docidx.ErrBadSpec) {
			t.Errorf("ParseSpec(%q) err = %v, want ErrBadSpec", bad, err)
		}
	}
}

func TestParseLockfile(t *testing.T) {
	tests := []struct {
		file, as string
		want     []string
	}{
		{"go.mod", "go.mod", []string{
			"golang:github.com/Masterminds/semver/v3@v3.2.1",
			"golang:github.com/new/thing@v1.2.0",
			"golang:github.com/spf13/cobra@v1.8.0",
			"golang:github.com/spf13/pflag@v1.0.5",
			"golang:golang.org/x/sync@v0.7.0",
		}},
		{"package-lock.json", "package-lock.json", []string{
			"npm:@types/node@20.1.0",
			"npm:debug@2.6.9",
			"npm:debug@4.3.4",
			"npm:express@4.19.2",
			"npm:lodash@4.17.21",
			"npm:zod@3.23.8",
		}},
		{"package-lock-v1.json", "package-lock.json", []string{
			"npm:debug@2.6.9",
			"npm:debug@4.1.1",
			"npm:express@4.17.1",
			"npm:lodash@4.17.20",
		}},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(filepath.Join("testdata", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		specs, err := ParseLockfile(tt.as, data)
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		var got []string
		for _, s := range specs {
			if !s.Exact {
				t.Errorf("%s: %v not exact", tt.file, s)
			}
			got = append(got, s.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.file, got, tt.want)
		}
	}
	if _, err := ParseLockfile("Gemfile.lock", nil); !errors.Is(err, ErrUnknownLockfile) {
		t.Errorf("Gemfile.lock: err = %v, want ErrUnknownLockfile", err)
	}
	if _, err := ParseLockfile("package-lock.json", []byte("{")); err == nil {
		t.Error("truncated package-lock.json: no error")
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"go:github.com/spf13/cobra@v1.8.0", "npm:@types/node@20", "pypi:requests==2.32.3", "pkg:npm/%40a/b@1",
		"pypi:Flask[async]===3.1.3", "crates:serde@1.0.200", "swift:git@github.com:apple/swift-nio.git@2.65.0", "pkg:swift/github.com/apple/swift-nio@2.65.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseSpec(s)
		if err != nil {
			return
		}
		if spec.Name == "" || spec.Ecosystem == "" {
			t.Fatalf("ParseSpec(%q) = %+v with no error", s, spec)
		}
	})
}

func FuzzParseLockfile(f *testing.F) {
	for _, name := range []string{"go.mod", "package-lock.json", "package-lock-v1.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(name, data)
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		for _, as := range []string{"go.mod", "package-lock.json"} {
			specs, err := ParseLockfile(as, data)
			if err != nil {
				continue
			}
			for _, s := range specs {
				if s.Name == "" || s.Query == "" {
					t.Fatalf("%s: empty spec %+v", as, s)
				}
			}
		}
	})
}
