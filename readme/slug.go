package readme

import (
	"strconv"
	"strings"
	"unicode"
)

// Slug returns the GitHub-style anchor of a heading whose text is heading: lowercased, with every
// character that is not a letter, mark, digit, connector punctuation (such as '_'), '-' or ' '
// removed, and spaces turned into '-'. It follows github-slugger
// (https://github.com/Flet/github-slugger), which GitHub uses for README anchors, e.g.
// "Getting Started!" -> "getting-started" and "`create()`" -> "create".
//
// Slug does not number duplicates; within one document Parse gives the second "Usage" the anchor
// "usage-1", the third "usage-2", as GitHub does.
func Slug(heading string) string {
	var b strings.Builder
	b.Grow(len(heading))
	for _, r := range strings.TrimSpace(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-':
			b.WriteRune(r)
		case unicode.IsLetter(r), unicode.IsMark(r), unicode.IsDigit(r), unicode.IsNumber(r), unicode.Is(unicode.Pc, r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// slugger numbers duplicate slugs the way github-slugger does: the first "a" is "a", the next
// ones "a-1", "a-2" …, skipping any candidate that an earlier heading already took.
type slugger struct {
	seen map[string]int
}

func (s *slugger) slug(heading string) string {
	if s.seen == nil {
		s.seen = make(map[string]int)
	}
	base := Slug(heading)
	slug := base
	for {
		if _, taken := s.seen[slug]; !taken {
			break
		}
		s.seen[base]++
		slug = base + "-" + strconv.Itoa(s.seen[base])
	}
	s.seen[slug] = 0
	return slug
}
