// Package hello greets people.
package hello

// Hi greets the world.
func Hi() string { return "Hi, world" }
