package serve

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/docidx/docidx"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt names (DESIGN.md §6).
const (
	PromptUsePackage     = "use_package"
	PromptExplainSymbol  = "explain_symbol"
	PromptUpgradePackage = "upgrade_package"
)

// promptArg describes one prompt argument.
func promptArg(name, title, desc string, required bool) *mcp.PromptArgument {
	return &mcp.PromptArgument{Name: name, Title: title, Description: desc, Required: required}
}

var (
	argEcosystem = promptArg("ecosystem", "Ecosystem", "golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)", true)
	argPackage   = promptArg("package", "Package", "indexed package name or Go module path", true)
	argVersion   = promptArg("version", "Version", "indexed version; default the latest indexed version", false)
)

// prompts are the prompts docidx offers, each with its handler.
func (s *Server) prompts() []struct {
	p *mcp.Prompt
	h func(context.Context, map[string]string) (*mcp.GetPromptResult, error)
} {
	type entry = struct {
		p *mcp.Prompt
		h func(context.Context, map[string]string) (*mcp.GetPromptResult, error)
	}
	return []entry{
		{&mcp.Prompt{
			Name: PromptUsePackage, Title: "Use a package for a task",
			Description: "Start a task with an indexed package: embeds its overview (README summary, metadata) and API outline from the snapshot as resources, then asks for a solution that uses them.",
			Arguments: []*mcp.PromptArgument{argEcosystem, argPackage, argVersion,
				promptArg("task", "Task", "what you want to do with the package, e.g. 'retry HTTP calls with backoff'", true)},
		}, s.usePackagePrompt},
		{&mcp.Prompt{
			Name: PromptExplainSymbol, Title: "Explain an API symbol",
			Description: "Explain one API symbol of an indexed package — what it does, how to call it, pitfalls — from its signature, doc comment and examples, embedded as a resource.",
			Arguments: []*mcp.PromptArgument{argEcosystem, argPackage,
				promptArg("symbol", "Symbol", "the symbol's name, e.g. 'Group.Go', 'errgroup.Group.Go' or 'Router'", true), argVersion},
		}, s.explainSymbolPrompt},
		{&mcp.Prompt{
			Name: PromptUpgradePackage, Title: "Upgrade a package",
			Description: "Plan an upgrade between two indexed versions of a package: the API difference (added, removed and changed signatures) computed from the snapshot, and what to change in code that uses it.",
			Arguments: []*mcp.PromptArgument{argEcosystem, argPackage,
				promptArg("from", "From version", "the indexed version in use now", true),
				promptArg("to", "To version", "the indexed version to move to; default the latest indexed version", false)},
		}, s.upgradePackagePrompt},
	}
}

// addPrompts registers every prompt. Each handler checks the required arguments first: missing
// ones are a -32602 error naming them in data.missing.
func (s *Server) addPrompts() {
	for _, e := range s.prompts() {
		p, h := e.p, e.h
		s.mcp.AddPrompt(p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			args := map[string]string{}
			if req.Params != nil {
				for k, v := range req.Params.Arguments {
					args[k] = strings.TrimSpace(v)
				}
			}
			var missing []string
			for _, a := range p.Arguments {
				if a.Required && args[a.Name] == "" {
					missing = append(missing, a.Name)
				}
			}
			if len(missing) > 0 {
				return nil, invalidParams(map[string]any{"missing": missing}, "prompt %s: missing required arguments: %s", p.Name, strings.Join(missing, ", "))
			}
			return h(ctx, args)
		})
	}
}

// promptPackage resolves the ecosystem, package and version arguments of a prompt. An unknown
// package is -32602 with the did-you-mean of the tools.
func (s *Server) promptPackage(args map[string]string, versionArg string) (*docidx.Package, error) {
	eco, err := parseEcosystem(args["ecosystem"], true)
	if err != nil {
		return nil, err
	}
	name, version := splitVersion(args["package"], args[versionArg])
	pkg, _, err := s.resolvePackage(eco, name, version)
	if err != nil {
		var te *toolError
		if errors.As(err, &te) {
			return nil, invalidParams(map[string]string{"argument": "package"}, "%s", te.msg)
		}
		return nil, err
	}
	return pkg, nil
}

// embed returns the resource uri as prompt content, its text cut to the server's default
// answer budget at a line boundary with a note on where to read the rest.
func (s *Server) embed(uri string) (*mcp.PromptMessage, error) {
	c, err := s.resourceContents(uri)
	if err != nil {
		var nf *notFoundError
		if errors.As(err, &nf) {
			return nil, invalidParams(map[string]string{"uri": uri}, "%s", nf.why)
		}
		return nil, err
	}
	if budget := s.budget(0); len(c.Text) > budget {
		n := lineCut(c.Text, budget)
		c.Text = c.Text[:n] + fmt.Sprintf("\n---\n(cut at %d of %d bytes; read %s for the rest)\n", n, len(c.Text), uri)
	}
	return &mcp.PromptMessage{Role: "user", Content: &mcp.EmbeddedResource{Resource: c}}, nil
}

func text(t string) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: t}}
}

func (s *Server) usePackagePrompt(ctx context.Context, args map[string]string) (*mcp.GetPromptResult, error) {
	pkg, err := s.promptPackage(args, "version")
	if err != nil {
		return nil, err
	}
	ref := pkg.Ref()
	reportProgress(ctx, "embedding the overview and API of "+ref.String())
	overview, err := s.embed(ref.PageURI(docidx.PageOverview))
	if err != nil {
		return nil, err
	}
	api, err := s.embed(ref.PageURI(docidx.PageAPI))
	if err != nil {
		return nil, err
	}
	tool := describeToolFor(pkg.Ecosystem)
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Use %s %s: %s", pkg.Name, pkg.Version, args["task"]),
		Messages: []*mcp.PromptMessage{
			text(fmt.Sprintf("I want to use the %s package %s, version %s, for this task:\n\n%s\n\n"+
				"Its overview (README summary, metadata, documents) and API outline from the offline docidx snapshot follow. "+
				"Base the solution on them and on the exact signatures shown; when you need more, call %s (one symbol in full), "+
				"get_package_doc (the README or a docs/ file) or search_package_docs, and say so when the documentation does not cover something.",
				pkg.Ecosystem, pkg.Name, pkg.Version, args["task"], tool)),
			overview,
			api,
		},
	}, nil
}

func (s *Server) explainSymbolPrompt(ctx context.Context, args map[string]string) (*mcp.GetPromptResult, error) {
	pkg, err := s.promptPackage(args, "version")
	if err != nil {
		return nil, err
	}
	ref := pkg.Ref()
	name := args["symbol"]
	if _, err := s.reader().LookupSymbol(ref, name); err != nil {
		if !errors.Is(err, docidx.ErrNotFound) {
			return nil, s.internalError("look up symbol", err)
		}
		_, _, err := s.symbolDetails(ref, "", name) // the did-you-mean message
		msg := fmt.Sprintf("symbol %s not found in %s@%s", docidx.Quote(name), ref.Name, ref.Version)
		var te *toolError
		if errors.As(err, &te) {
			msg = te.msg
		}
		return nil, invalidParams(map[string]string{"argument": "symbol"}, "%s", msg)
	}
	sym, err := s.embed(ref.PageURI(docidx.PageSymbolPrefix + name))
	if err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Explain %s in %s %s", name, pkg.Name, pkg.Version),
		Messages: []*mcp.PromptMessage{
			text(fmt.Sprintf("Explain %s from the %s package %s, version %s: what it does, how to call it (with a short example), "+
				"what it returns and how it fails, and any pitfalls or deprecation. Its declaration, doc comment and examples "+
				"from the offline docidx snapshot follow; rely on them rather than on memory of other versions.",
				name, pkg.Ecosystem, pkg.Name, pkg.Version)),
			sym,
		},
	}, nil
}

func (s *Server) upgradePackagePrompt(ctx context.Context, args map[string]string) (*mcp.GetPromptResult, error) {
	from, err := s.promptPackage(args, "from")
	if err != nil {
		return nil, err
	}
	toArgs := map[string]string{"ecosystem": args["ecosystem"], "package": from.Name, "to": args["to"]}
	to, err := s.promptPackage(toArgs, "to")
	if err != nil {
		return nil, err
	}
	reportProgress(ctx, fmt.Sprintf("comparing the API of %s %s and %s", from.Name, from.Version, to.Version))
	r := s.reader()
	a, err := r.Symbols(from.Ref())
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, s.internalError("read symbols", err)
	}
	b, err := r.Symbols(to.Ref())
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, s.internalError("read symbols", err)
	}
	d := diffAPI(a, b)
	diff := renderDiff(from, to, d)
	if budget := s.budget(0) * 2; len(diff) > budget {
		n := lineCut(diff, budget)
		diff = diff[:n] + fmt.Sprintf("\n(cut at %d of %d bytes; compare %s with %s for the rest)\n", n, len(diff),
			from.Ref().PageURI(docidx.PageAPI), to.Ref().PageURI(docidx.PageAPI))
	}
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Upgrade %s from %s to %s: %d added, %d removed, %d changed", from.Name, from.Version, to.Version,
			len(d.Added), len(d.Removed), len(d.Changed)),
		Messages: []*mcp.PromptMessage{
			text(fmt.Sprintf("Help me upgrade the %s package %s from %s to %s. The API difference between the two versions, "+
				"computed from the offline docidx snapshot, follows. Say which changes break callers (removed symbols, changed "+
				"signatures, new deprecations), how to adapt code for each, and which additions are worth adopting.\n\n%s",
				from.Ecosystem, from.Name, from.Version, to.Version, diff)),
		},
	}, nil
}

// apiDiff is the difference between the APIs of two versions, symbols matched by qualified name.
type apiDiff struct {
	Added, Removed []*docidx.Symbol
	Changed        []symbolChange
}

// symbolChange is one symbol whose signature or deprecation differs between two versions.
type symbolChange struct{ Old, New *docidx.Symbol }

// diffAPI compares the symbols of two versions (package clauses excluded), each list in
// qualified-name order.
func diffAPI(from, to []docidx.Symbol) apiDiff {
	index := func(syms []docidx.Symbol) map[string]*docidx.Symbol {
		m := make(map[string]*docidx.Symbol, len(syms))
		for i := range syms {
			if syms[i].Kind != docidx.KindPackage {
				m[syms[i].QualifiedName] = &syms[i]
			}
		}
		return m
	}
	a, b := index(from), index(to)
	var d apiDiff
	for name, old := range a {
		switch nu, ok := b[name]; {
		case !ok:
			d.Removed = append(d.Removed, old)
		case strings.TrimSpace(old.Signature) != strings.TrimSpace(nu.Signature) || old.Deprecated != nu.Deprecated || old.Kind != nu.Kind:
			d.Changed = append(d.Changed, symbolChange{old, nu})
		}
	}
	for name, nu := range b {
		if _, ok := a[name]; !ok {
			d.Added = append(d.Added, nu)
		}
	}
	byName := func(l []*docidx.Symbol) {
		sort.Slice(l, func(i, j int) bool { return l[i].QualifiedName < l[j].QualifiedName })
	}
	byName(d.Added)
	byName(d.Removed)
	sort.Slice(d.Changed, func(i, j int) bool { return d.Changed[i].New.QualifiedName < d.Changed[j].New.QualifiedName })
	return d
}

// renderDiff renders an API difference as markdown.
func renderDiff(from, to *docidx.Package, d apiDiff) string {
	lang := codeLang(from.Ecosystem)
	var b strings.Builder
	fmt.Fprintf(&b, "## API changes in %s from %s to %s\n\n", from.Name, from.Version, to.Version)
	if len(d.Added)+len(d.Removed)+len(d.Changed) == 0 {
		b.WriteString("No API differences: the same symbols with the same signatures.\n")
		return b.String()
	}
	if len(d.Removed) > 0 {
		fmt.Fprintf(&b, "### Removed (%d)\n\n", len(d.Removed))
		for _, s := range d.Removed {
			fmt.Fprintf(&b, "- %s %s\n", s.Kind, inlineCode(compactSignature(orName(s))))
		}
		b.WriteByte('\n')
	}
	if len(d.Changed) > 0 {
		fmt.Fprintf(&b, "### Changed (%d)\n\n", len(d.Changed))
		for _, c := range d.Changed {
			fmt.Fprintf(&b, "%s (%s)", c.New.QualifiedName, c.New.Kind)
			switch {
			case c.New.Deprecated && !c.Old.Deprecated:
				b.WriteString(" — now deprecated")
			case c.Old.Deprecated && !c.New.Deprecated:
				b.WriteString(" — no longer deprecated")
			}
			b.WriteString(":\n\n")
			if strings.TrimSpace(c.Old.Signature) != strings.TrimSpace(c.New.Signature) {
				b.WriteString(fence(lang, "// "+from.Version+"\n"+strings.TrimSpace(orName(c.Old))+"\n// "+to.Version+"\n"+strings.TrimSpace(orName(c.New))))
				b.WriteByte('\n')
			}
		}
	}
	if len(d.Added) > 0 {
		fmt.Fprintf(&b, "### Added (%d)\n\n", len(d.Added))
		for _, s := range d.Added {
			fmt.Fprintf(&b, "- %s %s", s.Kind, inlineCode(compactSignature(orName(s))))
			if syn := firstSentence(s.Doc); syn != "" {
				fmt.Fprintf(&b, " — %s", syn)
			}
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// orName is a symbol's signature, or its qualified name when it has none.
func orName(s *docidx.Symbol) string {
	if strings.TrimSpace(s.Signature) == "" {
		return s.QualifiedName
	}
	return s.Signature
}

// describeToolFor is the describe tool of an ecosystem.
func describeToolFor(eco docidx.Ecosystem) string {
	for _, d := range describeTools {
		if d.eco == eco {
			return d.name
		}
	}
	return ToolDescribeGo
}
