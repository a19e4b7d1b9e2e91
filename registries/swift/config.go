package swift

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/environ"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// ErrNoRegistry is returned when no package registry is configured for a package's scope:
// SwiftPM has no built-in registry, so one must come from registries.json or a flag.
var ErrNoRegistry = errors.New("swift: no package registry configured: pass --swift-registry URL or run `swift package-registry set URL` (which writes .swiftpm/configuration/registries.json)")

// ConfigOptions says where LoadConfig looks for SwiftPM registry configuration.
type ConfigOptions struct {
	// ProjectDir holds the project configuration .swiftpm/configuration/registries.json; ""
	// skips it.
	ProjectDir string
	// Env is the environment in os.Environ form ("KEY=value"); nil means os.Environ(). HOME
	// locates the user configuration and ~/.netrc; SWIFTPM_REGISTRY_TOKEN,
	// SWIFTPM_REGISTRY_LOGIN, SWIFTPM_REGISTRY_PASSWORD and SWIFTPM_NETRC_DATA give credentials.
	Env []string
	// Registry overrides the [default] registry of every file (the --swift-registry flag).
	Registry string
	// NetrcFile is the netrc file read for credentials; "" means $HOME/.netrc, "-" reads none.
	NetrcFile string
}

// Config is the SwiftPM registry configuration docidx needs: which registry serves a scope and
// which credentials go with a request to a registry host. It is read-only after LoadConfig and
// safe for concurrent use.
//
// Printing a Config (fmt's %v, %+v, %#v, or slog) never shows credentials.
type Config struct {
	// Default is the [default] registry URL (no trailing slash), or "" when only scopes have one.
	Default string
	// Scopes maps a lowercased scope to its registry URL (no trailing slash).
	Scopes map[string]string
	// Files lists the registries.json files that were read, highest precedence first.
	Files []string

	auth authConfig
}

// authConfig holds credentials; its String form is redacted.
type authConfig struct {
	token          string                // SWIFTPM_REGISTRY_TOKEN, for every registry host
	login, passwd  string                // SWIFTPM_REGISTRY_LOGIN / _PASSWORD, for every registry host
	hosts          map[string]credential // netrc machines (SWIFTPM_NETRC_DATA first, then the netrc file)
	fallback       *credential           // the netrc "default" entry
	tokenHosts     map[string]bool       // hosts whose registries.json authentication type is "token"
	credentialFrom []string              // where credentials came from, for String
}

type credential struct{ login, password string }

func (a authConfig) String() string   { return "[redacted]" }
func (a authConfig) GoString() string { return "[redacted]" }

// registriesFile is SwiftPM's registries.json (RegistryConfiguration, version 1).
type registriesFile struct {
	Registries     map[string]json.RawMessage `json:"registries"`
	Authentication map[string]json.RawMessage `json:"authentication"`
	Version        int                        `json:"version"`
}

// NewConfig returns a Config with registry as its [default] registry, no scopes and no
// credentials. It returns an error when registry is not an absolute http(s) URL.
func NewConfig(registry string) (*Config, error) {
	reg, err := normalizeRegistry(registry)
	if err != nil {
		return nil, err
	}
	return &Config{Default: reg, Scopes: map[string]string{}}, nil
}

// LoadConfig reads SwiftPM's registry configuration the way SwiftPM does
// (swift-package-manager Documentation/PackageRegistry/PackageRegistryUsage.md):
//
//  1. the user file ~/.swiftpm/configuration/registries.json, then the project file
//     <ProjectDir>/.swiftpm/configuration/registries.json, whose entries override the user's one
//     key at a time: {"registries": {"[default]": {"url": …}, "<scope>": {"url": …}},
//     "authentication": {"<host>": {"type": "basic"|"token"}}, "version": 1};
//  2. opts.Registry (the --swift-registry flag) replaces the [default] registry.
//
// Credentials are looked up as SwiftPM does on Linux, highest precedence first:
// SWIFTPM_REGISTRY_TOKEN (sent as "Bearer <token>" to every configured registry host);
// SWIFTPM_REGISTRY_LOGIN with SWIFTPM_REGISTRY_PASSWORD (Basic); the netrc text in
// SWIFTPM_NETRC_DATA; the netrc file (~/.netrc unless opts.NetrcFile says otherwise). A netrc
// entry for a registry host is sent as "Bearer <password>" when registries.json gives that host
// the "token" authentication type, and as Basic login:password otherwise (SwiftPM sends nothing
// without an authentication entry; docidx takes a matching netrc entry as the user's intent).
// Credentials are only ever sent to the hosts of configured registries. The macOS Keychain is
// not read.
//
// Missing files are skipped. A file that is not valid JSON, has a version other than 1, or a
// registry URL that is not an absolute http(s) URL is an error naming the file. When no registry
// is configured at all, LoadConfig returns an error wrapping ErrNoRegistry.
func LoadConfig(opts ConfigOptions) (*Config, error) {
	envMap := environ.Map(opts.Env)
	home := envMap["HOME"]
	if home == "" {
		home = envMap["USERPROFILE"]
	}
	c := &Config{Scopes: map[string]string{}}
	c.auth.tokenHosts = map[string]bool{}
	var paths []string
	if home != "" {
		paths = append(paths, filepath.Join(home, ".swiftpm", "configuration", "registries.json"))
	}
	if opts.ProjectDir != "" {
		p := filepath.Join(opts.ProjectDir, ".swiftpm", "configuration", "registries.json")
		if len(paths) == 0 || p != paths[0] {
			paths = append(paths, p)
		}
	}
	for _, p := range paths { // lowest precedence first
		f, err := readRegistriesFile(p)
		if err != nil {
			return nil, err
		}
		if f == nil {
			continue
		}
		c.Files = append([]string{p}, c.Files...)
		if err := c.merge(p, f); err != nil {
			return nil, err
		}
	}
	if opts.Registry != "" {
		reg, err := normalizeRegistry(opts.Registry)
		if err != nil {
			return nil, fmt.Errorf("swift: --swift-registry: %w", err)
		}
		c.Default = reg
	}
	if c.Default == "" && len(c.Scopes) == 0 {
		return nil, ErrNoRegistry
	}

	// Credentials.
	c.auth.token = envMap["SWIFTPM_REGISTRY_TOKEN"]
	c.auth.login, c.auth.passwd = envMap["SWIFTPM_REGISTRY_LOGIN"], envMap["SWIFTPM_REGISTRY_PASSWORD"]
	if c.auth.token != "" {
		c.auth.credentialFrom = append(c.auth.credentialFrom, "SWIFTPM_REGISTRY_TOKEN")
	} else if c.auth.login != "" && c.auth.passwd != "" {
		c.auth.credentialFrom = append(c.auth.credentialFrom, "SWIFTPM_REGISTRY_LOGIN")
	}
	c.auth.hosts = map[string]credential{}
	if data := envMap["SWIFTPM_NETRC_DATA"]; data != "" {
		c.addNetrc(parseNetrc(data))
		c.auth.credentialFrom = append(c.auth.credentialFrom, "SWIFTPM_NETRC_DATA")
	}
	netrcFile := opts.NetrcFile
	if netrcFile == "" && home != "" {
		netrcFile = filepath.Join(home, ".netrc")
	}
	if netrcFile != "" && netrcFile != "-" {
		data, err := readSmallFile(netrcFile, MaxNetrc)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("swift: reading %s: %w", netrcFile, err)
		default:
			c.addNetrc(parseNetrc(string(data)))
			c.auth.credentialFrom = append(c.auth.credentialFrom, netrcFile)
		}
	}
	return c, nil
}

// readRegistriesFile reads one registries.json; a missing file yields nil, nil.
func readRegistriesFile(p string) (*registriesFile, error) {
	data, err := readSmallFile(p, MaxRegistriesJSON)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("swift: reading %s: %w", p, err)
	}
	f, err := parseRegistriesJSON(data)
	if err != nil {
		return nil, fmt.Errorf("swift: %s: %w", p, err)
	}
	return f, nil
}

// parseRegistriesJSON decodes a registries.json document and checks its version.
func parseRegistriesJSON(data []byte) (*registriesFile, error) {
	var f registriesFile
	if err := json.Unmarshal(trimBOM(data), &f); err != nil {
		return nil, fmt.Errorf("not a registries.json document: %w", err)
	}
	if f.Version != 0 && f.Version != 1 {
		return nil, fmt.Errorf("registries.json version %d is not supported (docidx reads version 1); it was probably written by a newer SwiftPM", f.Version)
	}
	return &f, nil
}

// merge adds a parsed file's registries and authentication types, overriding earlier ones.
func (c *Config) merge(p string, f *registriesFile) error {
	for _, k := range slices.Sorted(maps.Keys(f.Registries)) {
		var entry struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(f.Registries[k], &entry); err != nil {
			return fmt.Errorf("swift: %s: registry %q: %w", p, k, err)
		}
		reg, err := normalizeRegistry(entry.URL)
		if err != nil {
			return fmt.Errorf("swift: %s: registry %q: %w", p, k, err)
		}
		if k == "[default]" {
			c.Default = reg
			continue
		}
		if !validScope(k) {
			return fmt.Errorf("swift: %s: %q is not a valid package scope (letters, digits and single hyphens, at most 39)", p, k)
		}
		c.Scopes[strings.ToLower(k)] = reg
	}
	for host, raw := range f.Authentication {
		var a struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &a) == nil {
			c.auth.tokenHosts[strings.ToLower(host)] = strings.EqualFold(a.Type, "token")
		}
	}
	return nil
}

// isRegistryHost reports whether host is the host of a configured registry.
func (c *Config) isRegistryHost(host string) bool {
	for _, reg := range c.Registries() {
		if u, err := url.Parse(reg); err == nil && strings.EqualFold(u.Host, host) {
			return true
		}
	}
	return false
}

func (c *Config) addNetrc(entries []netrcEntry) {
	for _, e := range entries {
		cred := credential{login: e.login, password: e.password}
		if e.machine == "" {
			if c.auth.fallback == nil {
				c.auth.fallback = &cred
			}
			continue
		}
		host := strings.ToLower(e.machine)
		if _, ok := c.auth.hosts[host]; !ok {
			c.auth.hosts[host] = cred
		}
	}
}

// RegistryFor returns the registry URL (no trailing slash) serving packages of scope: the
// scope's registry when one is configured, else the [default] one. It returns an error wrapping
// ErrNoRegistry when neither exists.
func (c *Config) RegistryFor(scope string) (string, error) {
	if reg, ok := c.Scopes[strings.ToLower(scope)]; ok {
		return reg, nil
	}
	if c.Default != "" {
		return c.Default, nil
	}
	return "", fmt.Errorf("%w (scope %q has no registry and there is no [default] one)", ErrNoRegistry, scope)
}

// Registries returns every configured registry URL once: the [default] one first, then the
// scoped ones by scope name.
func (c *Config) Registries() []string {
	var out []string
	seen := map[string]bool{}
	add := func(r string) {
		if r != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	add(c.Default)
	for _, s := range slices.Sorted(maps.Keys(c.Scopes)) {
		add(c.Scopes[s])
	}
	return out
}

// AuthFor returns the Authorization header value ("Bearer …" or "Basic …") for a request to
// rawURL, or "" when none applies. Only URLs on the host of a configured registry get one (see
// LoadConfig for the order of the sources).
func (c *Config) AuthFor(rawURL string) string {
	if c == nil {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || !c.isRegistryHost(u.Host) {
		return ""
	}
	switch {
	case c.auth.token != "":
		return "Bearer " + c.auth.token
	case c.auth.login != "" && c.auth.passwd != "":
		return basic(c.auth.login, c.auth.passwd)
	}
	cred, ok := c.auth.hosts[strings.ToLower(u.Hostname())]
	if !ok {
		cred, ok = c.auth.hosts[strings.ToLower(u.Host)]
	}
	if !ok && c.auth.fallback != nil {
		cred, ok = *c.auth.fallback, true
	}
	if !ok || cred.password == "" {
		return ""
	}
	if c.auth.tokenHosts[strings.ToLower(u.Host)] || c.auth.tokenHosts[strings.ToLower(u.Hostname())] {
		return "Bearer " + cred.password
	}
	return basic(cred.login, cred.password)
}

func basic(login, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(login+":"+password))
}

// String describes the configuration without credentials.
func (c Config) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[default]=%s", orNone(redact.URL(c.Default)))
	for _, s := range slices.Sorted(maps.Keys(c.Scopes)) {
		fmt.Fprintf(&b, " %s=%s", s, redact.URL(c.Scopes[s]))
	}
	if len(c.auth.credentialFrom) > 0 {
		fmt.Fprintf(&b, " credentials from %s", strings.Join(c.auth.credentialFrom, ", "))
	}
	return b.String()
}

// GoString is String, so that %#v never prints credentials.
func (c Config) GoString() string { return c.String() }

// LogValue implements slog.LogValuer without credentials.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// normalizeRegistry checks that s is an absolute http(s) URL and drops a trailing "/", query and
// fragment. SE-0292 asks for https; http is accepted for local mirrors and tests.
func normalizeRegistry(s string) (string, error) {
	u, err := fetch.BaseURL(s)
	if err != nil {
		return "", fmt.Errorf("bad registry URL %w", err)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// readSmallFile reads a configuration file of at most limit bytes (see memfs.ReadOpenLimited).
func readSmallFile(p string, limit int64) ([]byte, error) {
	return memfs.ReadFileLimited(p, limit) // stats first: a FIFO is never opened
}

// netrcEntry is one machine (or, with an empty machine, the default) entry of a netrc file.
type netrcEntry struct {
	machine, login, password string
}

// parseNetrc parses netrc text (the ftp/curl format SwiftPM reads): whitespace-separated tokens
// "machine <host>", "default", "login <name>", "password <secret>", "account <x>" and
// "macdef <name>" (whose definition, up to the next blank line, is skipped); "#" starts a
// comment to the end of the line. Values cannot contain whitespace.
func parseNetrc(data string) []netrcEntry {
	var out []netrcEntry
	var cur *netrcEntry
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	var toks []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(line)
		for k := 0; k < len(fields); k++ {
			if fields[k] == "macdef" {
				// The macro body runs to the next empty line.
				for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
					i++
				}
				fields = fields[:k]
				break
			}
		}
		toks = append(toks, fields...)
	}
	for i := 0; i < len(toks); i++ {
		next := func() string {
			if i+1 < len(toks) {
				i++
				return toks[i]
			}
			return ""
		}
		switch toks[i] {
		case "machine":
			out = append(out, netrcEntry{machine: next()})
			cur = &out[len(out)-1]
		case "default":
			out = append(out, netrcEntry{})
			cur = &out[len(out)-1]
		case "login":
			if v := next(); cur != nil {
				cur.login = v
			}
		case "password":
			if v := next(); cur != nil {
				cur.password = v
			}
		case "account":
			next()
		}
	}
	return out
}

// validScope reports whether s is a package scope (Registry.md §3.6.1): alphanumerics and
// single inner hyphens, at most 39 characters.
func validScope(s string) bool { return validIdentityPart(s, 39, "-") }

// validName reports whether s is a package name (Registry.md §3.6.2): alphanumerics with single
// inner hyphens or underscores, at most 100 characters.
func validName(s string) bool { return validIdentityPart(s, 100, "-_") }

// validIdentityPart reports whether s is 1 to most bytes of ASCII letters and digits, with single
// separators (bytes of seps) between them: none first, last or after another.
func validIdentityPart(s string, most int, seps string) bool {
	if s == "" || len(s) > most {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlnum(c):
		case strings.IndexByte(seps, c) >= 0 && i > 0 && i < len(s)-1 && isAlnum(s[i-1]):
		default:
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ParseIdentity splits a registry package identifier "scope.name" (SE-0292 §3.6) into its scope
// and name, both lowercased (they are case-insensitive). It returns an error wrapping
// docidx.ErrBadSpec when id is not of that form.
func ParseIdentity(id string) (scope, name string, err error) {
	scope, name, ok := strings.Cut(strings.TrimSpace(id), ".")
	if !ok || !validScope(scope) || !validName(name) {
		return "", "", fmt.Errorf("%w: %q is not a Swift package identifier (want scope.name, e.g. mona.LinkedList, or a repository URL)", docidx.ErrBadSpec, id)
	}
	return strings.ToLower(scope), strings.ToLower(name), nil
}
