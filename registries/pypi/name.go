package pypi

import "strings"

// Normalize returns the normalized form of a project name as PEP 503 defines it
// (https://peps.python.org/pep-0503/#normalized-names): every run of "-", "_" and "." becomes one
// "-", and letters are lowercased, as Python's re.sub(r"[-_.]+", "-", name).lower() does.
// "Flask_SQLAlchemy" and "flask.sqlalchemy" both become "flask-sqlalchemy", "PyYAML" becomes
// "pyyaml". docidx names every Python package by its normalized name (it is also the purl name).
func Normalize(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	sep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			sep = true
			continue
		}
		if sep {
			b.WriteByte('-')
			sep = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	if sep {
		b.WriteByte('-')
	}
	return b.String()
}

// ValidName reports whether name is a valid project name under PEP 508
// (https://peps.python.org/pep-0508/#names): ASCII letters and digits, with ".", "-" and "_"
// allowed between them, at most 200 bytes (a limit docidx adds so names fit in URLs and keys).
func ValidName(name string) bool {
	if name == "" || len(name) > 200 {
		return false
	}
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	if !alnum(name[0]) || !alnum(name[len(name)-1]) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !alnum(c) && c != '.' && c != '-' && c != '_' {
			return false
		}
	}
	return true
}
