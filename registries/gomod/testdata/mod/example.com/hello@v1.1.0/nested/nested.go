// Package nested is its own module.
package nested

// Nested belongs to another module.
func Nested() {}
