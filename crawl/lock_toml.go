package crawl

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/docidx/docidx"
)

// This file reads the TOML lockfiles: poetry.lock, uv.lock and Cargo.lock. TOML gives no positions
// for decoded values, so an entry's line is that of its "[[package]]" header, found by scanning the
// text (0 when the headers cannot be matched to the entries one to one).

// decodeTOML decodes data into v, turning a TOML error into a LockfileError at its line.
func decodeTOML(name string, data []byte, v any) error {
	_, err := toml.Decode(string(data), v)
	if err == nil {
		return nil
	}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		if pe.LastKey != "" {
			msg += " (after key " + pe.LastKey + ")"
		}
		return &LockfileError{File: name, Line: pe.Position.Line, Err: errors.New(msg)}
	}
	return &LockfileError{File: name, Err: err}
}

// tableLines returns the 1-based lines of the headers "[[table]]" in data if there are exactly
// want of them, else nil.
func tableLines(data []byte, table string, want int) []int {
	header := "[[" + table + "]]"
	var lines []int
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, header); ok && (rest == "" || strings.HasPrefix(strings.TrimSpace(rest), "#")) {
			lines = append(lines, i+1)
		}
	}
	if len(lines) != want {
		return nil
	}
	return lines
}

func lineAt(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return 0
}

// poetryLock is the part of poetry.lock that names versions (lock-version 1.x and 2.x; see
// https://python-poetry.org/docs/basic-usage/#installing-with-poetrylock).
type poetryLock struct {
	Package  []poetryPackage `toml:"package"`
	Metadata struct {
		LockVersion string `toml:"lock-version"`
	} `toml:"metadata"`
}

type poetryPackage struct {
	Name    string `toml:"name"`
	Version string `toml:"version"`
	Source  *struct {
		Type      string `toml:"type"`
		URL       string `toml:"url"`
		Reference string `toml:"reference"`
	} `toml:"source"`
}

// parsePoetryLock keeps packages from PyPI or another package index (source type "legacy" is a
// named index) and skips those from git, a URL, a local file or a directory.
func parsePoetryLock(st *lockState, name string, data []byte) error {
	var lock poetryLock
	if err := decodeTOML(name, data, &lock); err != nil {
		return err
	}
	if len(lock.Package) == 0 && lock.Metadata.LockVersion == "" {
		return lockErr(name, 0, "no [[package]] or [metadata] table: not a poetry.lock")
	}
	st.lf.Version = lock.Metadata.LockVersion
	lines := tableLines(data, "package", len(lock.Package))
	for i, p := range lock.Package {
		line := lineAt(lines, i)
		if p.Name == "" || p.Version == "" {
			return lockErr(name, line, "[[package]] #%d has no name or version", i+1)
		}
		entry := p.Name + " " + p.Version
		if p.Source != nil {
			switch t := p.Source.Type; t {
			case "legacy", "":
				// a package index other than PyPI: still a registry version
			case "git":
				st.skip(name, line, entry, "git dependency "+p.Source.URL)
				continue
			case "directory", "file":
				st.skip(name, line, entry, "local "+t+" "+p.Source.URL)
				continue
			case "url":
				st.skip(name, line, entry, "URL dependency "+p.Source.URL)
				continue
			default:
				st.skip(name, line, entry, "unknown source type "+strconv.Quote(t))
				continue
			}
		}
		st.add(name, docidx.PyPI, NormalizePyPIName(p.Name), p.Version)
	}
	return nil
}

// uvLock is the part of uv.lock that names versions (https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile).
// uv before 0.3 called the tables [[distribution]].
type uvLock struct {
	Version      *int        `toml:"version"`
	Package      []uvPackage `toml:"package"`
	Distribution []uvPackage `toml:"distribution"`
}

type uvPackage struct {
	Name    string         `toml:"name"`
	Version string         `toml:"version"`
	Source  map[string]any `toml:"source"`
}

// parseUVLock keeps packages whose source is a registry (PyPI or another index) and skips git,
// URL, path and directory sources, editable installs and virtual packages, which include the
// project itself and its workspace members.
func parseUVLock(st *lockState, name string, data []byte) error {
	var lock uvLock
	if err := decodeTOML(name, data, &lock); err != nil {
		return err
	}
	pkgs, table := lock.Package, "package"
	if len(pkgs) == 0 {
		pkgs, table = lock.Distribution, "distribution"
	}
	if lock.Version == nil {
		return lockErr(name, 0, "no version: not a uv.lock")
	}
	st.lf.Version = strconv.Itoa(*lock.Version)
	lines := tableLines(data, table, len(pkgs))
	for i, p := range pkgs {
		line := lineAt(lines, i)
		if p.Name == "" {
			return lockErr(name, line, "[[%s]] #%d has no name", table, i+1)
		}
		entry := strings.TrimSpace(p.Name + " " + p.Version)
		kind, where := uvSourceKind(p.Source)
		switch kind {
		case "registry":
			if p.Version == "" {
				return lockErr(name, line, "package %s from a registry has no version", p.Name)
			}
			st.add(name, docidx.PyPI, NormalizePyPIName(p.Name), p.Version)
		case "editable", "virtual":
			st.skip(name, line, entry, kind+" package "+where+" (the project or a workspace member)")
		case "git":
			st.skip(name, line, entry, "git dependency "+where)
		case "path", "directory":
			st.skip(name, line, entry, "local "+kind+" "+where)
		case "url":
			st.skip(name, line, entry, "URL dependency "+where)
		case "":
			st.skip(name, line, entry, "no source")
		default:
			st.skip(name, line, entry, "unknown source "+strconv.Quote(kind))
		}
	}
	return nil
}

// uvSourceKind returns which of uv's source kinds a source table is, and its value.
func uvSourceKind(src map[string]any) (kind, where string) {
	for _, k := range []string{"registry", "editable", "virtual", "git", "path", "directory", "url"} {
		if v, ok := src[k]; ok {
			return k, fmt.Sprint(v)
		}
	}
	keys := slices.Sorted(maps.Keys(src))
	if len(keys) > 0 {
		return keys[0], ""
	}
	return "", ""
}

// cargoLock is the part of Cargo.lock that names versions. Versions 1 and 2 of the format have no
// version key (version 1 keeps checksums in a [metadata] table); 3 and 4 have one. See
// https://doc.rust-lang.org/cargo/guide/cargo-toml-vs-cargo-lock.html.
type cargoLock struct {
	Version  *int           `toml:"version"`
	Metadata map[string]any `toml:"metadata"`
	Package  []struct {
		Name    string `toml:"name"`
		Version string `toml:"version"`
		Source  string `toml:"source"`
	} `toml:"package"`
}

// parseCargoLock keeps crates from a registry ("registry+URL" or "sparse+URL" sources: crates.io
// or an alternative registry) and skips git crates and those without a source: workspace members
// and path dependencies.
func parseCargoLock(st *lockState, name string, data []byte) error {
	var lock cargoLock
	if err := decodeTOML(name, data, &lock); err != nil {
		return err
	}
	switch {
	case lock.Version != nil:
		st.lf.Version = strconv.Itoa(*lock.Version)
	case lock.Metadata != nil:
		st.lf.Version = "1"
	case len(lock.Package) > 0:
		st.lf.Version = "2"
	default:
		return lockErr(name, 0, "no version and no [[package]]: not a Cargo.lock")
	}
	lines := tableLines(data, "package", len(lock.Package))
	for i, p := range lock.Package {
		line := lineAt(lines, i)
		if p.Name == "" || p.Version == "" {
			return lockErr(name, line, "[[package]] #%d has no name or version", i+1)
		}
		entry := p.Name + " " + p.Version
		switch {
		case strings.HasPrefix(p.Source, "registry+"), strings.HasPrefix(p.Source, "sparse+"):
			st.add(name, docidx.Cargo, p.Name, p.Version)
		case p.Source == "":
			st.skip(name, line, entry, "workspace member or path dependency (no source)")
		case strings.HasPrefix(p.Source, "git+"):
			st.skip(name, line, entry, "git dependency "+p.Source)
		default:
			st.skip(name, line, entry, "unknown source "+strconv.Quote(p.Source))
		}
	}
	return nil
}
