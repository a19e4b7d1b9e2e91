// Package sample shows a module path with capital letters.
package sample

// Do does it.
func Do() error { return nil }
