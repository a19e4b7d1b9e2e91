package crawl

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// This file reads pip requirements files, in the format of
// https://pip.pypa.io/en/stable/reference/requirements-file-format/: one requirement (PEP 508) or
// option per logical line, "\" continuing a line, "#" starting a comment at the start of a line or
// after whitespace. Every requirement that names a distribution on an index becomes a spec:
// "name==1.2.3" (or "===") an exact one, any other PEP 440 specifier set ("name>=4.0",
// "name~=2.2", "name") a range. Each is marked a Requirement, with its extras and its
// environment marker, so that a crawl with a site-packages resolves it against the installed
// distributions and follows what they require (see Options and Installed); without one, a range
// resolves against the index and the marker is ignored (a package pinned for another platform or
// Python is still one the project uses). Per-requirement options such as --hash are ignored.

// parseRequirementsRoot reads the requirements file given to ParseLockfile*, and its includes.
func parseRequirementsRoot(st *lockState, name string, data []byte) error {
	st.seen = make(map[string]bool)
	var chain []string
	if st.src != nil {
		k := st.src.key(name)
		st.seen[k] = true
		chain = []string{k}
	}
	return parseRequirements(st, name, data, chain)
}

// reqLine is one logical line: continuations joined, comments removed, spaces trimmed.
type reqLine struct {
	n    int // the 1-based number of its first physical line
	text string
}

// requirementLines splits a requirements file into logical lines the way pip's join_lines and
// ignore_comments do.
func requirementLines(data []byte) []reqLine {
	var out []reqLine
	emit := func(n int, s string) {
		if s = strings.TrimSpace(stripReqComment(s)); s != "" {
			out = append(out, reqLine{n, s})
		}
	}
	var buf strings.Builder
	start := 0 // the first line of the logical line being joined, 0 when none
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(l, "\r")
		comment := strings.HasPrefix(strings.TrimLeft(l, " \t"), "#")
		if !strings.HasSuffix(l, `\`) || comment {
			if start == 0 {
				emit(i+1, l)
				continue
			}
			if comment {
				l = " " + l // a comment ends the joined line and is dropped with it
			}
			buf.WriteString(l)
			emit(start, buf.String())
			buf.Reset()
			start = 0
			continue
		}
		if start == 0 {
			start = i + 1
		}
		buf.WriteString(strings.Trim(l, `\`))
	}
	if start != 0 {
		emit(start, buf.String())
	}
	return out
}

// stripReqComment cuts s at a "#" that starts it or follows whitespace.
func stripReqComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i]
		}
	}
	return s
}

// reqOptionsWithValue are the pip options that take a value, long and short forms.
var reqOptionsWithValue = map[string]bool{
	"-r": true, "--requirement": true, "-c": true, "--constraint": true,
	"-e": true, "--editable": true, "-i": true, "--index-url": true, "--extra-index-url": true,
	"-f": true, "--find-links": true, "--trusted-host": true, "--use-feature": true,
	"--only-binary": true, "--no-binary": true, "--hash": true, "--config-settings": true,
	"--global-option": true, "--install-option": true,
}

// reqFlags are the pip options without a value.
var reqFlags = map[string]bool{
	"--no-index": true, "--pre": true, "--prefer-binary": true, "--require-hashes": true,
}

// reqOption is one option of an option line.
type reqOption struct{ name, value string }

// splitReqOptions parses an option line ("-r base.txt", "--index-url=URL --pre") into options.
func splitReqOptions(s string) ([]reqOption, error) {
	fields := shellFields(s)
	var opts []reqOption
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if !strings.HasPrefix(f, "-") || f == "-" || f == "--" {
			return nil, fmt.Errorf("unexpected %q after the options", f)
		}
		var name, value string
		hasValue := false
		if strings.HasPrefix(f, "--") {
			name, value, hasValue = strings.Cut(f, "=")
		} else {
			name, value = f[:2], f[2:]
			hasValue = value != ""
		}
		if reqOptionsWithValue[name] && !hasValue {
			if i+1 >= len(fields) {
				return nil, fmt.Errorf("option %s needs a value", name)
			}
			i++
			value = fields[i]
		}
		opts = append(opts, reqOption{name, value})
	}
	return opts, nil
}

// shellFields splits s at whitespace, keeping quoted parts ('…' or "…") together, as pip's use of
// shlex does for the common cases.
func shellFields(s string) []string {
	var fields []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				fields = append(fields, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		fields = append(fields, cur.String())
	}
	return fields
}

// splitReqArgs separates a requirement from the per-requirement options after it, like pip's
// break_args_options: the requirement ends at the first word starting with "-".
func splitReqArgs(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if strings.HasPrefix(w, "-") {
			return strings.Join(words[:i], " ")
		}
	}
	return strings.Join(words, " ")
}

func parseRequirements(st *lockState, file string, data []byte, chain []string) error {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	for _, l := range requirementLines(data) {
		if strings.HasPrefix(l.text, "-") {
			if err := requirementOptions(st, file, l, chain); err != nil {
				return err
			}
			continue
		}
		req := splitReqArgs(l.text)
		r, err := parseRequirement(req)
		if err != nil {
			return lockErr(file, l.n, "requirement %q: %v", req, err)
		}
		if r.skip != "" {
			st.skip(file, l.n, req, r.skip)
			continue
		}
		st.addRequirement(file, l.n, r)
	}
	return nil
}

func requirementOptions(st *lockState, file string, l reqLine, chain []string) error {
	opts, err := splitReqOptions(l.text)
	if err != nil {
		return lockErr(file, l.n, "%q: %v", l.text, err)
	}
	for _, o := range opts {
		switch {
		case o.name == "-r" || o.name == "--requirement":
			if err := includeRequirements(st, file, l.n, o.value, chain); err != nil {
				return err
			}
		case o.name == "-c" || o.name == "--constraint":
			st.skip(file, l.n, o.name+" "+o.value, "constraints file not read: constraints pin versions but add no packages")
		case o.name == "-e" || o.name == "--editable":
			st.skip(file, l.n, o.name+" "+o.value, "editable requirement (a local project or VCS checkout)")
		case reqOptionsWithValue[o.name] || reqFlags[o.name]:
			// index, find-links, hash and build options change where and how pip installs, not what
		default:
			st.skip(file, l.n, l.text, "unknown pip option "+o.name)
		}
	}
	return nil
}

// includeRequirements reads the requirements file target, named by an "-r" in file at line n.
func includeRequirements(st *lockState, file string, n int, target string, chain []string) error {
	entry := "-r " + target
	if urlScheme.MatchString(target) {
		st.skip(file, n, entry, "remote requirements file, not fetched")
		return nil
	}
	if st.src == nil {
		return lockErr(file, n, "%s: includes are not followed when a requirements file is parsed from memory (use ReadLockfile or ParseLockfileFS)", entry)
	}
	name, err := st.src.join(file, target)
	if err != nil {
		return lockErr(file, n, "%s: %v", entry, err)
	}
	key := st.src.key(name)
	if slices.Contains(chain, key) {
		st.skip(file, n, entry, "include cycle: the file is already being read")
		return nil
	}
	if st.seen[key] {
		return nil // included twice (a diamond): read once
	}
	if len(chain) > MaxIncludeDepth {
		return lockErr(file, n, "%s: %w: nested deeper than %d files", entry, ErrIncludeLimit, MaxIncludeDepth)
	}
	if len(st.seen) > MaxIncludes {
		return lockErr(file, n, "%s: %w: more than %d files", entry, ErrIncludeLimit, MaxIncludes)
	}
	st.seen[key] = true
	data, err := st.src.read(name)
	if err != nil {
		return lockErr(file, n, "%s: %w", entry, err)
	}
	st.lf.Files = append(st.lf.Files, name)
	return parseRequirements(st, name, data, append(slices.Clip(chain), key))
}

var (
	urlScheme   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:/`)
	pypiName    = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?`)
	pep440Chars = regexp.MustCompile(`^[A-Za-z0-9._+!*-]+$`)
	vcsPrefixes = []string{"git+", "hg+", "svn+", "bzr+"}
	archiveExts = []string{".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".zip"}
	specifierOp = []string{"===", "==", "!=", "~=", "<=", ">=", "<", ">"}
)

// errNoVersion is a requirement specifier without a version after its operator.
var errNoVersion = errors.New("missing version")

// pyRequirement is one PEP 508 requirement as a requirements file, pyproject.toml or a
// distribution's Requires-Dist writes it.
type pyRequirement struct {
	name      string   // PEP 503-normalized
	specifier string   // the PEP 440 specifier set as written, spaces and parentheses removed; "" for any version
	pinned    string   // the version an "==" (without wildcard) or "===" clause pins, else ""
	extras    []string // PEP 685-normalized
	marker    string   // the environment marker after ";", "" for none
	skip      string   // why it names no index distribution (a URL, a path …); the rest is empty then
}

// parseRequirement reads one PEP 508 requirement (https://peps.python.org/pep-0508/). It returns
// the requirement, or one with skip set for a requirement that names no distribution on an index,
// or an error for a requirement pip would refuse too.
func parseRequirement(s string) (pyRequirement, error) {
	skip := func(why string) (pyRequirement, error) { return pyRequirement{skip: why}, nil }
	lower := strings.ToLower(s)
	for _, p := range vcsPrefixes {
		if strings.HasPrefix(lower, p) {
			return skip("VCS requirement")
		}
	}
	if strings.Contains(s, "${") {
		return skip("uses environment variables, which docidx does not expand")
	}
	beforeMarker := strings.TrimSpace(strings.SplitN(lower, ";", 2)[0])
	archive := false
	for _, ext := range archiveExts {
		archive = archive || strings.HasSuffix(beforeMarker, ext)
	}
	m := pypiName.FindString(s)
	rest := strings.TrimLeft(s[len(m):], " \t")
	switch {
	case urlScheme.MatchString(s):
		return skip("URL requirement")
	case archive && !strings.ContainsAny(beforeMarker, "=<>!~@"):
		return skip("local or remote archive")
	case m == "" || strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, `\`) || strings.HasPrefix(rest, ":"):
		return skip("local path")
	}
	var r pyRequirement
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return r, errors.New("unclosed [ in extras")
		}
		for _, x := range strings.Split(rest[1:end], ",") {
			if x = strings.TrimSpace(x); x != "" && pypiName.FindString(x) != x {
				return r, fmt.Errorf("bad extra %q", x)
			} else if x != "" {
				r.extras = append(r.extras, NormalizePyPIName(x))
			}
		}
		rest = strings.TrimLeft(rest[end+1:], " \t")
	}
	r.name = NormalizePyPIName(m)
	if strings.HasPrefix(rest, "@") {
		if u := strings.TrimSpace(rest[1:]); hasAnyPrefix(strings.ToLower(u), vcsPrefixes) {
			return skip("VCS requirement")
		}
		return skip("direct URL reference")
	}
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		rest, r.marker = rest[:i], strings.TrimSpace(rest[i+1:])
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") {
		if !strings.HasSuffix(rest, ")") {
			return r, errors.New("unclosed ( around the version specifier")
		}
		rest = strings.TrimSpace(rest[1 : len(rest)-1])
	}
	if rest == "" {
		return r, nil
	}
	var clauses []string
	for _, clause := range strings.Split(rest, ",") {
		clause = strings.TrimSpace(clause)
		op := ""
		for _, o := range specifierOp {
			if strings.HasPrefix(clause, o) {
				op = o
				break
			}
		}
		if op == "" {
			return r, fmt.Errorf("%q is not a version specifier (==, >=, ~= …)", clause)
		}
		v := strings.TrimSpace(clause[len(op):])
		switch {
		case v == "":
			return r, fmt.Errorf("%w after %s", errNoVersion, op)
		case op == "===":
			if strings.ContainsAny(v, " \t") {
				return r, fmt.Errorf("bad version %q", v)
			}
			r.pinned = v
		case !pep440Chars.MatchString(v):
			return r, fmt.Errorf("bad version %q", v)
		case op == "==" && !strings.Contains(v, "*") && r.pinned == "":
			r.pinned = v
		}
		clauses = append(clauses, op+v)
	}
	r.specifier = strings.Join(clauses, ",")
	return r, nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// NormalizePyPIName returns the PEP 503 normalized form of a Python distribution name: lowercase,
// with each run of "-", "_" and "." replaced by one "-" ("Foo.Bar_baz" -> "foo-bar-baz"). See
// https://peps.python.org/pep-0503/#normalized-names.
func NormalizePyPIName(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	sep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			if !sep {
				b.WriteByte('-')
			}
			sep = true
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		sep = false
		b.WriteByte(c)
	}
	return b.String()
}
