package cargo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/cargo/internal/indexpath"
)

// maxNameLength is the longest crate name crates.io accepts.
const maxNameLength = 64

// ValidName reports whether name can be a crate name docidx asks a registry for: 1 to 64 ASCII
// letters, digits, "-" and "_", starting with a letter or "_"
// (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files allows these in
// index paths; crates.io also requires the first character to be a letter).
func ValidName(name string) bool {
	if name == "" || len(name) > maxNameLength {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// IndexPath returns the path of a crate's file inside an index, by the rules of the registry
// index format (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files): the
// lowercased name under "1/", "2/", "3/<first char>/", or "<chars 1-2>/<chars 3-4>/"; "" for an
// empty name.
func IndexPath(name string) string { return indexpath.Path(name) }

// indexPrefix is the {prefix} of a download template: IndexPath's directory, with the name's
// original case.
func indexPrefix(name string) string { return indexpath.Prefix(name) }

// IndexEntry is one line of an index file: one published version of a crate. Only the fields
// docidx uses are decoded (dependencies and features are not).
type IndexEntry struct {
	Name    string `json:"name"`
	Vers    string `json:"vers"`
	Cksum   string `json:"cksum"`   // lowercase hex sha256 of the .crate
	Yanked  bool   `json:"yanked"`  // withdrawn: not selected unless named exactly
	PubTime string `json:"pubtime"` // RFC 3339 publication time, in newer crates.io entries
	V       int    `json:"v"`       // entry format version (1 or 2; absent means 1)
}

// ParseIndexFile parses the newline-delimited JSON of an index file. Blank lines are skipped, as
// are lines that are not JSON objects, lack a name or a checksum, or carry a version that is not
// semantic versioning 2.0.0 — cargo skips entries it cannot read the same way. skipped counts the
// lines dropped. It never fails.
func ParseIndexFile(data []byte) (entries []IndexEntry, skipped int) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var e IndexEntry
		if err := json.Unmarshal(line, &e); err != nil || e.Name == "" || e.Cksum == "" {
			skipped++
			continue
		}
		if _, err := semver.StrictNewVersion(e.Vers); err != nil {
			skipped++
			continue
		}
		entries = append(entries, e)
	}
	return entries, skipped
}

// published returns the entry's publication time, or the zero time.
func (e *IndexEntry) published() time.Time {
	t, err := time.Parse(time.RFC3339, e.PubTime)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// indexConfig is an index's config.json
// (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-configuration).
type indexConfig struct {
	DL           string `json:"dl"`
	API          string `json:"api"`
	AuthRequired bool   `json:"auth-required"`
}

// dlMarkers are the template markers of config.json's dl field.
var dlMarkers = []string{"{crate}", "{version}", "{prefix}", "{lowerprefix}", "{sha256-checksum}"}

// downloadURL returns the URL of a crate version's .crate from the dl template: its markers
// replaced, or when it has none, "/{crate}/{version}/download" appended.
func downloadURL(dl string, e *IndexEntry) (string, error) {
	has := false
	for _, m := range dlMarkers {
		if strings.Contains(dl, m) {
			has = true
			break
		}
	}
	if !has {
		dl = strings.TrimSuffix(dl, "/") + "/{crate}/{version}/download"
	}
	u := strings.NewReplacer(
		"{crate}", e.Name,
		"{version}", e.Vers,
		"{prefix}", indexPrefix(e.Name),
		"{lowerprefix}", strings.ToLower(indexPrefix(e.Name)),
		"{sha256-checksum}", e.Cksum,
	).Replace(dl)
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		return "", fmt.Errorf("the index's config.json gives dl %q, which does not make an http(s) URL", redact.URL(dl))
	}
	return u, nil
}

// resolveVersion picks the version query selects among a crate's versions, as cargo would:
//
//   - "" or "latest": the highest version that is neither yanked nor a pre-release; else the
//     highest pre-release that is not yanked;
//   - an exact version ("1.2.3", "=1.2.3", "v1.2.3"): that version, yanked or not;
//   - a version requirement in Cargo's syntax
//     (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html): comma-separated
//     comparators where a bare version is a caret requirement ("1.2" means "^1.2"), with ~, *, x
//     wildcards, <, <=, >, >=; the highest matching version that is not yanked, pre-releases
//     only when a comparator names a pre-release of the same version.
//
// Errors wrap docidx.ErrNotFound (no such version, nothing matches, every version yanked) or
// docidx.ErrBadSpec (a query that is no version or requirement).
func resolveVersion(name string, versions []string, yanked func(string) bool, query string) (string, error) {
	q := strings.TrimSpace(query)
	sorted := append([]string(nil), versions...)
	docidx.SortVersions(docidx.Cargo, sorted)
	latest := ""
	for i := len(sorted) - 1; i >= 0; i-- {
		if !yanked(sorted[i]) && !docidx.IsPrerelease(docidx.Cargo, sorted[i]) {
			latest = sorted[i]
			break
		}
	}
	if q == "" || q == "latest" {
		if latest != "" {
			return latest, nil
		}
		for i := len(sorted) - 1; i >= 0; i-- {
			if !yanked(sorted[i]) {
				return sorted[i], nil
			}
		}
		return "", fmt.Errorf("every version of %s is yanked: %w", name, docidx.ErrNotFound)
	}
	exact := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(q, "=")), "v"), "V")
	if want, err := semver.StrictNewVersion(exact); err == nil && !strings.ContainsAny(q, "<>~^*,") {
		for _, v := range versions {
			if sv, err := semver.StrictNewVersion(v); err == nil && sv.Equal(want) {
				return v, nil
			}
		}
		return "", fmt.Errorf("%s has no version %s (latest is %s): %w", name, exact, orNone(latest), docidx.ErrNotFound)
	}
	c, err := requirement(q)
	if err != nil {
		return "", fmt.Errorf("%w: %q is not a version or version requirement of %s: %v", docidx.ErrBadSpec, query, name, err)
	}
	for i := len(sorted) - 1; i >= 0; i-- {
		v := sorted[i]
		if yanked(v) {
			continue
		}
		if sv, err := semver.StrictNewVersion(v); err == nil && c.Check(sv) && (sv.Prerelease() == "" || preAllowed(q, sv)) {
			return v, nil
		}
	}
	return "", fmt.Errorf("no version of %s matches %q (latest is %s): %w", name, query, orNone(latest), docidx.ErrNotFound)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// preAllowed reports whether a requirement lets pre-release v match: as in Cargo (and the semver
// crate), only when one of its comparators names a pre-release of the same major.minor.patch.
func preAllowed(q string, v *semver.Version) bool {
	for _, part := range strings.Split(q, ",") {
		part = strings.TrimLeft(strings.TrimSpace(part), "=<>~^ ")
		cv, err := semver.NewVersion(part)
		if err == nil && cv.Prerelease() != "" && cv.Major() == v.Major() && cv.Minor() == v.Minor() && cv.Patch() == v.Patch() {
			return true
		}
	}
	return false
}

// requirement parses a Cargo version requirement: comparators separated by ",", a comparator
// without an operator being a caret requirement.
func requirement(q string) (*semver.Constraints, error) {
	parts := strings.Split(q, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("empty comparator")
		}
		if c := p[0]; c >= '0' && c <= '9' {
			p = "^" + p
		}
		parts[i] = p
	}
	return semver.NewConstraint(strings.Join(parts, ", "))
}
