package serve

import (
	"context"
	"slices"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCompletions is the most values one completion/complete answer carries (the MCP limit).
const maxCompletions = 100

// complete answers completion/complete for the prompts' arguments and the resource templates'
// variables, from the store: ecosystems, package names by prefix (within the ecosystem already
// chosen), versions of the chosen package (newest first), document paths and symbol names of
// the chosen version. A reference to an unknown prompt or template, or an argument docidx has
// nothing to suggest for, gets an empty list rather than an error.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	p := req.Params
	if p == nil || p.Ref == nil {
		return res, nil
	}
	known := false
	switch p.Ref.Type {
	case "ref/prompt":
		for _, e := range s.prompts() {
			if e.p.Name == p.Ref.Name {
				known = true
			}
		}
	case "ref/resource":
		for _, t := range resourceTemplates {
			if t.URITemplate == p.Ref.URI {
				known = true
			}
		}
	}
	if !known {
		return res, nil
	}
	args := map[string]string{}
	if p.Context != nil {
		for k, v := range p.Context.Arguments {
			args[k] = strings.TrimSpace(v)
		}
	}
	values, total := s.completeArgument(p.Argument.Name, p.Argument.Value, args)
	if len(values) > maxCompletions {
		values = values[:maxCompletions]
	}
	res.Completion.Values = append(res.Completion.Values, values...)
	if total > len(values) {
		res.Completion.Total, res.Completion.HasMore = total, true
	}
	return res, nil
}

// completeArgument returns the values for one argument starting with prefix, and how many
// there are in all (more than returned when the list was cut).
func (s *Server) completeArgument(name, prefix string, args map[string]string) ([]string, int) {
	r := s.reader()
	eco, _ := docidx.ParseEcosystem(args["ecosystem"]) // "" (any ecosystem) when absent or unknown
	switch name {
	case "ecosystem":
		var out []string
		for _, c := range r.Counts() {
			if strings.HasPrefix(string(c.Ecosystem), strings.ToLower(prefix)) {
				out = append(out, string(c.Ecosystem))
			}
		}
		return out, len(out)
	case "package":
		page, next, err := r.List(eco, prefix, "", maxCompletions)
		if err != nil {
			return nil, 0
		}
		var out []string
		for _, l := range page {
			if !slices.Contains(out, l.Name) {
				out = append(out, l.Name)
			}
		}
		total := len(out)
		if next != "" {
			total++ // at least one more
		}
		return out, total
	}
	// The rest need the package.
	pkgName, _ := answer.SplitVersion(args["package"], "")
	if pkgName == "" {
		return nil, 0
	}
	ecos := docidx.Ecosystems
	if eco != "" {
		ecos = []docidx.Ecosystem{eco}
	}
	switch name {
	case "version", "from", "to":
		var out []string
		for _, e := range ecos {
			vs, err := r.Versions(e, pkgName)
			if err != nil {
				continue
			}
			for i := len(vs) - 1; i >= 0; i-- { // newest first
				if strings.HasPrefix(vs[i], prefix) && !slices.Contains(out, vs[i]) {
					out = append(out, vs[i])
				}
			}
			if len(out) > 0 && strings.HasPrefix("latest", prefix) && name != "from" {
				out = append(out, "latest")
			}
		}
		return out, len(out)
	case "path", "symbol", "name":
		var ref docidx.Ref
		for _, e := range ecos {
			version := args["version"]
			if version == "" {
				version = args["to"]
			}
			if pkg, err := r.Package(docidx.Ref{Ecosystem: e, Name: pkgName, Version: version}); err == nil {
				ref = pkg.Ref()
				break
			}
		}
		if ref.Name == "" {
			return nil, 0
		}
		var out []string
		if name == "path" {
			docs, err := s.answers.Documents(ref)
			if err != nil {
				return nil, 0
			}
			for i := range docs {
				if strings.HasPrefix(docs[i].Path, prefix) {
					out = append(out, docs[i].Path)
				}
			}
			return out, len(out)
		}
		syms, err := r.Symbols(ref)
		if err != nil {
			return nil, 0
		}
		lp := strings.ToLower(prefix)
		var exact, other []string
		for i := range syms {
			sym := &syms[i]
			if sym.Kind == docidx.KindPackage {
				continue
			}
			switch {
			case strings.HasPrefix(sym.QualifiedName, prefix), strings.HasPrefix(sym.Key(), prefix):
				exact = append(exact, sym.QualifiedName)
			case strings.HasPrefix(strings.ToLower(sym.Key()), lp), strings.HasPrefix(strings.ToLower(sym.Name), lp):
				other = append(other, sym.QualifiedName)
			}
		}
		out = append(exact, other...)
		return out, len(out)
	}
	return nil, 0
}
