package gomod

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/defaults"
	"github.com/docidx/docidx/registries/internal/installed"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// ModCache is a docidx.Cache over a Go module cache (GOMODCACHE,
// https://go.dev/ref/mod#module-cache): extracted module trees at <dir>/<escaped path>@<escaped
// version>/ and download metadata at <dir>/cache/download/<escaped path>/@v/<version>.info. It
// never touches the network and never writes. A ModCache is safe for concurrent use.
type ModCache struct {
	dir string
	log *slog.Logger
	lim Limits
}

// ModCacheConfig configures NewModCache. The zero value is ready to use.
type ModCacheConfig struct {
	// Logger receives skipped files at debug level and dropped content at warn level; nil discards.
	Logger *slog.Logger
	// Limits bounds the extraction of each module version (MaxZip does not apply).
	Limits Limits
}

// NewModCache returns a ModCache over the module cache directory dir. It fails when dir is not a
// readable directory.
func NewModCache(dir string, cfg ModCacheConfig) (*ModCache, error) {
	abs, err := installed.Dir(dir, "gomod: module cache")
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	log = defaults.Logger(log)
	return &ModCache{dir: abs, log: log, lim: cfg.Limits}, nil
}

// DefaultModCacheDir returns the module cache the go command uses: $GOMODCACHE, else
// `go env GOMODCACHE`, else $GOPATH/pkg/mod (the first GOPATH entry), else $HOME/go/pkg/mod.
func DefaultModCacheDir(ctx context.Context) (string, error) {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d, nil
	}
	if vals, err := goEnv(ctx, "", nil, "GOMODCACHE"); err == nil && vals[0] != "" {
		return vals[0], nil
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("gomod: cannot find the module cache (no GOMODCACHE, go command or home directory): %w", err)
	}
	return filepath.Join(home, "go", "pkg", "mod"), nil
}

// Dir returns the module cache directory (absolute).
func (c *ModCache) Dir() string { return c.dir }

// Ecosystem returns docidx.Go.
func (c *ModCache) Ecosystem() docidx.Ecosystem { return Ecosystem }

// String returns the cache directory, for logs and snapshot manifests.
func (c *ModCache) String() string { return c.dir }

// List returns every extracted module version in the cache, sorted by module path then semantic
// version. It walks the directory tree down to the <path>@<version> directories, never into them
// nor into cache/, and skips directories whose names do not decode to a valid module path and
// canonical version (such as cmd/go's temporary *.tmp-* directories) and versions whose extraction
// is marked unfinished (cache/download/…/@v/<version>.partial).
func (c *ModCache) List(ctx context.Context) ([]docidx.Ref, error) {
	var refs []docidx.Ref
	var walk func(rel string, depth int) error
	walk = func(rel string, depth int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := os.ReadDir(filepath.Join(c.dir, filepath.FromSlash(rel)))
		if err != nil {
			if rel == "" {
				return fmt.Errorf("gomod: module cache: %w", err)
			}
			c.log.Debug("gomod: skipping module cache directory", "dir", rel, "err", err)
			return nil
		}
		for _, de := range entries {
			name := de.Name()
			if !de.IsDir() || strings.HasPrefix(name, ".") || rel == "" && name == "cache" {
				continue
			}
			child := name
			if rel != "" {
				child = rel + "/" + name
			}
			if escPath, escVer, ok := strings.Cut(child, "@"); ok {
				modPath, err1 := module.UnescapePath(escPath)
				version, err2 := module.UnescapeVersion(escVer)
				if err1 != nil || err2 != nil || !isExactVersion(version) {
					continue
				}
				if _, err := os.Stat(c.downloadFile(escPath, escVer, ".partial")); err == nil {
					continue
				}
				refs = append(refs, docidx.Ref{Ecosystem: Ecosystem, Name: modPath, Version: version})
				continue
			}
			if depth < 32 {
				if err := walk(child, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk("", 0); err != nil {
		return nil, err
	}
	slices.SortFunc(refs, func(a, b docidx.Ref) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), semver.Compare(a.Version, b.Version))
	})
	return refs, nil
}

// downloadFile returns cache/download/<escPath>/@v/<escVer><ext>.
func (c *ModCache) downloadFile(escPath, escVer, ext string) string {
	return filepath.Join(c.dir, "cache", "download", filepath.FromSlash(escPath), "@v", escVer+ext)
}

// versions returns the extracted versions of module name, oldest first.
func (c *ModCache) versions(name string) ([]string, error) {
	esc, err := escapePath(name)
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Split(filepath.Join(c.dir, filepath.FromSlash(esc)))
	entries, err := os.ReadDir(parent)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var versions []string
	for _, de := range entries {
		escVer, ok := strings.CutPrefix(de.Name(), base+"@")
		if !ok || !de.IsDir() {
			continue
		}
		v, err := module.UnescapeVersion(escVer)
		if err != nil || !isExactVersion(v) {
			continue
		}
		if _, err := os.Stat(c.downloadFile(esc, escVer, ".partial")); err == nil {
			continue
		}
		versions = append(versions, v)
	}
	semver.Sort(versions)
	return versions, nil
}

// Resolve returns the extracted version of module name that query names: "" or "latest" for the
// highest (releases first, retracted versions left out when the latest go.mod retracts them), an
// exact version when it is extracted, or a semver prefix ("v1.2") or comparison ("<v2.0.0") over
// the extracted versions. Branch names and commits cannot be resolved offline. Errors wrap
// docidx.ErrNotFound or docidx.ErrBadSpec.
func (c *ModCache) Resolve(ctx context.Context, name, query string) (string, error) {
	q := strings.TrimSpace(query)
	versions, err := c.versions(name)
	if err != nil {
		return "", fmt.Errorf("gomod: resolve %s@%s: %w", name, orLatest(query), err)
	}
	if len(versions) == 0 {
		return "", fmt.Errorf("gomod: resolve %s@%s: no version in module cache %s: %w", name, orLatest(query), c.dir, docidx.ErrNotFound)
	}
	if isExactVersion(q) {
		if slices.Contains(versions, q) {
			return q, nil
		}
		return "", fmt.Errorf("gomod: resolve %s@%s: not in module cache %s: %w", name, q, c.dir, docidx.ErrNotFound)
	}
	var retracted func(string) bool
	if latest, ok := selectVersion(versions, "latest", nil); ok {
		if data, err := c.readModuleFile(name, latest, "go.mod"); err == nil {
			retracted = retractions(data)
		}
	}
	v, ok := selectVersion(versions, q, retracted)
	if !ok {
		return "", fmt.Errorf("gomod: resolve %s@%s: no version in module cache %s matches: %w", name, q, c.dir, docidx.ErrNotFound)
	}
	return v, nil
}

// moduleDir returns the extracted directory of name@version.
func (c *ModCache) moduleDir(name, version string) (string, string, error) {
	esc, err := escapePath(name)
	if err != nil {
		return "", "", err
	}
	escVer, err := module.EscapeVersion(version)
	if err != nil {
		return "", "", fmt.Errorf("%w: version %q: %v", docidx.ErrBadSpec, version, err)
	}
	return filepath.Join(c.dir, filepath.FromSlash(esc)+"@"+escVer), esc, nil
}

func (c *ModCache) readModuleFile(name, version, file string) ([]byte, error) {
	dir, _, err := c.moduleDir(name, version)
	if err != nil {
		return nil, err
	}
	return memfs.ReadLimited(os.DirFS(dir), file, MaxGoMod)
}

// Fetch extracts module name at version (exact, or a query resolved first) from its directory in
// the cache. Package.Published comes from the cached .info file, Versions lists the extracted
// versions and Source is the module's directory. Errors wrap docidx.ErrNotFound (not extracted
// here), docidx.ErrBadSpec or ctx's error.
func (c *ModCache) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	if !isExactVersion(version) {
		v, err := c.Resolve(ctx, name, version)
		if err != nil {
			return nil, err
		}
		version = v
	}
	wrap := func(err error) error { return fmt.Errorf("gomod: fetch %s@%s: %w", name, version, err) }
	dir, esc, err := c.moduleDir(name, version)
	if err != nil {
		return nil, wrap(err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, wrap(fmt.Errorf("not in module cache %s: %w", c.dir, docidx.ErrNotFound))
	}
	md, err := extractModule(ctx, os.DirFS(dir), name, version, c.lim, c.log)
	if err != nil {
		return nil, wrap(err)
	}
	var inf info
	escVer, _ := module.EscapeVersion(version)
	if data, err := memfs.ReadFileLimited(c.downloadFile(esc, escVer, ".info"), MaxGoMod); err == nil {
		_ = json.Unmarshal(data, &inf)
	}
	versions, err := c.versions(name)
	if err != nil {
		versions = nil
	}
	return packageDocs(name, version, versions, inf.Time, dir, md), nil
}
