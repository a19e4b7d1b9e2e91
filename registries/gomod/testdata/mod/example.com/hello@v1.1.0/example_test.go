package hello_test

import (
	"fmt"

	"example.com/hello"
)

func Example() {
	fmt.Println(hello.NewGreeter(hello.Formal).Greet("Gopher"))
	// Output: Good day, Gopher
}

func ExampleGreeter_Greet() {
	g := hello.NewGreeter(hello.Casual)
	fmt.Println(g.Greet("Ana"))
	// Output: Hi, Ana
}

func ExampleNewGreeter_shouting() {
	g := hello.NewGreeter(hello.Formal)
	_ = g
}
