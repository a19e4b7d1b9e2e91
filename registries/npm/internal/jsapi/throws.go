package jsapi

import (
	"slices"
	"strings"

	"github.com/docidx/docidx/registries/internal/extracted"
)

// maxThrowBody bounds the tokens of a function body read for what it throws: a longer body is
// more often a module's wrapper (a UMD factory, a bundle's closure) than one function, and its
// errors are not one function's.
const maxThrowBody = 4000

// thrown returns the errors fn's body throws, or rejects a promise with, each statement as its
// code writes it: throw new TypeError('field argument contains an invalid header name'),
// Promise.reject(new Error('next() called multiple times')), reject(new Error(…)); the
// message is the first string of the constructor's arguments (a message built by
// concatenation keeps its first part, ending " …"). A JavaScript function that documents no
// @throws says what it refuses this way or not at all: koa-compose's "next() called multiple
// times", vary's invalid header name. It reads the functions nested in the body too (a
// closure returned is the function's behaviour), each error once, at most extracted.MaxErrors;
// nil for a value that is not a function, for a body longer than maxThrowBody tokens and for
// one that throws nothing so written. They are the symbol's docidx.Symbol.Errors.
func thrown(fn *value) []string {
	if fn == nil {
		return nil
	}
	open, end, ok := fn.body()
	f := fn.file
	if !ok || end <= open || end-open > maxThrowBody {
		return nil
	}
	var out []string
	for k := open + 1; k < end && len(out) < extracted.MaxErrors; k++ {
		t := f.toks[k]
		var at int // the index of "new"
		switch {
		case t.text == "throw" && f.tok(k+1).text == "new":
			at = k + 1
		case t.text == "reject" && f.tok(k+1).text == "(" && f.tok(k+2).text == "new":
			at = k + 2
		default:
			continue
		}
		call := "throw new "
		if t.text == "reject" {
			call = "reject(new "
			if f.tok(k-1).text == "." && f.tok(k-2).text == "Promise" {
				call = "Promise.reject(new "
			}
		}
		name, paren, msg := f.tok(at+1), f.tok(at+2), f.tok(at+3)
		if name.kind != tIdent || paren.text != "(" || msg.kind != tString && msg.kind != tTemplate {
			continue
		}
		text := strings.Join(strings.Fields(unquote(msg.text)), " ")
		if text == "" || strings.Contains(text, "${") {
			continue
		}
		if next := f.tok(at + 4); next.text != ")" && next.text != "," {
			text += " …"
		}
		e := call + name.text + "(" + quoteJS(text) + ")"
		if t.text == "reject" {
			e += ")"
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// quoteJS writes s in single quotes, as JavaScript sources mostly do.
func quoteJS(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }
