package pypi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"

	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// metadataSummary is the golden form of a parsed file: the fields, what docidx derives from them,
// and the long description by its size, digest and first line (it is tested through the RST and
// markdown parsers elsewhere).
type metadataSummary struct {
	Metadata        *Metadata `json:"metadata"`
	ContentType     string    `json:"contentType"`
	LicenseName     string    `json:"licenseName"`
	Homepage        string    `json:"homepage"`
	Repository      string    `json:"repository"`
	DescriptionLen  int       `json:"descriptionLen"`
	DescriptionHash string    `json:"descriptionSha256"`
	DescriptionHead string    `json:"descriptionFirstLine"`
}

// TestMetadataGolden parses real METADATA and PKG-INFO files from this machine's Python
// installations (testdata/metadata/SOURCES.md) and compares with testdata/golden/metadata/.
func TestMetadataGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "metadata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		n++
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := ParseMetadata(src)
			sum := sha256.Sum256([]byte(m.Description))
			first, _, _ := strings.Cut(strings.TrimSpace(m.Description), "\n")
			s := metadataSummary{
				ContentType: m.ContentType(), LicenseName: m.LicenseName(), Homepage: m.Homepage(), Repository: m.Repository(),
				DescriptionLen: len(m.Description), DescriptionHash: hex.EncodeToString(sum[:8]), DescriptionHead: first,
			}
			desc := m.Description
			m.Description = ""
			s.Metadata = m
			got, _ := json.MarshalIndent(s, "", "  ")
			got = append(got, '\n')
			m.Description = desc
			goldenPath := filepath.Join("testdata", "golden", "metadata", name+".json")
			golden.Check(t, goldenPath, got)
		})
	}
	if n < 10 {
		t.Errorf("only %d metadata files", n)
	}
}

// TestMetadataSpotChecks pins facts about the real files.
func TestMetadataSpotChecks(t *testing.T) {
	read := func(name string) *Metadata {
		b, err := os.ReadFile(filepath.Join("testdata", "metadata", name))
		if err != nil {
			t.Fatal(err)
		}
		return ParseMetadata(b)
	}
	flask := read("flask-3.1.3.METADATA")
	if flask.Name != "Flask" || flask.Version != "3.1.3" || flask.LicenseName() != "BSD-3-Clause" || flask.ContentType() != "text/markdown" ||
		flask.Repository() != "https://github.com/pallets/flask/" || len(flask.RequiresDist) != 9 || len(flask.ProjectURLs) != 5 ||
		!strings.HasPrefix(strings.TrimSpace(flask.Description), "<div align=\"center\">") {
		t.Errorf("flask = %+v", flask)
	}
	toml := read("toml-0.10.2.PKG-INFO")
	if toml.MetadataVersion != "1.2" || !strings.HasPrefix(toml.Description, "****\nTOML\n****\n\n.. image:: https://img.shields.io/pypi/v/toml\n    :target:") ||
		!strings.Contains(toml.Description, "\nInstallation\n============\n") || toml.ContentType() != "text/x-rst" {
		t.Errorf("toml description (8-space continuation lines) = %q", toml.Description[:min(200, len(toml.Description))])
	}
	if toml.Repository() != "https://github.com/uiri/toml" || toml.Homepage() != "https://github.com/uiri/toml" {
		t.Errorf("toml urls: %q %q", toml.Homepage(), toml.Repository())
	}
	wsgi := read("wsgiref-0.1.2.egg-info")
	if wsgi.Name != "wsgiref" || wsgi.Version != "0.1.2" || wsgi.LicenseName() != "PSF or ZPL" || wsgi.Description != "" {
		t.Errorf("wsgiref = %+v", wsgi)
	}
	pick := read("pickleshare-0.7.5.METADATA")
	if strings.Join(pick.Keywords, "|") != "database|persistence|pickle|ipc|shelve" {
		t.Errorf("space-separated keywords = %q", pick.Keywords)
	}
	attrs := read("attrs-26.1.0.METADATA")
	if strings.Join(attrs.Keywords, "|") != "attribute|boilerplate|class" || attrs.Repository() != "https://github.com/python-attrs/attrs" {
		t.Errorf("attrs keywords/repository = %q %q", attrs.Keywords, attrs.Repository())
	}
	crypto := read("cryptography-48.0.0.METADATA")
	if crypto.LicenseName() != "Apache-2.0 OR BSD-3-Clause" || crypto.Homepage() != "https://github.com/pyca/cryptography" {
		t.Errorf("cryptography = %q %q", crypto.LicenseName(), crypto.Homepage())
	}
	yamlDeb := read("PyYAML-6.0-debian.METADATA")
	if Normalize(yamlDeb.Name) != "pyyaml" || yamlDeb.Repository() != "https://github.com/yaml/pyyaml" {
		t.Errorf("PyYAML = %q %q", yamlDeb.Name, yamlDeb.Repository())
	}
}

func TestParseMetadataForms(t *testing.T) {
	src := "\xef\xbb\xbfMetadata-Version: 1.1\r\n" +
		"name: Demo\r\n" +
		"VERSION: 1.0\r\n" +
		"Summary: A summary\r\n" +
		"  that was folded\r\n" +
		"Home-page: UNKNOWN\r\n" +
		"License: Copyright (c) 2020 Someone\r\n" +
		"        \r\n" +
		"        Permission is hereby granted\r\n" +
		"Description: First line\r\n" +
		"       |\r\n" +
		"       |    indented code\r\n" +
		"       |Last line\r\n" +
		"Keywords: a, b c, a\r\n" +
		"Project-URL: Source Code, https://git.example.test/demo\r\n" +
		"Project-URL: no-comma-url\r\n" +
		"not a header line\r\n" +
		"Classifier: License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)\r\n" +
		"Classifier: License :: Other/Proprietary License\r\n"
	m := ParseMetadata([]byte(src))
	if m.Name != "Demo" || m.Version != "1.0" || m.Summary != "A summary that was folded" || m.HomePage != "" {
		t.Errorf("headers = %+v", m)
	}
	if m.Description != "First line\n\n    indented code\nLast line" {
		t.Errorf("PEP 345 description = %q", m.Description)
	}
	if strings.Join(m.Keywords, "|") != "a|b c" {
		t.Errorf("keywords = %q", m.Keywords)
	}
	if m.LicenseName() != "MPL-2.0 OR Other/Proprietary License" {
		t.Errorf("license from classifiers (License holds text) = %q", m.LicenseName())
	}
	if m.Repository() != "https://git.example.test/demo" || len(m.ProjectURLs) != 2 {
		t.Errorf("urls = %+v", m.ProjectURLs)
	}
	m.Classifiers = nil
	if m.LicenseName() != "" {
		t.Errorf("a copyright line is no license name: %q", m.LicenseName())
	}
	m.License = "MIT License\n\nPermission is hereby granted…"
	if m.LicenseName() != "MIT License" {
		t.Errorf("first line of license text = %q", m.LicenseName())
	}

	body := ParseMetadata([]byte("Metadata-Version: 2.1\nName: x\nDescription: header wins only without a body\nDescription-Content-Type: text/markdown; charset=UTF-8; variant=GFM\n\n# Body\n"))
	if body.Description != "# Body\n" || body.ContentType() != "text/markdown" {
		t.Errorf("body description = %q, %q", body.Description, body.ContentType())
	}
	for _, ct := range []struct{ in, want string }{{"", "text/x-rst"}, {"TEXT/PLAIN", "text/plain"}, {"text/markdown;;bad", "text/markdown"}} {
		if got := (&Metadata{DescriptionContentType: ct.in}).ContentType(); got != ct.want {
			t.Errorf("ContentType(%q) = %q", ct.in, got)
		}
	}
	if m := ParseMetadata([]byte("garbage without headers")); m.Name != "" || m.Description != "" {
		t.Errorf("garbage = %+v", m)
	}
	if m := ParseMetadata([]byte("Name: x\nVersion: 1\nDescription: UNKNOWN\n")); m.Description != "" {
		t.Errorf("UNKNOWN description = %q", m.Description)
	}
}

func TestNormalize(t *testing.T) {
	testutil.Mapping(t, "Normalize", Normalize, map[string]string{
		"Flask": "flask", "PyYAML": "pyyaml", "Flask_SQLAlchemy": "flask-sqlalchemy", "zope.interface": "zope-interface",
		"a--_.b": "a-b", "typing_extensions": "typing-extensions", "x-": "x-", "": "",
	})
	testutil.Mapping(t, "ValidName", ValidName, map[string]bool{
		"requests": true, "zope.interface": true, "A1": true, "x": true, "-x": false, "x-": false, "a b": false, "../x": false,
		"": false, "ünicode": false, strings.Repeat("a", 201): false, "a/b": false,
	})
}

func TestParsePEP440(t *testing.T) {
	for in, want := range map[string]string{
		"1.0":               "0!1.0 pre= post=-1 dev=-1",
		"v1.2.3":            "0!1.2.3 pre= post=-1 dev=-1",
		"1!2.0":             "1!2.0 pre= post=-1 dev=-1",
		"1.0a1":             "0!1.0 pre=a1 post=-1 dev=-1",
		"1.0-ALPHA.2":       "0!1.0 pre=a2 post=-1 dev=-1",
		"1.0c3":             "0!1.0 pre=rc3 post=-1 dev=-1",
		"1.0.preview":       "0!1.0 pre=rc0 post=-1 dev=-1",
		"1.0.post1":         "0!1.0 pre= post=1 dev=-1",
		"1.0-1":             "0!1.0 pre= post=1 dev=-1",
		"1.0rev2":           "0!1.0 pre= post=2 dev=-1",
		"1.0.dev4":          "0!1.0 pre= post=-1 dev=4",
		"1.0rc1.post2.dev3": "0!1.0 pre=rc1 post=2 dev=3",
		"2.9.0.post0":       "0!2.9.0 pre= post=0 dev=-1",
		"1.0+local.7":       "0!1.0 pre= post=-1 dev=-1",
	} {
		v := parsePEP440(in)
		got := fmt.Sprintf("%d!%s pre=%s post=%d dev=%d", v.epoch, joinInts(v.release), preString(v), v.post, v.dev)
		if !v.ok || got != want {
			t.Errorf("parsePEP440(%q) = %s (ok %v), want %s", in, got, v.ok, want)
		}
	}
	for _, bad := range []string{"", "x", "1.0x", "1..0", "1.0+", "a!1", "1.0.post1.x", "12345678901"} {
		if parsePEP440(bad).ok {
			t.Errorf("parsePEP440(%q) ok", bad)
		}
	}
}

func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, ".")
}

func preString(v pep440) string {
	if v.preKind == "" {
		return ""
	}
	return fmt.Sprintf("%s%d", v.preKind, v.preNum)
}

func TestResolveVersion(t *testing.T) {
	cands := []candidate{
		{"0.9", false, true}, {"1.0", false, true}, {"1.0.post1", false, true}, {"1.1", false, true},
		{"1.2", true, true}, {"1.3rc1", false, true}, {"2.0.dev1", false, true}, {"1.1.1", false, false},
	}
	for _, tc := range []struct {
		query, want string
		err         error
	}{
		{"", "1.1", nil}, // 1.1.1 has no files, 1.2 is yanked
		{"latest", "1.1", nil},
		{"1.0", "1.0", nil},
		{"==1.0.0", "1.0", nil},
		{"===1.0", "1.0", nil},
		{"==1.2", "1.2", nil}, // a pin may name a yanked version (PEP 592)
		{">=1.0,<2", "1.1.1", nil},
		{"~=1.0", "1.1.1", nil},
		{"~=1.0.0", "1.0.post1", nil},
		{"==1.0.*", "1.0.post1", nil},
		{"!=1.1.1,<1.2", "1.1", nil},
		{">1.0", "1.1.1", nil},
		{">1.0,<1.1", "", docidx.ErrNotFound}, // 1.0.post1 is excluded by >1.0
		{"<1.3", "1.1.1", nil},                // 1.3rc1 is a pre-release of 1.3
		{">=1.3rc1", "2.0.dev1", nil},         // naming a pre-release allows them
		{">=2.0.dev0", "2.0.dev1", nil},
		{">1.1.1", "2.0.dev1", nil}, // only pre-releases match: take them
		{"==3.0", "", docidx.ErrNotFound},
		{">=3", "", docidx.ErrNotFound},
		{">=", "", docidx.ErrBadSpec},
		{"~=1", "", docidx.ErrBadSpec},
		{">=1.*", "", docidx.ErrBadSpec},
		{"banana", "", docidx.ErrBadSpec},
		{">=1,", "", docidx.ErrBadSpec},
	} {
		got, err := resolveVersion("demo", cands, tc.query)
		testutil.Result(t, fmt.Sprintf("resolveVersion(%q)", tc.query), got, err, tc.want, tc.err)
	}
	v, err := resolveVersion("demo", []candidate{{"1.0", true, true}}, "")
	testutil.Result(t, "resolveVersion(only a yanked version)", v, err, "1.0", nil)
	v, err = resolveVersion("demo", nil, "")
	testutil.Result(t, "resolveVersion(no versions)", v, err, "", docidx.ErrNotFound)
}
