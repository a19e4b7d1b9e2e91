// Package docschema gives the JSON Schemas of docidx's JSON documents: what the CLI's --json
// prints (search, show, read, list, stats, crawl, pack, unpack, verify, prune, merge, compact)
// and the structured content of the MCP tools. The same function makes the tools' output schemas
// (serve) and the files published in the repository's schemas/ directory (written and checked by
// cmd/docidx's TestSchemas), so the two cannot differ.
//
// Every document carries schemaVersion (docidx.SchemaVersion); docs/json-changelog.md says what
// each version changed and when it is bumped.
//
// docschema imports the root package, jsonschema-go and the standard library only.
package docschema

import (
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/docidx/docidx"
)

// VersionField is the JSON name of the field every document carries its schema version in.
const VersionField = "schemaVersion"

// For returns the JSON Schema (draft 2020-12) of the document type T, inferred by jsonschema-go
// (the MCP SDK's schema library) from T's json and jsonschema tags, then
//
//   - without the "null" alternative jsonschema-go gives every slice and pointer (DropNull):
//     docidx never writes null for them, and strict validators reject the pair;
//   - open: no object forbids properties the schema does not name, so that a document of a
//     later docidx, which may add fields within the same schemaVersion, still validates against
//     this schema;
//   - with schemaVersion required and pinned to docidx.SchemaVersion ("const").
//
// It returns an error if T is not a struct with a schemaVersion field, or if jsonschema-go
// cannot describe T.
func For[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, fmt.Errorf("docschema: %v", err)
	}
	DropNull(s)
	open(s)
	v, ok := s.Properties[VersionField]
	if !ok || v.Type != "integer" {
		return nil, fmt.Errorf("docschema: %T has no integer %s field", *new(T), VersionField)
	}
	var version any = docidx.SchemaVersion
	v.Const = &version
	return s, nil
}

// DropNull replaces {"type": ["null", X]} by {"type": X} in s and every schema below it.
func DropNull(s *jsonschema.Schema) {
	walk(s, func(s *jsonschema.Schema) {
		if len(s.Types) == 2 && s.Types[0] == "null" {
			s.Type, s.Types = s.Types[1], nil
		}
	})
}

// open removes "additionalProperties": false from s and every schema below it.
func open(s *jsonschema.Schema) {
	walk(s, func(s *jsonschema.Schema) {
		if a := s.AdditionalProperties; a != nil && a.Not != nil && isEmpty(a.Not) {
			s.AdditionalProperties = nil
		}
	})
}

// isEmpty reports whether s is the empty schema {}, which every value satisfies.
func isEmpty(s *jsonschema.Schema) bool { return reflect.ValueOf(*s).IsZero() }

// walk calls f on s and every schema below it that jsonschema.For writes: properties, items,
// additionalProperties and definitions.
func walk(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.Properties {
		walk(p, f)
	}
	walk(s.Items, f)
	walk(s.AdditionalProperties, f)
	for _, d := range s.Defs {
		walk(d, f)
	}
}
