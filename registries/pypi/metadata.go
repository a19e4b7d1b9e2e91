package pypi

import (
	"bytes"
	"mime"
	"net/url"
	"strings"
	"unicode"
)

// MaxMetadata is the largest METADATA or PKG-INFO file read, in bytes (8 MiB): the long
// description lives in it. A larger file fails with an error wrapping docidx.ErrTooLarge.
const MaxMetadata = 8 << 20

// Metadata is the core metadata of one distribution version
// (https://packaging.python.org/en/latest/specifications/core-metadata/), as found in a wheel's
// *.dist-info/METADATA, an sdist's PKG-INFO, an installed *.dist-info/METADATA or *.egg-info
// (file or PKG-INFO in a directory), and a PEP 658 metadata file. Fields absent from the file
// are empty; the value "UNKNOWN" that old setuptools wrote for missing fields reads as empty.
type Metadata struct {
	MetadataVersion string // Metadata-Version, e.g. "2.4"
	Name            string // Name, as the project spells it ("PyYAML"); see Normalize
	Version         string // Version
	Summary         string // Summary: one line
	// Description is the long description: the message body after the headers (metadata 2.1 and
	// later), else the Description header with its continuation lines dedented (the 8 spaces of
	// setuptools or the "       |" prefix of PEP 345).
	Description string
	// DescriptionContentType is the Description-Content-Type header as written, e.g.
	// "text/markdown; charset=UTF-8; variant=GFM"; see ContentType.
	DescriptionContentType string
	Keywords               []string     // Keywords, split at commas, or at white space when there is no comma
	HomePage               string       // Home-page
	DownloadURL            string       // Download-URL
	ProjectURLs            []ProjectURL // Project-URL, in order
	License                string       // License: a short name or, in old files, the whole license text
	LicenseExpression      string       // License-Expression (metadata 2.4): an SPDX expression
	Classifiers            []string     // Classifier, in order
	RequiresDist           []string     // Requires-Dist, in order
	RequiresPython         string       // Requires-Python
	Author                 string
	AuthorEmail            string
	Maintainer             string
	MaintainerEmail        string
}

// ProjectURL is one Project-URL header: "Label, URL".
type ProjectURL struct {
	Label string
	URL   string
}

// rawHeader is one header with its continuation lines, unfolded later.
type rawHeader struct {
	key   string // lowercased
	value string
	cont  []string
}

// ParseMetadata reads a core metadata file: RFC 822-style headers ("Name: value", continuation
// lines starting with white space, repeated headers for multi-valued fields), a blank line, then
// the long description as the message body. Header names are matched case-insensitively; lines
// that are neither headers nor continuations are skipped. A byte order mark and CRLF line ends
// are accepted. ParseMetadata never fails: a file that is not metadata yields empty fields, which
// callers check (Name, Version).
func ParseMetadata(src []byte) *Metadata {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	s := string(src)
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	var headers []rawHeader
	body := ""
	for pos := 0; pos < len(s); {
		end := strings.IndexByte(s[pos:], '\n')
		next := len(s)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(s)
		}
		line := s[pos:end]
		pos = next
		if line == "" {
			body = s[pos:]
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(headers) > 0 {
				h := &headers[len(headers)-1]
				h.cont = append(h.cont, line)
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		headers = append(headers, rawHeader{key: strings.ToLower(strings.TrimSpace(k)), value: strings.TrimLeft(v, " \t")})
	}

	m := &Metadata{}
	// The headers that map to a field as they are: single-valued ones (a repeated header's last
	// value wins) and multi-valued ones (every non-empty value, in order).
	single := map[string]*string{
		"metadata-version": &m.MetadataVersion, "name": &m.Name, "version": &m.Version, "summary": &m.Summary,
		"description-content-type": &m.DescriptionContentType, "home-page": &m.HomePage,
		"download-url": &m.DownloadURL, "license-expression": &m.LicenseExpression,
		"requires-python": &m.RequiresPython, "author": &m.Author, "author-email": &m.AuthorEmail,
		"maintainer": &m.Maintainer, "maintainer-email": &m.MaintainerEmail,
	}
	multi := map[string]*[]string{"classifier": &m.Classifiers, "requires-dist": &m.RequiresDist}
	var descHeader string
	for _, h := range headers {
		v := unfold(h)
		if f := single[h.key]; f != nil {
			*f = v
			continue
		}
		if f := multi[h.key]; f != nil {
			if v != "" {
				*f = append(*f, v)
			}
			continue
		}
		switch h.key {
		case "description":
			descHeader = dedentDescription(h)
		case "keywords":
			m.Keywords = splitKeywords(v)
		case "project-url":
			label, u, ok := strings.Cut(v, ",")
			if !ok {
				label, u = "", label
			}
			if u = strings.TrimSpace(u); u != "" {
				m.ProjectURLs = append(m.ProjectURLs, ProjectURL{Label: strings.TrimSpace(label), URL: u})
			}
		case "license":
			m.License = strings.TrimSpace(dedentDescription(h))
			if m.License == "UNKNOWN" {
				m.License = ""
			}
		}
	}
	m.Description = body
	if strings.TrimSpace(body) == "" {
		m.Description = descHeader
	}
	if strings.TrimSpace(m.Description) == "UNKNOWN" {
		m.Description = ""
	}
	return m
}

// unfold joins a header's continuation lines to its value with single spaces; "UNKNOWN" is "".
func unfold(h rawHeader) string {
	v := strings.TrimSpace(h.value)
	for _, c := range h.cont {
		if c = strings.TrimSpace(c); c != "" {
			v += " " + c
		}
	}
	v = strings.TrimSpace(v)
	if v == "UNKNOWN" {
		return ""
	}
	return v
}

// dedentDescription returns a multi-line header value with its continuation lines dedented: the
// "       |" prefix (PEP 345) when every line has it, else the lines' common indentation up to 8
// spaces (setuptools' rfc822_escape).
func dedentDescription(h rawHeader) string {
	if len(h.cont) == 0 {
		return strings.TrimSpace(h.value)
	}
	pipe := true
	indent := -1
	for _, c := range h.cont {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if !strings.HasPrefix(c, "       |") {
			pipe = false
		}
		n := len(c) - len(strings.TrimLeft(c, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	indent = min(max(indent, 0), 8)
	lines := make([]string, 0, len(h.cont)+1)
	lines = append(lines, strings.TrimSpace(h.value))
	for _, c := range h.cont {
		switch {
		case strings.TrimSpace(c) == "":
			lines = append(lines, "")
		case pipe:
			lines = append(lines, strings.TrimRight(c[8:], " \t"))
		default:
			lines = append(lines, strings.TrimRight(c[indent:], " \t"))
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// splitKeywords splits a Keywords value at commas, or at white space when it has no comma.
func splitKeywords(v string) []string {
	var parts []string
	if strings.Contains(v, ",") {
		parts = strings.Split(v, ",")
	} else {
		parts = strings.Fields(v)
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// ContentType returns the media type of the long description, lowercased and without
// parameters: "text/markdown", "text/x-rst", "text/plain" or whatever the file says. A missing
// Description-Content-Type means reStructuredText, as PyPI assumes
// (https://packaging.python.org/en/latest/specifications/core-metadata/#description-content-type).
func (m *Metadata) ContentType() string {
	ct := strings.TrimSpace(m.DescriptionContentType)
	if ct == "" {
		return "text/x-rst"
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// LicenseName returns the distribution's license for docidx.Package.License: License-Expression
// when set (an SPDX expression), else a short License value, else the license classifiers
// mapped to SPDX identifiers where one fits ("License :: OSI Approved :: MIT License" -> "MIT";
// several are joined with " OR "), else the first line of a License field that holds the whole
// license text, when it reads like a name.
func (m *Metadata) LicenseName() string {
	if e := strings.TrimSpace(m.LicenseExpression); e != "" {
		return e
	}
	lic := strings.TrimSpace(m.License)
	if lic != "" && !strings.Contains(lic, "\n") && len(lic) <= 100 {
		return lic
	}
	var names []string
	for _, c := range m.Classifiers {
		parts := strings.Split(c, "::")
		if len(parts) < 2 || strings.TrimSpace(parts[0]) != "License" {
			continue
		}
		last := strings.TrimSpace(parts[len(parts)-1])
		if last == "OSI Approved" {
			continue
		}
		if id, ok := classifierSPDX[last]; ok {
			last = id
		}
		names = appendUniqueString(names, last)
	}
	if len(names) > 0 {
		return strings.Join(names, " OR ")
	}
	if lic != "" {
		first, _, _ := strings.Cut(lic, "\n")
		first = strings.TrimSpace(first)
		if first != "" && len(first) <= 60 && !strings.HasPrefix(strings.ToLower(first), "copyright") {
			return first
		}
	}
	return ""
}

func appendUniqueString(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// classifierSPDX maps the last part of common "License ::" trove classifiers to SPDX identifiers.
var classifierSPDX = map[string]string{
	"MIT License":                                             "MIT",
	"MIT No Attribution License (MIT-0)":                      "MIT-0",
	"Apache Software License":                                 "Apache-2.0",
	"BSD License":                                             "BSD",
	"ISC License (ISCL)":                                      "ISC",
	"Mozilla Public License 2.0 (MPL 2.0)":                    "MPL-2.0",
	"GNU General Public License v2 (GPLv2)":                   "GPL-2.0",
	"GNU General Public License v3 (GPLv3)":                   "GPL-3.0",
	"GNU General Public License v2 or later (GPLv2+)":         "GPL-2.0-or-later",
	"GNU General Public License v3 or later (GPLv3+)":         "GPL-3.0-or-later",
	"GNU Lesser General Public License v2 (LGPLv2)":           "LGPL-2.0",
	"GNU Lesser General Public License v3 (LGPLv3)":           "LGPL-3.0",
	"GNU Lesser General Public License v2 or later (LGPLv2+)": "LGPL-2.0-or-later",
	"GNU Lesser General Public License v3 or later (LGPLv3+)": "LGPL-3.0-or-later",
	"GNU Library or Lesser General Public License (LGPL)":     "LGPL",
	"GNU Affero General Public License v3":                    "AGPL-3.0",
	"GNU Affero General Public License v3 or later (AGPLv3+)": "AGPL-3.0-or-later",
	"Python Software Foundation License":                      "PSF-2.0",
	"The Unlicense (Unlicense)":                               "Unlicense",
	"Boost Software License 1.0 (BSL-1.0)":                    "BSL-1.0",
	"Eclipse Public License 2.0 (EPL-2.0)":                    "EPL-2.0",
	"zlib/libpng License":                                     "Zlib",
	"Academic Free License (AFL)":                             "AFL-3.0",
	"Artistic License":                                        "Artistic-2.0",
	"European Union Public Licence 1.2 (EUPL 1.2)":            "EUPL-1.2",
	"Universal Permissive License (UPL)":                      "UPL-1.0",
	"CC0 1.0 Universal (CC0 1.0) Public Domain Dedication":    "CC0-1.0",
}

// labelKey normalizes a Project-URL label the way PEP 753 does
// (https://peps.python.org/pep-0753/#label-normalization): punctuation and white space removed,
// lowercased. "Source Code" and "source-code" both become "sourcecode".
func labelKey(label string) string {
	var b strings.Builder
	for _, r := range label {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// projectURL returns the first Project-URL whose normalized label is one of keys.
func (m *Metadata) projectURL(keys ...string) string {
	for _, k := range keys {
		for _, pu := range m.ProjectURLs {
			if labelKey(pu.Label) == k && usableURL(pu.URL) {
				return pu.URL
			}
		}
	}
	return ""
}

func usableURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}

// Homepage returns the project's home page: the Home-page header, else the Project-URL labelled
// "Homepage" (or "Home"), per PEP 753's well-known labels.
func (m *Metadata) Homepage() string {
	if usableURL(m.HomePage) {
		return strings.TrimSpace(m.HomePage)
	}
	return m.projectURL("homepage", "home")
}

// codeHosts are hosts whose project pages are source repositories.
var codeHosts = []string{"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sr.ht", "git.sr.ht"}

// Repository returns the project's source repository: the Project-URL labelled Source,
// Source Code, Repository, Code, GitHub or GitLab (labels normalized as PEP 753 says), else the
// home page when it is on a code host (GitHub, GitLab, Bitbucket, Codeberg, SourceHut).
func (m *Metadata) Repository() string {
	if u := m.projectURL("source", "sourcecode", "repository", "code", "github", "gitlab", "git", "sourcerepository"); u != "" {
		return u
	}
	home := m.Homepage()
	if p, err := url.Parse(home); err == nil {
		host := strings.TrimPrefix(strings.ToLower(p.Host), "www.")
		for _, h := range codeHosts {
			if host == h && strings.Count(strings.Trim(p.Path, "/"), "/") >= 1 {
				return home
			}
		}
	}
	return ""
}
