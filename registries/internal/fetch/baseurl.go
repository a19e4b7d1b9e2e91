package fetch

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/docidx/docidx/internal/redact"
)

// BaseURL parses raw, white space trimmed, as the base URL of a registry or index: an absolute
// http or https URL with a host. Its query and fragment are dropped; its path is kept as written.
// The error never quotes credentials: redact.Parse's for a malformed URL (wrapping
// redact.ErrBadURL), else one reading `"<raw, redacted>" is not an http(s) URL`. Callers prefix
// what the URL is for ("pypi: index URL ", "bad registry URL ").
func BaseURL(raw string) (*url.URL, error) {
	u, err := redact.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", redact.URL(raw))
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}
