package serve

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/docidx/docidx/internal/docschema"
)

// schemaFor infers the JSON Schema (draft 2020-12) of a tool's arguments In with jsonschema-go,
// the SDK's schema library, then makes it acceptable to strict clients: jsonschema-go describes
// every slice and pointer as nullable ("type": ["null", "array"]), which some validators (the MCP
// Inspector's --strict mode among them) reject (docschema.DropNull). Output schemas are
// docschema.For's, the same as the files in the repository's schemas/ directory.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("serve: schema for %T: %v", *new(T), err))
	}
	docschema.DropNull(s)
	return s
}

// outputSchemaFor is docschema.For of a tool's output Out, panicking if Out is not a document
// (a struct with schemaVersion): a programming error every test catches.
func outputSchemaFor[T any]() *jsonschema.Schema {
	s, err := docschema.For[T]()
	if err != nil {
		panic("serve: output schema: " + err.Error())
	}
	return s
}

// prop returns the property name of an object schema, panicking if it is missing: tool schemas
// are tuned at registration, so a typo is a programming error caught by every test.
func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("serve: schema has no property " + name)
	}
	return p
}

// intRange sets the inclusive bounds and default of an integer property.
func intRange(s *jsonschema.Schema, name string, lo, hi, def int) {
	p := prop(s, name)
	l, h := float64(lo), float64(hi)
	p.Minimum, p.Maximum = &l, &h
	if def != 0 {
		p.Default = json.RawMessage(fmt.Sprint(def))
	}
}

// nonEmpty requires a string property to have at least one character.
func nonEmpty(s *jsonschema.Schema, names ...string) {
	one := 1
	for _, n := range names {
		prop(s, n).MinLength = &one
	}
}
