package jsapi

// values.go gives a function the constants its parameter defaults name (docidx.Symbol.Values),
// as registries/gomod's linkValues and registries/pypi's constantValues do for Go and Python:
// @humanwhocodes/retry's Retrier takes `{ maxDelay = MAX_TASK_DELAY } = {}`, and what the
// default is, 100, is only in `const MAX_TASK_DELAY = 100;` at the top of its file.

import (
	"slices"
	"strings"

	"github.com/docidx/docidx/registries/internal/extracted"
)

// linkedValues returns the declarations of the constants that the parameter defaults of
// function v name, in order, at most extracted.MaxLinkedValues: each a `const` of v's file at its top
// level whose value is a literal (vLiteral), as the file writes it ("const MAX_TASK_DELAY =
// 100"). A default that is a call, a member path or a binding that is not such a constant
// names none. It returns nil for a value that is not a function.
func linkedValues(v *value) []string {
	if v == nil || v.kind != vFunc || v.headEnd <= 0 {
		return nil
	}
	f := v.file
	end := v.headEnd
	if f.tok(end).text == "=>" {
		end--
	}
	open := openerOf(f, end)
	if open < 0 {
		return nil
	}
	var out []string
	for k := open + 1; k < end-1 && len(out) < extracted.MaxLinkedValues; k++ {
		if f.tok(k).text != "=" || f.tok(k+1).kind != tIdent || f.tok(k+2).text == "." || f.tok(k+2).text == "(" {
			continue
		}
		d := f.decls[f.tok(k+1).text]
		if d == nil || d.kind != vLiteral || !d.isConst || d.depth != 0 || !strings.HasPrefix(d.sig, "const ") {
			continue
		}
		if decl := strings.TrimSuffix(d.sig, ";"); !slices.Contains(out, decl) {
			out = append(out, decl)
		}
	}
	return out
}

// openerOf returns the index of the "(" that the ")" at close closes, or -1: f.match maps
// openers to closers only, and a string or template is one token, so counting the parentheses
// back from close finds it.
func openerOf(f *jsFile, close int) int {
	if f.tok(close).text != ")" {
		return -1
	}
	depth := 0
	for k := close; k >= 0; k-- {
		switch f.tok(k).text {
		case ")":
			depth++
		case "(":
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}
