package pypi

// constants.go spells out the constants that give a symbol's defaults. Python code names a
// default more often than it writes it: `max_incomplete_event_size=DEFAULT_MAX_INCOMPLETE_EVENT_SIZE`
// in h11's Connection, `pool_connections=DEFAULT_POOLSIZE` in requests' HTTPAdapter, a class
// attribute `timeout: float = DEFAULT_TIMEOUT`, a docstring's "Defaults to DEFAULT_RETRIES".
// An answer to "what is the default" needs the value, which the module that defines the symbol
// binds, often in a private module (h11._connection) or by an import from one
// (httpx._client imports DEFAULT_TIMEOUT_CONFIG from httpx._config).

import (
	"slices"
	"strings"
	"unicode"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
)

// constantValues resolves the constants syms' defaults and docs name, each in the module that
// defines the symbol (moduleOf maps a Symbol.File to its module): a parameter default that is a
// dotted name ("DEFAULT_POOLSIZE", "Timeout.DEFAULT_TIMEOUT") becomes "NAME = value"; a field,
// constant or variable whose value is such a name, in capitals as constants are written
// ("RETRIES", "Format.BINARY"; not "Literal.String" or "partial_fn"), gets that declaration in
// Values, and so does a symbol whose doc names an UPPER_CASE constant of its module ("Defaults
// to DEFAULT_RETRIES"), at most extracted.MaxLinkedValues of them. A name resolves to the module's own binding (a public or
// private constant or variable, a class's constant for "Class.NAME"), else through the
// module's from-imports, up to maxReexportDepth modules away; a name that does not resolve so
// takes the value of the public constant of that name when the distribution binds it to one
// value only. Params are changed on a copy (a re-exported symbol shares them with its private
// scan).
func (rx *reexporter) constantValues(syms []docidx.Symbol, moduleOf map[string]string) {
	global := map[string]string{} // the public module-level constants, "" when ambiguous
	for _, s := range syms {
		if s.Kind != docidx.KindConst || s.Parent != "" {
			continue
		}
		value, ok := declaredValue(s)
		if !ok {
			continue
		}
		if prev, seen := global[s.Name]; seen && prev != value {
			value = ""
		}
		global[s.Name] = value
	}
	memo := map[string]string{}
	valueOf := func(mod, name string) string {
		key := mod + "\x00" + name
		if v, ok := memo[key]; ok {
			return v
		}
		v := ""
		if mod != "" {
			v = rx.constantValue(mod, name, 0, map[string]bool{})
		}
		if v == "" {
			v = global[name]
		}
		memo[key] = v
		return v
	}
	for i := range syms {
		s := &syms[i]
		mod := moduleOf[s.File]
		cloned := false
		for j, p := range s.Params {
			if !dottedName(p.Default) {
				continue
			}
			if v := valueOf(mod, p.Default); v != "" {
				if !cloned {
					s.Params = slices.Clone(s.Params)
					cloned = true
				}
				s.Params[j].Default = p.Default + " = " + v
			}
		}
		var values []string
		add := func(name string) {
			if name == s.Name || len(values) >= extracted.MaxLinkedValues {
				return
			}
			v := valueOf(mod, name)
			if decl := name + " = " + v; v != "" && len(decl) <= extracted.MaxLinkedValue && !slices.Contains(values, decl) {
				values = append(values, decl)
			}
		}
		switch s.Kind {
		case docidx.KindField, docidx.KindConst, docidx.KindVar:
			if v, ok := declaredValue(*s); ok && dottedName(v) && upperName(v[strings.LastIndexByte(v, '.')+1:]) {
				add(v)
			}
		}
		if s.Kind != docidx.KindPackage {
			for _, w := range strings.FieldsFunc(s.Doc, func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
			}) {
				if constantWord(w) {
					add(w)
				}
			}
		}
		if len(values) > 0 {
			s.Values = append(slices.Clip(s.Values), values...)
		}
	}
}

// constantValue returns the value module mod binds name to, "" when it binds none: a
// module-level constant or variable of its own ("Class.NAME": a constant of its class, unless
// its value is its name, as a string Enum's members are: "EditingMode.EMACS"), or one
// it imports ("from ._config import DEFAULT_TIMEOUT_CONFIG"), followed up to maxReexportDepth
// modules. visited holds the "module:name" pairs on the way, so import cycles end.
func (rx *reexporter) constantValue(mod, name string, depth int, visited map[string]bool) string {
	key := mod + ":" + name
	if depth > maxReexportDepth || visited[key] {
		return ""
	}
	visited[key] = true
	sc := rx.scan(mod)
	if sc == nil {
		return ""
	}
	owner, member, dotted := strings.Cut(name, ".")
	if dotted && strings.Contains(member, ".") {
		return "" // a module's attribute's attribute: not followed
	}
	for _, s := range sc.res.Symbols {
		var match bool
		if dotted {
			match = s.Parent == owner && s.Name == member && s.Kind == docidx.KindConst
		} else {
			match = s.Parent == "" && s.Name == name && (s.Kind == docidx.KindConst || s.Kind == docidx.KindVar)
		}
		if match {
			v, _ := declaredValue(s)
			if dotted && strings.EqualFold(strings.Trim(v, `"'`), member) {
				return "" // an Enum member whose value is its name says no more than the name
			}
			return v
		}
	}
	for _, im := range sc.res.Imports {
		if im.Name == "*" || im.As != owner {
			continue
		}
		target, ok := relativeModule(sc.file, im)
		if !ok {
			continue
		}
		n := im.Name
		if dotted {
			n += "." + member
		}
		if v := rx.constantValue(target, n, depth+1, visited); v != "" {
			return v
		}
	}
	return ""
}

// declaredValue returns the value of an assignment symbol's Signature ("DEFAULT_POOLSIZE = 10",
// "timeout: float = 5.0", "LIMIT: Final = 3"), and false for a symbol that is not an
// assignment of its name, has no value, or whose value says nothing of one: a sentinel, an
// instance made without arguments ("_MISSING = object()", httpx's "USE_CLIENT_DEFAULT =
// UseClientDefault()"), which stands for "not given" and whose meaning the doc says.
func declaredValue(s docidx.Symbol) (string, bool) {
	lhs, value, ok := strings.Cut(s.Signature, " = ")
	if !ok {
		return "", false
	}
	lhs = strings.TrimSpace(lhs)
	if lhs != s.Name && !strings.HasPrefix(lhs, s.Name+":") {
		return "", false
	}
	value = strings.TrimSpace(value)
	if value == "" || strings.Contains(value, "\n") {
		return "", false
	}
	if callee, ok := strings.CutSuffix(value, "()"); ok && dottedName(callee) {
		return "", false
	}
	return value, true
}

// dottedName reports whether s is a name or a dotted name of Python identifiers, as a default
// that names a constant is written, and not one of the constants None, True, False, Ellipsis,
// NotImplemented.
func dottedName(s string) bool {
	switch s {
	case "", "None", "True", "False", "Ellipsis", "NotImplemented":
		return false
	}
	for part := range strings.SplitSeq(s, ".") {
		if !isIdentifier(part) {
			return false
		}
	}
	return true
}

// constantWord reports whether a word of a docstring names a constant: written in capitals
// (pyscan.IsUpperName) with an underscore between its words, so that a word in capitals
// ("HTTP", "JSON") is not taken for one.
func constantWord(w string) bool {
	return len(w) >= 4 && strings.Contains(strings.Trim(w, "_"), "_") && pyscan.IsUpperName(w)
}

// upperName reports whether name is written in capitals: a letter, and no lower-case one. One
// letter is enough, unlike a constant's own name (pyscan.IsUpperName): an Enum member of one
// letter stands for a flag (regex's "X = RegexFlag.X", "RegexFlag.X = 0x40").
func upperName(name string) bool {
	return strings.ToUpper(name) == name && strings.ToLower(name) != name
}
