package pyscan

import (
	"strings"

	"github.com/docidx/docidx"
)

// cli.go reads the command-line options a command function declares in its decorators, as
// click (https://click.palletsprojects.com/en/stable/api/#click.option) and the libraries
// built on it (cloup, rich-click, click-option-group) declare them:
//
//	@click.option("-w", "--workers", default=None, type=int, envvar="WEB_CONCURRENCY",
//	              help="Number of worker processes.")
//
// A command's options are its documented API as `uvicorn --help` shows it; its docstring, when
// it has one, is only the command's one-line description. They become the function's Params.

// cliOption returns the parameter that decorator toks (after the "@": a dotted name and its
// call) declares when it is an option or argument decorator: a name whose last part is
// "option" or "argument", called with the option's names as string literals. The parameter's
// Name is the option's names as written, joined by ", " ("-w, --workers"), or an argument's
// name; Type the type= argument as written, or "flag" for is_flag=True; Default the default=
// argument as written; Doc the help= text, then "Environment variable: X." for envvar="X".
// ok is false for any other decorator, and for one whose arguments do not parse.
func (s *scanner) cliOption(toks []token) (p docidx.Param, ok bool) {
	name := s.dottedName(toks)
	kind := lastDotted(name)
	if kind != "option" && kind != "argument" {
		return p, false
	}
	open := 0
	for open < len(toks) && (toks[open].kind == tName || s.isOp(toks[open], ".")) {
		open++
	}
	if open >= len(toks) || !s.isOp(toks[open], "(") {
		return p, false
	}
	var names []string
	var help, envvar string
	for _, arg := range s.callArgs(toks[open:]) {
		if len(arg) == 0 {
			continue
		}
		if arg[0].kind == tString {
			if len(stringRun(arg)) != len(arg) {
				return p, false
			}
			v, ok := s.docstring(arg)
			if !ok {
				return p, false
			}
			// click's option names start with "-"; a bare identifier after them names the
			// function's parameter, and an argument's name is its only string.
			if strings.HasPrefix(v, "-") || kind == "argument" && len(names) == 0 {
				names = append(names, v)
			}
			continue
		}
		if len(arg) < 3 || arg[0].kind != tName || !s.isOp(arg[1], "=") {
			continue
		}
		value := arg[2:]
		written := cutValue(s.render(value), MaxValue)
		switch s.text(arg[0]) {
		case "help":
			if v, ok := s.docstring(value); ok && len(stringRun(value)) == len(value) {
				help = cleandoc(v)
			}
		case "default":
			p.Default = written
		case "type":
			p.Type = written
		case "is_flag":
			if written == "True" && p.Type == "" {
				p.Type = "flag"
			}
		case "envvar":
			if v, ok := s.docstring(value); ok && len(stringRun(value)) == len(value) {
				envvar = v
			}
		}
	}
	if len(names) == 0 {
		return p, false
	}
	p.Name = strings.Join(names, ", ")
	p.Doc = strings.Join(strings.Fields(help), " ")
	if envvar != "" {
		p.Doc = strings.TrimSpace(p.Doc + " Environment variable: " + envvar + ".")
	}
	return p, true
}

// callArgs returns the top-level arguments of the call whose "(" is toks[0], each its tokens
// without the separating commas; an unclosed call returns the arguments up to the end.
func (s *scanner) callArgs(toks []token) [][]token {
	var out [][]token
	depth, start := 0, 1
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tOp {
			continue
		}
		depth += s.nesting(t)
		if depth < 0 || depth == 0 && s.isOp(t, ",") {
			out = append(out, toks[start:i])
			start = i + 1
			if depth < 0 || len(out) >= maxParams {
				return out
			}
		}
	}
	return append(out, toks[start:])
}
