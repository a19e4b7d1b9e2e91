package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt names (docs/ARCHITECTURE.md §6).
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
	pkg, err := s.answers.ResolvePackage(args["ecosystem"], args["package"], args[versionArg])
	if err != nil {
		if isNotFound(err) {
			return nil, invalidParams(map[string]string{"argument": "package"}, "%s", err.Error())
		}
		return nil, s.wireError(err)
	}
	return pkg, nil
}

// embed returns the resource uri as prompt content, its text cut to the server's default
// answer budget at a line boundary with a note on where to read the rest.
func (s *Server) embed(uri string) (*mcp.PromptMessage, error) {
	c, err := s.resourceContents(uri)
	if err != nil {
		if isNotFound(err) {
			return nil, invalidParams(map[string]string{"uri": uri}, "%s", err.Error())
		}
		return nil, s.wireError(err)
	}
	if budget := s.answers.Budget(0); len(c.Text) > budget {
		n := answer.LineCut(c.Text, budget)
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
		// The did-you-mean message of describe.
		_, _, err := s.answers.Describe(ctx, ref.Ecosystem, answer.DescribeInput{Package: ref.Name, Version: ref.Version, Symbol: name})
		msg := fmt.Sprintf("symbol %s not found in %s@%s", docidx.Quote(name), ref.Name, ref.Version)
		if isNotFound(err) {
			msg = err.Error()
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
	d, err := s.answers.Diff(from.Ecosystem, from.Name, from.Version, to.Version)
	if err != nil {
		return nil, s.wireError(err)
	}
	diff := d.Markdown()
	if budget := s.answers.Budget(0) * 2; len(diff) > budget {
		n := answer.LineCut(diff, budget)
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

// describeToolFor is the describe tool of an ecosystem.
func describeToolFor(eco docidx.Ecosystem) string {
	for _, d := range describeTools {
		if d.eco == eco {
			return d.name
		}
	}
	return ToolDescribeGo
}
