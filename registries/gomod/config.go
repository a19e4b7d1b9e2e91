package gomod

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/docidx/docidx/registries/internal/environ"
)

// goEnvTimeout bounds the `go env` fallback of LoadConfig and DefaultModCacheDir.
const goEnvTimeout = 30 * time.Second

// ConfigOptions says where LoadConfig looks for the module proxy configuration.
type ConfigOptions struct {
	// Env is the environment in os.Environ form ("KEY=value"); nil means os.Environ(). GOPROXY,
	// GOPRIVATE and GONOPROXY are read from it.
	Env []string
	// GOPROXY overrides every other source of the proxy list (the --goproxy flag).
	GOPROXY string
	// Go is the go command run as `go env` for the variables Env leaves unset or empty (it also
	// reads the go env file, $GOENV); "" means "go" from PATH, "-" disables the fallback.
	Go string
}

// Config is the Go module proxy configuration docidx needs, in the go command's terms
// (https://go.dev/ref/mod#environment-variables): where modules come from and which are
// private. It is read-only after LoadConfig and safe for concurrent use.
type Config struct {
	// GOPROXY is the proxy list in the GOPROXY environment variable's syntax
	// (https://go.dev/ref/mod#goproxy-protocol): URLs (https, http or file) separated by ","
	// (try the next entry only when this one answers 404 or 410) or "|" (try the next entry after
	// any error), optionally ending in "direct" (fails with ErrDirect) or "off" (fails with an
	// error wrapping docidx.ErrOffline). A URL without a scheme gets https://, as in cmd/go.
	GOPROXY string
	// GOPRIVATE and GONOPROXY are comma-separated glob patterns of module path prefixes
	// (module.MatchPrefixPatterns). Modules matching GONOPROXY, which defaults to GOPRIVATE when
	// empty, fail with ErrPrivate.
	GOPRIVATE string
	GONOPROXY string
}

// LoadConfig finds the proxy configuration the way the go command does, highest precedence
// first: opts.GOPROXY (the --goproxy flag) for the proxy list; then each of GOPROXY, GOPRIVATE
// and GONOPROXY from opts.Env; then, for those still empty, `go env` (which also reads the go
// env file and knows the go command's default GOPROXY).
//
// It returns an error when no GOPROXY can be found (the go command is not installed, or
// opts.Go is "-", and $GOPROXY is unset: pass the proxy explicitly with --goproxy), and for a
// GOPROXY that NewProxy would refuse.
func LoadConfig(opts ConfigOptions) (*Config, error) {
	vars := environ.Map(opts.Env)
	cfg := &Config{GOPROXY: opts.GOPROXY}
	fields := map[string]*string{"GOPROXY": &cfg.GOPROXY, "GOPRIVATE": &cfg.GOPRIVATE, "GONOPROXY": &cfg.GONOPROXY}
	var ask []string
	for _, name := range []string{"GOPROXY", "GOPRIVATE", "GONOPROXY"} {
		if *fields[name] != "" {
			continue
		}
		if v := vars[name]; v != "" {
			*fields[name] = v
			continue
		}
		ask = append(ask, name)
	}
	if len(ask) > 0 {
		vals, err := goEnv(context.Background(), opts.Go, opts.Env, ask...)
		switch {
		case err == nil:
			for i, name := range ask {
				*fields[name] = vals[i]
			}
		case cfg.GOPROXY == "":
			return nil, fmt.Errorf("gomod: GOPROXY is not set and %w; set GOPROXY or pass --goproxy", err)
		}
	}
	if _, err := parseProxyList(cfg.GOPROXY); err != nil {
		return nil, err
	}
	return cfg, nil
}

// goEnv runs `go env NAME...` with goTool ("" means "go" from PATH, "-" none) in env (nil means
// os.Environ()) and returns one value per name.
func goEnv(ctx context.Context, goTool string, env []string, names ...string) ([]string, error) {
	switch goTool {
	case "-":
		return nil, errors.New("the go command is not to be run")
	case "":
		goTool = "go"
	}
	path, err := exec.LookPath(goTool)
	if err != nil {
		return nil, errors.New("the go command is not installed")
	}
	if env == nil {
		env = os.Environ()
	}
	ctx, cancel := context.WithTimeout(ctx, goEnvTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, append([]string{"env"}, names...)...)
	cmd.Dir = os.TempDir() // outside any module, so no go.work or go.mod is consulted
	cmd.Env = append(env[:len(env):len(env)], "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return nil, fmt.Errorf("go env: %v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("go env: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	vals := make([]string, len(names))
	for i := range names {
		if i < len(lines) {
			vals[i] = strings.TrimSpace(lines[i])
		}
	}
	return vals, nil
}
