package serve

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor infers the JSON Schema (draft 2020-12) of T with jsonschema-go, the SDK's schema
// library, then makes it acceptable to strict clients: jsonschema-go describes every slice and
// pointer as nullable ("type": ["null", "array"]), which some validators (the MCP Inspector's
// --strict mode among them) reject. serve never emits null for those fields — its slices are
// non-nil or omitted — so the "null" alternative is dropped everywhere in the tree.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("serve: schema for %T: %v", *new(T), err))
	}
	dropNull(s)
	return s
}

// dropNull replaces {"type": ["null", X]} by {"type": X} in s and every schema below it.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	dropNull(s.AdditionalProperties)
	for _, d := range s.Defs {
		dropNull(d)
	}
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
