package rustapi

// body.go reads the one thing docidx takes from a function's body: the errors and panics it
// makes with a literal message (docidx.Symbol.Errors), as the Go, JavaScript and Python
// extractors read theirs. Rust documents panics in a "# Panics" section when it documents them
// at all; a message a user pastes ("capacity overflow", "called with an empty slice") finds the
// function whose code says it only if the code is read.

import (
	"slices"
	"strings"
	"unicode"

	"github.com/docidx/docidx/registries/internal/extracted"
)

// panicMacros are the macros whose first argument is the message of the panic or error they
// make: std's panics (https://doc.rust-lang.org/std/macro.panic.html and unreachable!,
// unimplemented!, todo!) and anyhow's errors (bail!, anyhow!, and its older format_err!).
var panicMacros = map[string]bool{
	"panic": true, "unreachable": true, "unimplemented": true, "todo": true,
	"bail": true, "anyhow": true, "format_err": true,
}

// assertMacros are the macros that panic with a message given after their condition (std's
// assert!, assert_eq!, assert_ne!; anyhow's ensure! returns it as an error). debug_assert! is
// left out: it does not run in release builds.
var assertMacros = map[string]bool{"assert": true, "assert_eq": true, "assert_ne": true, "ensure": true}

// bodyErrors returns the errors the function body toks[a:b] (between its braces) makes with a
// literal message, each as the code writes it with other arguments elided, at most
// extracted.MaxErrors, without repeats:
//   - panic!("capacity overflow"), unreachable!("…", …), bail!("…") (panicMacros);
//   - assert!(…, "index out of bounds") (assertMacros, a message after a comma);
//   - expect("the lock is poisoned") (a method call .expect);
//   - Err(…"invalid length"…) (a literal anywhere inside an Err(…) the body returns).
//
// A literal longer than extracted.MaxErrorLiteral, over several lines, raw, a byte string, or without a
// letter is left out.
func (p *parser) bodyErrors(a, b int) []string {
	var errs []string
	var open []int // the openers of the groups the scan is in, innermost last
	for i := a; i < b && i < len(p.toks) && len(errs) < extracted.MaxErrors; i++ {
		t := p.toks[i]
		switch {
		case t.kind == tPunct && (t.text == "(" || t.text == "[" || t.text == "{"):
			open = append(open, i)
			continue
		case t.kind == tPunct && (t.text == ")" || t.text == "]" || t.text == "}"):
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			continue
		case t.kind != tLiteral || !errorLiteral(t.text) || len(open) == 0:
			continue
		}
		o := open[len(open)-1]
		first := o == i-1
		more := ""
		if p.punct(i+1, ",") {
			more = ", …"
		}
		var e string
		switch name := p.macroBefore(o); {
		case panicMacros[name] && first:
			e = name + "!(" + t.text + more + ")"
		case assertMacros[name] && p.punct(i-1, ","):
			e = name + "!(…, " + t.text + more + ")"
		case name == "" && first && p.ident(o-1, "expect") && p.punct(o-2, "."):
			e = "expect(" + t.text + ")"
		default:
			for _, g := range open {
				if p.ident(g-1, "Err") && p.punct(g, "(") {
					e = "Err(…" + t.text + "…)"
					if first && g == o {
						e = "Err(" + t.text + more + ")"
					}
					break
				}
			}
		}
		if e != "" && !slices.Contains(errs, e) {
			errs = append(errs, e)
		}
	}
	return errs
}

// macroBefore returns the name of the macro whose invocation opens with the bracket at o
// ("panic" of panic!( and std::panic!(), or "".
func (p *parser) macroBefore(o int) string {
	if p.punct(o-1, "!") && p.isIdent(o-2) {
		return p.toks[o-2].text
	}
	return ""
}

// errorLiteral reports whether lit, a literal token as written, is a message: a plain string
// literal on one line, at most extracted.MaxErrorLiteral bytes, with a letter in it.
func errorLiteral(lit string) bool {
	return len(lit) >= 2 && len(lit) <= extracted.MaxErrorLiteral && lit[0] == '"' &&
		!strings.Contains(lit, "\n") && strings.IndexFunc(lit, unicode.IsLetter) >= 0
}
