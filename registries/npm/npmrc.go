package npm

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/environ"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// ErrNoRegistry is returned by LoadConfig when no npm registry is configured anywhere and
// `npm config get registry` cannot tell one either.
var ErrNoRegistry = errors.New("npm: no registry configured: pass --npm-registry URL or set NPM_CONFIG_REGISTRY (or add registry=URL to an .npmrc)")

// MaxNPMRC is the largest .npmrc file LoadConfig reads, in bytes; larger files are an error.
const MaxNPMRC = 1 << 20

// npmConfigTimeout bounds the `npm config get registry` fallback.
const npmConfigTimeout = 15 * time.Second

// ConfigOptions says where LoadConfig looks for npm configuration.
type ConfigOptions struct {
	// ProjectDir holds the project .npmrc (next to package.json); "" skips the project file.
	ProjectDir string
	// Env is the environment in os.Environ form ("KEY=value"); nil means os.Environ().
	Env []string
	// Registry overrides every other source of the default registry (the --npm-registry flag).
	Registry string
	// NPM is the npm executable run as `npm config get registry` when no registry is configured;
	// "" means "npm" from PATH, "-" disables the fallback.
	NPM string
}

// Config is the npm configuration docidx needs: which registry serves a package and which
// credentials go with a request URL. It is read-only after LoadConfig and safe for concurrent use.
//
// Printing a Config (fmt's %v, %+v, %#v, or slog) never shows credentials.
type Config struct {
	// Registry is the default registry URL, always ending in "/".
	Registry string
	// Scopes maps a scope ("@myco") to its registry URL, always ending in "/".
	Scopes map[string]string
	// RegistrySource says where Registry came from: "flag", an environment variable name, an
	// .npmrc path, or "npm config get registry".
	RegistrySource string
	// Files lists the .npmrc files that were read, highest precedence first.
	Files []string

	// auth maps a nerf-darted URL prefix ("//host[:port]/path/") to its credentials.
	auth map[string]*credential
}

// credential is what one nerf-darted prefix holds. Its String form is redacted.
type credential struct {
	token    string // _authToken
	basic    string // _auth: base64 of user:password
	username string
	password string // _password: base64 of the password
}

func (c *credential) String() string   { return "[redacted]" }
func (c *credential) GoString() string { return "[redacted]" }

// header returns the Authorization header value, or "".
func (c *credential) header() string {
	switch {
	case c.token != "":
		return "Bearer " + c.token
	case c.basic != "":
		return "Basic " + c.basic
	case c.username != "" && c.password != "":
		pw, err := base64.StdEncoding.DecodeString(c.password)
		if err != nil {
			return ""
		}
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.username+":"+string(pw)))
	}
	return ""
}

// NewConfig returns a Config with registry as its default registry, no scopes and no
// credentials. It returns an error when registry is not an absolute http(s) URL.
func NewConfig(registry string) (*Config, error) {
	reg, err := normalizeRegistry(registry)
	if err != nil {
		return nil, err
	}
	return &Config{Registry: reg, RegistrySource: "argument", Scopes: map[string]string{}, auth: map[string]*credential{}}, nil
}

// LoadConfig reads npm configuration the way npm does
// (https://docs.npmjs.com/cli/configuring-npm/npmrc, https://docs.npmjs.com/cli/using-npm/config),
// highest precedence first:
//
//  1. opts.Registry (the --npm-registry flag);
//  2. environment variables npm_config_<key> / NPM_CONFIG_<KEY> (case-insensitive prefix; "_"
//     in the key becomes "-" and the key is lowercased, except nerf-darted "//…" keys);
//  3. the project .npmrc in opts.ProjectDir;
//  4. the user .npmrc: $npm_config_userconfig, else $HOME/.npmrc;
//  5. the global npmrc: $npm_config_globalconfig, else $npm_config_prefix/etc/npmrc, else
//     $PREFIX/etc/npmrc, when present.
//
// Keys used: registry, @scope:registry, and credentials scoped to a URL prefix:
// //host[:port]/path/:_authToken, :_auth, :username with :_password (base64). The legacy
// unscoped _authToken/_auth/username/_password apply to the default registry. always-auth and
// every other key are ignored. Values expand ${VAR} (left as written when VAR is unset) and
// ${VAR?} (empty when unset) from the environment.
//
// When no source names a registry, LoadConfig runs `npm config get registry`; when that
// fails it returns an error wrapping ErrNoRegistry. A malformed registry URL or an unreadable
// .npmrc (other than a missing one) is an error that names the file.
func LoadConfig(opts ConfigOptions) (*Config, error) {
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	envMap := environ.Map(env)

	// Environment configuration, normalized the way @npmcli/config does.
	envConf := map[string]string{}
	envKeys := map[string]string{} // normalized key -> variable name, for RegistrySource
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" || len(k) < len("npm_config_") || !strings.EqualFold(k[:len("npm_config_")], "npm_config_") {
			continue
		}
		key := k[len("npm_config_"):]
		if !strings.HasPrefix(key, "//") {
			key = strings.ToLower(key[:1] + strings.ReplaceAll(key[1:], "_", "-"))
		}
		if key == "" {
			continue
		}
		envConf[key] = envReplace(v, envMap)
		envKeys[key] = k
	}

	type layer struct {
		source string
		kv     map[string]string
	}
	var layers []layer // lowest precedence first
	var files []string
	readFile := func(path string) error {
		kv, err := readNPMRC(path, envMap)
		if err != nil {
			return err
		}
		if kv != nil {
			layers = append(layers, layer{path, kv})
			files = append([]string{path}, files...)
		}
		return nil
	}

	// Global.
	global := envConf["globalconfig"]
	if global == "" {
		prefix := envConf["prefix"]
		if prefix == "" {
			prefix = envMap["PREFIX"]
		}
		if prefix != "" {
			global = filepath.Join(prefix, "etc", "npmrc")
		}
	}
	if global != "" {
		if err := readFile(global); err != nil {
			return nil, err
		}
	}
	// User.
	user := envConf["userconfig"]
	if user == "" {
		if home := homeDir(envMap); home != "" {
			user = filepath.Join(home, ".npmrc")
		}
	} else if strings.HasPrefix(user, "~/") {
		user = filepath.Join(homeDir(envMap), user[2:])
	}
	if user != "" {
		if err := readFile(user); err != nil {
			return nil, err
		}
	}
	// Project.
	if opts.ProjectDir != "" {
		p := filepath.Join(opts.ProjectDir, ".npmrc")
		if p != user && p != global {
			if err := readFile(p); err != nil {
				return nil, err
			}
		}
	}
	layers = append(layers, layer{"env", envConf})

	cfg := &Config{Scopes: map[string]string{}, auth: map[string]*credential{}, Files: files}
	var legacy credential
	for _, l := range layers {
		// Sorted keys so that a file's later duplicate handling stays deterministic.
		for _, k := range slices.Sorted(maps.Keys(l.kv)) {
			v := l.kv[k]
			source := l.source
			if source == "env" {
				source = envKeys[k]
			}
			switch {
			case k == "registry":
				reg, err := normalizeRegistry(v)
				if err != nil {
					return nil, fmt.Errorf("npm: registry in %s: %w", source, err)
				}
				cfg.Registry, cfg.RegistrySource = reg, source
			case strings.HasPrefix(k, "@") && strings.HasSuffix(k, ":registry"):
				scope := strings.ToLower(strings.TrimSuffix(k, ":registry"))
				if len(scope) < 2 || strings.Contains(scope, "/") {
					continue
				}
				reg, err := normalizeRegistry(v)
				if err != nil {
					return nil, fmt.Errorf("npm: %s in %s: %w", k, source, err)
				}
				cfg.Scopes[scope] = reg
			case strings.HasPrefix(k, "//"):
				i := strings.LastIndex(k, ":")
				if i < 0 {
					continue
				}
				prefix, field := k[:i], k[i+1:]
				c := cfg.auth[prefix]
				if c == nil {
					c = &credential{}
				}
				if setCredential(c, field, v) {
					cfg.auth[prefix] = c
				}
			default:
				setCredential(&legacy, k, v)
			}
		}
	}

	if opts.Registry != "" {
		reg, err := normalizeRegistry(opts.Registry)
		if err != nil {
			return nil, fmt.Errorf("npm: --npm-registry: %w", err)
		}
		cfg.Registry, cfg.RegistrySource = reg, "flag"
	}
	if cfg.Registry == "" {
		reg, err := npmConfigGetRegistry(opts, env)
		if err != nil {
			return nil, fmt.Errorf("%w (npm config get registry: %v)", ErrNoRegistry, err)
		}
		cfg.Registry, cfg.RegistrySource = reg, "npm config get registry"
	}
	if legacy.header() != "" {
		if nd := nerfDart(cfg.Registry); nd != "" && cfg.auth[nd] == nil {
			cfg.auth[nd] = &legacy
		}
	}
	return cfg, nil
}

// setCredential stores one credential field; it reports whether the field was one of them.
func setCredential(c *credential, field, v string) bool {
	switch strings.ToLower(field) {
	case "_authtoken":
		c.token = v
	case "_auth":
		c.basic = v
	case "username":
		c.username = v
	case "_password":
		c.password = v
	default:
		return false
	}
	return true
}

// npmConfigGetRegistry asks npm itself for its registry.
func npmConfigGetRegistry(opts ConfigOptions, env []string) (string, error) {
	bin := opts.NPM
	if bin == "-" {
		return "", errors.New("disabled")
	}
	if bin == "" {
		bin = "npm"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmConfigTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "config", "get", "registry")
	cmd.Env = env
	if opts.ProjectDir != "" {
		if st, err := os.Stat(opts.ProjectDir); err == nil && st.IsDir() {
			cmd.Dir = opts.ProjectDir
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 200 {
			msg = msg[:200]
		}
		if msg != "" {
			return "", fmt.Errorf("%w: %s", err, msg)
		}
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	reg := strings.TrimSpace(lines[len(lines)-1])
	if reg == "" || reg == "undefined" || reg == "null" {
		return "", errors.New("npm printed no registry")
	}
	return normalizeRegistry(reg)
}

// readNPMRC reads and parses one .npmrc file; a missing file yields nil, nil.
func readNPMRC(path string, env map[string]string) (map[string]string, error) {
	// Stat before opening: a FIFO named .npmrc would block the open for ever.
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("npm: reading %s: %w", path, err)
	}
	if st.IsDir() {
		return nil, nil
	}
	if st.Mode().IsRegular() && st.Size() > MaxNPMRC {
		return nil, fmt.Errorf("npm: %s is larger than %d bytes", path, MaxNPMRC)
	}
	b, err := memfs.ReadFileLimited(path, MaxNPMRC)
	if errors.Is(err, docidx.ErrTooLarge) {
		return nil, fmt.Errorf("npm: %s is larger than %d bytes", path, MaxNPMRC)
	}
	if err != nil {
		return nil, fmt.Errorf("npm: reading %s: %w", path, err)
	}
	buf := bytes.NewBuffer(b)
	kv := map[string]string{}
	for _, e := range parseNPMRC(buf.Bytes()) {
		kv[envReplace(e.key, env)] = envReplace(e.value, env)
	}
	return kv, nil
}

// npmrcEntry is one top-level key = value line of an .npmrc.
type npmrcEntry struct {
	key, value string
	line       int
}

// parseNPMRC parses .npmrc text the way the ini package npm uses does: one key=value per line,
// the key running to the first "="; lines starting with ";" or "#" are comments; a value in
// double quotes is a JSON string, one in single quotes is taken literally; an unquoted value ends
// at an unescaped ";" or "#" and is trimmed. "[section]" headers start sections whose keys npm
// does not read, so they are dropped. "key[]" array keys keep their last value. A key without
// "=" means true.
func parseNPMRC(data []byte) []npmrcEntry {
	var out []npmrcEntry
	inSection := false
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	lineNo := 0
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		lineNo++
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == ';' || s[0] == '#' {
			continue
		}
		if s[0] == '[' && strings.HasSuffix(s, "]") && !strings.Contains(s[1:len(s)-1], "]") {
			inSection = true
			continue
		}
		if inSection {
			continue
		}
		rawKey, rawVal, hasVal := strings.Cut(s, "=")
		key := strings.TrimSuffix(iniUnsafe(rawKey), "[]")
		if key == "" {
			continue
		}
		val := "true"
		if hasVal {
			val = iniUnsafe(rawVal)
		}
		out = append(out, npmrcEntry{key: key, value: val, line: lineNo})
	}
	return out
}

// iniUnsafe is the ini package's value decoding.
func iniUnsafe(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		if v[0] == '\'' {
			v = v[1 : len(v)-1]
		}
		var s string
		if err := json.Unmarshal([]byte(v), &s); err == nil {
			return s
		}
		return v
	}
	var b strings.Builder
	esc := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case esc:
			if c != '\\' && c != ';' && c != '#' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
			esc = false
		case c == ';' || c == '#':
			return strings.TrimSpace(b.String())
		case c == '\\':
			esc = true
		default:
			b.WriteByte(c)
		}
	}
	if esc {
		b.WriteByte('\\')
	}
	return strings.TrimSpace(b.String())
}

// envReplace expands ${NAME} and ${NAME?} in s as npm's config loader does: an unset NAME leaves
// ${NAME} as written, ${NAME?} becomes empty; an odd number of backslashes before "$" escapes the
// reference (half of them are kept either way).
func envReplace(s string, env map[string]string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		j += i
		end := strings.IndexByte(s[j+2:], '}')
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		end += j + 2
		name := s[j+2 : end]
		optional := strings.HasSuffix(name, "?")
		if optional {
			name = name[:len(name)-1]
		}
		if name == "" || strings.ContainsAny(name, "${}?") {
			b.WriteString(s[i : j+2])
			i = j + 2
			continue
		}
		// Backslashes right before "$".
		k := j
		for k > i && s[k-1] == '\\' {
			k--
		}
		esc := j - k
		b.WriteString(s[i:k])
		orig := s[j : end+1]
		if esc%2 == 1 {
			b.WriteString(strings.Repeat(`\`, (esc-1)/2))
			b.WriteString(orig)
		} else {
			b.WriteString(strings.Repeat(`\`, esc/2))
			if v, ok := env[name]; ok {
				b.WriteString(v)
			} else if !optional {
				b.WriteString("${" + name + "}")
			}
		}
		i = end + 1
	}
	return b.String()
}

func homeDir(env map[string]string) string {
	if h := env["HOME"]; h != "" {
		return h
	}
	return env["USERPROFILE"]
}

// normalizeRegistry checks that s is an absolute http(s) URL and makes it end in "/".
func normalizeRegistry(s string) (string, error) {
	u, err := fetch.BaseURL(s)
	if err != nil {
		return "", fmt.Errorf("bad registry URL %w", err)
	}
	out := u.String()
	if !strings.HasSuffix(out, "/") {
		out += "/"
	}
	return out, nil
}

// nerfDart returns npm's credential key for a registry URL: "//host[:port]/path/", the URL
// without scheme, userinfo, query and fragment, cut after the last "/" of the path.
func nerfDart(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	p := u.EscapedPath()
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[:i+1]
	} else {
		p = "/"
	}
	return "//" + u.Host + p
}

// RegistryFor returns the registry URL (ending in "/") that serves package name: its scope's
// registry when one is configured, else the default registry.
func (c *Config) RegistryFor(name string) string {
	if strings.HasPrefix(name, "@") {
		if i := strings.IndexByte(name, '/'); i > 0 {
			if r, ok := c.Scopes[strings.ToLower(name[:i])]; ok {
				return r
			}
		}
	}
	return c.Registry
}

// AuthFor returns the Authorization header value ("Bearer …" or "Basic …") to send with a request
// for rawURL, or "" when no credentials apply. Credentials are matched as npm-registry-fetch does:
// starting from "//host[:port]/full/path", the longest configured prefix wins, walking up one path
// segment (or one trailing slash) at a time; the scheme is ignored and the host must match
// exactly.
func (c *Config) AuthFor(rawURL string) string {
	if c == nil || len(c.auth) == 0 {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return ""
	}
	key := "//" + u.Host + u.EscapedPath()
	for len(key) > len("//") {
		if cr, ok := c.auth[key]; ok {
			if h := cr.header(); h != "" {
				return h
			}
		}
		if strings.HasSuffix(key, "/") {
			key = key[:len(key)-1]
		} else {
			key = key[:strings.LastIndexByte(key, '/')+1]
		}
	}
	return ""
}

// HasAuth reports whether any credentials are configured (their values are never exposed).
func (c *Config) HasAuth() bool { return c != nil && len(c.auth) > 0 }

// String describes the configuration without credentials.
func (c Config) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "registry=%s (from %s)", redact.URL(c.Registry), c.RegistrySource)
	for _, s := range slices.Sorted(maps.Keys(c.Scopes)) {
		fmt.Fprintf(&b, " %s:registry=%s", s, redact.URL(c.Scopes[s]))
	}
	for _, p := range slices.Sorted(maps.Keys(c.auth)) {
		fmt.Fprintf(&b, " %s:<credentials>", p)
	}
	return b.String()
}

// GoString is String, so that %#v never prints credentials.
func (c Config) GoString() string { return c.String() }

// LogValue implements slog.LogValuer without credentials.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }
