package docidx

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQuoted is how many bytes of a string from a client (a resource URI, a package name, a
// query, a header) an error or a message names: enough to recognise it, never enough for a
// long one to multiply the size of the answer.
const MaxQuoted = 256

// Clip returns s as a message may name it: s itself when it has at most MaxQuoted bytes, else
// its first MaxQuoted bytes (cut at a rune boundary) followed by "…" and its length in bytes,
// as in "docidx://golang/aaaa… (1048576 bytes)".
func Clip(s string) string { return ClipTo(s, MaxQuoted) }

// ClipTo is Clip with a limit of max bytes instead of MaxQuoted, for a whole message that may
// hold strings no one quoted with Quote (a dependency's error, say).
func ClipTo(s string, max int) string {
	head, long := clipped(s, max)
	if !long {
		return s
	}
	return head + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Quote is Clip for a string an error quotes: the prefix Clip keeps, quoted as %q quotes (so
// control characters show as escapes), and the length of s after it when s was cut, as in
// "docidx://golang/aaaa"… (1048576 bytes). Every error that quotes a string a client sent uses
// Quote.
func Quote(s string) string {
	head, long := clipped(s, MaxQuoted)
	if !long {
		return strconv.Quote(s)
	}
	return strconv.Quote(head) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// clipped returns the first max bytes of s, cut back to a rune boundary, and whether that left
// anything out.
func clipped(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// CodeSpan returns code as one Markdown code span (CommonMark 0.31, "Code spans"): between
// runs of one backtick more than the longest run inside it, with a space inside each run when
// code starts or ends with a backtick (CommonMark strips one such space from each side): code
// holding `open()` goes between runs of two backticks.
func CodeSpan(code string) string {
	longest, run := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(code, "`") || strings.HasSuffix(code, "`") {
		return fence + " " + code + " " + fence
	}
	return fence + code + fence
}
