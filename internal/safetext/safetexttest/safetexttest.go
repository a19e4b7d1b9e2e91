// Package safetexttest holds the hostile text that docidx's tests put into package content to
// check each edge (the CLI, MCP, the HTML pages) against safetext's rules.
package safetexttest

import (
	"fmt"

	"github.com/docidx/docidx/internal/safetext"
)

// Hostile is text a package could carry to drive a terminal or hide what it says, each piece
// after a readable label: ED (clear screen), OSC 52 (write the clipboard), OSC 8 (a link),
// OSC 0 (the window title), DSR (ask the terminal to type an answer), BEL, backspace, a lone
// carriage return, C1 CSI, DEL, a bidi override, isolates, zero-width characters and tag
// characters. Its visible words are "label" and the labels.
const Hostile = "label ED\x1b[2J OSC52\x1b]52;c;cHduZWQ=\a OSC8\x1b]8;;http://127.0.0.1:9/\x1b\\link\x1b]8;;\x1b\\ " +
	"OSC0\x1b]0;pwned\a DSR\x1b[6n BEL\a BS\b CR\rover C1CSI\u009b2J DEL\x7f " +
	"RLO\u202eevil\u202c LRI\u2066x\u2069 ZW\u200b\u200c\u200d\u2060\ufeff TAG\U000E0041\U000E007F end"

// HostileName is a symbol or package name with invisible characters inside it.
const HostileName = "Wid\u202eget\u200b\u2066"

// CheckPeople returns an error naming where text that people are shown holds a character
// safetext.Text would have escaped, or nil.
func CheckPeople(what, text string) error {
	if i := safetext.IndexUnsafe(text); i >= 0 {
		return fmt.Errorf("%s holds %q at byte %d: ...%q...", what, []rune(text[i:])[0], i, text[max(0, i-40):min(len(text), i+40)])
	}
	return nil
}

// CheckClients returns an error naming where text that an AI client is sent holds a control
// character other than tab and newline, or nil.
func CheckClients(what, text string) error {
	if i := safetext.IndexControl(text); i >= 0 {
		return fmt.Errorf("%s holds %q at byte %d: ...%q...", what, []rune(text[i:])[0], i, text[max(0, i-40):min(len(text), i+40)])
	}
	return nil
}
