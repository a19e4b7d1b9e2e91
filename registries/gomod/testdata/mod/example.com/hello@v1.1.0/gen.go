//go:build ignore

package main

// IgnoredFunc is in a file no build includes.
func IgnoredFunc() {}
