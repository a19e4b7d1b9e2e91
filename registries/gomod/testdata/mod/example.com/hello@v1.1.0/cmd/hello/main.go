// Command hello prints a greeting.
package main

import (
	"fmt"

	"example.com/hello"
)

func main() {
	fmt.Println(hello.NewGreeter(hello.Formal).Greet(""))
}
