package index

// named.go finds the packages a question names by name ("go-redis pool size", "what does
// urllib3 retry on"): the relevance model lifts their documents by priorNamedPackage, and
// those it names surely (surelyNames) by priorSurePackage.

import (
	"slices"
	"strings"
	"unicode"

	"github.com/docidx/docidx"
)

// questionNames returns the words of text that could name a package, lowercased: text split at
// white space and at punctuation other than the "-", ".", "_", "/" and "@" that package names
// hold, with trailing dots and a possessive "'s" dropped ("fastify's" -> "fastify"), at least
// three bytes long, stop words left out, and the parts of a path ("redis/go-redis") and the owner
// of a dotted call ("cacheable" of "cacheable.set()") besides the whole. It returns nil when there
// are none.
func questionNames(text string) map[string]bool {
	var out map[string]bool
	for _, w := range nameWords(text) {
		if len(w) < 2 || len(w) == 2 && !twoLetterName(w) || passageStopWords[w] {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[w] = true
		if strings.IndexByte(w, '/') > 0 {
			// "boto3/botocore", "redis/go-redis": each part may be a name too.
			for part := range strings.SplitSeq(w, "/") {
				if len(part) >= 3 && !passageStopWords[part] {
					out[part] = true
				}
			}
		} else if owner, _, ok := strings.Cut(w, "."); ok && (len(owner) >= 3 || len(owner) == 2 && twoLetterName(owner)) && !passageStopWords[owner] {
			// A call written with its owner, "cacheable.set()", "qs.parse", "yaml.dump()":
			// the owner may name the package, as "socket.io" names one whole.
			out[owner] = true
		}
	}
	return out
}

// nameWords returns the words of text that could be names, lowercased: text split at white
// space and at punctuation other than the "-", ".", "_", "/" and "@" that package names hold,
// with the punctuation at their ends and a possessive "'s" dropped ("fastify's" -> "fastify").
func nameWords(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-._/@'’", r)
	})
	for i, w := range words {
		w = strings.TrimRight(w, ".-_/'’")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		words[i] = strings.TrimLeft(w, ".-_/'’")
	}
	return words
}

// dottedOwners returns the owners of the dotted words of text ("time" of "time.Duration",
// "yaml" of "yaml.dump()") that it writes nowhere else, lowercased as questionNames has them,
// each with the members it writes after them ("duration", "dump"). questionNames takes such an
// owner for a name; questionPackages keeps it only if its packages hold one of its members (or
// have no API to tell): "time.Duration" is Go's time package, not golang.org/x/time, which has
// no Duration.
func dottedOwners(text string) map[string][]string {
	var out map[string][]string
	plain := map[string]bool{}
	for _, w := range nameWords(text) {
		owner, member, ok := strings.Cut(w, ".")
		if !ok || strings.IndexByte(w, '/') >= 0 || member == "" {
			plain[w] = true
			continue
		}
		if i := strings.LastIndexByte(member, '.'); i >= 0 {
			member = member[i+1:] // "yaml.Dumper.represent": the last part is the symbol
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[owner] = append(out[owner], member)
	}
	for o := range out {
		if plain[o] {
			delete(out, o)
		}
	}
	return out
}

// packageNouns are the words by which a question calls the word before them a package: "the
// debug module", "the ws library", "the tqdm package".
var packageNouns = map[string]bool{
	"module": true, "modules": true, "package": true, "packages": true, "library": true,
	"libraries": true, "lib": true, "crate": true, "crates": true, "dependency": true,
}

// commandNouns are the words after which a question's word is a command ("the normalizer
// command", "the tsc CLI").
var commandNouns = map[string]bool{
	"command": true, "commands": true, "cli": true, "executable": true, "binary": true,
}

// calledCommands returns the words of text (lowercased, as questionNames has them) that it calls
// commands: those a commandNoun follows.
func calledCommands(text string) map[string]bool { return calledBy(text, commandNouns) }

// calledPackages returns the words of text (lowercased, as questionNames has them) that it calls
// packages: those a packageNoun follows ("how do I stop the debug module from …"), except the
// names of ecosystems ("the npm package", "a python library"). Such a word names its package
// even when it is a common word of documentation (see ownWord): the question says what it is.
func calledPackages(text string) map[string]bool {
	out := calledBy(text, packageNouns)
	for w := range out {
		if _, eco := ecosystemWords[w]; eco {
			delete(out, w)
		}
	}
	return out
}

// calledBy returns the names (questionNames) of the words of text that one of nouns follows;
// nil when there are none.
func calledBy(text string, nouns map[string]bool) map[string]bool {
	var out map[string]bool
	fields := strings.Fields(strings.ToLower(text))
	for i := 0; i+1 < len(fields); i++ {
		if !nouns[strings.TrimRight(fields[i+1], ",.;:?!)'\"`")] {
			continue
		}
		for w := range questionNames(fields[i]) {
			if out == nil {
				out = map[string]bool{}
			}
			out[w] = true
		}
	}
	return out
}

// packageNames returns the names a question may call the package eco/name by: its name as its
// ecosystem compares it, lowercased, and for a Go module also its last path element without a
// major version suffix, the name Go code imports it by ("go-redis" for
// github.com/redis/go-redis/v9; "yaml" for gopkg.in/yaml.v3 is left out: only path elements
// count), and that element without the "go-" prefix or ".go"/"-go" suffix that says it is the
// Go client of something ("redis", "nats"; such plain words then pass namedShare's test), and
// the org of a "go.<org>.<tld>" import host ("mongodb" for go.mongodb.org/mongo-driver/v2). A
// PyPI distribution or crate with a hyphen is also named with underscores, as code imports it,
// and an unscoped npm package with one also without its hyphens, as a class of it is written
// ("SonicBoom"). The last element of a scoped npm name ("core" of @babel/core) is not a name: it
// is too often a plain word.
func packageNames(eco docidx.Ecosystem, name string) []string {
	n := strings.ToLower(docidx.NormalizeName(eco, name))
	out := []string{n}
	switch {
	case (eco == docidx.PyPI || eco == docidx.Cargo) && strings.Contains(n, "-"):
		// Code imports a distribution or crate with underscores: "charset_normalizer.from_bytes",
		// "tracing_subscriber::EnvFilter" (PEP 503 compares the two spellings as one).
		out = append(out, strings.ReplaceAll(n, "-", "_"))
	case eco == docidx.NPM && strings.Contains(n, "-") && !strings.HasPrefix(n, "@"):
		// A class or function is written without the hyphens: "SonicBoom" of sonic-boom.
		out = append(out, strings.ReplaceAll(n, "-", ""))
	}
	if eco == docidx.Go {
		// A vanity import host "go.<org>.<tld>" is named by its org: "MongoDB" names
		// go.mongodb.org/mongo-driver, "etcd" go.etcd.io/bbolt.
		if host, _, _ := strings.Cut(n, "/"); strings.Count(host, ".") == 2 && strings.HasPrefix(host, "go.") {
			org := host[3:strings.LastIndexByte(host, '.')]
			if len(org) >= 3 {
				out = append(out, org)
			}
		}
		base, _ := splitMajor(n)
		if i := strings.LastIndexByte(base, '/'); i >= 0 && i+1 < len(base) {
			last := base[i+1:]
			out = append(out, last)
			// "nats.go" is NATS's Go client, "go-redis" Redis's: people say "nats", "redis".
			for _, trim := range []func(string) (string, bool){
				func(s string) (string, bool) { return strings.CutSuffix(s, ".go") },
				func(s string) (string, bool) { return strings.CutSuffix(s, "-go") },
				func(s string) (string, bool) { return strings.CutPrefix(s, "go-") },
			} {
				if short, ok := trim(last); ok && len(short) >= 2 {
					out = append(out, short)
				}
			}
		}
		// A module on a code host is named by its owner and repository, as people write it:
		// "pkg/errors", "spf13/cobra", "tidwall/gjson".
		if parts := strings.Split(base, "/"); len(parts) >= 3 && strings.Contains(parts[0], ".") {
			if repo := parts[1] + "/" + parts[2]; !slices.Contains(out, repo) {
				out = append(out, repo)
			}
		}
		// A GitHub organization named for its product names the product's modules:
		// "prometheus" github.com/prometheus/client_golang and client_model.
		if rest, ok := strings.CutPrefix(n, "github.com/"); ok {
			if org, _, ok := strings.Cut(rest, "/"); ok && len(org) >= 3 && !slices.Contains(out, org) {
				out = append(out, org)
			}
		}
	}
	return out
}

// compoundName reports whether a package name is spelled as no plain word is: with a digit or
// one of "-", ".", "_", "/", "@" between letters ("node-fetch", "socket.io", "urllib3",
// "@types/node").
func compoundName(w string) bool {
	return strings.ContainsAny(w, "-._/@0123456789")
}

// twoLetterWords are the English words of two letters, which are never package names in a
// question ("is", "in", "by"), unlike "ws", "pg" or "qs".
var twoLetterWords = map[string]bool{
	"am": true, "an": true, "as": true, "at": true, "be": true, "by": true, "do": true, "go": true,
	"he": true, "if": true, "in": true, "is": true, "it": true, "me": true, "my": true, "no": true,
	"of": true, "ok": true, "on": true, "or": true, "so": true, "to": true, "up": true, "us": true,
	"we": true,
}

// twoLetterName reports whether the two-letter word w may be a package's name.
func twoLetterName(w string) bool { return !twoLetterWords[w] }

// acronyms returns the words text writes in capitals (two letters or more, digits allowed:
// "CLI", "JSON", "HTTP2"), lowercased. A question writes a concept so ("a Go CLI") and a
// package by its name ("urfave/cli", "cli.App"): such a word names no package when the
// question names one otherwise (see rankSearch), though urfave/cli holds most of the
// documents that say "cli".
func acronyms(text string) map[string]bool {
	var out map[string]bool
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) < 2 || strings.ContainsFunc(w, unicode.IsLower) || !strings.ContainsFunc(w, unicode.IsUpper) {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[strings.ToLower(w)] = true
	}
	return out
}
