package swiftsrc

import (
	"strings"

	"github.com/docidx/docidx/registries/internal/clex"
)

// Manifest is what ReadManifest finds in a Package.swift file.
type Manifest struct {
	// ToolsVersion is the version in the "// swift-tools-version:X" first line, or "".
	ToolsVersion string
	// Name is the name argument of the Package(…) initializer, or "".
	Name string
	// Executables are the names of the executable products (.executable(name: …)) and targets
	// (.executableTarget(name: …), for which SwiftPM makes a product of a root package), in
	// the manifest's order, string literals only.
	Executables []string
}

// ReadManifest reads a Package.swift manifest
// (https://docs.swift.org/package-manager/PackageDescription/PackageDescription.html) without
// running it: the tools version from the first line and the package name, the string literal
// given as the name: argument of the first Package( … ) call. A name built by an expression, a
// raw string with interpolation, or a manifest that never calls Package( leaves Name empty.
func ReadManifest(src []byte) Manifest {
	var m Manifest
	s := string(src)
	s = strings.TrimPrefix(s, "\uFEFF")
	first, _, _ := strings.Cut(s, "\n")
	if rest, ok := strings.CutPrefix(strings.TrimSpace(first), "//"); ok {
		rest = strings.TrimSpace(rest)
		if v, ok := strings.CutPrefix(strings.ToLower(rest), "swift-tools-version"); ok {
			v = strings.TrimLeft(v, ": \t")
			if i := strings.IndexByte(v, ';'); i >= 0 {
				v = v[:i]
			}
			m.ToolsVersion = strings.TrimSpace(v)
		}
	}
	toks := tokenize(s)
	m.Executables = executables(toks)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].kind != tIdent || toks[i].text != "Package" || !toks[i+1].is("(") {
			continue
		}
		if i > 0 && toks[i-1].is(".") {
			continue // PackageDescription.Package( is fine, .Package( is a member access
		}
		depth := 0
		for j := i + 1; j < len(toks) && toks[j].kind != tEOF; j++ {
			t := toks[j]
			if depth == 1 && t.kind == tIdent && t.text == "name" && j+2 < len(toks) && toks[j+1].is(":") && toks[j+2].kind == tString {
				if n, ok := stringValue(toks[j+2].text); ok {
					m.Name = n
				}
				return m
			}
			depth = bracketDepth(t, depth)
			if depth == 0 {
				break
			}
		}
		return m
	}
	return m
}

// executables returns the name of each .executable( and .executableTarget( call of toks: the
// string literal of its first argument, name:, as PackageDescription declares both.
func executables(toks []token) []string {
	var out []string
	for i := 1; i+4 < len(toks); i++ {
		if t := toks[i]; t.kind != tIdent || t.text != "executable" && t.text != "executableTarget" || !toks[i-1].is(".") || !toks[i+1].is("(") {
			continue
		}
		if arg := toks[i+2]; arg.kind == tIdent && arg.text == "name" && toks[i+3].is(":") && toks[i+4].kind == tString {
			if n, ok := stringValue(toks[i+4].text); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// stringValue decodes a single-line string literal without interpolation: "…" with the escapes
// \\ \" \' \n \t \r \0 and \u{…}, or a raw string #"…"#.
func stringValue(lit string) (string, bool) {
	hashes := 0
	for hashes < len(lit) && lit[hashes] == '#' {
		hashes++
	}
	closing := `"` + strings.Repeat("#", hashes)
	body := lit[hashes:]
	if strings.HasPrefix(body, `"""`) || len(body) < 2 || body[0] != '"' || !strings.HasSuffix(body, closing) || len(body) < 1+len(closing) {
		return "", false
	}
	body = body[1 : len(body)-len(closing)]
	if hashes > 0 {
		if strings.Contains(body, `\`+strings.Repeat("#", hashes)+"(") {
			return "", false
		}
		return body, true
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", false
		}
		if e, ok := clex.Escape(body[i]); ok {
			b.WriteByte(e)
			continue
		}
		switch body[i] {
		case 'u':
			end := strings.IndexByte(body[i:], '}')
			if i+1 >= len(body) || body[i+1] != '{' || end < 0 {
				return "", false
			}
			var r rune
			for _, h := range body[i+2 : i+end] {
				switch {
				case h >= '0' && h <= '9':
					r = r*16 + h - '0'
				case h >= 'a' && h <= 'f':
					r = r*16 + h - 'a' + 10
				case h >= 'A' && h <= 'F':
					r = r*16 + h - 'A' + 10
				default:
					return "", false
				}
				if r > 0x10FFFF {
					return "", false
				}
			}
			b.WriteRune(r)
			i += end
		default:
			return "", false // "(": interpolation
		}
	}
	return b.String(), true
}
