package pypitest

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Form says how an installed distribution is recorded in site-packages.
type Form int

// Forms.
const (
	// DistInfo is pip's (and every modern installer's) <dist>-<version>.dist-info directory with
	// METADATA, RECORD, WHEEL, INSTALLER and top_level.txt.
	DistInfo Form = iota
	// EggInfoDir is setuptools' (and Debian's) <name>-<version>-py3.11.egg-info directory with
	// PKG-INFO, top_level.txt, dependency_links.txt and SOURCES.txt.
	EggInfoDir
	// EggInfoFile is distutils' <name>-<version>-py3.11.egg-info file holding the metadata alone.
	EggInfoFile
)

// Installed is one distribution to lay out in a site-packages directory.
type Installed struct {
	Name    string
	Version string
	Form    Form
	// Metadata is the core metadata (headers, a blank line, the long description); Name and
	// Version are set from the fields above.
	Metadata string
	// Files are the distribution's files by slash path relative to site-packages
	// ("demo/__init__.py", "demo_module.py").
	Files map[string]string
	// NoRecord leaves RECORD out of a dist-info directory (top_level.txt is still written), as
	// some system installers do.
	NoRecord bool
	// TopLevel overrides the names written to top_level.txt; by default the first path element
	// of each file (without ".py").
	TopLevel []string
	// InstalledFiles writes installed-files.txt in an egg-info directory (paths relative to it,
	// as pip wrote them for legacy installs).
	InstalledFiles bool
	// RequiresTxt, when set, is written as an egg-info directory's requires.txt (setuptools'
	// requirements with "[extra]" and "[:marker]" sections).
	RequiresTxt string
}

// SitePackages writes dists under dir as installers lay them out, plus the noise a real
// site-packages holds (__pycache__, a .pth file, a stray directory without metadata), and returns
// dir. It fails tb on any error.
func SitePackages(tb testing.TB, dir string, dists ...Installed) string {
	tb.Helper()
	for _, d := range dists {
		writeDist(tb, dir, d)
	}
	writeFile(tb, filepath.Join(dir, "distutils-precedence.pth"), "import os\n")
	writeFile(tb, filepath.Join(dir, "__pycache__", "stray.cpython-311.pyc"), "\x00")
	writeFile(tb, filepath.Join(dir, "no_metadata", "__init__.py"), "def orphan(): ...\n")
	return dir
}

func writeDist(tb testing.TB, dir string, d Installed) {
	meta := WithNameVersion(d.Metadata, d.Name, d.Version)
	files := slices.Sorted(maps.Keys(d.Files))
	for _, p := range files {
		writeFile(tb, filepath.Join(dir, filepath.FromSlash(p)), d.Files[p])
	}
	top := d.TopLevel
	if top == nil {
		seen := map[string]bool{}
		for _, p := range files {
			first, _, _ := strings.Cut(p, "/")
			first = strings.TrimSuffix(strings.TrimSuffix(first, ".pyi"), ".py")
			if !seen[first] {
				seen[first] = true
				top = append(top, first)
			}
		}
		sort.Strings(top)
	}
	topLevel := strings.Join(top, "\n") + "\n"
	switch d.Form {
	case DistInfo:
		info := escapeDist(d.Name) + "-" + d.Version + ".dist-info"
		meta := map[string]string{
			"METADATA":      meta,
			"WHEEL":         "Wheel-Version: 1.0\nGenerator: pypitest\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
			"INSTALLER":     "pip\n",
			"top_level.txt": topLevel,
		}
		for name, body := range meta {
			writeFile(tb, filepath.Join(dir, info, name), body)
		}
		if !d.NoRecord {
			var record strings.Builder
			for _, p := range files {
				sum := sha256.Sum256([]byte(d.Files[p]))
				fmt.Fprintf(&record, "%s,sha256=%s,%d\n", p, base64.RawURLEncoding.EncodeToString(sum[:]), len(d.Files[p]))
				if strings.HasSuffix(p, ".py") {
					// Installers record the bytecode they compiled, without a hash.
					pyc := path.Join(path.Dir(p), "__pycache__", strings.TrimSuffix(path.Base(p), ".py")+".cpython-311.pyc")
					fmt.Fprintf(&record, "%s,,\n", pyc)
				}
			}
			for _, name := range []string{"INSTALLER", "METADATA", "WHEEL", "top_level.txt"} {
				fmt.Fprintf(&record, "%s/%s,,\n", info, name)
			}
			fmt.Fprintf(&record, "%s/RECORD,,\n", info)
			fmt.Fprintf(&record, "../../../bin/%s,sha256=AAAA,10\n", Normalize(d.Name))
			writeFile(tb, filepath.Join(dir, info, "RECORD"), record.String())
		}
	case EggInfoDir:
		info := escapeEgg(d.Name) + "-" + d.Version + "-py3.11.egg-info"
		writeFile(tb, filepath.Join(dir, info, "PKG-INFO"), meta)
		writeFile(tb, filepath.Join(dir, info, "top_level.txt"), topLevel)
		writeFile(tb, filepath.Join(dir, info, "dependency_links.txt"), "\n")
		var sources strings.Builder
		sources.WriteString("setup.py\n")
		for _, p := range files {
			sources.WriteString(p + "\n")
		}
		writeFile(tb, filepath.Join(dir, info, "SOURCES.txt"), sources.String())
		if d.RequiresTxt != "" {
			writeFile(tb, filepath.Join(dir, info, "requires.txt"), d.RequiresTxt)
		}
		if d.InstalledFiles {
			var list strings.Builder
			for _, p := range files {
				list.WriteString("../" + p + "\n")
			}
			list.WriteString("PKG-INFO\nSOURCES.txt\ntop_level.txt\n")
			writeFile(tb, filepath.Join(dir, info, "installed-files.txt"), list.String())
		}
	case EggInfoFile:
		writeFile(tb, filepath.Join(dir, escapeEgg(d.Name)+"-"+d.Version+"-py3.11.egg-info"), meta)
	}
}

// escapeEgg spells a distribution name as setuptools names egg-info files (to_filename):
// "-" becomes "_", dots and case are kept ("lazr.uri", "PyYAML").
func escapeEgg(name string) string { return strings.ReplaceAll(name, "-", "_") }

func writeFile(tb testing.TB, p, body string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatalf("pypitest: %v", err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatalf("pypitest: %v", err)
	}
}
