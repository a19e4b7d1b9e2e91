package crawl

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docidx/docidx"
)

// This file reads pnpm-lock.yaml and yarn.lock (classic v1 and berry).

// decodeYAML decodes every document of a YAML stream into nodes, turning a YAML error into a
// LockfileError at its line. Aliases are never followed by the readers here, so a document cannot
// blow up through them.
func decodeYAML(name string, data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, yamlErr(name, err)
		}
		if len(doc.Content) > 0 {
			docs = append(docs, doc.Content[0])
		}
	}
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func yamlErr(name string, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &LockfileError{File: name, Line: n, Err: errors.New(m[2])}
	}
	return &LockfileError{File: name, Err: err}
}

// yamlPair is one key and value of a YAML mapping.
type yamlPair struct{ key, value *yaml.Node }

// yamlPairs returns the entries of a mapping node, or nil for any other node.
func yamlPairs(n *yaml.Node) []yamlPair {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	pairs := make([]yamlPair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, yamlPair{n.Content[i], n.Content[i+1]})
	}
	return pairs
}

// yamlGet returns the value of key in a mapping node, or nil.
func yamlGet(n *yaml.Node, key string) *yaml.Node {
	for _, p := range yamlPairs(n) {
		if p.key.Kind == yaml.ScalarNode && p.key.Value == key {
			return p.value
		}
	}
	return nil
}

// yamlString returns the value of key in a mapping node when it is a scalar, or "".
func yamlString(n *yaml.Node, key string) string {
	if v := yamlGet(n, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// parsePnpmLock reads pnpm-lock.yaml (https://github.com/pnpm/spec/tree/master/lockfile):
//
//	v5 (lockfileVersion 5.x)   packages keys "/name/1.2.3", "/@scope/name/1.2.3_peer@1.0.0"
//	v6 (lockfileVersion '6.0') packages keys "/name@1.2.3", "/@scope/name@1.2.3(peer@1.0.0)"
//	v9 (lockfileVersion '9.0') packages keys "name@1.2.3", snapshots keys "name@1.2.3(peer@1.0.0)"
//
// Peer suffixes are stripped. Keys that are not registry versions (git, tarball URLs, file:,
// link:, directories) are skipped; in v5 and v6 those are the keys without a leading "/". Every
// document of the stream is read, so a lockfile preceded by a config-dependencies document works.
func parsePnpmLock(st *lockState, name string, data []byte) error {
	docs, err := decodeYAML(name, data)
	if err != nil {
		return err
	}
	found := false
	for _, doc := range docs {
		lv := yamlGet(doc, "lockfileVersion")
		if lv == nil || lv.Kind != yaml.ScalarNode {
			continue
		}
		found = true
		if st.lf.Version == "" {
			st.lf.Version = lv.Value
		}
		major, _ := strconv.Atoi(strings.SplitN(lv.Value, ".", 2)[0])
		if major == 0 {
			return lockErr(name, lv.Line, "lockfileVersion %q is not a number", lv.Value)
		}
		seen := make(map[string]bool)
		for _, section := range []string{"packages", "snapshots"} {
			for _, p := range yamlPairs(yamlGet(doc, section)) {
				key := p.key.Value
				if p.key.Kind != yaml.ScalarNode || key == "" {
					return lockErr(name, p.key.Line, "%s: a key that is not a string", section)
				}
				pkg, version, ok := pnpmKey(key, major)
				id := key
				if ok {
					id = pkg + "@" + version
				}
				if seen[id] {
					continue // a snapshot of a package already listed
				}
				seen[id] = true
				if !ok {
					st.skip(name, p.key.Line, key, pnpmSkipReason(key, p.value))
					continue
				}
				st.add(name, docidx.NPM, pkg, version)
			}
		}
	}
	if !found {
		return lockErr(name, 0, "no lockfileVersion: not a pnpm-lock.yaml")
	}
	return nil
}

// pnpmKey returns the package name and version of a packages or snapshots key, and whether the
// key names a registry version.
func pnpmKey(key string, major int) (name, version string, ok bool) {
	k := key
	if i := strings.IndexByte(k, '('); i > 0 {
		k = k[:i] // v6, v9 peer suffix "(react@18.2.0)"
	}
	slash := strings.HasPrefix(k, "/")
	switch {
	case major < 6 && slash: // "/name/1.2.3_peer", "/@scope/name/1.2.3"
		segs := strings.Split(k[1:], "/")
		n := 1
		if strings.HasPrefix(segs[0], "@") {
			n = 2
		}
		if len(segs) < n+1 {
			return "", "", false
		}
		name, version = strings.Join(segs[:n], "/"), segs[n]
		if i := strings.IndexByte(version, '_'); i > 0 {
			version = version[:i]
		}
	case slash || major >= 9: // "/name@1.2.3" (v6), "name@1.2.3" (v9)
		name, version = splitNameAt(strings.TrimPrefix(k, "/"))
		if major < 9 {
			if i := strings.IndexByte(version, '_'); i > 0 {
				version = version[:i] // early v6 files kept v5's "_peer" suffix
			}
		}
	default:
		return "", "", false
	}
	if !validNPMName(name) || !validNPMVersion(version) {
		return "", "", false
	}
	return name, version, true
}

// splitNameAt splits "name@version" or "@scope/name@version" at the "@" that follows the name.
func splitNameAt(s string) (name, version string) {
	from := 0
	if strings.HasPrefix(s, "@") {
		from = strings.IndexByte(s, '/')
		if from < 0 {
			return s, ""
		}
	}
	i := strings.IndexByte(s[from:], '@')
	if i < 0 {
		return s, ""
	}
	return s[:from+i], s[from+i+1:]
}

// validNPMName reports whether n looks like an npm package name: "name" or "@scope/name", no
// spaces, no URL.
func validNPMName(n string) bool {
	if n == "" || strings.ContainsAny(n, " :\\") {
		return false
	}
	if rest, ok := strings.CutPrefix(n, "@"); ok {
		scope, pkg, found := strings.Cut(rest, "/")
		return found && scope != "" && pkg != "" && !strings.Contains(pkg, "/")
	}
	return !strings.Contains(n, "/")
}

// pnpmSkipReason explains why a packages key is not a registry version, from the entry's
// resolution when it has one, else from the key.
func pnpmSkipReason(key string, entry *yaml.Node) string {
	res := yamlGet(entry, "resolution")
	tarball := yamlString(res, "tarball")
	switch {
	case yamlString(res, "directory") != "":
		return "local directory or file"
	case yamlString(res, "repo") != "" || yamlString(res, "type") == "git":
		return "git dependency"
	case tarball != "":
		if gitHosted(tarball) {
			return "git dependency (tarball from the git host)"
		}
		return "tarball URL dependency"
	case strings.Contains(key, "link:"):
		return "linked local package"
	case strings.Contains(key, "file:"):
		return "local directory or file"
	case strings.Contains(key, "git+") || gitHosted(key):
		return "git dependency"
	case strings.Contains(key, "://"):
		return "tarball URL dependency"
	}
	return "not a registry version"
}

// gitHosted reports whether s names a repository or tarball on GitHub, GitLab or Bitbucket.
func gitHosted(s string) bool {
	for _, h := range []string{"github.com/", "codeload.github.com/", "gitlab.com/", "bitbucket.org/"} {
		if strings.HasPrefix(s, h) || strings.Contains(s, "://"+h) {
			return true
		}
	}
	return false
}

// parseYarnLock reads yarn.lock: berry (yarn 2+, YAML with a __metadata entry) or classic (yarn 1,
// its own indented format headed "# yarn lockfile v1").
func parseYarnLock(st *lockState, name string, data []byte) error {
	if isYarnBerry(data) {
		return parseYarnBerry(st, name, data)
	}
	return parseYarnClassic(st, name, data)
}

// isYarnBerry reports whether a yarn.lock has berry's top-level __metadata entry.
func isYarnBerry(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimRight(l, "\r ")
		if bytes.Equal(l, []byte("__metadata:")) || bytes.Equal(l, []byte(`"__metadata":`)) {
			return true
		}
		if bytes.HasPrefix(l, []byte("# yarn lockfile v1")) {
			return false
		}
	}
	return false
}

// parseYarnClassic reads a yarn 1 lockfile (format: yarnpkg/yarn src/lockfile/parse.js). Each
// entry starts at column 0 with its patterns, `"@babel/core@^7.0.0", lodash@^4.17.21:`, followed
// by indented fields of which "version" matters. An entry is crawled when one of its patterns asks
// the registry for a semver range or tag (or an "npm:" alias of one); patterns naming git, file:,
// link: or URL sources are skipped.
func parseYarnClassic(st *lockState, name string, data []byte) error {
	st.lf.Version = "1"
	var (
		patterns []string
		start    int    // line of the current entry, 0 when none
		indent   = -1   // indentation of the current entry's fields
		version  string // the current entry's version field
	)
	flush := func() error {
		if start == 0 {
			return nil
		}
		defer func() { patterns, start, indent, version = nil, 0, -1, "" }()
		return yarnEntry(st, name, start, patterns, version)
	}
	for i, l := range strings.Split(string(data), "\n") {
		n := i + 1
		l = strings.TrimRight(l, "\r \t")
		trimmed := strings.TrimLeft(l, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ind := len(l) - len(trimmed)
		if ind == 0 {
			if err := flush(); err != nil {
				return err
			}
			head, ok := strings.CutSuffix(l, ":")
			if !ok {
				return lockErr(name, n, "expected an entry like `name@range:`, got %q", l)
			}
			ps, err := yarnPatterns(head)
			if err != nil {
				return lockErr(name, n, "%v", err)
			}
			patterns, start = ps, n
			continue
		}
		if start == 0 {
			return lockErr(name, n, "indented line outside an entry")
		}
		if indent < 0 {
			indent = ind
		}
		if ind != indent {
			continue // a nested field (dependencies:)
		}
		key, value, _ := strings.Cut(trimmed, " ")
		if key == "version" || key == `"version"` {
			v, err := yarnUnquote(strings.TrimSpace(value))
			if err != nil {
				return lockErr(name, n, "version %s: %v", value, err)
			}
			version = v
		}
	}
	return flush()
}

// yarnPatterns splits an entry's head (`"a@^1", a@~1.2`) into its patterns.
func yarnPatterns(head string) ([]string, error) {
	var out []string
	for s := head; s != ""; {
		s = strings.TrimLeft(s, " ")
		var p string
		if strings.HasPrefix(s, `"`) {
			end := 1
			for end < len(s) && (s[end] != '"' || s[end-1] == '\\') {
				end++
			}
			if end >= len(s) {
				return nil, errors.New("unterminated quoted pattern")
			}
			u, err := strconv.Unquote(s[:end+1])
			if err != nil {
				u = s[1:end]
			}
			p, s = u, strings.TrimLeft(s[end+1:], " ")
			if s != "" && !strings.HasPrefix(s, ",") {
				return nil, errors.New("expected `,` between patterns")
			}
			s = strings.TrimPrefix(s, ",")
		} else {
			p, s, _ = strings.Cut(s, ",")
		}
		// yarn also writes several patterns in one quoted string: "a@^1, a@^2"
		for _, q := range strings.Split(p, ",") {
			if q = strings.TrimSpace(q); q != "" {
				out = append(out, q)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("entry without a pattern")
	}
	return out, nil
}

// yarnUnquote reads a yarn 1 value: a JSON-style quoted string or a bare word.
func yarnUnquote(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	return s, nil
}

// yarnEntry adds one yarn 1 entry.
func yarnEntry(st *lockState, file string, line int, patterns []string, version string) error {
	entry := strings.Join(patterns, ", ")
	if version == "" {
		return lockErr(file, line, "entry %s has no version", entry)
	}
	reason := ""
	for _, p := range patterns {
		pkg, rng := splitNameAt(p)
		if real, ok := strings.CutPrefix(rng, "npm:"); ok { // alias: "foo@npm:bar@^1" or "foo@npm:^1"
			if n, r := splitNameAt(real); r != "" && validNPMName(n) {
				pkg, rng = n, r
			} else {
				rng = real
			}
		}
		if why := npmRangeSource(rng); why != "" {
			reason = why
			continue
		}
		if !validNPMName(pkg) || !validNPMVersion(version) {
			reason = "not a registry version"
			continue
		}
		st.add(file, docidx.NPM, pkg, version)
		return nil
	}
	st.skip(file, line, entry, reason)
	return nil
}

// npmRangeSource returns why an npm dependency range names something other than a registry
// version ("git dependency", …), or "" for a semver range or a dist-tag.
func npmRangeSource(rng string) string {
	lower := strings.ToLower(rng)
	switch {
	case strings.HasPrefix(lower, "file:"), strings.HasPrefix(lower, "portal:"):
		return "local directory or file"
	case strings.HasPrefix(lower, "link:"):
		return "linked local package"
	case strings.HasPrefix(lower, "workspace:"):
		return "workspace package"
	case strings.HasPrefix(lower, "git"), strings.HasPrefix(lower, "github:"), strings.HasPrefix(lower, "gitlab:"),
		strings.HasPrefix(lower, "bitbucket:"), strings.Contains(lower, ".git#"), strings.HasSuffix(lower, ".git"):
		return "git dependency"
	case strings.HasPrefix(lower, "http:"), strings.HasPrefix(lower, "https:"):
		return "tarball URL dependency"
	case strings.HasPrefix(lower, "patch:"):
		return "patched package"
	case strings.HasPrefix(lower, "exec:"):
		return "generated package (exec:)"
	case strings.ContainsAny(rng, ":"), strings.Contains(rng, "/"):
		return "not a registry range: " + rng
	}
	return ""
}

// parseYarnBerry reads a yarn 2+ lockfile: YAML whose keys list patterns ("a@npm:^1, a@npm:^1.2")
// and whose entries give version and resolution ("a@npm:1.2.3"). The resolution decides: "npm:"
// is a registry version; "patch:" wraps another resolution, URL-encoded, whose package it is
// (resolve@patch:resolve@npm%3A1.22.8#… is resolve 1.22.8); workspace:, link:, portal:, file:,
// exec: and git or URL resolutions are skipped.
func parseYarnBerry(st *lockState, name string, data []byte) error {
	docs, err := decodeYAML(name, data)
	if err != nil {
		return err
	}
	if len(docs) == 0 || docs[0].Kind != yaml.MappingNode {
		return lockErr(name, 0, "not a yarn lockfile: no entries")
	}
	for _, p := range yamlPairs(docs[0]) {
		key := p.key.Value
		if key == "__metadata" {
			st.lf.Version = yamlString(p.value, "version")
			continue
		}
		if p.value.Kind != yaml.MappingNode {
			return lockErr(name, p.key.Line, "entry %q is not a mapping", key)
		}
		res := yamlString(p.value, "resolution")
		version := yamlString(p.value, "version")
		if res == "" {
			return lockErr(name, p.key.Line, "entry %q has no resolution", key)
		}
		pkg, ver, why := berryResolution(res, 0)
		if why != "" {
			st.skip(name, p.key.Line, res, why)
			continue
		}
		if ver == "" {
			ver = version
		}
		if !validNPMName(pkg) || !validNPMVersion(ver) {
			st.skip(name, p.key.Line, res, "not a registry version")
			continue
		}
		st.add(name, docidx.NPM, pkg, ver)
	}
	return nil
}

// berryResolution returns the package and version a berry resolution names, or why it is not a
// registry version.
func berryResolution(res string, depth int) (pkg, version, why string) {
	pkg, ref := splitNameAt(res)
	switch {
	case ref == "":
		return "", "", "resolution without a reference"
	case strings.HasPrefix(ref, "npm:"):
		v := strings.TrimPrefix(ref, "npm:")
		if i := strings.Index(v, "::"); i >= 0 {
			v = v[:i] // bindings: "1.0.0::__archiveUrl=…"
		}
		if n, r := splitNameAt(v); r != "" && validNPMName(n) { // "alias@npm:real@1.0.0"
			pkg, v = n, r
		}
		return pkg, v, ""
	case strings.HasPrefix(ref, "patch:"):
		base := strings.TrimPrefix(ref, "patch:")
		if i := strings.IndexByte(base, '#'); i >= 0 {
			base = base[:i]
		}
		if u, err := url.PathUnescape(base); err == nil {
			base = u
		}
		if depth > 4 {
			return "", "", "patch nested too deeply"
		}
		p, v, why := berryResolution(base, depth+1)
		if why != "" {
			return "", "", "patch of a package that is not a registry version: " + why
		}
		return p, v, ""
	}
	if why := npmRangeSource(ref); why != "" {
		return "", "", why
	}
	return "", "", "unknown resolution protocol"
}
