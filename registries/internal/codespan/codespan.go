// Package codespan finds the ends of Markdown code spans (CommonMark 0.31, "Code spans": a
// backtick string opens a span that the next backtick string of the same length closes), for
// the doc comment renderers that must leave a span's text as it is: rustdoc's HTML and
// JSDoc's inline tags alike. docidx.CodeSpan writes code as a span.
//
// It imports the standard library only.
package codespan

import "strings"

// End returns where the code span that opens at line[i] (a run of backticks) ends: after its
// closing run of as many backticks, or len(line) when the line has none, so that an unclosed
// span reaches the end of the line.
func End(line string, i int) int {
	n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
	fence := line[i : i+n]
	for j := i + n; j < len(line); {
		k := strings.Index(line[j:], fence)
		if k < 0 {
			break
		}
		k += j
		m := len(line[k:]) - len(strings.TrimLeft(line[k:], "`"))
		if m == n {
			return k + n
		}
		j = k + m
	}
	return len(line)
}
