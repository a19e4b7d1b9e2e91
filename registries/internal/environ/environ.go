// Package environ reads an environment given in os.Environ form, as the registries' LoadConfig
// functions take it. It imports the standard library only.
package environ

import (
	"os"
	"strings"
)

// Map returns the variables of env ("KEY=value" entries; nil means os.Environ()) by name. An
// entry without "=" or with an empty name is skipped; of two entries with one name, the later
// one wins, as in os/exec.
func Map(env []string) map[string]string {
	if env == nil {
		env = os.Environ()
	}
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}
