package readme

import (
	"strings"
	"unicode"
)

// class is what a README does with a section, judged by its heading.
type class int

const (
	keep   class = iota // useful to someone using the package, or not recognised
	drop                // about the project rather than the package: drop it and its subsections
	toc                 // a table of contents: drop its own text, keep its subsections
	policy              // a security policy or the package's security: judged by its own text (policyText)
)

// Headings are compared as lists of words: lowercased, apostrophes removed, every other
// character that is not a letter or digit (punctuation, emoji) taken as a space.
//
// dropAnywhere phrases drop a heading that contains them, as long as the heading is at most
// three words longer than the phrase ("Contributing to Node.js", "Current project team members");
// dropExact phrases drop only a heading that is exactly the phrase, because as part of a longer
// heading they usually say something useful ("Breaking changes", "Security considerations").
// "Support" is kept: it is as often about supported platforms as about where to ask for help;
// "Status" too: it says whether the package is stable and what it does not do yet (msgp's
// "Maps must have string keys"), while the badges of "Build status" are dropped.
// policyExact headings are as often a project's security policy ("Please report vulnerabilities
// to …") as the package's own security options (msgpack's "Security": strict_map_key,
// max_buffer_size): their own text decides (policyText).
var (
	dropAnywhere = append(phrases(
		// people
		"contributors", "contributing", "contribute", "contribution", "contributions",
		"authors", "maintainers", "maintained by", "collaborators", "team members", "core team",
		"backers", "sponsors", "sponsor", "sponsorship", "supporters", "funding", "donate",
		"donations", "donation", "patrons", "financial contributors",
		"acknowledgments", "acknowledgements", "acknowledgment", "acknowledgement",
		"credits", "thanks", "thank you",
		// legal
		"license", "licence", "licenses", "licences", "licensing", "copyright",
		// project process
		"code of conduct", "security policy", "reporting security issues",
		"reporting a vulnerability", "report a vulnerability", "reporting vulnerabilities",
		"send patches", "report issues", "reporting issues", "reporting bugs", "bug reports",
		"star history", "stargazers", "related projects", "similar projects", "badges",
	), history...)
	// history phrases name a release history, whose subsections are its releases (see Keep).
	history = phrases("changelog", "change log", "changelogs", "release notes", "release history",
		"version history", "history", "whats new", "what is new")
	dropExact = phrases(
		"author", "maintainer", "team", "the team", "people", "support us", "supporting",
		"changes", "news", "security issues", "security vulnerabilities",
		"security contact", "security disclosure", "vulnerabilities", "conduct", "related",
		"build status", "legal",
	)
	policyExact = phrases("security")
	tocExact    = phrases("table of contents", "contents", "toc", "table of content", "index of contents")
	// keepAnywhere phrases keep a heading even when it also contains a drop phrase
	// ("History API", "Security configuration", "Installing a license key").
	keepAnywhere = phrases(
		"install", "installation", "installing", "usage", "use", "using", "api", "example",
		"examples", "getting started", "quick start", "quickstart", "configuration",
		"configure", "config", "options", "reference", "tutorial", "how to use",
	)
)

func phrases(ps ...string) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

// words returns the heading as lowercase words, without punctuation or emoji.
func words(heading string) []string {
	var b strings.Builder
	for _, r := range heading {
		switch {
		case r == '\'' || r == '\u2019' || r == '`':
			// "What's new" -> "whats new"
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// contains reports whether p occurs in ws as consecutive words.
func contains(ws, p []string) bool {
	for i := 0; i+len(p) <= len(ws); i++ {
		match := true
		for j := range p {
			if ws[i+j] != p[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func equal(ws, p []string) bool { return len(ws) == len(p) && contains(ws, p) }

// howTo reports whether a heading names a how-to section (install, usage, API, examples …),
// where paragraphs lead in to code rather than describe the package.
func howTo(heading string) bool { return holdsPhrase(heading, keepAnywhere) }

// holdsPhrase reports whether heading holds one of phrases as consecutive words.
func holdsPhrase(heading string, phrases [][]string) bool {
	ws := words(heading)
	for _, p := range phrases {
		if contains(ws, p) {
			return true
		}
	}
	return false
}

// releaseEntry reports whether a heading is an entry of a release history: a version number
// alone, with at most a "v", "Version" or "Release" before it, brackets around it and a date
// after it ("v2.14.4 (2026-11-19)", "Version 1.0.6 (October 1st, 2024)", "[1.2.0] - 2024-01-31",
// "2.0.0 / 2024-08-31", the jshttp packages' History.md, "0.5.4"). A README that lists its releases without a "Changelog" heading above them
// (pydantic's and yarl's METADATA) would otherwise index hundreds of release notes as its
// own sections. A version with words after it ("v2 API", "3.1. Anchors") is not one, nor is
// a dotted number of more than three parts (an OID).
func releaseEntry(heading string) bool {
	_, ok := releaseVersion(heading)
	return ok
}

// releaseVersion returns the version a release entry heading (releaseEntry) names, as written
// ("2.14.4" of "v2.14.4 (2026-11-19)", "5.0.0rc1" of "5.0.0rc1"); ok is false for any other
// heading.
func releaseVersion(heading string) (version string, ok bool) {
	s := strings.TrimSpace(heading)
	s = strings.TrimPrefix(s, "[")
	for _, w := range []string{"version ", "release ", "v"} {
		if len(s) > len(w) && strings.EqualFold(s[:len(w)], w) {
			s = s[len(w):]
			break
		}
	}
	// The version: two or three dot-separated numbers, then a pre-release or build suffix.
	start := s
	parts := 0
	for {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 {
			return "", false
		}
		s, parts = s[n:], parts+1
		if parts == 3 || !strings.HasPrefix(s, ".") || len(s) < 2 || s[1] < '0' || s[1] > '9' {
			break
		}
		s = s[1:]
	}
	if parts < 2 {
		return "", false
	}
	switch {
	case s != "" && (s[0] == '-' || s[0] == '+') && len(s) > 1 && isAlnum(s[1]): // semver: "-beta.1"
		n := 1
		for n < len(s) && (isAlnum(s[n]) || s[n] == '.' || s[n] == '-') {
			n++
		}
		s = s[n:]
	default: // PEP 440: "0b2", "0rc1", "0.dev3", "0.post1"
		t := strings.TrimPrefix(s, ".")
		for _, m := range []string{"alpha", "beta", "dev", "post", "pre", "rc", "a", "b", "c"} {
			if len(t) >= len(m) && strings.EqualFold(t[:len(m)], m) && (len(t) == len(m) || !isASCIILetter(t[len(m)])) {
				s = strings.TrimLeft(t[len(m):], "0123456789")
				break
			}
		}
	}
	version = start[:len(start)-len(s)]
	s = strings.TrimPrefix(s, "]")
	spaced := strings.HasPrefix(s, " ")
	s = strings.TrimSpace(s)
	// The date, if any: in parentheses, or after a dash or colon; it holds a digit.
	switch {
	case s == "":
		return version, true
	case s[0] == '(' && strings.HasSuffix(s, ")"):
		s = s[1 : len(s)-1]
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "– "), strings.HasPrefix(s, "— "), strings.HasPrefix(s, ": "), strings.HasPrefix(s, "/ "):
		_, s, _ = strings.Cut(s, " ")
	case spaced && strings.Trim(s, "0123456789-/.") == "": // a bare date: "1.3.0 2018-09-26"
	default:
		return "", false
	}
	if !strings.ContainsAny(s, "0123456789") || strings.ContainsAny(s, "()[]") {
		return "", false
	}
	return version, true
}

// sameRelease reports whether two versions name one release, as package managers compare
// them: without a leading "v", letter case, or trailing ".0" parts of the number ("5.0" and
// "v5.0.0" are one release, "5.0.1" and "5.0.0rc1" are not).
func sameRelease(a, b string) bool {
	norm := func(v string) string {
		v = strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V"))
		n := 0
		for n < len(v) && (v[n] >= '0' && v[n] <= '9' || v[n] == '.') {
			n++
		}
		num, rest := strings.TrimRight(v[:n], "."), v[n:]
		for strings.HasSuffix(num, ".0") {
			num = strings.TrimSuffix(num, ".0")
		}
		return num + rest
	}
	return a != "" && b != "" && norm(a) == norm(b)
}

// lineStart returns the release that began version's line of compatible releases, as semantic
// versioning and Cargo's and npm's caret requirements read it: major.0.0, or 0.minor.0 below 1.0
// ("0.4.0" for "0.4.1", "2.0.0" for "v2.3.1-rc.1"); "" for a version that does not start with a
// number.
func lineStart(version string) string {
	v := strings.TrimPrefix(strings.TrimPrefix(version, "v"), "V")
	n := 0
	for n < len(v) && (v[n] >= '0' && v[n] <= '9' || v[n] == '.') {
		n++
	}
	parts := strings.Split(strings.Trim(v[:n], "."), ".")
	switch {
	case parts[0] == "":
		return ""
	case parts[0] == "0" && len(parts) > 1:
		return "0." + parts[1] + ".0"
	}
	return parts[0] + ".0.0"
}

// indexedRelease reports whether the last heading of path is the release entry of version, or of
// the release that began its line (lineStart), in a release history: under a history heading
// ("Changelog › 5.0.0"), or a top-level entry (a README that lists its releases without one).
func indexedRelease(path []string, version string) bool {
	if version == "" || len(path) == 0 {
		return false
	}
	if !namesRelease(path[len(path)-1], version) {
		return false
	}
	return len(path) == 1 || historyHeading(path[len(path)-2])
}

// namesRelease reports whether heading is the release entry (releaseVersion) of version or of
// the release that began its line (lineStart): the entries a package's release notes keep.
func namesRelease(heading, version string) bool {
	v, ok := releaseVersion(heading)
	return ok && version != "" && (sameRelease(v, version) || sameRelease(v, lineStart(version)))
}

func isAlnum(c byte) bool { return c >= '0' && c <= '9' || isASCIILetter(c) }

// historyHeading reports whether a heading names a release history ("Changelog", "Release
// notes", "What's new").
func historyHeading(heading string) bool { return holdsPhrase(heading, history) }

// classify says what a README does with a section titled heading. Under a how-to section
// (underHowTo) drop phrases must match the whole heading: below "Usage", "License headers" is
// about using the package, but "License" is still the license.
func classify(heading string, underHowTo bool) class {
	ws := words(heading)
	if len(ws) == 0 {
		return keep
	}
	for _, p := range tocExact {
		if equal(ws, p) {
			return toc
		}
	}
	if releaseEntry(heading) {
		return drop
	}
	if howTo(heading) {
		return keep
	}
	for _, p := range policyExact {
		if equal(ws, p) {
			return policy
		}
	}
	for _, p := range dropExact {
		if equal(ws, p) {
			return drop
		}
	}
	for _, p := range dropAnywhere {
		if underHowTo && equal(ws, p) || !underHowTo && len(ws) <= len(p)+3 && contains(ws, p) {
			return drop
		}
	}
	return keep
}

// policyWords are what a project's security policy says and a package's description of its
// own security rarely does: how to report a vulnerability, and to whom.
var policyWords = []string{"report", "disclos", "mail", "contact", "security policy", "security.md", "tidelift", "hackerone", "bug bounty"}

// policyText reports whether the text of a section under a policyExact heading is a security
// policy (dropped) rather than the package's security options (kept): it speaks of reporting or
// disclosing vulnerabilities, gives an address to mail or contact, or points at a policy.
func policyText(text string) bool { return containsAny(strings.ToLower(text), policyWords) }

// Keep reports whether a README keeps the section with this heading path and own text (the
// section's text before its first subsection), e.g. ["Usage", "Flags"] is kept and
// ["Contributing", "Setup"] is not: a section is dropped when its own heading or any heading
// above it names something that does not help someone use the package — contributors,
// contributing, authors, maintainers, backers, sponsors, acknowledgements, credits, license,
// copyright, changelog, history, release notes, what's new, code of conduct, security policy,
// star history, and a release entry ("v2.14.4 (2026-11-19)"; see releaseEntry). A table of contents ("Table of Contents", "Contents", "TOC") is dropped itself
// but not its subsections, since READMEs often nest real sections under it by mistake; a
// release history likewise keeps a how-to section right under it (["Changelog", "Usage",
// "Maximum Password Length"]), though not its releases (["Changelog", "5.0.0"]) but the one of
// version, the package version the README is indexed for (sameRelease; "" for none), and the one
// of the release that began its line (lineStart): what changed in the release a project pins
// ("after upgrading to bcrypt 5, hashpw raises …") and what broke, with their subsections.
// Everything else, recognised (install, usage, examples, API, configuration, FAQ …) or not, is
// kept. Below a how-to heading (install, usage, API, examples, configuration …) a heading is
// dropped only when it is exactly one of those names, so ["Usage", "License headers"] is kept.
// The empty path, the text before the first heading, is kept.
//
// A section headed "Security" is dropped when text is a security policy (it tells how to
// report a vulnerability) and kept when it describes the package's security options. Keep
// cannot see the text of a "Security" heading above the last and keeps it: a caller that
// dropped that section for its text drops its subsections too, as Parse does.
//
// Keep applies to docidx.DocReadme only: Parse keeps every section of other kinds.
func Keep(headingPath []string, text, version string) bool {
	underHowTo := false
	for i, h := range headingPath {
		last := i == len(headingPath)-1
		if indexedRelease(headingPath[:i+1], version) {
			continue
		}
		switch classify(h, underHowTo) {
		case drop:
			// A release history's subsections are its releases, but a how-to section right
			// under it is the README's own, placed there by mistake or by its markup: bcrypt's
			// reStructuredText README adorns "Usage" as a subsection of "Changelog". The
			// release of the version indexed is kept too.
			if !last && historyHeading(h) && (howTo(headingPath[i+1]) || indexedRelease(headingPath[:i+2], version)) {
				continue
			}
			return false
		case toc:
			if last {
				return false
			}
		case policy:
			if last && policyText(text) {
				return false
			}
		}
		underHowTo = underHowTo || howTo(h)
	}
	return true
}
