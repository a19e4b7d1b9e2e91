package sshsig

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// MaxAllowedSigners is the largest allowed-signers file ParseAllowedSigners reads (bytes).
const MaxAllowedSigners = 16 << 20

// ErrNotAllowed is returned by AllowedSigners.Find when no line of the allowed signers lets the
// key sign: it is not listed, its validity has not begun or has ended, or the line's namespaces
// leave out the one asked for.
var ErrNotAllowed = errors.New("key not allowed to sign")

// AllowedSigner is one line of an allowed-signers file:
//
//	principals [options] keytype base64-key [comment]
//
// as ssh-keygen(1) describes it under ALLOWED SIGNERS.
type AllowedSigner struct {
	Line          int           // 1-based line number in the file
	Principals    string        // comma-separated principal patterns, as written (e.g. "alice@example.com,*@ci.example")
	Key           ssh.PublicKey // never a certificate
	Namespaces    string        // comma-separated namespace patterns of namespaces="…"; "" allows every namespace
	ValidAfter    time.Time     // from valid-after="…"; zero when absent
	ValidBefore   time.Time     // from valid-before="…"; zero when absent
	CertAuthority bool          // cert-authority: Key is a CA that vouches for certificates; never matches a plain key
}

// AllowedSigners is a parsed allowed-signers file, in file order.
type AllowedSigners []AllowedSigner

// ParseAllowedSigners reads an allowed-signers file: one signer per line; blank lines and
// lines starting with # are skipped. The principals may be quoted ("…"). The options are
// cert-authority, namespaces="pattern,…", valid-after="TIME" and valid-before="TIME", TIME
// being YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, in UTC with a trailing Z and in the local
// time zone without; option names are case-insensitive, as ssh-keygen reads them. Any other
// option, a duplicate one, a certificate in place of a key, or a line that does not parse is an
// error naming the line.
func ParseAllowedSigners(r io.Reader) (AllowedSigners, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxAllowedSigners+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxAllowedSigners {
		return nil, fmt.Errorf("allowed signers over %d bytes: not an allowed-signers file", MaxAllowedSigners)
	}
	var out AllowedSigners
	for n, line := range strings.Split(string(data), "\n") {
		s, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		if s != nil {
			s.Line = n + 1
			out = append(out, *s)
		}
	}
	return out, nil
}

// parseLine parses one line; it returns nil for a blank or comment line.
func parseLine(line string) (*AllowedSigner, error) {
	rest := strings.TrimLeft(line, " \t\r")
	if rest == "" || rest[0] == '#' {
		return nil, nil
	}
	var s AllowedSigner
	if rest[0] == '"' {
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return nil, errors.New("the principals' quote is not closed")
		}
		s.Principals, rest = rest[1:1+end], rest[2+end:]
	} else {
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			return nil, errors.New("only principals, no key: want 'principals [options] keytype base64-key'")
		}
		s.Principals, rest = rest[:end], rest[end:]
	}
	if s.Principals == "" {
		return nil, errors.New("empty principals")
	}
	rest = strings.TrimLeft(rest, " \t")
	key, kerr := parseKey(rest)
	if kerr != nil {
		// Not a key: options come first, up to the first blank outside quotes.
		opts, after, err := cutOptions(rest)
		if err != nil {
			return nil, err
		}
		if err := s.parseOptions(opts); err != nil {
			if keyType(opts) {
				return nil, kerr // a damaged key rather than options
			}
			return nil, err
		}
		if after = strings.TrimLeft(after, " \t"); after == "" {
			return nil, errors.New("no key after the options")
		}
		if key, err = parseKey(after); err != nil {
			return nil, err
		}
	}
	if _, ok := key.(*ssh.Certificate); ok {
		return nil, fmt.Errorf("the key is a certificate (%s): list the signer's plain public key", key.Type())
	}
	s.Key = key
	return &s, nil
}

// parseKey parses "keytype base64-key [comment]".
func parseKey(text string) (ssh.PublicKey, error) {
	f := strings.Fields(text)
	if len(f) < 2 {
		return nil, errors.New("no key: want 'principals [options] keytype base64-key'")
	}
	raw, err := base64.StdEncoding.DecodeString(f[1])
	if err != nil {
		return nil, fmt.Errorf("%s key: bad base64", f[0])
	}
	key, err := ssh.ParsePublicKey(raw)
	if err != nil {
		return nil, fmt.Errorf("%s key: %v", f[0], err)
	}
	if key.Type() != f[0] {
		return nil, fmt.Errorf("the key says it is %s, the line says %s", key.Type(), f[0])
	}
	return key, nil
}

// keyType reports whether s looks like the name of an SSH key type rather than options.
func keyType(s string) bool {
	for _, p := range []string{"ssh-", "ecdsa-", "sk-", "rsa-"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// cutOptions splits text at its first space or tab outside double quotes.
func cutOptions(text string) (opts, rest string, err error) {
	quoted := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\\' && quoted && i+1 < len(text):
			i++
		case c == '"':
			quoted = !quoted
		case (c == ' ' || c == '\t') && !quoted:
			return text[:i], text[i:], nil
		}
	}
	if quoted {
		return "", "", errors.New("an option's quote is not closed")
	}
	return text, "", nil
}

// parseOptions parses the comma-separated options field.
func (s *AllowedSigner) parseOptions(opts string) error {
	seen := map[string]bool{}
	for opts != "" {
		name, value, hasValue := opts, "", false
		if i := strings.IndexAny(opts, "=,"); i >= 0 {
			name = opts[:i]
			hasValue = opts[i] == '='
			opts = opts[i:]
		} else {
			opts = ""
		}
		name = strings.ToLower(name)
		if hasValue {
			var err error
			if value, opts, err = unquote(opts[1:]); err != nil {
				return fmt.Errorf("option %s: %v", name, err)
			}
		}
		if seen[name] {
			return fmt.Errorf("option %s given twice", name)
		}
		seen[name] = true
		switch name {
		case "cert-authority":
			if hasValue {
				return errors.New("option cert-authority takes no value")
			}
			s.CertAuthority = true
		case "namespaces", "valid-after", "valid-before":
			if !hasValue {
				return fmt.Errorf("option %s needs a quoted value, e.g. %s=\"…\"", name, name)
			}
			switch name {
			case "namespaces":
				if value == "" {
					return errors.New(`option namespaces="" allows no namespace`)
				}
				s.Namespaces = value
			case "valid-after", "valid-before":
				t, err := parseTime(value)
				if err != nil {
					return fmt.Errorf("option %s: %v", name, err)
				}
				if name == "valid-after" {
					s.ValidAfter = t
				} else {
					s.ValidBefore = t
				}
			}
		case "":
			return errors.New("empty option")
		default:
			return fmt.Errorf("unsupported option %q (docidx reads cert-authority, namespaces, valid-after, valid-before)", name)
		}
		switch {
		case opts == "":
		case opts[0] == ',' && len(opts) > 1:
			opts = opts[1:]
		default:
			return fmt.Errorf("options: unexpected %q after option %s", opts, name)
		}
	}
	if !s.ValidAfter.IsZero() && !s.ValidBefore.IsZero() && !s.ValidBefore.After(s.ValidAfter) {
		return errors.New("valid-before is not after valid-after")
	}
	return nil
}

// unquote reads a double-quoted value from the start of text (a backslash escapes a quote) and
// returns it and what follows the closing quote.
func unquote(text string) (value, rest string, err error) {
	if text == "" || text[0] != '"' {
		return "", "", errors.New(`the value must be in double quotes`)
	}
	var b strings.Builder
	for i := 1; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\\' && i+1 < len(text) && text[i+1] == '"':
			b.WriteByte('"')
			i++
		case c == '"':
			return b.String(), text[i+1:], nil
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errors.New("the value's quote is not closed")
}

// parseTime parses a time of the valid-after and valid-before options: YYYYMMDD,
// YYYYMMDDHHMM or YYYYMMDDHHMMSS, in UTC when it ends in Z (or z), else in the local time zone.
func parseTime(s string) (time.Time, error) {
	loc := time.Local
	if t, ok := strings.CutSuffix(s, "Z"); ok {
		s, loc = t, time.UTC
	} else if t, ok := strings.CutSuffix(s, "z"); ok {
		s, loc = t, time.UTC
	}
	layout := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}[len(s)]
	if layout == "" || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("time %q: want YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, and Z for UTC", s)
	}
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q: %v", s, err)
	}
	return t, nil
}

// Find returns the first line that lets key sign in namespace at time at, matching key by its
// type and bytes: a line whose validity period holds at (valid-after ≤ at ≤ valid-before, as
// ssh-keygen checks it) and whose namespaces patterns match namespace. Lines marked
// cert-authority never match a plain key. The error wraps ErrNotAllowed and says why the
// nearest line did not match (expired, not yet valid, namespace left out, not listed).
func (a AllowedSigners) Find(key ssh.PublicKey, namespace string, at time.Time) (*AllowedSigner, error) {
	want := string(key.Marshal())
	var why string
	cas := 0
	for i := range a {
		s := &a[i]
		if s.CertAuthority {
			cas++
			continue
		}
		if string(s.Key.Marshal()) != want {
			continue
		}
		switch {
		case !s.ValidAfter.IsZero() && at.Before(s.ValidAfter):
			why = fmt.Sprintf("the key of %s (line %d) is not valid before %s", s.Principals, s.Line, s.ValidAfter.Format(time.RFC3339))
		case !s.ValidBefore.IsZero() && at.After(s.ValidBefore):
			why = fmt.Sprintf("the key of %s (line %d) expired at %s", s.Principals, s.Line, s.ValidBefore.Format(time.RFC3339))
		case s.Namespaces != "" && !matchPatternList(namespace, s.Namespaces):
			why = fmt.Sprintf("the key of %s (line %d) may sign only namespaces %q, not %q", s.Principals, s.Line, s.Namespaces, namespace)
		default:
			return s, nil
		}
	}
	if why != "" {
		return nil, fmt.Errorf("%w: %s", ErrNotAllowed, why)
	}
	why = fmt.Sprintf("%s key %s is not in the allowed signers", key.Type(), ssh.FingerprintSHA256(key))
	if cas > 0 {
		why += fmt.Sprintf(" (%d cert-authority lines were not considered: docidx does not verify SSH certificates)", cas)
	}
	return nil, fmt.Errorf("%w: %s", ErrNotAllowed, why)
}

// matchPatternList reports whether s matches the comma-separated pattern list, as OpenSSH's
// match_pattern_list does: at least one pattern matches and no negated one (!pattern) does.
// Patterns use * (any run of characters) and ? (one character); matching is case-sensitive.
func matchPatternList(s, list string) bool {
	matched := false
	for _, p := range strings.Split(list, ",") {
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			if matchPattern(s, neg) {
				return false
			}
			continue
		}
		if matchPattern(s, p) {
			matched = true
		}
	}
	return matched
}

// matchPattern matches s against a pattern of * and ?, byte by byte.
func matchPattern(s, p string) bool {
	// Iterative wildcard matching with one backtrack point: linear in practice, never
	// exponential.
	si, pi, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == s[si]):
			si++
			pi++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
