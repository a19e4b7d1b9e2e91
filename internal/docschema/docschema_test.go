package docschema_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/docschema"
)

type item struct {
	Name string `json:"name"`
}

type doc struct {
	SchemaVersion int               `json:"schemaVersion"`
	Items         []item            `json:"items"`
	Files         map[string]string `json:"files,omitempty"`
}

// TestFor checks a document's schema: schemaVersion pinned, no "null" alternatives, objects
// open to added properties, maps still typed.
func TestFor(t *testing.T) {
	s, err := docschema.For[doc]()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	valid := func(text string) error {
		text = strings.ReplaceAll(text, "$V+1", strconv.Itoa(docidx.SchemaVersion+1))
		text = strings.ReplaceAll(text, "$V", strconv.Itoa(docidx.SchemaVersion))
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatal(err)
		}
		return r.Validate(v)
	}
	for _, ok := range []string{
		`{"schemaVersion": $V, "items": []}`,
		`{"schemaVersion": $V, "items": [{"name": "a", "added": true}], "added": 2}`, // a later docidx's additions
		`{"schemaVersion": $V, "items": [], "files": {"a.txt": "00ff"}}`,
	} {
		if err := valid(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{
		`{"items": []}`,                        // no version
		`{"schemaVersion": $V+1, "items": []}`, // another version
		`{"schemaVersion": $V, "items": null}`, // docidx never writes null
		`{"schemaVersion": $V, "items": [{}]}`, // a required field missing
		`{"schemaVersion": $V, "items": [], "files": {"a.txt": 1}}`,
	} {
		if err := valid(bad); err == nil {
			t.Errorf("%s: valid, want an error", bad)
		}
	}
}

func TestForNeedsVersion(t *testing.T) {
	_, err := docschema.For[item]()
	if err == nil || !strings.Contains(err.Error(), "schemaVersion") {
		t.Errorf("For of a type without schemaVersion: %v, want an error naming schemaVersion", err)
	}
}
