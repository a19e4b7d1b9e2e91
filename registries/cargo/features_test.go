package cargo

import (
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

// TestFeaturesDocument checks the feature flags document: the default features, each feature
// with the comment its author wrote above it or after it (over lines, across a value that runs
// over lines), what it enables, and the items rustdoc marks as needing it.
func TestFeaturesDocument(t *testing.T) {
	orig := `[package]
name = "tracing-subscriber"

[features]
# not this one: a blank line follows

default = ["fmt", "std"]
# Enables the EnvFilter type, which filters spans and events
# by directives such as RUST_LOG's.
env-filter = [
    "matchers",
    "dep:regex", # a comment inside the value
]
json = ["serde_json"] # JSON output for the fmt layer
std = []

[dependencies]
# not a feature's comment
regex = { version = "1", optional = true }
`
	features := map[string][]string{
		"default": {"fmt", "std"}, "env-filter": {"matchers", "dep:regex"}, "json": {"serde_json"}, "std": {},
	}
	symbols := []docidx.Symbol{
		{QualifiedName: "tracing_subscriber::EnvFilter", Doc: "A filter.\n\nAvailable on crate feature `env-filter` only.\n\nMore."},
		{QualifiedName: "tracing_subscriber::filter::EnvFilter", Doc: "A filter.\n\nAvailable on crate features `env-filter` and `std` only."},
		{QualifiedName: "tracing_subscriber::fmt", Doc: "Formatting.\n\nAvailable on crate features `fmt` or `json` only."},
		{QualifiedName: "tracing_subscriber::Layer", Doc: "A layer. It is not available on crate feature `std` only."},
	}
	crateDoc := "## Feature Flags\n\n- `json`: Enables the JSON formatter,\n  which writes one object a line.\n- `nope`: not a feature of this crate.\n- `default`: not described.\n\nA paragraph after the list.\n"
	readme := "- `json`: the README's words come second.\n"
	d, ok := featuresDocument("tracing-subscriber", "0.3.23", features, []byte(orig), symbols, crateDoc, readme)
	if !ok || d.Title != "Feature flags" || d.Kind != docidx.DocGuide || d.Path != "features.md" {
		t.Fatalf("document %q %q %q, ok %v", d.Title, d.Kind, d.Path, ok)
	}
	var text strings.Builder
	var headings []string
	for _, s := range d.Sections {
		text.WriteString(s.Plain + "\n")
		headings = append(headings, strings.Join(s.Heading, " › "))
	}
	if want := []string{"Feature flags", "Feature flags › env-filter", "Feature flags › json", "Feature flags › std"}; !slices.Equal(headings, want) {
		t.Errorf("sections %q, want %q", headings, want)
	}
	got := text.String()
	for _, want := range []string{
		`tracing-subscriber = { version = "0.3.23", features = ["…"] }`,
		"Default features: fmt, std. Turn them off with default-features = false.",
		"Enables the EnvFilter type, which filters spans and events by directives such as RUST_LOG's. The env-filter feature enables matchers, dep:regex. Items that need it: tracing_subscriber::EnvFilter, tracing_subscriber::filter::EnvFilter.",
		"json: Enables the JSON formatter, which writes one object a line. The json feature enables serde_json. Items that need it: tracing_subscriber::fmt.",
		"env-filter: Enables the EnvFilter type",
		"The std feature enables nothing else. It is a default feature. Items that need it: tracing_subscriber::filter::EnvFilter.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the document lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"not this one", "not a feature's comment", "inside the value", "tracing_subscriber::Layer", "JSON output for the fmt layer", "README's words", "not described", "A paragraph after"} {
		if strings.Contains(got, not) {
			t.Errorf("the document holds %q:\n%s", not, got)
		}
	}
	if _, ok := featuresDocument("x", "1.0.0", nil, nil, nil); ok {
		t.Error("a crate without features has a feature flags document")
	}
}
