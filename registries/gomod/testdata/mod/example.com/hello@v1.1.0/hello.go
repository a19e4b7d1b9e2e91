package hello

import (
	"errors"
	"strings"
)

// Style selects how a Greeter speaks.
type Style int

// Greeting styles.
const (
	Formal Style = iota // Formal says "Good day".
	Casual              // Casual says "Hi".
	shouty
)

// DefaultName is greeted when no name is given.
const DefaultName = "world"

// ErrEmpty is returned by Greeter.Check for an empty name.
var ErrEmpty = errors.New("hello: empty name")

// Greeter greets people.
type Greeter struct {
	// Style is the greeting style.
	Style Style
	Name  string // Name of the greeter.
	count int
}

// NewGreeter returns a Greeter of the given style.
func NewGreeter(s Style) *Greeter {
	return &Greeter{Style: s}
}

// Greet returns a greeting for name.
func (g *Greeter) Greet(name string) string {
	g.count++
	if name == "" {
		name = DefaultName
	}
	switch g.Style {
	case Casual:
		return "Hi, " + name
	case shouty:
		return strings.ToUpper("hello, " + name)
	}
	return "Good day, " + name
}

// Check reports whether name can be greeted.
func (g *Greeter) Check(name string) error {
	if name == "" {
		return ErrEmpty
	}
	return nil
}

// Hi greets the world.
//
// Deprecated: Use NewGreeter(Casual).Greet instead.
func Hi() string { return "Hi, world" }

func helper() {}
