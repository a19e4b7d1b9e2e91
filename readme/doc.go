// Package readme turns a markdown file — a package's README, a page under docs/ or an example —
// into a docidx.Document: sections split by heading, each with its markdown text, a plain-text
// rendering for the search index, and its code blocks; plus a title and a short summary.
//
// Markdown is parsed with goldmark and the GitHub Flavored Markdown extensions (tables,
// strikethrough, autolinks, task lists); everything is read from the AST, never with regular
// expressions over markdown. For a README, sections that do not help someone use the package
// (contributors, sponsors, license text, changelog, table of contents …) are dropped; see Keep.
// Badge paragraphs and HTML blocks that only hold images are stripped from every kind of document.
//
// Plain makes a Document of text that is not markdown (a README.txt, a plain long description),
// one line per paragraph, for the registries that meet such files.
//
// Parse never fails and never panics: any byte slice gives a Document. Inputs larger than MaxInput
// are cut, at most MaxSections sections are returned, and the few markdown shapes on which
// goldmark's parser is slower than linear (thousands of delimiters in one paragraph, block quotes
// nested thousands deep) are defused first, so a hostile README costs about as much as any other.
//
// Import rule (docs/ARCHITECTURE.md §1, enforced by deps_test.go): readme imports docidx, goldmark and the
// standard library only — never os or net/http, and no other docidx package. It works on bytes
// that its callers (registries, crawl) have already read.
package readme
