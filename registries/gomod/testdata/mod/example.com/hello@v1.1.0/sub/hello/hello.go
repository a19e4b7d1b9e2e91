// Package hello is a second package named hello.
package hello

// Hello says hello.
func Hello() string { return "hello" }
