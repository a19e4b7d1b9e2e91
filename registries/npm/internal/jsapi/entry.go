package jsapi

import (
	"encoding/json"
	"io/fs"
	"maps"
	"slices"
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
		cands = scriptTargets(ExportsRoot(v))
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

// ExportsRoot returns the target package.json's "exports" gives the package itself ("."): the
// value itself when it is a target or conditions, its "." entry when it maps subpaths.
func ExportsRoot(v any) any {
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

// WalkExports calls visit for each string target of an exports target v (a string, an array, or
// conditions, nested at most maxExportsDepth deep; see
// https://nodejs.org/api/packages.html#conditional-exports), conditions in order's order and the
// others alphabetically after them. types is set for targets under a "types" or "typings"
// condition.
func WalkExports(v any, order []string, visit func(target string, types bool)) {
	walkExports(v, order, visit, false, 0)
}

func walkExports(v any, order []string, visit func(string, bool), types bool, depth int) {
	if depth > maxExportsDepth {
		return
	}
	switch t := v.(type) {
	case string:
		visit(t, types)
	case []any:
		for _, e := range t {
			walkExports(e, order, visit, types, depth+1)
		}
	case map[string]any:
		keys := slices.Collect(maps.Keys(t))
		rank := func(k string) int {
			if i := slices.Index(order, k); i >= 0 {
				return i
			}
			return len(order)
		}
		sort.Slice(keys, func(i, j int) bool {
			if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
				return ri < rj
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			walkExports(t[k], order, visit, types || k == "types" || k == "typings", depth+1)
		}
	}
}

// scriptTargets returns the JavaScript targets of exports target v in conditionOrder: those not
// under a "types" or "typings" condition.
func scriptTargets(v any) []string {
	var out []string
	WalkExports(v, conditionOrder, func(t string, types bool) {
		if !types {
			out = append(out, t)
		}
	})
	return out
}
