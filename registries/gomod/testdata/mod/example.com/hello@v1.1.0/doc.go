// Package hello greets people in several styles.
//
// Create a [Greeter] with [NewGreeter] and call [Greeter.Greet].
package hello
