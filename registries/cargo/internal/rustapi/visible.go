package rustapi

import (
	"regexp"
	"strings"
)

// visible returns a doc comment's Markdown as rustdoc shows it to a reader, so that the index
// holds the words a reader sees and a passage spends no bytes on what rustdoc hides:
//
//   - In a Rust code block, the lines rustdoc hides are dropped: a line that is "#" alone or
//     starts with "# " after its indentation, and a leading "##" shows as "#" (The rustdoc book,
//     "Documentation tests", Hiding portions of the example; librustdoc's map_line). A code block
//     is Rust when its info string is empty or holds only rustdoc's code block attributes
//     ("rust", "ignore", "no_run", "should_panic", "compile_fail", "edition2021", ...); its info
//     string then becomes "rust", which is what rustdoc highlights it as.
//   - A link reference definition ("[name]: target" on a line of its own, after a blank line or
//     another definition) is dropped: Markdown shows nothing of it (CommonMark 0.31, 4.7), and
//     rustdoc resolves intra-doc targets ("[Foo]: crate::Foo") into the link it applies.
//
// Fences follow CommonMark 0.31, 4.5: three or more backticks or tildes, indented at most three
// spaces, closed by a fence of the same character at least as long. Indented code blocks are
// left as they are.
func visible(text string) string {
	lines := strings.Split(text, "\n")
	out := lines[:0]
	var fence string // the open fence's marker, "" outside a code block
	rust := false    // the open code block is Rust
	prevBlank := true
	for _, l := range lines {
		t := strings.TrimLeft(l, " ")
		indent := len(l) - len(t)
		if fence == "" {
			if marker, info, ok := openFence(t, indent); ok {
				fence, rust = marker, isRustInfo(info)
				if rust {
					l = l[:indent] + marker + "rust"
				}
				out = append(out, l)
				prevBlank = false
				continue
			}
			if prevBlank && indent < 4 && linkDef.MatchString(t) {
				continue // prevBlank stays: a definition may follow a definition
			}
			out = append(out, l)
			prevBlank = strings.TrimSpace(l) == ""
			continue
		}
		if indent < 4 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
			fence = ""
			out = append(out, l)
			prevBlank = false
			continue
		}
		if rust {
			trimmed := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(trimmed, "##"):
				l = strings.Replace(l, "##", "#", 1)
			case trimmed == "#", strings.HasPrefix(trimmed, "# "), strings.HasPrefix(trimmed, "#\t"):
				continue
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// linkDef matches the start of a link reference definition: a bracketed label, a colon, and a
// destination on the same line.
var linkDef = regexp.MustCompile(`^\[(?:[^\]\\]|\\.)+\]:[ \t]*\S`)

// openFence reports whether t, a line without its indentation of indent spaces, opens a fenced
// code block, with the fence's marker (its run of backticks or tildes) and its info string.
func openFence(t string, indent int) (marker, info string, ok bool) {
	if indent > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(t[n:])
	if t[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	return t[:n], info, true
}

// isRustInfo reports whether a code block with this info string is Rust to rustdoc: empty, or
// only the attributes rustdoc reads (librustdoc's LangString::parse), separated by commas or
// spaces.
func isRustInfo(info string) bool {
	for _, tok := range strings.FieldsFunc(info, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		switch {
		case tok == "rust", tok == "ignore", tok == "no_run", tok == "should_panic",
			tok == "compile_fail", tok == "test_harness", tok == "standalone_crate",
			tok == "allow_fail":
		case strings.HasPrefix(tok, "edition"), strings.HasPrefix(tok, "ignore-"),
			strings.HasPrefix(tok, "E0"), strings.HasPrefix(tok, "{"):
		default:
			return false
		}
	}
	return true
}
