package cargo

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/environ"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// DefaultIndex is crates.io's sparse index, used for the crates-io registry when cargo's
// configuration does not replace it (docs/ARCHITECTURE.md §5 allows this public default for crates).
const DefaultIndex = "sparse+https://index.crates.io/"

// CratesIO is the name cargo gives the default registry.
const CratesIO = "crates-io"

// ErrUnsupportedSource is returned when cargo's configuration sends a registry to a source docidx
// cannot read: a git index, a local-registry or directory source (cargo vendor), or a git
// repository. docidx reads sparse registries (sparse+https://…) only; crawl the crates cargo has
// already extracted with --cargo-home, or name a sparse index with --cargo-index.
var ErrUnsupportedSource = errors.New("unsupported cargo source")

// ConfigOptions says where LoadConfig looks for cargo configuration.
type ConfigOptions struct {
	// ProjectDir is where the search for .cargo/config.toml files starts, going up to the root
	// of the file system, as cargo does from its working directory; "" skips project files.
	ProjectDir string
	// CargoHome is cargo's home directory; "" means $CARGO_HOME from Env, else $HOME/.cargo.
	CargoHome string
	// Env is the environment in os.Environ form; nil means os.Environ().
	Env []string
	// Index, when set, is the index the crates-io registry is read from, over any source
	// replacement (a --cargo-index flag): "sparse+https://…/" or a plain https URL, which is
	// taken as a sparse index.
	Index string
}

// Config is the part of cargo's configuration (https://doc.rust-lang.org/cargo/reference/config.html)
// that says where crates come from: source replacement ([source.crates-io] replace-with and the
// [source.NAME] tables, https://doc.rust-lang.org/cargo/reference/source-replacement.html),
// alternate registries ([registries.NAME] index and the CARGO_REGISTRIES_<NAME>_INDEX variables,
// https://doc.rust-lang.org/cargo/reference/registries.html) and registry tokens (credentials.toml,
// CARGO_REGISTRY_TOKEN and CARGO_REGISTRIES_<NAME>_TOKEN). Printing a Config (fmt's %v, %+v,
// %#v, or slog) never shows tokens. A Config is immutable and safe for concurrent use.
type Config struct {
	sources    map[string]map[string]setting // [source.NAME] key -> value
	registries map[string]map[string]setting // [registries.NAME] key -> value (index, token, protocol)
	registry   map[string]setting            // [registry] (crates-io's token)
	env        map[string]string
	override   string   // ConfigOptions.Index, normalized
	files      []string // files read, highest precedence first
}

// setting is one configuration value and the file that set it.
type setting struct {
	value string
	file  string // "" for the environment
}

// credential is a token. Its String and GoString methods never show it.
type credential struct{ token string }

func (c credential) String() string   { return "[redacted]" }
func (c credential) GoString() string { return "[redacted]" }

// NewConfig returns a Config that reads the crates-io registry from index ("sparse+https://…/"
// or an https URL taken as a sparse index) with no other registries and no tokens: what a
// --cargo-index flag alone gives.
func NewConfig(index string) (*Config, error) {
	norm, err := normalizeSparse(index, true)
	if err != nil {
		return nil, err
	}
	return &Config{override: norm, env: map[string]string{}}, nil
}

// LoadConfig reads cargo configuration the way cargo does: .cargo/config.toml (or the
// older extension-less .cargo/config, which wins when both exist) in ProjectDir and every parent
// directory, then $CARGO_HOME/config.toml, the deeper directory winning per key; then
// $CARGO_HOME/credentials.toml (or credentials) for tokens; the environment overrides files.
// Files that do not exist are skipped; a file that is not valid TOML is an error naming it.
func LoadConfig(opts ConfigOptions) (*Config, error) {
	c := &Config{
		sources:    map[string]map[string]setting{},
		registries: map[string]map[string]setting{},
		registry:   map[string]setting{},
		env:        environ.Map(opts.Env),
	}
	if opts.Index != "" {
		norm, err := normalizeSparse(opts.Index, true)
		if err != nil {
			return nil, err
		}
		c.override = norm
	}
	home := opts.CargoHome
	if home == "" {
		h, err := cargoHome(c.env)
		if err == nil {
			home = h
		}
	}
	seen := map[string]bool{}
	read := func(dir string, names ...string) error {
		for _, n := range names {
			p := filepath.Join(dir, n)
			abs, err := filepath.Abs(p)
			if err != nil || seen[abs] {
				continue
			}
			st, err := os.Stat(abs)
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			seen[abs] = true
			if err := c.readFile(abs); err != nil {
				return err
			}
			return nil // the first existing name is the one cargo reads
		}
		return nil
	}
	if opts.ProjectDir != "" {
		dir, err := filepath.Abs(opts.ProjectDir)
		if err != nil {
			return nil, fmt.Errorf("cargo: config: %w", err)
		}
		for {
			if err := read(filepath.Join(dir, ".cargo"), "config", "config.toml"); err != nil {
				return nil, err
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if home != "" {
		if err := read(home, "config", "config.toml"); err != nil {
			return nil, err
		}
		if err := read(home, "credentials", "credentials.toml"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// DefaultCargoHome returns cargo's home directory from env (os.Environ form; nil means
// os.Environ()): $CARGO_HOME, else $HOME/.cargo (USERPROFILE on Windows).
func DefaultCargoHome(env []string) (string, error) {
	return cargoHome(environ.Map(env))
}

// cargoHome is DefaultCargoHome over an environment already read into a map.
func cargoHome(m map[string]string) (string, error) {
	if h := m["CARGO_HOME"]; h != "" {
		return filepath.Abs(h)
	}
	home := m["HOME"]
	if home == "" {
		home = m["USERPROFILE"]
	}
	if home == "" {
		return "", errors.New("cargo: cannot find cargo's home: neither CARGO_HOME nor HOME is set")
	}
	return filepath.Join(home, ".cargo"), nil
}

// readFile merges one configuration or credentials file into c; keys already set (by a file of
// higher precedence) are kept.
func (c *Config) readFile(file string) error {
	// memfs.ReadFileLimited stats before opening: a FIFO would block the open for ever.
	data, err := memfs.ReadFileLimited(file, maxConfigFile)
	if errors.Is(err, docidx.ErrTooLarge) {
		return fmt.Errorf("cargo: config %s: %w (limit %d bytes)", file, docidx.ErrTooLarge, maxConfigFile)
	}
	if err != nil {
		return fmt.Errorf("cargo: config: %w", err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("cargo: config %s is not valid TOML: %w", file, err)
	}
	c.files = append(c.files, file)
	isCredentials := strings.HasPrefix(filepath.Base(file), "credentials")
	// Relative paths in a config file are relative to the directory holding its .cargo directory
	// (for $CARGO_HOME/config.toml, the directory holding CARGO_HOME).
	base := filepath.Dir(filepath.Dir(file))
	merge := func(dst map[string]map[string]setting, table any, keys ...string) {
		t, _ := table.(map[string]any)
		for name, v := range t {
			fields, _ := v.(map[string]any)
			for _, k := range keys {
				s, ok := fields[k].(string)
				if !ok {
					continue
				}
				if (k == "directory" || k == "local-registry") && !filepath.IsAbs(s) {
					s = filepath.Join(base, s)
				}
				if dst[name] == nil {
					dst[name] = map[string]setting{}
				}
				if _, set := dst[name][k]; !set {
					dst[name][k] = setting{s, file}
				}
			}
		}
	}
	if isCredentials {
		merge(c.registries, raw["registries"], "token")
	} else {
		merge(c.sources, raw["source"], "replace-with", "registry", "local-registry", "directory", "git")
		merge(c.registries, raw["registries"], "index", "token", "protocol")
	}
	if reg, ok := raw["registry"].(map[string]any); ok {
		if s, ok := reg["token"].(string); ok {
			if _, set := c.registry["token"]; !set {
				c.registry["token"] = setting{s, file}
			}
		}
	}
	return nil
}

// Source is where one registry's crates come from, after source replacement.
type Source struct {
	// Registry is the registry asked for: "crates-io" or a [registries] name.
	Registry string
	// Replaced names the source that replaces the registry ([source.crates-io] replace-with, the
	// last of a chain), or "".
	Replaced string
	// Index is the sparse index URL, "sparse+https://…/", ending in "/". It may hold userinfo
	// for basic authentication; String, GoString and LogValue leave it out.
	Index string
	// From says where the index was configured: a file, "environment", "flag" or "default".
	From string

	token credential
}

// HasToken reports whether a token is configured for the source (it is never exposed).
func (s *Source) HasToken() bool { return s.token.token != "" }

// URL returns the index's base URL without the "sparse+" prefix, ending in "/".
func (s *Source) URL() string { return strings.TrimPrefix(s.Index, "sparse+") }

// String describes the source without credentials.
func (s *Source) String() string {
	if s.Replaced != "" {
		return fmt.Sprintf("%s (replaced by %s) %s", s.Registry, s.Replaced, redact.URL(s.Index))
	}
	return s.Registry + " " + redact.URL(s.Index)
}

// GoString is String, so that %#v never prints credentials.
func (s *Source) GoString() string { return s.String() }

// LogValue implements slog.LogValuer without credentials.
func (s *Source) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Source returns where registry ("" or "crates-io" for the default registry, else a name from
// [registries]) is read from: the --cargo-index override for crates-io, else the end of its
// replace-with chain, else its configured index; crates-io defaults to DefaultIndex. Errors wrap
// ErrUnsupportedSource (a git index, a local-registry or directory source, a git source),
// docidx.ErrBadSpec (an unknown registry name, a replace-with cycle or an unknown source), naming
// the file that configured it.
func (c *Config) Source(registry string) (*Source, error) {
	if registry == "" {
		registry = CratesIO
	}
	if registry == CratesIO && c.override != "" {
		return &Source{Registry: CratesIO, Index: c.override, From: "flag"}, nil
	}
	name, seen := registry, map[string]bool{}
	replaced := ""
	for {
		if seen[name] {
			return nil, fmt.Errorf("cargo: %w: source replacement of %s loops through %s (check replace-with in %s)", docidx.ErrBadSpec, registry, name, c.fileList())
		}
		seen[name] = true
		rw, ok := c.sources[name]["replace-with"]
		if !ok || rw.value == "" {
			break
		}
		name, replaced = rw.value, rw.value
	}
	s := &Source{Registry: registry, Replaced: replaced}
	if replaced == "" {
		// Not replaced: crates-io or a [registries] entry.
		if registry == CratesIO {
			s.Index, s.From = DefaultIndex, "default"
			if p := c.registryValue(CratesIO, "protocol"); p.value == "git" {
				s.From = "default (CARGO_REGISTRIES_CRATES_IO_PROTOCOL=git is ignored: docidx reads the sparse index)"
			}
			s.token = c.tokenFor(CratesIO, DefaultIndex)
			return s, nil
		}
		idx := c.registryValue(registry, "index")
		if idx.value == "" {
			return nil, fmt.Errorf("cargo: %w: no registry %q: it has no [registries.%s] index in %s and no CARGO_REGISTRIES_%s_INDEX", docidx.ErrBadSpec, registry, registry, c.fileList(), envName(registry))
		}
		return c.finish(s, idx, registry)
	}
	// Replaced: a [source.NAME] table, or a [registries.NAME] entry.
	src := c.sources[name]
	switch {
	case src["registry"].value != "":
		return c.finish(s, src["registry"], name)
	case src["local-registry"].value != "":
		return nil, fmt.Errorf("cargo: %w: %s is replaced by source %q, a local registry at %s (set in %s); docidx reads sparse registries only: crawl extracted crates with --cargo-home or pass --cargo-index", ErrUnsupportedSource, registry, name, src["local-registry"].value, where(src["local-registry"]))
	case src["directory"].value != "":
		return nil, fmt.Errorf("cargo: %w: %s is replaced by source %q, a directory of vendored crates at %s (set in %s); docidx reads sparse registries only: crawl extracted crates with --cargo-home or pass --cargo-index", ErrUnsupportedSource, registry, name, src["directory"].value, where(src["directory"]))
	case src["git"].value != "":
		return nil, fmt.Errorf("cargo: %w: %s is replaced by source %q, the git repository %s (set in %s); docidx reads sparse registries only: pass --cargo-index", ErrUnsupportedSource, registry, name, redact.URL(src["git"].value), where(src["git"]))
	}
	if idx := c.registryValue(name, "index"); idx.value != "" {
		return c.finish(s, idx, name)
	}
	return nil, fmt.Errorf("cargo: %w: %s is replaced by %q, which is neither a [source.%s] with registry, local-registry or directory nor a [registries.%s] with an index (in %s)", docidx.ErrBadSpec, registry, name, name, name, c.fileList())
}

// finish sets s's index from a configured URL, refusing git indexes.
func (c *Config) finish(s *Source, idx setting, name string) (*Source, error) {
	norm, err := normalizeSparse(idx.value, false)
	if err != nil {
		return nil, fmt.Errorf("cargo: %s: index %s (set in %s): %w", s.Registry, redact.URL(idx.value), where(idx), err)
	}
	s.Index, s.From = norm, where(idx)
	s.token = c.tokenFor(name, norm)
	return s, nil
}

// registryValue returns [registries.NAME] key, the environment (CARGO_REGISTRIES_<NAME>_<KEY>)
// winning over files.
func (c *Config) registryValue(name, key string) setting {
	if v, ok := c.env["CARGO_REGISTRIES_"+envName(name)+"_"+envName(key)]; ok && v != "" {
		return setting{v, ""}
	}
	return c.registries[name][key]
}

// tokenFor returns the token for a registry named name whose index is index: the registry's own
// token (environment, credentials, config), else the token of a [registries] entry with the same
// index URL (how cargo finds credentials for a replaced source), else for crates-io
// CARGO_REGISTRY_TOKEN or [registry] token.
func (c *Config) tokenFor(name, index string) credential {
	if name == CratesIO {
		if v := c.env["CARGO_REGISTRY_TOKEN"]; v != "" {
			return credential{v}
		}
		if v := c.registry["token"].value; v != "" {
			return credential{v}
		}
		return credential{}
	}
	if t := c.registryValue(name, "token").value; t != "" {
		return credential{t}
	}
	for _, n := range slices.Sorted(maps.Keys(c.registries)) {
		if idx := c.registryValue(n, "index").value; idx != "" {
			if norm, err := normalizeSparse(idx, false); err == nil && norm == index {
				if t := c.registryValue(n, "token").value; t != "" {
					return credential{t}
				}
			}
		}
	}
	return credential{}
}

// crates.io's index as Cargo.lock records it: the git index (every cargo version writes this
// source id for crates.io, even when it reads the sparse index) and the sparse one.
const (
	cratesIOGitSource    = "registry+https://github.com/rust-lang/crates.io-index"
	cratesIOSparseSource = "sparse+https://index.crates.io/"
)

// RegistryFor returns the name of the registry a Cargo.lock source id names ("registry+<git
// index URL>" or "sparse+<index URL>", as in `source = "…"` lines): "crates-io" for crates.io's
// index, else the [registries] entry (or CARGO_REGISTRIES_<NAME>_INDEX) with that index. ok is
// false for sources that are not registries (git, path) and for registries not configured here.
func (c *Config) RegistryFor(lockSource string) (name string, ok bool) {
	src := strings.TrimSpace(lockSource)
	if i := strings.IndexByte(src, '#'); i >= 0 {
		src = src[:i] // a git source's commit
	}
	norm := func(s string) string {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "registry+"), "sparse+")
		return strings.TrimSuffix(strings.TrimSuffix(s, "/"), ".git")
	}
	if !strings.HasPrefix(src, "registry+") && !strings.HasPrefix(src, "sparse+") {
		return "", false
	}
	if norm(src) == norm(cratesIOGitSource) || norm(src) == norm(cratesIOSparseSource) {
		return CratesIO, true
	}
	names := map[string]bool{}
	for n := range c.registries {
		names[n] = true
	}
	for kv := range c.env {
		if n, ok := strings.CutPrefix(kv, "CARGO_REGISTRIES_"); ok && strings.HasSuffix(n, "_INDEX") {
			names[strings.ToLower(strings.TrimSuffix(n, "_INDEX"))] = true
		}
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if idx := c.registryValue(n, "index").value; idx != "" && norm(idx) == norm(src) {
			return n, true
		}
	}
	return "", false
}

// Registries returns the names of the registries configured in [registries] tables, sorted.
func (c *Config) Registries() []string {
	var names []string
	for n, keys := range c.registries {
		if keys["index"].value != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Files returns the configuration files read, highest precedence first.
func (c *Config) Files() []string { return append([]string(nil), c.files...) }

// String describes the configuration without credentials: where crates-io is read from and the
// files read.
func (c Config) String() string {
	var b strings.Builder
	if s, err := c.Source(CratesIO); err == nil {
		fmt.Fprintf(&b, "crates-io=%s", redact.URL(s.Index))
		if s.Replaced != "" {
			fmt.Fprintf(&b, " (replaced by %s)", s.Replaced)
		}
	} else {
		b.WriteString("crates-io=unsupported")
	}
	for _, n := range c.Registries() {
		fmt.Fprintf(&b, " %s=%s", n, redact.URL(c.registryValue(n, "index").value))
	}
	if len(c.files) > 0 {
		fmt.Fprintf(&b, " files=%s", strings.Join(c.files, ","))
	}
	return b.String()
}

// GoString is String, so that %#v never prints credentials.
func (c Config) GoString() string { return c.String() }

// LogValue implements slog.LogValuer without credentials.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

func (c *Config) fileList() string {
	if len(c.files) == 0 {
		return "no config file"
	}
	return strings.Join(c.files, ", ")
}

func where(s setting) string {
	if s.file == "" {
		return "environment"
	}
	return s.file
}

// envName turns a registry name or key into its environment form: upper case, "-" as "_".
func envName(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }

// normalizeSparse checks a sparse index URL and returns it as "sparse+<http(s) URL ending in />".
// A URL without the sparse+ prefix is a git index, refused with ErrUnsupportedSource, unless
// plainIsSparse (a --cargo-index flag) says to take it as sparse.
func normalizeSparse(raw string, plainIsSparse bool) (string, error) {
	s := strings.TrimSpace(raw)
	rest, sparse := strings.CutPrefix(s, "sparse+")
	if !sparse {
		if strings.HasPrefix(s, "registry+") || strings.HasPrefix(s, "git+") || strings.HasPrefix(s, "git://") || strings.HasPrefix(s, "ssh://") || strings.HasPrefix(s, "file://") || !plainIsSparse {
			return "", fmt.Errorf("%w: %s is a git index; docidx reads sparse indexes only (sparse+https://…)", ErrUnsupportedSource, redact.URL(s))
		}
	}
	if _, err := fetch.BaseURL(rest); err != nil {
		return "", fmt.Errorf("%w: sparse index %w", docidx.ErrBadSpec, err)
	}
	if !strings.HasSuffix(rest, "/") {
		rest += "/"
	}
	return "sparse+" + rest, nil
}
