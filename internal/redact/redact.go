// Package redact keeps credentials out of everything docidx prints or records. A registry URL
// comes from a flag, an environment variable or a configuration file, and may carry a user name
// and password, a token in its query, or an npm credential key (//host/:_authToken=…); it may
// also be malformed in ways that make net/url quote it back in its errors. URL and Parse are the
// only ways docidx turns such a string into text or into a *url.URL; Text does the same for the
// URLs among other words (a lockfile entry docidx quotes).
//
// It imports the standard library only, so every package (registries, crawl, index, cmd) can use it.
package redact

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// URL returns s, which may be a URL with or without a scheme ("https://u:p@host/x?token=t",
// "sparse+https://host/", "u:p@host:1", "//host/path/:_authToken=t") or garbage, reduced to
// scheme, host and path: the user name and password, query and fragment are dropped, and the
// path is cut at its first ':' (where an npm credential key starts). When what stands in for the
// host is not a host name or address (a password holding '/', '?', '#' or '@' throws any parser
// off), the host becomes "<invalid host>" and the path is dropped. URL never returns bytes of the
// user information, whatever s holds.
func URL(s string) string { return redact(s, false) }

// redact is URL; keepFragment keeps a fragment without '@' in it (a git revision, "#egg=name").
func redact(s string, keepFragment bool) string {
	s = strings.TrimSpace(s)
	scheme, rest := splitScheme(s)
	host, path, ok := authority(rest)
	if !ok {
		// The delimiters were inside the user information: everything up to the last '@' is
		// user information, whatever it holds.
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			rest = rest[at+1:]
			host, path, ok = authority(rest)
		}
	}
	if !ok {
		return scheme + "<invalid host>"
	}
	fragment := ""
	if i := strings.IndexByte(rest, '#'); keepFragment && i >= 0 && !strings.Contains(rest[i:], "@") {
		fragment = rest[i:]
	}
	return scheme + host + path + fragment
}

// Text returns s with each whitespace-separated word that holds credentials passed through URL:
// a word with "://" in it (from its scheme on), or one with a ':' before an '@'
// ("user:password@host"). Unlike URL it keeps a fragment without '@' (a git revision, pip's
// "#egg=name"). Quotes, brackets and punctuation around a word stay; other words,
// "git@host:owner/repo.git" among them, are left as they are. Text is for text that quotes a
// file's entries (a requirement line, a lockfile's source), where URLs sit among other words.
func Text(s string) string {
	words := strings.Fields(s)
	changed := false
	for i, w := range words {
		core := strings.TrimLeft(w, "\"'(<[")
		lead := w[:len(w)-len(core)]
		core = strings.TrimRight(core, "\"'),;:>]")
		trail := w[len(lead)+len(core):]
		if j := strings.Index(core, "://"); j > 0 {
			// The URL starts at its scheme: "name@git+https://…" keeps "name@".
			k := j
			for k > 0 && (isAlnum(rune(core[k-1])) || strings.IndexByte("+-.", core[k-1]) >= 0) {
				k--
			}
			for k < j && !validScheme(core[k:j]) { // a scheme starts with a letter
				k++
			}
			words[i] = lead + core[:k] + redact(core[k:], true) + trail
			changed = true
		} else if at := strings.LastIndexByte(core, '@'); at > 0 && strings.Contains(core[:at], ":") {
			words[i] = lead + redact(core, true) + trail
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(words, " ")
}

// splitScheme splits s after "scheme://" or a leading "//". A string without either, such as
// "host:1/path" or "user:pass@host", has no scheme: what precedes its first ':' is a host or a
// user name.
func splitScheme(s string) (scheme, rest string) {
	if strings.HasPrefix(s, "//") {
		return "//", s[2:]
	}
	i := strings.Index(s, "://")
	if i <= 0 || !validScheme(s[:i]) {
		return "", s
	}
	return s[:i+3], s[i+3:]
}

// validScheme reports whether s is a URI scheme (RFC 3986 §3.1), "sparse+https" included.
func validScheme(s string) bool {
	for i, c := range s {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// authority reads "[userinfo@]host[:port][/path][?query][#fragment]" the way RFC 3986 does and
// returns host[:port] and the path cut at its first ':'. ok is false when the host is not a
// host name or address, or when it has a port and the path holds an '@' that is not a path
// segment's first byte ("https://user:123/456@host/"): both mean the user information held a
// delimiter. A path's '@' after a host without a port is the path's own, as in pip's
// "git+https://host/repo.git@v1.0".
func authority(rest string) (host, path string, ok bool) {
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	host, path = rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if !validHost(host) {
		return "", "", false
	}
	for i := 1; i < len(path) && strings.Contains(host, ":"); i++ {
		if path[i] == '@' && path[i-1] != '/' {
			return "", "", false
		}
	}
	if i := strings.IndexByte(path, ':'); i >= 0 {
		path = path[:i]
	}
	return host, path, true
}

// validHost reports whether s is empty, an ASCII host name or IPv4 address (percent-escapes
// allowed), or a bracketed IPv6 literal, each with an optional decimal port.
func validHost(s string) bool {
	name := s
	if i := strings.LastIndexByte(s, ':'); i >= 0 && !strings.HasSuffix(s, "]") {
		name = s[:i]
		for _, c := range s[i+1:] {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		for _, c := range name[1 : len(name)-1] {
			if !isAlnum(c) && c != ':' && c != '.' {
				return false
			}
		}
		return true
	}
	for _, c := range name {
		if !isAlnum(c) && !strings.ContainsRune(".-_~%", c) {
			return false
		}
	}
	return true
}

func isAlnum(c rune) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// ErrBadURL is returned (wrapped) by Parse for a string that is not a URL.
var ErrBadURL = errors.New("not a valid URL")

// Parse parses a configured URL with net/url. Its error never quotes raw or any part of it but
// URL(raw): net/url's own errors quote the whole URL, and some quote bytes of the password (an
// invalid escape "%zz", a port ":s3cret"). The error wraps ErrBadURL and says what is wrong in
// words a user can act on.
func Parse(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s is %w: %s", URL(raw), ErrBadURL, reason(err))
	}
	return u, nil
}

// reason describes a net/url error without the text it quotes.
func reason(err error) string {
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return "it has a '%' not followed by two hexadecimal digits (write %25 for a '%' in a user name, password or path)"
	}
	var host url.InvalidHostError
	if errors.As(err, &host) {
		return "its host has a character no host name can have (percent-escape '/', '?', '#' and '@' in a user name or password)"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "invalid port"):
		return "its port is not a number (percent-escape '/', '?', '#' and '@' in a user name or password)"
	case strings.HasPrefix(msg, "invalid userinfo"):
		return "its user name or password has a character that must be percent-escaped"
	case strings.Contains(msg, "control character"):
		return "it has a control character"
	case strings.HasPrefix(msg, "missing protocol scheme"):
		return "it has no scheme (such as https://)"
	case strings.HasPrefix(msg, "first path segment in URL cannot contain colon"):
		return "it has a ':' before its first '/' but no scheme (such as https://)"
	}
	return "it is malformed"
}
