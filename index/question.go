package index

// question.go turns a question's words into the terms it is searched by.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// searchTerms returns the terms a question's words are searched by: those of questionTerms,
// from the words without their English contractions and possessives (plainWords), and without
// the one-letter parts the identifier analyzer splits from a word of letters ("gRPC": "g"; the
// "h" of "2h" is kept). Such parts
// are in most documents' names as initials or type parameters and rank by chance; "the
// driver's pool" is about the driver, and "don't" says nothing the other words do not.
func (r *reader) searchTerms(words string) []string {
	plain := plainWords(words)
	return withoutFragments(r.questionTerms(plain), plain)
}

// withoutVersions returns words without the versions they give packages: a version
// (VersionWord: "0.7", "v5", "4.2.1") right after a word that names a package ("arrayvec 0.7",
// "lru-cache v5"), and the "@version" of "name@version". It says which version the question is
// about (the answer layer searches that version), not words of its answer, and its digits ("0",
// "7") would match the literals of examples (arrayvec's try_insert(0, "x") before its "Rust
// Version" section).
func (ri *rankIndex) withoutVersions(words string) string {
	const edges = "(\"'`,.;:?!)" // what a word may be wrapped in; edges[1:] what may follow it
	// A version word is taken as written up to what may follow it: "v8()" is a call.
	bare := func(f string) string { return strings.ToLower(strings.Trim(f, edges)) }
	fields := strings.Fields(words)
	out := fields[:0:0]
	changed := false
	for i, f := range fields {
		w := bare(f)
		switch at := strings.LastIndexByte(w, '@'); {
		case at > 0 && VersionWord(w[at+1:]) && len(ri.packagesNamed(w[:at])) > 0:
			out = append(out, w[:at])
			changed = true
		case i > 0 && VersionWord(strings.TrimRight(f, edges[1:])) && !strings.ContainsAny(fields[i-1][len(fields[i-1])-1:], ",.;:?!") &&
			len(ri.packagesNamed(bare(fields[i-1]))) > 0:
			changed = true // "arrayvec 0.7", not "in arrayvec, 2 items"
		default:
			out = append(out, f)
		}
	}
	if !changed {
		return words
	}
	return strings.Join(out, " ")
}

// withoutFragments returns terms (of plain, filtered in place) without the one-letter terms that
// are not words of plain of one letter or letters of a word with digits ("2h", "1d": units).
func withoutFragments(terms []string, plain string) []string {
	single := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(plain), notWordRune) {
		if utf8.RuneCountInString(f) == 1 || strings.ContainsFunc(f, unicode.IsDigit) {
			for _, r := range f {
				single[string(r)] = true
			}
		}
	}
	out := terms[:0]
	for _, t := range terms {
		if utf8.RuneCountInString(t) > 1 || single[t] {
			out = append(out, t)
		}
	}
	return out
}

// notWordRune reports whether r separates words: not a letter or digit.
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// plainWords returns text with its English contractions and possessives removed: a word
// ending in "n't" ("don't", "isn't") is left out, and "'s", "'re", "'ve", "'ll", "'d" and "'m"
// are cut from the word they end ("driver's": "driver"), with either apostrophe. The
// identifier analyzer would otherwise split "don't" into "don" and "t", a rare and a common
// term that neither says anything of the question.
func plainWords(text string) string {
	if !strings.ContainsAny(text, "'’") {
		return text
	}
	fields := strings.Fields(text)
	out := fields[:0]
	for _, f := range fields {
		w := strings.ReplaceAll(f, "’", "'")
		core := strings.TrimRightFunc(w, func(r rune) bool { return unicode.IsPunct(r) && r != '\'' })
		tail := w[len(core):]
		lower := strings.ToLower(core)
		if strings.HasSuffix(lower, "n't") && len(lower) > 3 {
			continue
		}
		for _, suf := range []string{"'s", "'re", "'ve", "'ll", "'d", "'m"} {
			if strings.HasSuffix(lower, suf) && len(lower) > len(suf) {
				core = core[:len(core)-len(suf)]
				break
			}
		}
		out = append(out, core+tail)
	}
	return strings.Join(out, " ")
}
