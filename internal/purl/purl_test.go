package purl

import (
	"testing"

	"github.com/docidx/docidx"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		ref  docidx.Ref
		want string
	}{
		{docidx.Ref{Ecosystem: docidx.NPM, Name: "@types/node", Version: "20.1.0"}, "pkg:npm/%40types/node@20.1.0"},
		{docidx.Ref{Ecosystem: docidx.Go, Name: "github.com/spf13/cobra", Version: "v1.8.0"}, "pkg:golang/github.com/spf13/cobra@v1.8.0"},
		{docidx.Ref{Ecosystem: docidx.Go, Name: "example.com/m", Version: "v2.0.0+incompatible"}, "pkg:golang/example.com/m@v2.0.0%2Bincompatible"},
		{docidx.Ref{Ecosystem: docidx.PyPI, Name: "requests"}, "pkg:pypi/requests"},
		// Case is kept: Go module paths are case-sensitive.
		{docidx.Ref{Ecosystem: docidx.Go, Name: "github.com/BurntSushi/toml", Version: "v1.4.0"}, "pkg:golang/github.com/BurntSushi/toml@v1.4.0"},
		{docidx.Ref{Ecosystem: docidx.PyPI, Name: "torch", Version: "2.5.1+cpu"}, "pkg:pypi/torch@2.5.1%2Bcpu"},
		{docidx.Ref{Ecosystem: docidx.Cargo, Name: "serde_json", Version: "1.0.138"}, "pkg:cargo/serde_json@1.0.138"},
		// Swift: a repository URL is the swift type's host/owner namespace; identities stay as they are.
		{docidx.Ref{Ecosystem: docidx.Swift, Name: "https://github.com/apple/swift-nio", Version: "2.65.0"}, "pkg:swift/github.com/apple/swift-nio@2.65.0"},
		{docidx.Ref{Ecosystem: docidx.Swift, Name: "mona.LinkedList", Version: "1.1.0"}, "pkg:swift/mona.LinkedList@1.1.0"},
		{docidx.Ref{Ecosystem: docidx.Swift, Name: "linkedlist", Version: "1.1.0"}, "pkg:swift/linkedlist@1.1.0"},
		// An ssh location keeps its user: it is no https URL.
		{docidx.Ref{Ecosystem: docidx.Swift, Name: "git@github.com:apple/swift-nio.git"}, "pkg:swift/git%40github.com:apple/swift-nio.git"},
	}
	for _, tt := range tests {
		if got := Format(tt.ref); got != tt.want {
			t.Errorf("Format(%v) = %q, want %q", tt.ref, got, tt.want)
		}
		back, err := Parse(tt.want)
		if err != nil || back != tt.ref {
			t.Errorf("Parse(%q) = %v, %v; want %v (Format's inverse)", tt.want, back, err, tt.ref)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want docidx.Ref
	}{
		{"pkg:cargo/serde@1.0.200", docidx.Ref{Ecosystem: docidx.Cargo, Name: "serde", Version: "1.0.200"}},
		{"pkg:npm/zod", docidx.Ref{Ecosystem: docidx.NPM, Name: "zod"}},
		// An npm scope percent-encoded or not.
		{"pkg:npm/%40angular/core@17.3.0", docidx.Ref{Ecosystem: docidx.NPM, Name: "@angular/core", Version: "17.3.0"}},
		{"pkg:npm/@angular/core@17.3.0", docidx.Ref{Ecosystem: docidx.NPM, Name: "@angular/core", Version: "17.3.0"}},
		// Qualifiers and subpath are read and left aside; the scheme and type are case-insensitive.
		{"pkg:golang/github.com/google/uuid@v1.6.0?type=module", docidx.Ref{Ecosystem: docidx.Go, Name: "github.com/google/uuid", Version: "v1.6.0"}},
		{"pkg:npm/%40types/node@20.1.0?repository_url=https://r.example/&arch=x64#lib/index.d.ts", docidx.Ref{Ecosystem: docidx.NPM, Name: "@types/node", Version: "20.1.0"}},
		{"PKG:NPM/left-pad@1.3.0", docidx.Ref{Ecosystem: docidx.NPM, Name: "left-pad", Version: "1.3.0"}},
		{"pkg://cargo/rand", docidx.Ref{Ecosystem: docidx.Cargo, Name: "rand"}},
		// Go keeps its case (the library would lowercase it); subpaths name a package in the module.
		{"pkg:golang/github.com/BurntSushi/toml@v1.4.0#internal", docidx.Ref{Ecosystem: docidx.Go, Name: "github.com/BurntSushi/toml", Version: "v1.4.0"}},
		// pypi names by the type's rule: lowercase, "_" as "-".
		{"pkg:pypi/Django_REST@3.15.2", docidx.Ref{Ecosystem: docidx.PyPI, Name: "django-rest", Version: "3.15.2"}},
		{"pkg:pypi/torch@2.5.1%2Bcpu", docidx.Ref{Ecosystem: docidx.PyPI, Name: "torch", Version: "2.5.1+cpu"}},
		// docidx's aliases as types.
		{"pkg:go/golang.org/x/sync@v0.10.0", docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync", Version: "v0.10.0"}},
		{"pkg:rust/serde", docidx.Ref{Ecosystem: docidx.Cargo, Name: "serde"}},
		{"pkg:swift/github.com/Alamofire/Alamofire", docidx.Ref{Ecosystem: docidx.Swift, Name: "https://github.com/Alamofire/Alamofire"}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{
		"", "npm:zod", "pkg:npm", "pkg:npm/", "pkg:nope/x@1", "pkg:npm/x@", "pkg:npm/x@?a=b",
		"pkg:npm/%zz", "pkg:npm/x@1%2", "pkg:npm/@scope", "pkg:pypi/@x",
		"pkg:npm/x?1a=b",    // a qualifier key may not start with a digit
		"pkg:npm/x?a=1&a=2", // nor be given twice
		"pkg:npm/x?a=1;b=2", // qualifiers are separated by & only
		"pkg:npm/x#a/../b",  // a subpath may not climb
	} {
		if ref, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", bad, ref)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"pkg:npm/%40types/node@20.1.0", "pkg:golang/github.com/BurntSushi/toml@v1.4.0?type=module#x",
		"pkg:swift/github.com/apple/swift-nio@2.65.0", "pkg:pypi/Django_REST@3.15.2", "pkg:swift/mona.LinkedList"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := Parse(s)
		if err != nil {
			return
		}
		if ref.Name == "" || ref.Ecosystem == "" {
			t.Fatalf("Parse(%q) = %+v with no error", s, ref)
		}
		// What Parse reads, Format writes back to a purl naming the same package.
		if back, err := Parse(Format(ref)); err != nil || back != ref {
			t.Fatalf("Parse(Format(%+v)) = %+v, %v", ref, back, err)
		}
	})
}
