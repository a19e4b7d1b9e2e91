// Package tools holds generic helpers.
package tools

// Tool runs.
type Tool interface {
	// Run runs the tool.
	Run() error
	private()
}

// Map applies f to every element of s.
func Map[T, U any](s []T, f func(T) U) []U {
	out := make([]U, 0, len(s))
	for _, v := range s {
		out = append(out, f(v))
	}
	return out
}

// Pair holds two values.
type Pair[K comparable, V any] struct {
	Key   K
	Value V
}
