package npm

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/npm/internal/jsapi"
)

// flexString decodes a JSON string and turns any other JSON value into "", so one odd field never
// fails a whole package.json or packument.
type flexString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *flexString) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		*s = flexString(v)
	} else {
		*s = ""
	}
	return nil
}

// manifest is the part of a package.json (or a packument's version object, which holds the
// published package.json plus dist) that docidx reads.
type manifest struct {
	Name           flexString      `json:"name"`
	Version        flexString      `json:"version"`
	Description    flexString      `json:"description"`
	License        json.RawMessage `json:"license"`
	Licenses       json.RawMessage `json:"licenses"`
	Homepage       flexString      `json:"homepage"`
	Repository     json.RawMessage `json:"repository"`
	Keywords       json.RawMessage `json:"keywords"`
	Deprecated     json.RawMessage `json:"deprecated"`
	Readme         flexString      `json:"readme"`
	ReadmeFilename flexString      `json:"readmeFilename"`
	Types          flexString      `json:"types"`
	Typings        flexString      `json:"typings"`
	Main           flexString      `json:"main"`
	Exports        json.RawMessage `json:"exports"`
	TypesVersions  json.RawMessage `json:"typesVersions"`
	Dist           json.RawMessage `json:"dist"`
	Engines        json.RawMessage `json:"engines"`
	Bin            json.RawMessage `json:"bin"`
}

// commands returns the commands package name's bin installs
// (https://docs.npmjs.com/cli/configuring-npm/package-json#bin): each key of a bin object, or,
// for a bin string, the package's name without its scope. A bin of any other shape installs
// none.
func (m *manifest) commands(name string) []string {
	if len(m.Bin) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(m.Bin, &one) == nil {
		if strings.TrimSpace(one) == "" {
			return nil
		}
		return docidx.CommandNames([]string{path.Base(name)})
	}
	var many map[string]json.RawMessage
	if json.Unmarshal(m.Bin, &many) != nil {
		return nil
	}
	return docidx.CommandNames(slices.Collect(maps.Keys(many)))
}

// dist is a packument version's dist object.
type dist struct {
	Tarball   flexString `json:"tarball"`
	Shasum    flexString `json:"shasum"`
	Integrity flexString `json:"integrity"`
}

func parseManifest(data []byte) (*manifest, error) {
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

func (m *manifest) dist() dist {
	var d dist
	if len(m.Dist) > 0 {
		_ = json.Unmarshal(m.Dist, &d) // a malformed dist reads as empty
	}
	return d
}

// noReadme is what the registry stores when a package was published without a README.
const noReadme = "ERROR: No README data found!"

// readme returns the manifest's readme text, or "" when absent or the registry's placeholder.
func (m *manifest) readme() string {
	r := strings.TrimSpace(string(m.Readme))
	if r == "" || r == noReadme {
		return ""
	}
	return string(m.Readme)
}

// license returns an SPDX expression: "license" as a string, or the "type" of a legacy license
// object, or the types of a legacy "licenses" array joined with " OR ".
func (m *manifest) license() string {
	if s := licenseValue(m.License); s != "" {
		return s
	}
	return licenseValue(m.Licenses)
}

func licenseValue(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var obj struct {
		Type flexString `json:"type"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Type != "" {
		return strings.TrimSpace(string(obj.Type))
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		var parts []string
		for _, a := range arr {
			if s := licenseValue(a); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 1 {
			return "(" + strings.Join(parts, " OR ") + ")"
		}
		return strings.Join(parts, "")
	}
	return ""
}

// keywords returns the keywords array, or a keywords string split at commas and spaces.
func (m *manifest) keywords() []string {
	if len(m.Keywords) == 0 {
		return nil
	}
	var arr []flexString
	var out []string
	if json.Unmarshal(m.Keywords, &arr) == nil {
		for _, k := range arr {
			if k := strings.TrimSpace(string(k)); k != "" {
				out = append(out, k)
			}
		}
		return out
	}
	var s string
	if json.Unmarshal(m.Keywords, &s) == nil {
		return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	}
	return nil
}

// engines returns the runtimes the package.json's engines field names, sorted by name
// (https://docs.npmjs.com/cli/configuring-npm/package-json#engines): an object of ranges,
// {"node": ">=18"}, or the array of "name range" strings of old packages. A range of "*" or
// none says nothing and is left out, as is a value of another type.
func (m *manifest) engines() []docidx.Requirement {
	if len(m.Engines) == 0 {
		return nil
	}
	var out []docidx.Requirement
	add := func(name, rng string) {
		name, rng = strings.TrimSpace(name), strings.Join(strings.Fields(rng), " ")
		if name != "" && rng != "" && rng != "*" && !slices.ContainsFunc(out, func(r docidx.Requirement) bool { return r.Name == name }) {
			out = append(out, docidx.Requirement{Name: name, Range: rng})
		}
	}
	var obj map[string]json.RawMessage
	var arr []string
	switch {
	case json.Unmarshal(m.Engines, &obj) == nil:
		for name, raw := range obj {
			var rng string
			if json.Unmarshal(raw, &rng) == nil {
				add(name, rng)
			}
		}
	case json.Unmarshal(m.Engines, &arr) == nil:
		for _, s := range arr {
			name, rng, _ := strings.Cut(strings.TrimSpace(s), " ")
			add(name, rng)
		}
	}
	slices.SortFunc(out, func(a, b docidx.Requirement) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// deprecated returns the deprecation message: a string as is, true as "deprecated", else "".
func (m *manifest) deprecated() string {
	if len(m.Deprecated) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(m.Deprecated, &s) == nil {
		return strings.TrimSpace(s)
	}
	var b bool
	if json.Unmarshal(m.Deprecated, &b) == nil && b {
		return "deprecated"
	}
	return ""
}

// repository returns the repository as a browsable https URL when it can be made one.
func (m *manifest) repository() string {
	if len(m.Repository) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(m.Repository, &s) == nil {
		return normalizeRepo(s, "")
	}
	var obj struct {
		URL       flexString `json:"url"`
		Directory flexString `json:"directory"`
	}
	if json.Unmarshal(m.Repository, &obj) == nil {
		return normalizeRepo(string(obj.URL), string(obj.Directory))
	}
	return ""
}

// shorthandHosts maps npm's repository shorthand prefixes to hosts
// (https://docs.npmjs.com/cli/configuring-npm/package-json#repository).
var shorthandHosts = map[string]string{
	"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org", "gist": "gist.github.com",
}

// normalizeRepo turns the forms package.json allows ("owner/repo", "github:owner/repo",
// "git+https://host/o/r.git", "git://host/o/r.git", "git+ssh://git@host/o/r.git",
// "git@host:o/r.git") into "https://host/o/r", with a monorepo directory appended as
// "/tree/HEAD/<dir>" on GitHub. Anything else is returned trimmed.
func normalizeRepo(s, dir string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	out := s
	switch {
	case !strings.Contains(s, ":") && strings.Count(s, "/") == 1 && !strings.HasPrefix(s, "/"):
		out = "https://github.com/" + s
	case strings.HasPrefix(s, "git@") && strings.Contains(s, ":") && !strings.Contains(s, "://"):
		host, p, _ := strings.Cut(strings.TrimPrefix(s, "git@"), ":")
		out = "https://" + host + "/" + p
	default:
		if prefix, rest, ok := strings.Cut(s, ":"); ok && !strings.HasPrefix(rest, "//") {
			if host, ok := shorthandHosts[prefix]; ok {
				out = "https://" + host + "/" + rest
				break
			}
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return s
		}
		switch u.Scheme {
		case "git+https", "git+http", "git", "git+ssh", "ssh", "https", "http":
			if u.Scheme == "git" || strings.HasSuffix(u.Scheme, "ssh") {
				u.Host = u.Hostname() // a git or ssh port says nothing about the web page
			}
			u.Scheme = "https"
			u.User = nil
			u.Fragment, u.RawQuery = "", ""
			out = u.String()
		default:
			return s
		}
	}
	out = strings.TrimSuffix(strings.TrimSuffix(out, "/"), ".git")
	if dir = strings.Trim(dir, "/"); dir != "" && strings.HasPrefix(out, "https://github.com/") {
		out += "/tree/HEAD/" + dir
	}
	return out
}

// typesEntries returns the declaration entry points of a package, in TypeScript's order: the
// "types" and "typings" fields, the "types" condition of exports["."] (conditions nested under
// import, require, node or default included), a .d.ts beside each JavaScript target of
// exports["."] and beside "main", and index.d.ts; each one redirected first through
// typesVersions (typesVersionsPaths). Only files that exist in fsys are returned.
func typesEntries(fsys fs.FS, m *manifest) []string {
	var cands []string
	add := func(p string) {
		if p = strings.TrimSpace(p); p != "" {
			cands = append(cands, p)
		}
	}
	add(string(m.Types))
	add(string(m.Typings))
	var exports any
	if len(m.Exports) > 0 && json.Unmarshal(m.Exports, &exports) == nil {
		var typesT, jsT []string
		jsapi.WalkExports(jsapi.ExportsRoot(exports), conditionOrder, func(t string, types bool) {
			if types {
				typesT = append(typesT, t)
			} else {
				jsT = append(jsT, t)
			}
		})
		for _, t := range typesT {
			add(t)
		}
		for _, t := range jsT {
			add(t)
		}
	}
	main := string(m.Main)
	if main == "" {
		main = "index.js"
	}
	add(main)
	add("index.d.ts")

	redirect := typesVersionsPaths(m.TypesVersions)
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		var paths []string
		for _, p := range declarationCandidates(c) {
			paths = append(append(paths, redirect(p)...), p)
		}
		for _, p := range paths {
			if seen[p] {
				continue
			}
			seen[p] = true
			if st, err := fs.Stat(fsys, p); err == nil && st.Mode().IsRegular() {
				out = append(out, p)
				break
			}
		}
		if len(out) > 0 {
			break // the first entry that exists wins
		}
	}
	return out
}

// subpathTypes is the declaration entry point of one subpath export of a package: "query" for
// exports["./query"], imported as "@reduxjs/toolkit/query".
type subpathTypes struct {
	sub   string
	entry string
}

// maxSubpaths bounds the subpath exports whose declarations a package's API takes.
const maxSubpaths = 64

// subpathTypesEntries returns the declaration entry point of each subpath export of a package
// (exports["./x"], https://nodejs.org/api/packages.html#subpath-exports) that fsys holds, in
// subpath order, at most maxSubpaths: the target of its "types" condition, else a .d.ts beside
// one of its JavaScript targets, as for exports["."] (typesEntries). A package that exports every
// module with the pattern "./*" (zustand: "./*": {"types": "./*.d.ts"}) has a subpath for each
// file its target pattern matches in one directory ("zustand/middleware" for middleware.d.ts),
// after the ones it names; other patterns ("./locale/*", a collection of like files),
// package.json and targets that are not code (".json", ".css") have none.
func subpathTypesEntries(fsys fs.FS, m *manifest) []subpathTypes {
	var exports map[string]any
	if len(m.Exports) == 0 || json.Unmarshal(m.Exports, &exports) != nil {
		return nil
	}
	keys := make([]string, 0, len(exports))
	for k := range exports {
		if strings.HasPrefix(k, "./") && k != "./package.json" && !strings.Contains(k, "*") && path.Ext(k) != ".json" && path.Ext(k) != ".css" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []subpathTypes
	named := map[string]bool{} // subpaths and entry files taken
	for _, e := range typesEntries(fsys, m) {
		named[e] = true
	}
	for _, k := range keys {
		if len(out) == maxSubpaths {
			break
		}
		if entry, ok := exportTypes(fsys, exports[k], ""); ok {
			sub := strings.TrimPrefix(path.Clean(k), "./")
			named[sub], named[entry] = true, true
			out = append(out, subpathTypes{sub: sub, entry: entry})
		}
	}
	if all, ok := exports["./*"]; ok {
		for _, star := range patternMatches(fsys, all) {
			if len(out) == maxSubpaths {
				break
			}
			if named[star] {
				continue
			}
			if entry, ok := exportTypes(fsys, all, star); ok && !named[entry] {
				named[entry] = true
				out = append(out, subpathTypes{sub: star, entry: entry})
			}
		}
	}
	return out
}

// exportTypes returns the declaration file of one exports value: the target of its "types"
// condition, else a .d.ts beside one of its JavaScript targets; star replaces the "*" of a
// pattern's targets.
func exportTypes(fsys fs.FS, v any, star string) (string, bool) {
	var typesT, jsT []string
	jsapi.WalkExports(v, conditionOrder, func(t string, types bool) {
		t = strings.Replace(t, "*", star, 1)
		if types {
			typesT = append(typesT, t)
		} else {
			jsT = append(jsT, t)
		}
	})
	for _, t := range append(typesT, jsT...) {
		for _, p := range declarationCandidates(t) {
			if st, err := fs.Stat(fsys, p); err == nil && st.Mode().IsRegular() {
				return p, true
			}
		}
	}
	return "", false
}

// patternMatches returns, sorted, what the "*" of the targets of exports value v (a pattern's,
// "./*.d.ts") matches among the files of each target's directory: "middleware" for
// middleware.d.ts. A match never spans directories.
func patternMatches(fsys fs.FS, v any) []string {
	var out []string
	jsapi.WalkExports(v, conditionOrder, func(t string, _ bool) {
		t = strings.TrimPrefix(path.Clean(t), "./")
		dir, file := path.Split(t)
		before, after, ok := strings.Cut(file, "*")
		if !ok || strings.Contains(dir, "*") || strings.Contains(after, "*") {
			return
		}
		ents, err := fs.ReadDir(fsys, path.Clean(cmp.Or(dir, ".")))
		if err != nil {
			return
		}
		for _, e := range ents {
			n := e.Name()
			if e.Type().IsRegular() && len(n) > len(before)+len(after) && strings.HasPrefix(n, before) && strings.HasSuffix(n, after) {
				out = append(out, n[len(before):len(n)-len(after)])
			}
		}
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// currentTypeScript is the TypeScript version typesVersions ranges are matched against: docidx
// reads declarations as a current compiler would.
const currentTypeScript = "5.9.0"

// typesVersionsPaths returns a function that maps a path of the package through its
// typesVersions field (https://www.typescriptlang.org/docs/handbook/declaration-files/publishing.html#version-selection-with-typesversions):
// the first version range, in the order written, that currentTypeScript satisfies, then the
// first of its path patterns ("*" matches any run of characters) that matches the path; the
// result lists the substitutions' declaration candidates. Without typesVersions, or when nothing
// matches, it returns nil.
func typesVersionsPaths(raw json.RawMessage) func(p string) []string {
	none := func(string) []string { return nil }
	if len(raw) == 0 {
		return none
	}
	ts := semver.MustParse(currentTypeScript)
	var mapping []orderedEntry
	for _, r := range orderedObject(raw) {
		c, err := semver.NewConstraint(r.key)
		if r.key != "*" && (err != nil || !c.Check(ts)) {
			continue
		}
		mapping = orderedObject(r.value)
		break
	}
	if len(mapping) == 0 {
		return none
	}
	return func(p string) []string {
		p = strings.TrimPrefix(path.Clean("/"+p), "/")
		for _, e := range mapping {
			pat := strings.TrimPrefix(path.Clean("/"+e.key), "/")
			star := ""
			if before, after, ok := strings.Cut(pat, "*"); ok {
				if !strings.HasPrefix(p, before) || !strings.HasSuffix(p, after) || len(p) < len(before)+len(after) {
					continue
				}
				star = p[len(before) : len(p)-len(after)]
			} else if pat != p {
				continue
			}
			var substs []string
			if json.Unmarshal(e.value, &substs) != nil {
				return nil
			}
			var out []string
			for _, sub := range substs {
				out = append(out, declarationCandidates(strings.Replace(sub, "*", star, 1))...)
			}
			return out
		}
		return nil
	}
}

// orderedEntry is one member of a JSON object, in the order written.
type orderedEntry struct {
	key   string
	value json.RawMessage
}

// maxOrderedEntries bounds the members orderedObject reads.
const maxOrderedEntries = 256

// orderedObject returns the members of a JSON object in the order written (typesVersions is
// matched in that order), or nil when raw is not an object.
func orderedObject(raw json.RawMessage) []orderedEntry {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []orderedEntry
	for dec.More() && len(out) < maxOrderedEntries {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, orderedEntry{key, v})
	}
	return out
}

// declarationCandidates maps a types or JavaScript path to the declaration files it may mean.
func declarationCandidates(p string) []string {
	p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, `\`, "/")), "/")
	if p == "" || p == "." {
		return nil
	}
	switch {
	case strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts"):
		return []string{p}
	case strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".mts") || strings.HasSuffix(p, ".cts") || strings.HasSuffix(p, ".tsx"):
		return []string{p}
	case strings.HasSuffix(p, ".mjs"):
		return []string{strings.TrimSuffix(p, ".mjs") + ".d.mts", strings.TrimSuffix(p, ".mjs") + ".d.ts"}
	case strings.HasSuffix(p, ".cjs"):
		return []string{strings.TrimSuffix(p, ".cjs") + ".d.cts", strings.TrimSuffix(p, ".cjs") + ".d.ts"}
	case strings.HasSuffix(p, ".js"):
		return []string{strings.TrimSuffix(p, ".js") + ".d.ts"}
	case strings.HasSuffix(p, ".json"):
		return nil
	}
	return []string{p + ".d.ts", p + "/index.d.ts"}
}

// conditionOrder is the order conditions are tried in; others follow alphabetically.
var conditionOrder = []string{"types", "typings", "import", "require", "node", "default"}

// exportName is the name users import a package by, for `export =` targets: "express" for
// "@types/express", "node" for "@types/node", "x" for "@scope/x" and "@types/scope__x".
func exportName(pkg string) string {
	name := strings.TrimPrefix(pkg, "@types/")
	if i := strings.Index(name, "__"); i > 0 && name != pkg {
		name = name[i+2:]
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// trimBOM drops a UTF-8 byte order mark.
func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\ufeff")) }
