package pypi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/environ"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// DefaultIndexURL is the index used when neither a flag, PIP_INDEX_URL nor a pip.conf names one:
// the public Python Package Index, whose simple API is at /simple/ and JSON API at /pypi/
// (docs/ARCHITECTURE.md §5 allows PyPI's public default).
const DefaultIndexURL = "https://pypi.org/simple/"

// MaxPipConf is the largest pip.conf file LoadConfig reads, in bytes; larger files are an error.
const MaxPipConf = 1 << 20

// etcDir is where the system-wide pip.conf lives; tests point it elsewhere.
var etcDir = "/etc"

// ConfigOptions says where LoadConfig looks for the index URL.
type ConfigOptions struct {
	// IndexURL overrides every other source (the --pypi-index flag).
	IndexURL string
	// Env is the environment in os.Environ form ("KEY=value"); nil means os.Environ().
	Env []string
}

// Config says which package index docidx reads and how to reach its two APIs. It is read-only
// after LoadConfig or NewConfig and safe for concurrent use. Printing a Config never shows the
// credentials an index URL may carry.
type Config struct {
	// IndexURL is the index as configured, ending in "/" (pip's index-url: a simple API base such
	// as "https://pypi.org/simple/" or "https://user:token@mirror.example/repo/simple/").
	IndexURL string
	// SimpleURL is the base of the simple API (PEP 503/691), ending in "/": project pages are
	// SimpleURL + "<normalized name>/".
	SimpleURL string
	// JSONURL is the base of the JSON API, ending in "/" ("https://pypi.org/pypi/"): project
	// documents are JSONURL + "<name>/json" and JSONURL + "<name>/<version>/json". It is derived
	// from a simple API URL ending in "/simple/" (PyPI, warehouse mirrors, Nexus, Artifactory,
	// devpi's +simple excepted) and empty when none can be derived; the Registry then uses the
	// simple API only, and also when the index answers the JSON API with "not found" for a project
	// its simple API has.
	JSONURL string
	// Source says where IndexURL came from: "flag", "PIP_INDEX_URL", a pip.conf path, or
	// "default".
	Source string
	// Files lists the pip.conf files that were read, lowest precedence first.
	Files []string
}

// NewConfig returns the Config of one index URL (a simple API base, a JSON API base ending in
// "/pypi", or a bare host, which means PyPI's layout: /simple/ and /pypi/). It returns an error
// for a URL that is not http or https.
func NewConfig(indexURL string) (*Config, error) {
	c := &Config{Source: "flag"}
	if err := c.setIndex(indexURL); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) setIndex(raw string) error {
	u, err := fetch.BaseURL(raw)
	if err != nil {
		return fmt.Errorf("pypi: index URL %w", err)
	}
	p := strings.TrimRight(u.Path, "/")
	base := *u
	switch {
	case strings.HasSuffix(p, "/simple"):
		base.Path = strings.TrimSuffix(p, "/simple")
		c.SimpleURL = withPath(u, p+"/")
		c.JSONURL = withPath(&base, base.Path+"/pypi/")
	case strings.HasSuffix(p, "/pypi"):
		base.Path = strings.TrimSuffix(p, "/pypi")
		c.SimpleURL = withPath(&base, base.Path+"/simple/")
		c.JSONURL = withPath(u, p+"/")
	case p == "":
		c.SimpleURL = withPath(u, "/simple/")
		c.JSONURL = withPath(u, "/pypi/")
	default:
		// Any other simple index (devpi's /+simple/, a static directory of project pages).
		c.SimpleURL = withPath(u, p+"/")
		c.JSONURL = ""
	}
	c.IndexURL = withPath(u, p+"/")
	return nil
}

func withPath(u *url.URL, p string) string {
	v := *u
	v.Path, v.RawPath = p, ""
	return v.String()
}

// LoadConfig finds the index the way pip does for `pip download`
// (https://pip.pypa.io/en/stable/topics/configuration/), highest precedence first:
//
//  1. opts.IndexURL (the --pypi-index flag);
//  2. the PIP_INDEX_URL environment variable;
//  3. index-url in the pip.conf files, where a [download] or [install] section beats [global]
//     and a later file beats an earlier one. The files are read in pip's order: /etc/xdg/pip/pip.conf
//     (each directory of XDG_CONFIG_DIRS), /etc/pip.conf, ~/.pip/pip.conf,
//     ~/.config/pip/pip.conf (XDG_CONFIG_HOME), $VIRTUAL_ENV/pip.conf, then PIP_CONFIG_FILE. When
//     PIP_CONFIG_FILE names an existing file the user files are skipped, and when it is /dev/null
//     no file is read, as pip does;
//  4. DefaultIndexURL.
//
// It returns an error for an index URL that is not http(s) or a pip.conf that cannot be read
// (larger than MaxPipConf, unreadable); missing files are skipped.
func LoadConfig(opts ConfigOptions) (*Config, error) {
	env := environ.Map(opts.Env)
	c := &Config{}
	if opts.IndexURL != "" {
		c.Source = "flag"
		return c, c.setIndex(opts.IndexURL)
	}
	if v := strings.TrimSpace(env["PIP_INDEX_URL"]); v != "" {
		c.Source = "PIP_INDEX_URL"
		return c, c.setIndex(v)
	}
	merged := map[string]string{} // "section.key" -> value
	from := map[string]string{}
	for _, f := range pipConfFiles(env) {
		values, err := readPipConf(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c.Files = append(c.Files, f)
		for k, v := range values {
			merged[k] = v
			from[k] = f
		}
	}
	for _, k := range []string{"download.index-url", "install.index-url", "global.index-url"} {
		if v := strings.TrimSpace(merged[k]); v != "" {
			c.Source = from[k]
			if err := c.setIndex(v); err != nil {
				return nil, fmt.Errorf("%w (index-url in %s)", err, from[k])
			}
			return c, nil
		}
	}
	c.Source = "default"
	return c, c.setIndex(DefaultIndexURL)
}

// pipConfFiles lists the configuration files pip reads, lowest precedence first.
func pipConfFiles(env map[string]string) []string {
	configFile := env["PIP_CONFIG_FILE"]
	if configFile == os.DevNull {
		return nil
	}
	var files []string
	xdgDirs := env["XDG_CONFIG_DIRS"]
	if xdgDirs == "" {
		xdgDirs = filepath.Join(etcDir, "xdg")
	}
	for _, d := range filepath.SplitList(xdgDirs) {
		if d != "" {
			files = append(files, filepath.Join(d, "pip", "pip.conf"))
		}
	}
	files = append(files, filepath.Join(etcDir, "pip.conf"))
	userSkipped := false
	if configFile != "" {
		if _, err := os.Stat(configFile); err == nil {
			userSkipped = true
		}
	}
	if home := env["HOME"]; home != "" && !userSkipped {
		files = append(files, filepath.Join(home, ".pip", "pip.conf"))
		xdgHome := env["XDG_CONFIG_HOME"]
		if xdgHome == "" {
			xdgHome = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(xdgHome, "pip", "pip.conf"))
	}
	if venv := env["VIRTUAL_ENV"]; venv != "" {
		files = append(files, filepath.Join(venv, "pip.conf"))
	}
	if configFile != "" {
		files = append(files, configFile)
	}
	return files
}

// readPipConf reads an INI file the way Python's configparser does for pip: [section] headers,
// "key = value" or "key: value" lines, keys lowercased with "_" read as "-", comment lines
// starting with "#" or ";", indented lines continuing the previous value.
func readPipConf(p string) (map[string]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxPipConf {
		return nil, fmt.Errorf("pypi: %s is %d bytes (limit %d)", p, st.Size(), MaxPipConf)
	}
	b, err := memfs.ReadFileLimited(p, MaxPipConf) // never opens a FIFO
	if err != nil {
		return nil, fmt.Errorf("pypi: %w", err)
	}
	return parsePipConf(b), nil
}

func parsePipConf(b []byte) map[string]string {
	out := map[string]string{}
	section, lastKey := "", ""
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
	sc.Buffer(make([]byte, 64<<10), MaxPipConf)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
			continue
		case raw[0] == ' ' || raw[0] == '\t':
			if lastKey != "" {
				out[lastKey] = strings.TrimSpace(out[lastKey] + "\n" + line)
			}
			continue
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			section = strings.TrimSpace(line[1 : len(line)-1])
			lastKey = ""
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i <= 0 || section == "" {
			lastKey = ""
			continue
		}
		key := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(line[:i])), "_", "-")
		lastKey = section + "." + key
		out[lastKey] = strings.TrimSpace(line[i+1:])
	}
	return out
}

// String returns the index URL without credentials and where it came from.
func (c Config) String() string {
	return fmt.Sprintf("pypi index %s (from %s)", redact.URL(c.IndexURL), c.Source)
}

// GoString is String, so %#v never shows credentials either.
func (c Config) GoString() string { return c.String() }

// LogValue is String, for slog.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }
