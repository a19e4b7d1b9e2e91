package jsapi

import (
	"encoding/json"
	"io/fs"
	"sort"
	"strings"
)

// maxExportsDepth bounds the nesting of package.json "exports" conditions walked.
const maxExportsDepth = 8

// conditionOrder is the order Entries tries package.json "exports" conditions in: CommonJS
// first (it usually holds the whole implementation), then Node's, then ESM; other conditions
// follow alphabetically, "types" and "typings" never (they name declaration files).
var conditionOrder = []string{"require", "node", "default", "import", "module"}

// Entries returns the JavaScript entry points of a package, best first, as files that exist in
// fsys: the targets of package.json's "exports" for "." (a string, an array, or conditions,
// nested; https://nodejs.org/api/packages.html#conditional-exports), then "main", then
// index.js. Each is resolved the way Node.js resolves a file: the exact path, then with .js,
// .cjs or .mjs added, then as a directory with index.js, index.cjs or index.mjs.
func Entries(fsys fs.FS, exports json.RawMessage, main string) []string {
	var cands []string
	var v any
	if len(exports) > 0 && json.Unmarshal(exports, &v) == nil {
		collectTargets(exportsRoot(v), 0, &cands)
	}
	cands = append(cands, main, "index.js")
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		p, ok := cleanPath(c)
		if !ok {
			continue
		}
		if r := resolveFile(fsys, p); r != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// exportsRoot returns the target of "." in an exports value: the value itself when it is a
// string, an array or a condition object, or its "." entry when it is a subpath map.
func exportsRoot(v any) any {
	if obj, ok := v.(map[string]any); ok && hasSubpaths(obj) {
		return obj["."]
	}
	return v
}

// hasSubpaths reports whether an exports object maps subpaths ("./x") rather than conditions.
func hasSubpaths(obj map[string]any) bool {
	for k := range obj {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

func collectTargets(v any, depth int, out *[]string) {
	if depth > maxExportsDepth {
		return
	}
	switch t := v.(type) {
	case string:
		*out = append(*out, t)
	case []any:
		for _, e := range t {
			collectTargets(e, depth+1, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			if k != "types" && k != "typings" {
				keys = append(keys, k)
			}
		}
		rank := func(k string) int {
			for i, c := range conditionOrder {
				if k == c {
					return i
				}
			}
			return len(conditionOrder)
		}
		sort.Slice(keys, func(i, j int) bool {
			ri, rj := rank(keys[i]), rank(keys[j])
			if ri != rj {
				return ri < rj
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			collectTargets(t[k], depth+1, out)
		}
	}
}
