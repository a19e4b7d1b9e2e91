// Package pystr holds the string methods of Python's str type that docidx reproduces to read text
// as Python tools do: inspect.cleandoc for docstrings and docutils for reStructuredText both
// expand tabs with str.expandtabs before they measure indentation. It imports only the standard
// library.
package pystr

import "strings"

// tabSize is the tab width ExpandTabs uses, str.expandtabs's default, in columns.
const tabSize = 8

// ExpandTabs returns s with each tab replaced by the spaces that reach the next multiple of 8
// columns, as Python's str.expandtabs() does
// (https://docs.python.org/3/library/stdtypes.html#str.expandtabs): every other character (a
// rune, not a byte) is one column wide, and a line feed or carriage return starts the count again
// at column 0.
func ExpandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := tabSize - col%tabSize
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}
