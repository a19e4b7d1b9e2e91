// Package secret is internal and never documented.
package secret

// Secret is not importable by other modules.
func Secret() string { return "42" }
