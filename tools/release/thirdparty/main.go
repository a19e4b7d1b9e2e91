// Command thirdparty writes THIRD_PARTY_LICENSES: the license texts of every Go module linked
// into docidx's binaries, and of the Go standard library and runtime, as the MIT, BSD and Apache
// licenses of those modules ask of a binary distribution ("The above copyright notice and this
// permission notice shall be included in all copies or substantial portions of the Software").
// The SBOMs name each module's license; this file carries their words.
//
//	go run ./thirdparty -repo ../.. -o ../../build/THIRD_PARTY_LICENSES
//
// The modules are those `go list -deps` gives for ./cmd/docidx on each platform a release
// builds (linux, darwin and windows on amd64 and arm64), read from the module cache the release
// builds from, so it runs offline. Per module it takes the files at the module's root whose
// names start with LICENSE, LICENCE, COPYING or NOTICE (in any case); a module without one is an
// error naming it, so a release never ships a dependency whose terms it does not carry. The
// output is sorted by module path and the same for the same go.mod.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// platforms are the GOOS/GOARCH pairs of .goreleaser.yaml's builds.
var platforms = [][2]string{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// licensePrefixes are the names (upper-cased) of the files that hold a module's terms.
var licensePrefixes = []string{"LICENSE", "LICENCE", "COPYING", "NOTICE"}

// module is one Go module linked into the binary.
type module struct{ path, version, dir string }

func main() {
	repo := flag.String("repo", ".", "the docidx repository (where go.mod is)")
	out := flag.String("o", "THIRD_PARTY_LICENSES", "the file to write")
	flag.Parse()
	if err := run(*repo, *out); err != nil {
		fmt.Fprintln(os.Stderr, "thirdparty:", err)
		os.Exit(1)
	}
}

func run(repo, out string) error {
	mods, err := modules(repo)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("docidx is licensed under the Apache License, Version 2.0 (LICENSE, NOTICE).\n" +
		"Its binaries also contain the Go modules below and the Go standard library and runtime,\n" +
		"each under its own license, whose texts follow.\n")
	goroot, err := goEnv(repo, "GOROOT")
	if err != nil {
		return err
	}
	goVersion, err := goEnv(repo, "GOVERSION")
	if err != nil {
		return err
	}
	if err := appendModule(&b, module{path: "the Go standard library and runtime", version: goVersion, dir: goroot}); err != nil {
		return err
	}
	for _, m := range mods {
		if err := appendModule(&b, m); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// modules returns the modules ./cmd/docidx is built from on every platform, sorted by path,
// without docidx's own.
func modules(repo string) ([]module, error) {
	seen := map[string]module{}
	for _, p := range platforms {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if .Version}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}{{end}}", "./cmd/docidx")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOOS="+p[0], "GOARCH="+p[1], "CGO_ENABLED=0")
		cmd.Stderr = os.Stderr
		listed, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps ./cmd/docidx for %s/%s: %w", p[0], p[1], err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(listed)), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != 3 {
				continue
			}
			if f[2] == "" {
				return nil, fmt.Errorf("module %s@%s is not in the module cache (run go mod download)", f[0], f[1])
			}
			seen[f[0]] = module{path: f[0], version: f[1], dir: f[2]}
		}
	}
	return slices.SortedFunc(maps.Values(seen), func(a, b module) int { return strings.Compare(a.path, b.path) }), nil
}

// appendModule appends m's heading and the texts of its license files to b, or returns an error
// when m has none.
func appendModule(b *bytes.Buffer, m module) error {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", m.path, m.version, err)
	}
	var files []string
	for _, e := range entries {
		name := strings.ToUpper(e.Name())
		if e.Type().IsRegular() && slices.ContainsFunc(licensePrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			files = append(files, e.Name())
		}
	}
	if len(files) == 0 {
		return fmt.Errorf("%s %s has no LICENSE, COPYING or NOTICE file in %s: find its terms before releasing it", m.path, m.version, m.dir)
	}
	slices.Sort(files)
	fmt.Fprintf(b, "\n%s\n%s %s\n", strings.Repeat("=", 78), m.path, m.version)
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(m.dir, f))
		if err != nil {
			return fmt.Errorf("%s %s: %w", m.path, m.version, err)
		}
		fmt.Fprintf(b, "\n---- %s ----\n\n%s", f, text)
		if !bytes.HasSuffix(text, []byte("\n")) {
			b.WriteByte('\n')
		}
	}
	return nil
}

// goEnv returns the value of the go command's environment variable name, as go env prints it.
func goEnv(repo, name string) (string, error) {
	cmd := exec.Command("go", "env", name)
	cmd.Dir = repo
	v, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(v)), nil
}
