package pypi

import (
	"encoding/json"
	"html"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// distFile is one file of a release, as the JSON API or the simple API describes it.
type distFile struct {
	filename       string
	url            string            // absolute
	hashes         map[string]string // lowercase algorithm -> lowercase hex digest
	size           int64             // bytes; -1 when not given
	yanked         bool
	yankedReason   string
	uploadTime     time.Time
	requiresPython string
	// coreMetadata says a PEP 658 metadata file is served at url + ".metadata", with its hashes.
	coreMetadata   bool
	metadataHashes map[string]string
}

// kind returns "wheel", "sdist", or "" for other files (eggs, installers).
func (f *distFile) kind() string {
	n := strings.ToLower(f.filename)
	switch {
	case strings.HasSuffix(n, ".whl"):
		return "wheel"
	case sdistExt(n) != "":
		return "sdist"
	}
	return ""
}

// sdistExt returns the archive extension of an sdist file name, or "".
func sdistExt(n string) string {
	for _, ext := range []string{".tar.gz", ".tgz", ".tar.bz2", ".tar", ".zip"} {
		if strings.HasSuffix(strings.ToLower(n), ext) {
			return ext
		}
	}
	return ""
}

// pure reports whether a wheel is pure Python (abi "none", platform "any").
func (f *distFile) pure() bool {
	parts := strings.Split(strings.TrimSuffix(f.filename, ".whl"), "-")
	return len(parts) >= 5 && parts[len(parts)-2] == "none" && parts[len(parts)-1] == "any"
}

// fileVersion returns the version a distribution file name carries for the project norm
// (normalized name): wheels "{dist}-{version}(-{build})?-{py}-{abi}-{plat}.whl" (PEP 427),
// sdists "{name}-{version}.tar.gz" (and .zip, .tar.bz2 …), eggs "{name}-{version}-….egg".
func fileVersion(norm, filename string) (string, bool) {
	lower := strings.ToLower(filename)
	switch {
	case strings.HasSuffix(lower, ".whl"):
		parts := strings.Split(filename[:len(filename)-4], "-")
		if (len(parts) == 5 || len(parts) == 6) && Normalize(parts[0]) == norm {
			return parts[1], true
		}
		return "", false
	case strings.HasSuffix(lower, ".egg"):
		parts := strings.Split(filename[:len(filename)-4], "-")
		if len(parts) >= 2 && Normalize(parts[0]) == norm {
			return parts[1], true
		}
		return "", false
	}
	ext := sdistExt(lower)
	if ext == "" {
		return "", false
	}
	base := filename[:len(filename)-len(ext)]
	for i := 0; i < len(base); i++ {
		if base[i] == '-' && i+1 < len(base) && base[i+1] >= '0' && base[i+1] <= '9' && Normalize(base[:i]) == norm {
			return base[i+1:], true
		}
	}
	return "", false
}

// project is what an index knows of one project: its releases and, from the JSON API, the
// latest release's metadata.
type project struct {
	name     string                 // normalized
	display  string                 // as the index spells it
	releases map[string][]*distFile // version -> files (possibly none)
	yanked   map[string]bool        // versions yanked without files to say so (PEP 700 lists)
	info     *jsonInfo              // the JSON API's info (latest release), nil from the simple API
	source   string                 // URL read, without credentials
	viaJSON  bool
	partial  bool // a JSON API document without the release list
}

// candidates returns the releases for resolveVersion.
func (p *project) candidates() []candidate {
	out := make([]candidate, 0, len(p.releases))
	for v, files := range p.releases {
		c := candidate{version: v, files: len(files) > 0, yanked: p.yanked[v]}
		if len(files) > 0 {
			c.yanked = true
			for _, f := range files {
				c.yanked = c.yanked && f.yanked
			}
		}
		out = append(out, c)
	}
	return out
}

// versions returns every release, oldest first.
func (p *project) versions() []string {
	vs := slices.Collect(maps.Keys(p.releases))
	sort.SliceStable(vs, func(i, j int) bool { return cmp(vs[i], vs[j]) < 0 || cmp(vs[i], vs[j]) == 0 && vs[i] < vs[j] })
	return vs
}

// jsonProject is the part of a JSON API project document docidx reads
// (https://docs.pypi.org/api/json/).
type jsonProject struct {
	Info     jsonInfo              `json:"info"`
	Releases map[string][]jsonFile `json:"releases"`
	URLs     []jsonFile            `json:"urls"`
}

type jsonInfo struct {
	Name                   string            `json:"name"`
	Version                string            `json:"version"`
	Summary                nullString        `json:"summary"`
	Description            nullString        `json:"description"`
	DescriptionContentType nullString        `json:"description_content_type"`
	Keywords               json.RawMessage   `json:"keywords"`
	License                nullString        `json:"license"`
	LicenseExpression      nullString        `json:"license_expression"`
	HomePage               nullString        `json:"home_page"`
	ProjectURLs            map[string]string `json:"project_urls"`
	Classifiers            []string          `json:"classifiers"`
	RequiresDist           []string          `json:"requires_dist"`
	RequiresPython         nullString        `json:"requires_python"`
	Author                 nullString        `json:"author"`
	AuthorEmail            nullString        `json:"author_email"`
	Yanked                 bool              `json:"yanked"`
	YankedReason           nullString        `json:"yanked_reason"`
}

// nullString decodes a JSON string, null, or any other value (as "").
type nullString string

func (s *nullString) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		*s = nullString(v)
	}
	return nil
}

type jsonFile struct {
	Filename       string            `json:"filename"`
	URL            string            `json:"url"`
	Size           *int64            `json:"size"`
	Digests        map[string]string `json:"digests"`
	Yanked         bool              `json:"yanked"`
	YankedReason   nullString        `json:"yanked_reason"`
	UploadTime     nullString        `json:"upload_time_iso_8601"`
	RequiresPython nullString        `json:"requires_python"`
	CoreMetadata   json.RawMessage   `json:"core-metadata"`
}

func (jf *jsonFile) distFile(base *url.URL) *distFile {
	f := &distFile{
		filename: jf.Filename, url: resolveURL(base, jf.URL), hashes: lowerKeys(jf.Digests), size: -1,
		yanked: jf.Yanked, yankedReason: string(jf.YankedReason), requiresPython: string(jf.RequiresPython),
	}
	if jf.Size != nil {
		f.size = *jf.Size
	}
	f.uploadTime, _ = time.Parse(time.RFC3339, string(jf.UploadTime))
	f.coreMetadata, f.metadataHashes = metadataFlag(jf.CoreMetadata)
	return f
}

// metadata returns the JSON API info as core metadata.
func (i *jsonInfo) metadata() *Metadata {
	m := &Metadata{
		Name: i.Name, Version: i.Version, Summary: string(i.Summary), Description: string(i.Description),
		DescriptionContentType: string(i.DescriptionContentType), HomePage: string(i.HomePage),
		License: string(i.License), LicenseExpression: string(i.LicenseExpression), Classifiers: i.Classifiers,
		RequiresDist: i.RequiresDist, RequiresPython: string(i.RequiresPython), Author: string(i.Author),
		AuthorEmail: string(i.AuthorEmail),
	}
	if m.License == "UNKNOWN" {
		m.License = ""
	}
	var kw string
	var kws []string
	switch {
	case json.Unmarshal(i.Keywords, &kw) == nil:
		m.Keywords = splitKeywords(kw)
	case json.Unmarshal(i.Keywords, &kws) == nil:
		m.Keywords = splitKeywords(strings.Join(kws, ","))
	}
	for _, l := range slices.Sorted(maps.Keys(i.ProjectURLs)) {
		m.ProjectURLs = append(m.ProjectURLs, ProjectURL{Label: l, URL: i.ProjectURLs[l]})
	}
	return m
}

// parseJSONProject decodes a JSON API project (or release) document fetched from base.
func parseJSONProject(body []byte, base *url.URL, norm string) (*project, error) {
	var jp jsonProject
	if err := json.Unmarshal(body, &jp); err != nil {
		// A field of an unexpected type leaves the rest decoded.
		if _, ok := err.(*json.UnmarshalTypeError); !ok {
			return nil, err
		}
	}
	p := &project{name: norm, display: jp.Info.Name, releases: map[string][]*distFile{}, yanked: map[string]bool{}, info: &jp.Info, viaJSON: true}
	for v, files := range jp.Releases {
		list := make([]*distFile, 0, len(files))
		for i := range files {
			if files[i].Filename != "" && files[i].URL != "" {
				list = append(list, files[i].distFile(base))
			}
		}
		p.releases[v] = list
	}
	p.partial = jp.Releases == nil
	if len(p.releases) == 0 && jp.Info.Version != "" {
		// A release document, or a project document without "releases": the urls are the files
		// of info.version.
		var list []*distFile
		for i := range jp.URLs {
			if jp.URLs[i].Filename != "" && jp.URLs[i].URL != "" {
				list = append(list, jp.URLs[i].distFile(base))
			}
		}
		p.releases[jp.Info.Version] = list
		p.yanked[jp.Info.Version] = jp.Info.Yanked
	}
	return p, nil
}

// simpleProject is a PEP 691 JSON project page (https://peps.python.org/pep-0691/), with PEP 700's
// versions, size and upload-time, and PEP 714's core-metadata.
type simpleProject struct {
	Name     string       `json:"name"`
	Versions []string     `json:"versions"`
	Files    []simpleFile `json:"files"`
}

type simpleFile struct {
	Filename       string            `json:"filename"`
	URL            string            `json:"url"`
	Hashes         map[string]string `json:"hashes"`
	RequiresPython nullString        `json:"requires-python"`
	Yanked         json.RawMessage   `json:"yanked"`
	CoreMetadata   json.RawMessage   `json:"core-metadata"`
	DistInfoMeta   json.RawMessage   `json:"dist-info-metadata"`
	Size           *int64            `json:"size"`
	UploadTime     nullString        `json:"upload-time"`
}

// metadataFlag reads a PEP 658/714 value: true, or a map of hashes; false, null or absent mean
// no metadata file.
func metadataFlag(raw json.RawMessage) (bool, map[string]string) {
	if len(raw) == 0 {
		return false, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, nil
	}
	var h map[string]string
	if json.Unmarshal(raw, &h) == nil && h != nil {
		return true, lowerKeys(h)
	}
	return false, nil
}

// parseSimpleJSON decodes a PEP 691 project page fetched from base.
func parseSimpleJSON(body []byte, base *url.URL, norm string) (*project, error) {
	var sp simpleProject
	if err := json.Unmarshal(body, &sp); err != nil {
		// A field of an unexpected type leaves the rest decoded.
		if _, ok := err.(*json.UnmarshalTypeError); !ok {
			return nil, err
		}
	}
	p := &project{name: norm, display: sp.Name, releases: map[string][]*distFile{}, yanked: map[string]bool{}}
	for _, v := range sp.Versions {
		p.releases[v] = nil
	}
	for i := range sp.Files {
		sf := &sp.Files[i]
		if sf.Filename == "" || sf.URL == "" {
			continue
		}
		f := &distFile{filename: sf.Filename, url: resolveURL(base, sf.URL), hashes: lowerKeys(sf.Hashes), size: -1, requiresPython: string(sf.RequiresPython)}
		if sf.Size != nil {
			f.size = *sf.Size
		}
		f.uploadTime, _ = time.Parse(time.RFC3339, string(sf.UploadTime))
		var yb bool
		var ys string
		switch {
		case json.Unmarshal(sf.Yanked, &yb) == nil:
			f.yanked = yb
		case json.Unmarshal(sf.Yanked, &ys) == nil:
			f.yanked, f.yankedReason = true, ys
		}
		f.coreMetadata, f.metadataHashes = metadataFlag(sf.CoreMetadata)
		if !f.coreMetadata {
			f.coreMetadata, f.metadataHashes = metadataFlag(sf.DistInfoMeta)
		}
		p.addFile(f)
	}
	return p, nil
}

// addFile files f under the version its name carries.
func (p *project) addFile(f *distFile) {
	if v, ok := fileVersion(p.name, f.filename); ok {
		p.releases[v] = append(p.releases[v], f)
		return
	}
	// A file whose name does not parse against the project name: match a listed version.
	for v := range p.releases {
		if strings.Contains(f.filename, "-"+v+".") || strings.Contains(f.filename, "-"+v+"-") {
			p.releases[v] = append(p.releases[v], f)
			return
		}
	}
}

// parseSimpleHTML reads a PEP 503 project page: one anchor per file, the URL's fragment giving a
// hash ("#sha256=…"), data-requires-python, data-yanked (PEP 592) and data-core-metadata or
// data-dist-info-metadata (PEP 658/714, "true" or "sha256=…").
func parseSimpleHTML(body []byte, base *url.URL, norm string) *project {
	p := &project{name: norm, releases: map[string][]*distFile{}, yanked: map[string]bool{}}
	s := string(body)
	for {
		i := indexFold(s, "<a")
		if i < 0 {
			break
		}
		s = s[i+2:]
		if s == "" || !(s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r' || s[0] == '>') {
			continue
		}
		end := strings.IndexByte(s, '>')
		if end < 0 {
			break
		}
		attrs := parseAttrs(s[:end])
		s = s[end+1:]
		text := s
		if j := indexFold(s, "</a"); j >= 0 {
			text = s[:j]
		}
		href, ok := attrs["href"]
		if !ok || href == "" {
			continue
		}
		f := &distFile{size: -1, hashes: map[string]string{}}
		raw, frag, _ := strings.Cut(href, "#")
		f.url = resolveURL(base, raw)
		if alg, hex, ok := strings.Cut(frag, "="); ok {
			f.hashes[strings.ToLower(alg)] = strings.ToLower(hex)
		}
		f.filename = strings.TrimSpace(html.UnescapeString(text))
		if f.filename == "" || strings.ContainsAny(f.filename, "<>/") {
			if u, err := url.Parse(f.url); err == nil {
				f.filename = u.Path[strings.LastIndexByte(u.Path, '/')+1:]
			}
		}
		f.requiresPython = attrs["data-requires-python"]
		if reason, ok := attrs["data-yanked"]; ok {
			f.yanked, f.yankedReason = true, reason
		}
		for _, a := range []string{"data-core-metadata", "data-dist-info-metadata"} {
			if v, ok := attrs[a]; ok && !f.coreMetadata {
				f.coreMetadata = true
				if alg, hex, ok := strings.Cut(v, "="); ok {
					f.metadataHashes = map[string]string{strings.ToLower(alg): strings.ToLower(hex)}
				}
			}
		}
		p.addFile(f)
	}
	return p
}

// indexFold returns the index of the lowercase ASCII string sub in s, ignoring ASCII case, or -1.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseAttrs reads the attributes of a tag (name="value", name='value', name=value, name), with
// entities in values unescaped and names lowercased.
func parseAttrs(s string) map[string]string {
	attrs := map[string]string{}
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '/') {
			i++
		}
		j := i
		for j < len(s) && s[j] != '=' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' && s[j] != '/' {
			j++
		}
		if j == i {
			i++
			continue
		}
		name := strings.ToLower(s[i:j])
		i = j
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		if i >= len(s) || s[i] != '=' {
			attrs[name] = ""
			continue
		}
		i++
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		var val string
		if i < len(s) && (s[i] == '"' || s[i] == '\'') {
			q := s[i]
			k := strings.IndexByte(s[i+1:], q)
			if k < 0 {
				val, i = s[i+1:], len(s)
			} else {
				val, i = s[i+1:i+1+k], i+2+k
			}
		} else {
			k := i
			for k < len(s) && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' && s[k] != '\r' {
				k++
			}
			val, i = s[i:k], k
		}
		attrs[name] = html.UnescapeString(val)
	}
	return attrs
}

// resolveURL resolves ref against base. A URL on the index's own origin (scheme, host and port)
// gets the index's credentials when it carries none, so private indexes whose file links are
// absolute still work; a link that downgrades to http gets none.
func resolveURL(base *url.URL, ref string) string {
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return ref
	}
	u := base.ResolveReference(r)
	if u.User == nil && base.User != nil && strings.EqualFold(u.Scheme, base.Scheme) && strings.EqualFold(u.Host, base.Host) {
		u.User = base.User
	}
	return u.String()
}

func lowerKeys(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = strings.ToLower(strings.TrimSpace(v))
	}
	return out
}

// formatSize prints a byte count for messages.
func formatSize(n int64) string { return strconv.FormatInt(n, 10) + " bytes" }
