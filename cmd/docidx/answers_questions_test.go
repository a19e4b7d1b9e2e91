package main

// The questions of the answer-in-results benchmark and the checks that keep them honest: each
// set's shape (always, hermetic) and each question's regular expression against the package file
// it was taken from (when the corpus is present). There are two sets:
//
//   - testdata/answers/questions.json (issue 14): 60 questions, tuned on for a year;
//   - testdata/heldout/questions.json (issue 26): written from the packages' files by people who
//     never saw the ranking code, split once at random into a dev half, to tune on, and a test
//     half, run only to report.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/pypi"
)

// answerQuestion is one question of a question set.
type answerQuestion struct {
	ID        string `json:"id"`
	Ecosystem string `json:"ecosystem"` // purl type: golang, npm or pypi (cargo and swift in heldout)
	Package   string `json:"package"`   // module path, npm name or Python distribution name
	Version   string `json:"version"`   // the corpus's version the fact was taken from
	Question  string `json:"question"`  // in a user's words
	Answer    string `json:"answer"`    // the fact, in words
	// Regex is a Go RE2 expression for the fact as the package's own file words it, matched
	// case-insensitively.
	Regex string `json:"regex"`
	// Source is "path:line": the file holding the fact, relative to the package root (the module
	// directory for golang, node_modules/<name> for npm, site-packages for pypi), and its line.
	Source string `json:"source"`
	// Also lists, as "path:line" like Source, the package's other files that word the same fact
	// in other words, each matched by one of Regex's alternatives.
	Also []string `json:"also,omitempty"`
	// Kind says what answers the question: "api" (a doc comment, docstring or signature) or
	// "prose" (a README or guide). Held-out questions only.
	Kind string `json:"kind,omitempty"`
	// Split is the held-out half the question belongs to: "dev" (tune on it) or "test" (run
	// only to report). Held-out questions only.
	Split string `json:"split,omitempty"`

	re *regexp.Regexp
}

// The question sets, relative to this package's directory.
const (
	answersFile = "../../testdata/answers/questions.json"
	heldoutFile = "../../testdata/heldout/questions.json"
)

// The shape the question set keeps: this many questions per ecosystem, at most
// maxAnswerPerPackage per package.
const (
	answersPerEcosystem = 20
	maxAnswerPerPackage = 2
	// sourceSlack is how many lines a fact's match may start or end away from the line its
	// source names (a sentence that wraps, a default two lines under its field's name).
	sourceSlack = 3
)

// The held-out set's shape (issue 26): at least this many questions over this many packages,
// at most maxHeldoutPerPackage per package, and each kind between minKindShare and 1-minKindShare
// of the questions.
const (
	heldoutQuestionsMin  = 200
	heldoutPackagesMin   = 120
	maxHeldoutPerPackage = 3
	minKindShare         = 0.35
)

// answerQuestions reads and compiles testdata/answers, failing tb when it is malformed.
func answerQuestions(tb testing.TB) []answerQuestion {
	tb.Helper()
	return readQuestions(tb, answersFile)
}

// heldoutQuestions reads and compiles the held-out questions of split ("dev" or "test").
func heldoutQuestions(tb testing.TB, split string) []answerQuestion {
	tb.Helper()
	var out []answerQuestion
	for _, q := range readQuestions(tb, heldoutFile) {
		if q.Split == split {
			out = append(out, q)
		}
	}
	return out
}

// readQuestions reads and compiles the question set in file, failing tb when it is malformed.
func readQuestions(tb testing.TB, answersFile string) []answerQuestion {
	tb.Helper()
	data, err := os.ReadFile(answersFile)
	if err != nil {
		tb.Fatal(err)
	}
	var set struct {
		About     string           `json:"about"`
		Questions []answerQuestion `json:"questions"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&set); err != nil {
		tb.Fatalf("%s: %v", answersFile, err)
	}
	if len(set.Questions) == 0 {
		tb.Fatalf("%s holds no questions", answersFile)
	}
	for i := range set.Questions {
		q := &set.Questions[i]
		re, err := compileFact(q.Regex)
		if err != nil {
			tb.Fatalf("%s: question %s: %v", answersFile, q.ID, err)
		}
		q.re = re
	}
	return set.Questions
}

// commentBreak is how a regex written against a source file steps over a line break inside a
// doc comment: `\s*//\s*` between the words of a Go comment wrapped over two lines.
const commentBreak = `\s*//\s*`

// compileFact compiles a question's Regex, case-insensitively, with each commentBreak made to
// match a plain line break as well: the facts are sentences of doc comments, which every docs
// tool (docidx's passages, go doc, an editor's hover) shows without their comment markers, while
// the regexes were checked against the source files that have them (TestAnswerSources).
//
// A reStructuredText role before a word (":func:`re.search`", ":pep:`440`", written
// ":func:re\.search" once the backticks are stripped) is inline markup too, which docs views
// render as the word alone or, for :pep: and :rfc:, as "PEP 440": both forms match.
func compileFact(expr string) (*regexp.Regexp, error) {
	expr = strings.ReplaceAll(expr, commentBreak, `\s*(?://\s*)?`)
	expr = numberedRole.ReplaceAllString(expr, `${1}(?::${2}:|${2}\s+)`)
	expr = role.ReplaceAllString(expr, `${1}(?::${2}:)?`)
	return regexp.Compile("(?i)" + expr)
}

// numberedRole and role find a reStructuredText role in a fact's regex: after a space or a
// quantifier of one (\s+, \s*), before what it marks up. numberedRole's render with their
// name ("PEP 440"), role's without.
var (
	numberedRole = regexp.MustCompile(`([ +*]):(pep|rfc):`)
	role         = regexp.MustCompile(`([ +*]):([a-z]+):`)
)

// splitSource splits a "path:line" source (Source or one of Also) into its path and line.
func splitSource(source string) (path string, line int, err error) {
	i := strings.LastIndexByte(source, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("source %q is not path:line", source)
	}
	line, err = strconv.Atoi(source[i+1:])
	if err != nil || line < 1 {
		return "", 0, fmt.Errorf("source %q: line is not a positive number", source)
	}
	path = source[:i]
	if filepath.IsAbs(path) || strings.Contains(path, "..") {
		return "", 0, fmt.Errorf("source %q is not relative to the package root", source)
	}
	return path, line, nil
}

// TestAnswerQuestionsShape checks the question set's shape without the corpus: unique ids,
// every field present, regexes that compile, sources that are path:line, 20 questions per
// ecosystem, at most two per package.
func TestAnswerQuestionsShape(t *testing.T) {
	qs := answerQuestions(t)
	ids := map[string]bool{}
	perEco := map[string]int{}
	perPkg := map[string]int{}
	for _, q := range qs {
		checkQuestion(t, q, ids)
		perEco[q.Ecosystem]++
		perPkg[q.Ecosystem+":"+q.Package]++
	}
	for _, eco := range []string{"golang", "npm", "pypi"} {
		if perEco[eco] != answersPerEcosystem {
			t.Errorf("%s: %d questions, want %d", eco, perEco[eco], answersPerEcosystem)
		}
		delete(perEco, eco)
	}
	for eco := range perEco {
		t.Errorf("ecosystem %q is not one of golang, npm, pypi", eco)
	}
	for pkg, n := range perPkg {
		if n > maxAnswerPerPackage {
			t.Errorf("%s: %d questions, want at most %d", pkg, n, maxAnswerPerPackage)
		}
	}
}

// checkQuestion fails t when q's id is in ids (which it then joins), a field is empty, a source
// is not path:line, or the question holds its own answer.
func checkQuestion(t *testing.T, q answerQuestion, ids map[string]bool) {
	t.Helper()
	if ids[q.ID] {
		t.Errorf("id %s used twice", q.ID)
	}
	ids[q.ID] = true
	for name, v := range map[string]string{"id": q.ID, "ecosystem": q.Ecosystem, "package": q.Package,
		"version": q.Version, "question": q.Question, "answer": q.Answer, "regex": q.Regex, "source": q.Source} {
		if strings.TrimSpace(v) == "" {
			t.Errorf("%s: %s is empty", q.ID, name)
		}
	}
	for _, s := range append([]string{q.Source}, q.Also...) {
		if _, _, err := splitSource(s); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
	}
	if q.re.MatchString(q.Question) {
		t.Errorf("%s: the question holds its own answer (%s matches %q)", q.ID, q.Regex, q.Question)
	}
}

// TestHeldoutQuestionsShape checks the held-out set's shape without the corpus: unique ids (in
// both sets), every field present, a kind and a split, no package of testdata/answers, at least
// heldoutQuestionsMin questions over heldoutPackagesMin packages, at most maxHeldoutPerPackage a
// package, and both kinds well represented.
func TestHeldoutQuestionsShape(t *testing.T) {
	old := map[string]bool{}
	ids := map[string]bool{}
	for _, q := range answerQuestions(t) {
		old[q.Ecosystem+":"+q.Package] = true
		ids[q.ID] = true
	}
	qs := readQuestions(t, heldoutFile)
	perPkg := map[string]int{}
	kinds := map[string]int{}
	splits := map[string]int{}
	for _, q := range qs {
		checkQuestion(t, q, ids)
		if old[q.Ecosystem+":"+q.Package] {
			t.Errorf("%s: %s %s is in testdata/answers too", q.ID, q.Ecosystem, q.Package)
		}
		switch q.Kind {
		case "api", "prose":
		default:
			t.Errorf("%s: kind %q, want api or prose", q.ID, q.Kind)
		}
		switch q.Split {
		case "dev", "test":
		default:
			t.Errorf("%s: split %q, want dev or test", q.ID, q.Split)
		}
		switch q.Ecosystem {
		case "golang", "npm", "pypi", "cargo", "swift":
		default:
			t.Errorf("%s: ecosystem %q is not one of golang, npm, pypi, cargo, swift", q.ID, q.Ecosystem)
		}
		perPkg[q.Ecosystem+":"+q.Package]++
		kinds[q.Kind]++
		splits[q.Split]++
	}
	if len(qs) < heldoutQuestionsMin || len(perPkg) < heldoutPackagesMin {
		t.Errorf("%d questions over %d packages, want at least %d over %d", len(qs), len(perPkg), heldoutQuestionsMin, heldoutPackagesMin)
	}
	for pkg, n := range perPkg {
		if n > maxHeldoutPerPackage {
			t.Errorf("%s: %d questions, want at most %d", pkg, n, maxHeldoutPerPackage)
		}
	}
	for _, k := range []string{"api", "prose"} {
		if share := float64(kinds[k]) / float64(len(qs)); share < minKindShare {
			t.Errorf("%d %s questions of %d (%.2f), want at least %.2f", kinds[k], k, len(qs), share, minKindShare)
		}
	}
	if splits["dev"] == 0 || splits["test"] == 0 {
		t.Errorf("splits %v: want both halves", splits)
	}
}

// TestAnswerSources checks every question's regular expression against the file its source
// names, and each file its also names, in the corpus: the fact must be worded there, at that
// line. It skips without the corpus
// (DOCIDX_CORPUS, as `make bench` and `make answers` set it).
func TestAnswerSources(t *testing.T) {
	dir := os.Getenv("DOCIDX_CORPUS")
	if dir == "" {
		t.Skip("DOCIDX_CORPUS not set (scripts/corpus.sh builds the corpus)")
	}
	roots := answerRoots{
		gomodcache:   filepath.Join(dir, "gomodcache"),
		nodeModules:  filepath.Join(dir, "npmproject", "node_modules"),
		sitePackages: corpusSitePackages(dir),
		cargoHome:    filepath.Join(dir, "cargohome"),
		swiftProject: filepath.Join(dir, "swiftproject"),
	}
	if !isDir(roots.gomodcache) || !isDir(roots.nodeModules) {
		t.Skipf("no corpus in %s (run scripts/corpus.sh)", dir)
	}
	for _, q := range append(answerQuestions(t), readQuestions(t, heldoutFile)...) {
		t.Run(q.ID, func(t *testing.T) {
			for _, source := range append([]string{q.Source}, q.Also...) {
				file, err := roots.file(q, source)
				if err != nil {
					t.Skip(err) // a corpus built from other lists, or another Python
				}
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				_, line, _ := splitSource(source)
				if got := factLines(q.re, string(data)); !near(got, line) {
					t.Errorf("%s does not word the fact %s at line %d (matches at lines %v)", source, q.Regex, line, got)
				}
			}
		})
	}
}

// answerRoots are the corpus's package roots of each ecosystem.
type answerRoots struct {
	gomodcache, nodeModules string
	sitePackages            []string
	// cargoHome and swiftProject hold the cargo and Swift test fixtures (scripts/corpus.sh).
	cargoHome, swiftProject string
}

// file returns the path in the corpus of source, q's Source or one of its Also, or an error when
// the corpus does not hold q's package version.
func (r answerRoots) file(q answerQuestion, source string) (string, error) {
	rel, _, err := splitSource(source)
	if err != nil {
		return "", err
	}
	var candidates []string
	switch q.Ecosystem {
	case "golang":
		candidates = []string{filepath.Join(r.gomodcache, escapeModulePath(q.Package)+"@"+q.Version, rel)}
	case "npm":
		if v := packageJSONVersion(filepath.Join(r.nodeModules, q.Package)); v != q.Version {
			return "", fmt.Errorf("corpus has npm %s %q, the question is about %s", q.Package, v, q.Version)
		}
		candidates = []string{filepath.Join(r.nodeModules, q.Package, rel)}
	case "pypi":
		for _, sp := range r.sitePackages {
			candidates = append(candidates, filepath.Join(sp, rel))
		}
	case "cargo":
		// registry/src/<index>/<name>-<version>/, whatever the index directory is named.
		candidates, _ = filepath.Glob(filepath.Join(r.cargoHome, "registry", "src", "*", q.Package+"-"+q.Version, rel))
	case "swift":
		// The fixtures are checked out under their identity; their questions' version is
		// "fixture".
		candidates = []string{filepath.Join(r.swiftProject, ".build", "checkouts", q.Package, rel)}
	default:
		return "", fmt.Errorf("unknown ecosystem %q", q.Ecosystem)
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("corpus holds no %s %s@%s (%s)", q.Ecosystem, q.Package, q.Version, source)
}

// corpusSitePackages returns the site-packages directories a corpus crawl reads: this machine's
// Python (DOCIDX_SITE_PACKAGES, else what python3 reports) and the corpus's virtualenv
// (DIR/pyenv, scripts/corpus.sh), when it exists.
func corpusSitePackages(dir string) []string {
	var dirs []string
	if sp := os.Getenv("DOCIDX_SITE_PACKAGES"); sp != "" {
		dirs = filepath.SplitList(sp)
	} else {
		dirs, _ = pypi.DefaultSitePackagesDirs(context.Background(), "python3")
	}
	venv, _ := filepath.Glob(filepath.Join(dir, "pyenv", "lib", "python3*", "site-packages"))
	return append(dirs, venv...)
}

// escapeModulePath escapes a module path for the module cache's directory names: each upper-case
// letter becomes '!' and its lower-case form (golang.org/x/mod/module's escaping, for the paths a
// module cache holds).
func escapeModulePath(path string) string {
	var b strings.Builder
	for _, r := range path {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// packageJSONVersion returns the version field of dir/package.json, or "" when unreadable.
func packageJSONVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var pj struct {
		Version string `json:"version"`
	}
	json.Unmarshal(data, &pj)
	return pj.Version
}

// commentPrefix is what a line of a doc comment starts with in the corpus's languages: Go and
// JavaScript line comments, JSDoc's leading stars, Python's #: attribute docs and # comments.
var commentPrefix = regexp.MustCompile(`^[ \t]*(//+|/\*\*?|\*+/?|#:?)?[ \t]?`)

// factLines returns the line spans (first and last line, 1-based) of every match of re in text,
// as written and with each line's comment prefix removed (so that a sentence wrapped over a Go,
// JSDoc or Python comment matches as it reads), each also with inline markup removed
// (stripMarkup), as the benchmark matches answers.
func factLines(re *regexp.Regexp, text string) [][2]int {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = commentPrefix.ReplaceAllString(l, "")
	}
	uncommented := strings.Join(lines, "\n")
	var spans [][2]int
	for _, t := range []string{text, uncommented, stripMarkup(text), stripMarkup(uncommented)} {
		for _, m := range re.FindAllStringIndex(t, -1) {
			first := strings.Count(t[:m[0]], "\n") + 1
			spans = append(spans, [2]int{first, first + strings.Count(t[m[0]:m[1]], "\n")})
		}
	}
	return spans
}

// stripMarkup removes inline markup from s so that a fact matches however a page marks it up:
// every backtick and asterisk, and each run of underscores at the edge of a word (emphasis, and
// the dunders of __html__), not one inside a word (snake_case). Lines are kept.
func stripMarkup(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '`', '*':
			continue
		case '_':
			j := i
			for j < len(s) && s[j] == '_' {
				j++
			}
			if i > 0 && j < len(s) && wordByte(s[i-1]) && wordByte(s[j]) {
				b.WriteString(s[i:j]) // inside a word
			}
			i = j - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// wordByte reports whether c is a letter or a digit, or part of a non-ASCII rune.
func wordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// near reports whether one of spans lies within sourceSlack lines of line.
func near(spans [][2]int, line int) bool {
	for _, s := range spans {
		if s[0]-sourceSlack <= line && line <= s[1]+sourceSlack {
			return true
		}
	}
	return false
}

func TestFactLines(t *testing.T) {
	tests := []struct {
		name, text, re string
		line           int
		want           bool
	}{
		{"go comment wrapped", "package x\n\n// When set to zero it will\n// wait indefinitely.\nTimeout int", `zero\s+it\s+will\s+wait\s+indefinitely`, 3, true},
		{"jsdoc wrapped", "/**\n * how many bytes a message can be\n * @default 1e6 (1 MB)\n */", `can\s+be\s+@default\s+1e6`, 2, true},
		{"python attribute doc", "    #: The default is 31\n    #: days.\n", `default\s+is\s+31\s+days`, 1, true},
		{"markdown as written", "Intro\n\nDefaults\nto `'100kb'`.\n", "Defaults\\s+to\\s+`'100kb'", 4, true},
		{"too far from the line", "a\nb\nc\nd\ne\nf\ng\nthe fact\n", `the\s+fact`, 1, false},
		{"not there", "nothing here\n", `the\s+fact`, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			re := regexp.MustCompile("(?i)" + tt.re)
			if got := near(factLines(re, tt.text), tt.line); got != tt.want {
				t.Errorf("near(factLines(%s), %d) = %v, want %v (spans %v)", tt.re, tt.line, got, tt.want, factLines(re, tt.text))
			}
		})
	}
}

func TestCompileFact(t *testing.T) {
	re, err := compileFact(`limits\s+goroutines\.\s*//\s*Defaults\s+to\s+unlimited`)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{
		"// limits goroutines.\n// Defaults to unlimited.": true, // the source
		"limits goroutines. Defaults to unlimited.":        true, // a passage
		"limits goroutines.\nDefaults to unlimited.":       true,
		"LIMITS GOROUTINES. DEFAULTS TO UNLIMITED":         true,
		"limits goroutines. Defaults to ten.":              false,
	} {
		if got := re.MatchString(text); got != want {
			t.Errorf("compileFact(…).MatchString(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestCompileFactRoles(t *testing.T) {
	for expr, texts := range map[string]map[string]bool{
		`from\s+:pep:440\s+and`:                           {"from :pep:440 and": true, "from PEP 440 and": true, "from 440 and": false},
		`raise\s+:exc:pygments\.util\.ClassNotFound\s+if`: {"raise :exc:pygments.util.ClassNotFound if": true, "raise pygments.util.ClassNotFound if": true},
		`to\s+":memory:"\s+opens`:                         {`to ":memory:" opens`: true, `to "" opens`: false},
	} {
		re, err := compileFact(expr)
		if err != nil {
			t.Fatal(err)
		}
		for text, want := range texts {
			if got := re.MatchString(text); got != want {
				t.Errorf("compileFact(%q).MatchString(%q) = %v, want %v", expr, text, got, want)
			}
		}
	}
}
