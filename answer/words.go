package answer

import (
	"fmt"

	"github.com/docidx/docidx"
)

// Words are the words an answer uses for what its reader does next — read a hit, page on, look
// at one symbol — chosen by the caller: serve gives MCP tool and argument names
// ("read_package_doc with its uri", "cursor"), the CLI its commands and flags ("docidx read
// URI", "--cursor"). Each is a phrase that answers put into a sentence, without a final period.
type Words struct {
	// Read is how to read a URI a search hit gives: "read_package_doc with its uri".
	Read string
	// ReadDocument is how to read one of the documents an outline lists, by path:
	// "get_package_doc path=…".
	ReadDocument string
	// DescribeSymbol is how to see one symbol of an outlined package in full:
	// "describe one with symbol=…".
	DescribeSymbol string
	// Outline says how to see a package's API outline instead of a symbol not found:
	// "describe the package without symbol to see its API outline".
	Outline string
	// API says how to see the API of a package without documents: "describe it for its API
	// instead".
	API string
	// List is how to see what is indexed: "list_packages (docidx list)".
	List string
	// PassURI is the advice for a URI that is not a docidx:// URI: "pass a uri exactly as
	// search_package_docs or describe_* returned it".
	PassURI string
	// Cursor is the name of the argument that continues a page: "cursor".
	Cursor string
	// NextCursor is where the cursor comes from: "the nextCursor of the previous page".
	NextCursor string
	// Continue ends a page that goes on, followed by the cursor in quotes: "call again with
	// cursor".
	Continue string
	// Names are the callers' names of the answers whose cursors an error names ("issued by
	// …"), by cursor issuer (the Issuer constants); an issuer without one is named as it is.
	Names map[string]string
}

// Cursor issuers: the name each kind of paged answer signs its cursors with (see Cursor). They
// are the MCP tool names that first issued them, kept so that cursors stay as they were.
const (
	IssuerSearch    = "search_package_docs"
	IssuerRead      = "read_package_doc"
	IssuerList      = "list_packages"
	IssuerGetDoc    = "get_package_doc"
	IssuerGetNPMDoc = "get_npm_package_doc"
	IssuerPages     = "resources/list" // ListPages
)

// IssuerDescribe is the cursor issuer of Describe for ecosystem eco:
// "describe_<go|npm|python|rust|swift>_package".
func IssuerDescribe(eco docidx.Ecosystem) string {
	switch eco {
	case docidx.NPM:
		return "describe_npm_package"
	case docidx.PyPI:
		return "describe_python_package"
	case docidx.Cargo:
		return "describe_rust_package"
	case docidx.Swift:
		return "describe_swift_package"
	}
	return "describe_go_package"
}

// name is the caller's name of the answers of issuer.
func (w *Words) name(issuer string) string {
	if n, ok := w.Names[issuer]; ok {
		return n
	}
	return issuer
}

// continuation is the line that ends a text page when more follows: "---", then "More: add
// --cursor "…"." in the CLI's words. An assistant pays for it on every page, so it says only
// what to do.
func (w *Words) continuation(next string) string {
	return "\n---\n" + w.more(next) + "\n"
}

// more is the sentence that says how to continue a page with cursor next.
func (w *Words) more(next string) string {
	return fmt.Sprintf("More: %s %q.", w.Continue, next)
}
