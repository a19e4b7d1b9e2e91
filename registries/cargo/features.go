package cargo

// features.go writes a crate's feature flags as a document, as docs.rs shows them on a crate's
// "Feature flags" page: the [features] table of Cargo.toml, each feature a section of its own
// (a question about one feature finds that section, not a list of all) with what it enables,
// the comment above it in the crate's own Cargo.toml (Cargo.toml.orig, which keeps comments),
// and the public items that rustdoc marks "Available on crate feature … only". Rust questions
// often ask which feature a type or macro needs ("EnvFilter is not found", "cannot find derive
// macro Serialize"), and the answer is there.

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
)

// featuresPath is the path of the feature flags document, written from Cargo.toml: docs.rs's
// page of a crate's features is its "/features", and a markdown path reads as the markdown it is.
const featuresPath = "features.md"

// maxFeatureItems is the most items listed under one feature: the first of them by path, so
// that a feature that gates a whole module lists the module and its first items, not hundreds.
const maxFeatureItems = 12

// featureNote matches rustdoc's portability note on an item's doc (rustapi's withCfg) for
// crate features: "crate feature `x`", "crate features `x` and `y`", "… `x` or `y`".
var featureNote = regexp.MustCompile("Available on crate features? ((?:`[^`]+`(?:, | and | or |, and |, or )?)+) only\\.")

// quoted matches the names in a featureNote.
var quoted = regexp.MustCompile("`([^`]+)`")

// featuresDocument returns the feature flags document of a crate: features is the [features]
// table (feature name: what it enables), orig the crate's Cargo.toml.orig (nil when it has
// none), symbols its extracted API, docs the markdown of its crate-level docs and README, where
// authors list their features ("- `rt`: Enables `tokio::spawn` …"). A feature's description is
// the first of those lists' that names it, else the comment above it in Cargo.toml. ok is false
// when the crate declares no features.
func featuresDocument(crate, version string, features map[string][]string, orig []byte, symbols []docidx.Symbol, docs ...string) (docidx.Document, bool) {
	if len(features) == 0 {
		return docidx.Document{}, false
	}
	comments := featureComments(orig)
	for name, d := range featureDescriptions(features, docs...) {
		comments[name] = d
	}
	items := map[string][]string{}
	for _, s := range symbols {
		if m := featureNote.FindStringSubmatch(s.Doc); m != nil {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				items[q[1]] = append(items[q[1]], s.QualifiedName)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Feature flags\n\n")
	fmt.Fprintf(&b, "Features of %s %s, enabled in Cargo.toml as `%s = { version = \"%s\", features = [\"…\"] }`.\n\n", crate, version, crate, version)
	if def, ok := features["default"]; ok {
		if len(def) == 0 {
			b.WriteString("Default features: none.\n\n")
		} else {
			fmt.Fprintf(&b, "Default features: %s. Turn them off with `default-features = false`.\n\n", codeList(def))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(features)) {
		if name == "default" {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n`%s`:", name, name)
		if c := comments[name]; c != "" {
			if !strings.HasSuffix(c, ".") {
				c += "."
			}
			fmt.Fprintf(&b, " %s", c)
		}
		fmt.Fprintf(&b, " The `%s` feature", name)
		if en := features[name]; len(en) > 0 {
			fmt.Fprintf(&b, " enables %s.", codeList(en))
		} else {
			b.WriteString(" enables nothing else.")
		}
		if slices.Contains(features["default"], name) {
			b.WriteString(" It is a default feature.")
		}
		if its := items[name]; len(its) > 0 {
			slices.Sort(its)
			its = slices.Compact(its)
			more := ""
			if len(its) > maxFeatureItems {
				more = fmt.Sprintf(" and %d more", len(its)-maxFeatureItems)
				its = its[:maxFeatureItems]
			}
			fmt.Fprintf(&b, " Items that need it: %s%s.", codeList(its), more)
		}
		b.WriteString("\n\n")
	}
	d := readme.Parse(featuresPath, docidx.DocGuide, []byte(b.String()))
	d.Title = "Feature flags"
	return d, true
}

// featureItem matches a list item that describes a feature: "- `name`: text", "* `name` - text".
var featureItem = regexp.MustCompile("^\\s*[-*+]\\s+`([^`]+)`\\s*(?::|-|–|—)\\s*(.*)$")

// featureDescriptions returns the descriptions the markdown texts give of the features: the
// text of each list item that opens with a feature's name, with the lines that continue it.
func featureDescriptions(features map[string][]string, texts ...string) map[string]string {
	out := map[string]string{}
	for _, text := range texts {
		name, desc := "", []string(nil)
		flush := func() {
			if name != "" && out[name] == "" && len(desc) > 0 {
				out[name] = strings.Join(desc, " ")
			}
			name, desc = "", nil
		}
		for line := range strings.Lines(text) {
			line = strings.TrimRight(line, "\r\n")
			if m := featureItem.FindStringSubmatch(line); m != nil {
				flush()
				if _, ok := features[m[1]]; ok && m[1] != "default" {
					name, desc = m[1], []string{strings.TrimSpace(m[2])}
				}
				continue
			}
			t := strings.TrimSpace(line)
			if name != "" && t != "" && strings.HasPrefix(line, "  ") && !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "*") {
				desc = append(desc, t)
				continue
			}
			flush()
		}
		flush()
	}
	return out
}

// codeList returns names as inline code, joined with commas.
func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// featureComments returns the comment above each feature of the [features] table of a
// Cargo.toml as its author wrote it (Cargo.toml.orig: the Cargo.toml in a .crate is rewritten
// without comments): the lines of "#" comments right above a feature's key, joined, or a comment
// after its value on the same line.
func featureComments(orig []byte) map[string]string {
	out := map[string]string{}
	inFeatures := false
	var pending []string
	depth := 0 // open brackets of a value that runs over lines
	for line := range strings.Lines(string(orig)) {
		t := strings.TrimSpace(line)
		if depth > 0 {
			depth += strings.Count(t, "[") - strings.Count(t, "]")
			continue
		}
		if strings.HasPrefix(t, "[") {
			inFeatures = t == "[features]"
			pending = nil
			continue
		}
		if !inFeatures {
			continue
		}
		switch {
		case t == "":
			pending = nil
		case strings.HasPrefix(t, "#"):
			pending = append(pending, strings.TrimSpace(strings.TrimLeft(t, "#")))
		default:
			key, value, ok := strings.Cut(t, "=")
			if !ok {
				pending = nil
				continue
			}
			key = strings.Trim(strings.TrimSpace(key), `"'`)
			comment := strings.Join(pending, " ")
			if _, after, ok := strings.Cut(value, "#"); ok && !strings.Contains(after, `"`) {
				comment = strings.TrimSpace(comment + " " + strings.TrimSpace(after))
			}
			if comment != "" {
				out[key] = comment
			}
			pending = nil
			depth = strings.Count(value, "[") - strings.Count(value, "]")
		}
	}
	return out
}
