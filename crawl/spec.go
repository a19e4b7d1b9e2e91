package crawl

import (
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/purl"
	"github.com/docidx/docidx/internal/redact"
)

// Spec asks for one package: an ecosystem, a name and a version query.
type Spec struct {
	Ecosystem docidx.Ecosystem
	// Name is the package in its ecosystem's form: a Go module path, an npm name with its scope,
	// a PEP 503-normalized Python name, a crate name, or for Swift a registry identity
	// ("scope.name") or a repository URL as written ("https://github.com/apple/swift-nio.git").
	Name string
	// Query is the version asked for: empty for the latest release, an exact version, or a range
	// in the ecosystem's syntax (npm "^4", Go "v1.8").
	Query string
	// Exact is set when Query is an exact version pinned by a lockfile or a purl.
	Exact bool
	// Origin says where the spec came from (the command line, "package-lock.json", or a
	// requirement's file and line, "requirements.txt:3"), for messages.
	Origin string
	// Requirement is set on the Python specs of a requirements file or a pyproject.toml: what the
	// project asks for rather than what a lockfile pins. With a local cache that implements
	// Installed (a site-packages), such a spec resolves against that cache only, to the version
	// installed there, and brings the installed distributions it requires, transitively; see
	// Options.Specs. Query is then a PEP 440 specifier set (">=4.0", "~=2.2,!=2.2.1", "" for any)
	// unless Exact.
	Requirement bool
	// Extras are the extras a requirement asks for ("flask[async,dotenv]"), PEP 685-normalized,
	// sorted and joined with ",": they select which of its conditional dependencies are
	// followed. A string keeps Spec comparable.
	Extras string
	// Marker is a requirement's PEP 508 environment marker ('sys_platform == "win32"'), "" for
	// none: with an Installed cache a requirement whose marker does not hold for its interpreter
	// is not crawled.
	Marker string
}

// String returns "ecosystem:name@query".
func (s Spec) String() string {
	if s.Query == "" {
		return string(s.Ecosystem) + ":" + s.Name
	}
	return string(s.Ecosystem) + ":" + s.Name + "@" + s.Query
}

// ParseSpec parses one package spec from the command line:
//
//	npm:express@^4   npm:@types/node@20.1.0   go:github.com/spf13/cobra@v1.8.0   golang:golang.org/x/sync
//	pypi:requests==2.32.3   pypi:Flask   python:flask>=3,<4   crates:serde@1.0.200   rust:serde
//	swift:apple/swift-nio@2.65.0   swift:mona.LinkedList@1.1.0   swift:https://github.com/apple/swift-nio.git@2.65.0
//	pkg:cargo/serde@1.0.200   pkg:pypi/django@5.0.6   pkg:swift/github.com/apple/swift-nio@2.65.0
//
// The last line shows Package URLs (https://github.com/package-url/purl-spec). The ecosystem prefix
// accepts purl types and the aliases of docidx.ParseEcosystem. Without a version the latest
// release is meant.
//
// Per ecosystem: a Python name is PEP 503-normalized ("Flask" -> "flask") with its extras dropped,
// and "==" or "===" pins an exact version (other specifiers stay a range query). A Swift name is a
// registry identity (scope.name) or a repository URL; a version follows the last "@" only when
// that part has no "/" or ":", so git@github.com:apple/swift-nio.git is a name without version.
// A Swift purl with a host namespace becomes the repository URL (https://github.com/apple/swift-nio).
//
// It returns an error wrapping docidx.ErrBadSpec that shows the accepted forms.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "pkg:") {
		return parsePURL(s)
	}
	ecoStr, rest, ok := strings.Cut(s, ":")
	if !ok || rest == "" {
		return Spec{}, badSpec(s, "missing ECOSYSTEM: prefix")
	}
	eco, err := docidx.ParseEcosystem(ecoStr)
	if err != nil {
		return Spec{}, badSpec(s, fmt.Sprintf("unknown ecosystem %q", ecoStr))
	}
	spec := Spec{Ecosystem: eco, Origin: "command line"}
	switch {
	case eco == docidx.PyPI && strings.ContainsAny(rest, "=<>!~"):
		i := strings.IndexAny(rest, "=<>!~")
		spec.Name, spec.Query = strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[i:])
		if v, ok := strings.CutPrefix(spec.Query, "==="); ok {
			spec.Query, spec.Exact = strings.TrimSpace(v), true
		} else if v, ok := strings.CutPrefix(spec.Query, "=="); ok && !strings.ContainsAny(v, "*,") {
			spec.Query, spec.Exact = strings.TrimSpace(v), true
		}
		if spec.Query == "" {
			return Spec{}, badSpec(s, "empty version after "+rest[i:])
		}
	case eco == docidx.Swift:
		// The name may be a URL with an "@" of its own (git@github.com:apple/swift-nio.git,
		// ssh://git@host/x.git): a version follows the last "@" only if it has no "/" or ":".
		spec.Name = rest
		if i := strings.LastIndexByte(rest, '@'); i > 0 && !strings.ContainsAny(rest[i+1:], "/:") {
			spec.Name, spec.Query = rest[:i], rest[i+1:]
			if spec.Query == "" {
				return Spec{}, badSpec(s, "empty version after @")
			}
		}
		spec.Name = swiftName(spec.Name)
	default:
		// The version follows the last "@" that does not open the name (npm scopes do).
		if i := strings.LastIndexByte(rest, '@'); i > 0 {
			spec.Name, spec.Query = rest[:i], rest[i+1:]
			if spec.Query == "" {
				return Spec{}, badSpec(s, "empty version after @")
			}
		} else {
			spec.Name = rest
		}
	}
	if eco == docidx.PyPI {
		if i := strings.IndexByte(spec.Name, '['); i >= 0 && strings.HasSuffix(spec.Name, "]") {
			spec.Name = strings.TrimSpace(spec.Name[:i]) // extras do not change the package
		}
		if pypiName.FindString(spec.Name) != spec.Name {
			return Spec{}, badSpec(s, "bad Python package name")
		}
		spec.Name = NormalizePyPIName(spec.Name)
	}
	if spec.Name == "" || strings.ContainsAny(spec.Name, " \t\n") {
		return Spec{}, badSpec(s, "bad package name")
	}
	if spec.Query == "latest" {
		spec.Query = ""
	}
	return spec, nil
}

// swiftName returns a Swift package name without the credentials an http(s) repository URL may
// carry (https://user:token@host/owner/repo.git): the name is printed, recorded and sent to the
// registry's /identifiers, and SwiftPM's package identity drops them too. An ssh URL keeps its
// user ("ssh://git@host/…"), which names no secret.
func swiftName(name string) string {
	if strings.HasPrefix(name, "https://") || strings.HasPrefix(name, "http://") {
		return redact.Text(name)
	}
	return name
}

func badSpec(s, why string) error {
	s = redact.Text(s)
	return fmt.Errorf("%w %q: %s; use ECOSYSTEM:NAME[@VERSION] (go:github.com/spf13/cobra@v1.8.0, npm:express@^4, pypi:requests==2.32.3) or a purl (pkg:npm/zod@3.23.8)", docidx.ErrBadSpec, s, why)
}

// parsePURL parses a Package URL (see package purl) into an exact spec, or without a version the
// latest release; a Python name is PEP 503-normalized.
func parsePURL(s string) (Spec, error) {
	ref, err := purl.Parse(s)
	if err != nil {
		return Spec{}, badSpec(s, err.Error())
	}
	spec := Spec{Ecosystem: ref.Ecosystem, Name: ref.Name, Query: ref.Version, Exact: ref.Version != "", Origin: "command line"}
	if spec.Ecosystem == docidx.PyPI {
		spec.Name = NormalizePyPIName(spec.Name)
	}
	return spec, nil
}
