// Package hello greets people (a retracted release).
package hello

// Hi greets the world.
func Hi() string { return "Hi, world" }
