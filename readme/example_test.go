package readme_test

import (
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
)

func ExampleParse() {
	src := []byte("# widget\n\n" +
		"[![CI](https://github.com/o/widget/actions/workflows/ci.yml/badge.svg)](https://github.com/o/widget/actions)\n\n" +
		"widget draws widgets. It is fast.\n\n" +
		"## Install\n\n```sh\ngo get example.com/widget\n```\n\n" +
		"## Usage\n\n### Flags\n\nUse `-v` for more output.\n\n" +
		"## Contributing\n\nSend patches.\n\n" +
		"## License\n\nMIT\n")
	doc := readme.Parse("README.md", docidx.DocReadme, src)
	fmt.Println("title:", doc.Title)
	fmt.Println("summary:", doc.Summary)
	for _, s := range doc.Sections {
		fmt.Printf("%s #%s %q", strings.Join(s.Heading, " > "), s.Anchor, s.Plain)
		for _, c := range s.Code {
			fmt.Printf(" [%s: %s]", c.Lang, c.Code)
		}
		fmt.Println()
	}
	// Output:
	// title: widget
	// summary: widget draws widgets. It is fast.
	// widget #widget "widget draws widgets. It is fast."
	// widget > Install #install "" [sh: go get example.com/widget]
	// widget > Usage > Flags #flags "Use -v for more output."
}

func ExampleSlug() {
	fmt.Println(readme.Slug("Getting Started!"))
	fmt.Println(readme.Slug("`cssesc(value, options)`"))
	// Output:
	// getting-started
	// cssescvalue-options
}

func ExampleKeep() {
	fmt.Println(readme.Keep([]string{"Usage", "Flags"}, "", ""))
	fmt.Println(readme.Keep([]string{"Contributing", "Development setup"}, "", ""))
	fmt.Println(readme.Keep([]string{"Table of Contents", "Install"}, "", ""))
	// Output:
	// true
	// false
	// true
}

func ExampleSummary() {
	fmt.Println(readme.Summary("A parser.\nIt is   fast."))
	// Output:
	// A parser. It is fast.
}
