package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// findPackage finds the indexed package version ref names. For Go, ref.Name may be a package
// import path inside an indexed module (golang.org/x/sync/errgroup in module golang.org/x/sync):
// the longest indexed module path that prefixes it wins, and importPath is returned to narrow the
// API to that package.
func findPackage(r *index.Reader, ref docidx.Ref) (pkg *docidx.Package, importPath string, err error) {
	pkg, err = r.Package(ref)
	if err == nil {
		return pkg, "", nil
	}
	if !errors.Is(err, docidx.ErrNotFound) {
		return nil, "", err
	}
	if ref.Ecosystem == docidx.Go {
		for p := ref.Name; strings.Contains(p, "/"); {
			p = p[:strings.LastIndexByte(p, '/')]
			if pkg, err := r.Package(docidx.Ref{Ecosystem: ref.Ecosystem, Name: p, Version: ref.Version}); err == nil {
				return pkg, ref.Name, nil
			}
		}
	}
	var names []string
	for _, s := range r.Suggest(ref.Ecosystem, ref.Name, 5) {
		names = append(names, s.String())
	}
	msg := fmt.Sprintf("%s: %v", ref, errNoPackage)
	if len(names) > 0 {
		msg += "; did you mean " + strings.Join(names, ", ") + "?"
	}
	return nil, "", fmt.Errorf("%s: %w", msg, docidx.ErrNotFound)
}

// showOutput is the stable shape of `docidx show --json`.
type showOutput struct {
	Package   *docidx.Package `json:"package"`
	PURL      string          `json:"purl"`
	Summary   string          `json:"summary,omitempty"`
	Documents []string        `json:"documents"`
	Symbols   []docidx.Symbol `json:"symbols"`
	Versions  []string        `json:"indexedVersions"`
	Scope     string          `json:"scope,omitempty"` // the Go package import path the API is narrowed to
}

func show(c *cli.Context, r *index.Reader, ref docidx.Ref, symbol string) error {
	pkg, importPath, err := findPackage(r, ref)
	if err != nil {
		return failf("%v", err)
	}
	pref := pkg.Ref()
	out := showOutput{Package: pkg, PURL: pref.PURL(), Scope: importPath, Documents: []string{}, Symbols: []docidx.Symbol{}}
	out.Versions, _ = r.Versions(pkg.Ecosystem, pkg.Name)
	docs, err := r.Documents(pref)
	if err != nil {
		return failf("%v", err)
	}
	for _, d := range docs {
		out.Documents = append(out.Documents, d.Path)
		if out.Summary == "" && d.Kind == docidx.DocReadme && (importPath == "" || d.Path == "README.md") {
			out.Summary = d.Summary
		}
	}
	if symbol != "" {
		syms, err := r.LookupSymbol(pref, symbol)
		if err != nil {
			return failf("%s: symbol %q: %v", pref, symbol, err)
		}
		out.Symbols = inScope(syms, importPath)
		if len(out.Symbols) == 0 {
			out.Symbols = syms
		}
	} else {
		syms, err := r.Symbols(pref)
		if err != nil {
			return failf("%v", err)
		}
		out.Symbols = inScope(syms, importPath)
		for i := range out.Symbols { // an outline: signatures only
			out.Symbols[i].Doc = firstSentence(out.Symbols[i].Doc)
			out.Symbols[i].Examples = nil
		}
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	printShow(c.App.Writer, out, symbol != "")
	return nil
}

func inScope(syms []docidx.Symbol, importPath string) []docidx.Symbol {
	if importPath == "" {
		return syms
	}
	var out []docidx.Symbol
	for _, s := range syms {
		if s.Package == importPath {
			out = append(out, s)
		}
	}
	return out
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func printShow(w io.Writer, o showOutput, oneSymbol bool) {
	p := o.Package
	name := p.Name
	if o.Scope != "" {
		name = o.Scope + " (module " + p.Name + ")"
	}
	fmt.Fprintf(w, "%s %s  %s\n", name, p.Version, o.PURL)
	for _, kv := range [][2]string{
		{"description", p.Description}, {"license", p.License}, {"homepage", p.Homepage},
		{"repository", p.Repository}, {"deprecated", p.Deprecated}, {"indexed", strings.Join(o.Versions, " ")},
	} {
		if kv[1] != "" {
			fmt.Fprintf(w, "%-12s %s\n", kv[0], kv[1])
		}
	}
	if !p.Published.IsZero() {
		fmt.Fprintf(w, "%-12s %s\n", "published", p.Published.Format("2006-01-02"))
	}
	if oneSymbol {
		for _, s := range o.Symbols {
			fmt.Fprintf(w, "\n%s  (%s, %s:%d)\n\n", s.Signature, s.Kind, s.File, s.Line)
			if s.Doc != "" {
				fmt.Fprintln(w, indent(s.Doc))
			}
			for _, ex := range s.Examples {
				fmt.Fprintf(w, "\n  Example %s:\n%s\n", ex.Name, indent(ex.Code))
				if ex.Output != "" {
					fmt.Fprintf(w, "  Output:\n%s\n", indent(ex.Output))
				}
			}
		}
		return
	}
	if o.Summary != "" {
		fmt.Fprintf(w, "\n%s\n", o.Summary)
	}
	if len(o.Documents) > 0 {
		fmt.Fprintf(w, "\ndocuments: %s\n", strings.Join(o.Documents, ", "))
	}
	if len(o.Symbols) > 0 {
		fmt.Fprintf(w, "\nAPI (%d symbols):\n", len(o.Symbols))
		for _, s := range o.Symbols {
			fmt.Fprintf(w, "  %s\n", oneLine(s.Signature, 140))
		}
	}
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}
