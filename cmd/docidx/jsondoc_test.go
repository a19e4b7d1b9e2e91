package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/internal/docschema"
)

var update = flag.Bool("update", false, "rewrite schemas/*.schema.json and testdata/golden/*.json (make schemas)")

// jsonDocuments are docidx's JSON documents: the output of every --json command and the
// structured content of every MCP tool (docs/json-changelog.md lists them). Each one's JSON
// Schema is schemas/<name>.schema.json at the repository's root.
var jsonDocuments = []struct {
	name   string
	schema func() (*jsonschema.Schema, error)
}{
	{"search", docschema.For[answer.SearchOutput]},     // docidx search; search_package_docs
	{"describe", docschema.For[answer.DescribeOutput]}, // docidx show PACKAGE [SYMBOL]; describe_*_package
	{"read", docschema.For[answer.ReadOutput]},         // docidx read URI, docidx show URI; read_package_doc
	{"doc", docschema.For[answer.DocOutput]},           // get_package_doc, get_npm_package_doc
	{"list", docschema.For[answer.ListOutput]},         // docidx list; list_packages
	{"stats", docschema.For[answer.Stats]},             // docidx stats
	{"crawl", docschema.For[crawlJSON]},
	{"pack", docschema.For[packJSON]},
	{"unpack", docschema.For[unpackJSON]},
	{"verify", verifySchema},
	{"prune", docschema.For[pruneJSON]},
	{"merge", docschema.For[mergeJSON]},
	{"compact", docschema.For[compactJSON]},
	{"progress", docschema.For[progressLine]}, // each line of docidx crawl --progress json
}

// verifySchema is docschema.For of verifyJSON, but with only schemaVersion and ok required:
// when the signature check fails before the snapshot is checked, the document is schemaVersion,
// ok (false) and error, without index.Verification's fields, which jsonschema-go, seeing them
// promoted from the embedded pointer, would make required.
func verifySchema() (*jsonschema.Schema, error) {
	s, err := docschema.For[verifyJSON]()
	if err != nil {
		return nil, err
	}
	s.Required = []string{docschema.VersionField, "ok"}
	return s, nil
}

// TestVerifyFailureDocument checks that verify's --json document for a check that failed before
// the snapshot was read (a bad signature) is valid under the published schema.
func TestVerifyFailureDocument(t *testing.T) {
	resolved := publishedSchema(t, "verify")
	var buf bytes.Buffer
	if err := writeJSON(&buf, verifyOutput(nil, nil, errors.New("docidx.tar.zst.sig: no signature"))); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(doc); err != nil {
		t.Errorf("%s: %v", buf.Bytes(), err)
	}
}

// publishedSchema returns schemas/NAME.schema.json, resolved for validating documents.
func publishedSchema(t *testing.T, name string) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(schemaDir, name+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return resolved
}

var (
	schemaDir = filepath.Join("..", "..", "schemas")
	changelog = filepath.Join("..", "..", "docs", "json-changelog.md")
)

// TestSchemas regenerates every document's JSON Schema from its Go type and compares it with
// the published file in schemas/; -update (make schemas) rewrites the files. A change that
// would break a consumer of the published schema (a property removed, its type changed, or no
// longer always present) fails even with -update unless docidx.SchemaVersion was raised.
func TestSchemas(t *testing.T) {
	names := map[string]bool{}
	for _, d := range jsonDocuments {
		names[d.name+".schema.json"] = true
		s, err := d.schema()
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		got, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join(schemaDir, d.name+".schema.json")
		want, err := os.ReadFile(path)
		if err == nil {
			var old jsonschema.Schema
			if err := json.Unmarshal(want, &old); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if breaks := schemaBreaks(&old, s, ""); len(breaks) > 0 && schemaVersionOf(&old) == docidx.SchemaVersion {
				t.Errorf("%s: a change that breaks its consumers, with docidx.SchemaVersion still %d: raise it and say what changed in docs/json-changelog.md:\n\t%s",
					d.name, docidx.SchemaVersion, strings.Join(breaks, "\n\t"))
				continue
			}
		}
		switch {
		case *update:
			if err := os.MkdirAll(schemaDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		case err != nil:
			t.Errorf("%v (make schemas writes it)", err)
		case !bytes.Equal(got, want):
			t.Errorf("%s is not the schema of %s's Go type any more: run make schemas, and if a field was renamed, removed or changed type, raise docidx.SchemaVersion; say what changed in docs/json-changelog.md", path, d.name)
		}
	}
	files, err := filepath.Glob(filepath.Join(schemaDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !names[filepath.Base(f)] {
			t.Errorf("%s is the schema of no document docidx writes: remove it", f)
		}
	}
}

// schemaVersionOf returns the schemaVersion a published schema pins, or 0.
func schemaVersionOf(s *jsonschema.Schema) int {
	if v := s.Properties[docschema.VersionField]; v != nil && v.Const != nil {
		if f, ok := (*v.Const).(float64); ok {
			return int(f)
		}
	}
	return 0
}

// schemaBreaks lists what a document valid under new may do that breaks a consumer written for
// old: a property of old gone, of another type, or no longer required.
func schemaBreaks(old, new *jsonschema.Schema, path string) []string {
	if old == nil || new == nil {
		return nil
	}
	var out []string
	if ot, nt := typeOf(old), typeOf(new); ot != nt {
		return []string{fmt.Sprintf("%s: type %s, was %s", pathOr(path), nt, ot)}
	}
	for _, name := range slices.Sorted(maps.Keys(old.Properties)) {
		p := path + "." + name
		np, ok := new.Properties[name]
		if !ok {
			out = append(out, p+": removed")
			continue
		}
		if slices.Contains(old.Required, name) && !slices.Contains(new.Required, name) {
			out = append(out, p+": no longer always present")
		}
		out = append(out, schemaBreaks(old.Properties[name], np, p)...)
	}
	out = append(out, schemaBreaks(old.Items, new.Items, path+"[]")...)
	out = append(out, schemaBreaks(old.AdditionalProperties, new.AdditionalProperties, path+"{}")...)
	return out
}

func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		return s.Type
	}
	return strings.Join(s.Types, "|")
}

func pathOr(p string) string {
	if p == "" {
		return "the document"
	}
	return strings.TrimPrefix(p, ".")
}

// TestJSONChangelog checks docs/json-changelog.md has a section for the current
// docidx.SchemaVersion and names every document.
func TestJSONChangelog(t *testing.T) {
	data, err := os.ReadFile(changelog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !regexp.MustCompile(`(?m)^## schemaVersion ` + strconv.Itoa(docidx.SchemaVersion) + `\b`).MatchString(text) {
		t.Errorf("%s has no section \"## schemaVersion %d\": say what this version changed", changelog, docidx.SchemaVersion)
	}
	for _, d := range jsonDocuments {
		if !strings.Contains(text, "schemas/"+d.name+".schema.json") {
			t.Errorf("%s does not name the %s document (schemas/%s.schema.json)", changelog, d.name, d.name)
		}
	}
}

// TestJSONDocuments runs every --json command on a fixture snapshot (testdata/json), checks each
// output against its published schema, and compares its shape (the path and JSON type of every
// value) with testdata/golden/NAME.json; -update rewrites the goldens. Scripts get one command:
//
//	jsondoc SCHEMA FILE    FILE is valid under schemas/SCHEMA.schema.json and has the shape of
//	                       testdata/golden/<FILE's base name>
func TestJSONDocuments(t *testing.T) {
	goldenDir, err := filepath.Abs(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := filepath.Abs(schemaDir)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "json"),
		RequireExplicitExec: true,
		Setup:               setupScript,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsondoc": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: jsondoc SCHEMA FILE")
				}
				checkJSONDocument(ts, filepath.Join(schemas, args[0]+".schema.json"), ts.MkAbs(args[1]), filepath.Join(goldenDir, filepath.Base(args[1])))
			},
		},
	})
}

// checkJSONDocument validates the document in file against the schema in schemaFile and
// compares its shape with the golden file.
func checkJSONDocument(ts *testscript.TestScript, schemaFile, file, golden string) {
	data, err := os.ReadFile(schemaFile)
	ts.Check(err)
	var s jsonschema.Schema
	ts.Check(json.Unmarshal(data, &s))
	resolved, err := s.Resolve(nil)
	ts.Check(err)
	data, err = os.ReadFile(file)
	ts.Check(err)
	var doc any
	ts.Check(json.Unmarshal(data, &doc))
	if err := resolved.Validate(doc); err != nil {
		ts.Fatalf("%s does not match %s: %v", filepath.Base(file), filepath.Base(schemaFile), err)
	}
	shape := map[string]string{}
	shapeOf(doc, &s, "", shape)
	got, err := json.MarshalIndent(shape, "", "  ")
	ts.Check(err)
	got = append(got, '\n')
	if *update {
		ts.Check(os.MkdirAll(filepath.Dir(golden), 0o755))
		ts.Check(os.WriteFile(golden, got, 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		ts.Fatalf("%v (go test -run TestJSONDocuments -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		ts.Fatalf("the shape of %s differs from %s (a field renamed, removed, added or of another type; -update accepts it after docs/json-changelog.md says so):\n%s",
			filepath.Base(file), golden, shapeDiff(want, got))
	}
}

// shapeOf records the JSON type of v at path, and of every value below it: object properties
// as path.name, array elements as path[], and the values of a map (an object whose schema s
// names no properties) as path{}, since a map's keys are data, not shape.
func shapeOf(v any, s *jsonschema.Schema, path string, out map[string]string) {
	key := "$" + path
	switch v := v.(type) {
	case map[string]any:
		out[key] = "object"
		if s != nil && len(s.Properties) == 0 && s.AdditionalProperties != nil {
			for _, e := range v {
				shapeOf(e, s.AdditionalProperties, path+"{}", out)
			}
			return
		}
		for name, e := range v {
			var p *jsonschema.Schema
			if s != nil {
				p = s.Properties[name]
			}
			shapeOf(e, p, path+"."+name, out)
		}
	case []any:
		out[key] = "array"
		var items *jsonschema.Schema
		if s != nil {
			items = s.Items
		}
		for _, e := range v {
			shapeOf(e, items, path+"[]", out)
		}
	case string:
		out[key] = "string"
	case float64:
		out[key] = "number"
	case bool:
		out[key] = "boolean"
	case nil:
		out[key] = "null"
	}
}

// shapeDiff lists the lines of two shapes that only one has.
func shapeDiff(want, got []byte) string {
	lines := func(b []byte) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(string(b), "\n") {
			m[strings.TrimSuffix(strings.TrimSpace(l), ",")] = true
		}
		return m
	}
	w, g := lines(want), lines(got)
	var out []string
	for l := range w {
		if !g[l] {
			out = append(out, "- "+l)
		}
	}
	for l := range g {
		if !w[l] {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
