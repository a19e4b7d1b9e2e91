package pypi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/pypitest"
)

func TestEvalMarker(t *testing.T) {
	linux311 := Environment{
		"python_version": "3.11", "python_full_version": "3.11.7", "os_name": "posix",
		"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
		"implementation_name": "cpython", "platform_python_implementation": "CPython",
	}
	for _, tc := range []struct {
		marker       string
		extras       []string
		holds, known bool
	}{
		{`python_version < "3.10"`, nil, false, true},
		{`python_version < '3.12'`, nil, true, true},
		{`python_version >= "3.9"`, nil, true, true},
		{`python_full_version >= "3.11.7"`, nil, true, true},
		{`python_version == "3.11.*"`, nil, true, true},
		{`python_version ~= "3.8"`, nil, true, true},
		{`"3.8" <= python_version`, nil, true, true}, // the variable on the right
		{`sys_platform == "win32"`, nil, false, true},
		{`sys_platform != "win32" and platform_machine == "x86_64"`, nil, true, true},
		{`os_name == "nt" or (sys_platform == "linux" and implementation_name == "cpython")`, nil, true, true},
		{`platform_machine in "x86_64 aarch64"`, nil, true, true},
		{`platform_machine not in "arm64 aarch64"`, nil, true, true},
		{`extra == "async"`, nil, false, true},
		{`extra == "async"`, []string{"async"}, true, true},
		{`extra == "Socks_Proxy"`, []string{"socks-proxy"}, true, true}, // PEP 685
		{`python_version < "3.10" and extra == "async"`, []string{"async"}, false, true},
		// platform_release is unknown: three-valued logic decides what it can.
		{`platform_release >= "6"`, nil, false, false},
		{`sys_platform == "win32" and platform_release >= "10"`, nil, false, true},
		{`sys_platform == "linux" or platform_release >= "10"`, nil, true, true},
		{`sys_platform == "linux" and platform_release >= "10"`, nil, false, false},
		{`platform.python_implementation == "CPython"`, nil, true, true}, // PEP 345 spelling
		{`implementation_name ~= "cpython"`, nil, false, false},          // undefined comparison
	} {
		holds, known, err := EvalMarker(tc.marker, linux311, tc.extras)
		if err != nil || holds != tc.holds || known != tc.known {
			t.Errorf("EvalMarker(%q, %v) = %v, %v, %v; want %v, %v", tc.marker, tc.extras, holds, known, err, tc.holds, tc.known)
		}
	}
	for _, bad := range []string{`python_version <`, `python_version < "3.10`, `foo == "1"`, `python_version << "3"`, `(python_version < "3"`, `python_version < "3" and`, `python_version not "3"`} {
		if _, _, err := EvalMarker(bad, linux311, nil); !errors.Is(err, ErrBadMarker) {
			t.Errorf("EvalMarker(%q) = %v, want ErrBadMarker", bad, err)
		}
	}
}

func TestPlatformEnvironment(t *testing.T) {
	for _, tc := range []struct{ goos, goarch, platform, machine, osName string }{
		{"linux", "amd64", "linux", "x86_64", "posix"},
		{"linux", "arm64", "linux", "aarch64", "posix"},
		{"darwin", "arm64", "darwin", "arm64", "posix"},
		{"windows", "amd64", "win32", "AMD64", "nt"},
	} {
		env := platformEnvironment(tc.goos, tc.goarch)
		if env["sys_platform"] != tc.platform || env["platform_machine"] != tc.machine || env["os_name"] != tc.osName {
			t.Errorf("%s/%s: %v", tc.goos, tc.goarch, env)
		}
	}
}

func TestSitePackagesEnvironment(t *testing.T) {
	venv := t.TempDir()
	sp := filepath.Join(venv, "lib", "python3.12", "site-packages")
	if err := os.MkdirAll(sp, 0o755); err != nil {
		t.Fatal(err)
	}
	env := SitePackagesEnvironment(sp)
	if env["python_version"] != "3.12" || env["implementation_name"] != "cpython" || env["python_full_version"] != "" {
		t.Errorf("from the path alone: %v", env)
	}
	cfg := "home = /opt/python/bin\ninclude-system-site-packages = false\nversion = 3.12.4\n"
	testutil.WriteFile(t, filepath.Join(venv, "pyvenv.cfg"), cfg)
	env = SitePackagesEnvironment(sp)
	if env["python_version"] != "3.12" || env["python_full_version"] != "3.12.4" || env["implementation_version"] != "3.12.4" {
		t.Errorf("with pyvenv.cfg: %v", env)
	}
	// Debian's dist-packages names no minor version: python_version stays unknown.
	deb := filepath.Join(t.TempDir(), "usr", "lib", "python3", "dist-packages")
	if env := SitePackagesEnvironment(deb); env["python_version"] != "" || env["sys_platform"] == "" {
		t.Errorf("dist-packages: %v", env)
	}
}

func TestSitePackagesRequires(t *testing.T) {
	dir := pypitest.SitePackages(t, t.TempDir(),
		pypitest.Installed{
			Name: "Flask", Version: "3.1.3", Form: pypitest.DistInfo,
			Metadata: "Requires-Dist: Werkzeug>=3.1.0\nRequires-Dist: asgiref>=3.2 ; extra == \"async\"\n",
			Files:    map[string]string{"flask/__init__.py": ""},
		},
		pypitest.Installed{
			Name: "legacy", Version: "1.0", Form: pypitest.EggInfoDir,
			RequiresTxt: "six\n\n[:python_version < \"3\"]\nfutures\n\n[socks]\npysocks\n\n[win:sys_platform == \"win32\"]\npywin32\n",
			Files:       map[string]string{"legacy/__init__.py": ""},
		},
	)
	sp, err := NewSitePackages(dir, SitePackagesConfig{Environment: Environment{"python_version": "3.11"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := sp.Requires(ctx, "flask", "3.1.3")
	if want := []string{"Werkzeug>=3.1.0", `asgiref>=3.2 ; extra == "async"`}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Requires(flask) = %q, %v; want %q", got, err, want)
	}
	got, err = sp.Requires(ctx, "legacy", "1.0")
	want := []string{"six", `futures; (python_version < "3")`, `pysocks; extra == "socks"`, `pywin32; (sys_platform == "win32") and extra == "win"`}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Requires(legacy) = %q, %v; want %q", got, err, want)
	}
	if holds, known, err := sp.EvalMarker(`python_version < "3"`, nil); holds || !known || err != nil {
		t.Errorf("EvalMarker with the configured environment = %v, %v, %v", holds, known, err)
	}
	if _, err := sp.Requires(ctx, "flask", "9.9"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("Requires of a version not installed: %v, want docidx.ErrNotFound", err)
	}
}
