package answer

// list.go is List (MCP's list_packages): the indexed packages and their versions, paged.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// ListInput is the arguments of list_packages.
type ListInput struct {
	Ecosystem string `json:"ecosystem,omitempty" jsonschema:"only this ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"`
	Prefix    string `json:"prefix,omitempty" jsonschema:"only packages whose name starts with this, e.g. 'github.com/spf13/' or '@types/'"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same listing, to continue it"`
	Limit     int    `json:"limit,omitempty" jsonschema:"packages per page, 1 to 200 (default 50)"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); packages beyond it continue with nextCursor"`
}

// ListOutput is the structured result of list_packages.
type ListOutput struct {
	SchemaVersion int              `json:"schemaVersion" jsonschema:"version of this document's shape (docs/json-changelog.md); raised when a field is renamed, removed or changes type"`
	Packages      []PackageListing `json:"packages" jsonschema:"packages in (ecosystem, name) order"`
	NextCursor    string           `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// PackageListing is one indexed package and its versions.
type PackageListing struct {
	Ecosystem   string   `json:"ecosystem" jsonschema:"purl type: golang, npm, pypi, cargo or swift"`
	Package     string   `json:"package" jsonschema:"package name or Go module path"`
	Latest      string   `json:"latest" jsonschema:"newest indexed version"`
	Versions    []string `json:"versions" jsonschema:"indexed versions, oldest first"`
	Description string   `json:"description,omitempty" jsonschema:"one-line description of the latest version"`
}

// List answers list_packages: the indexed packages with their versions, by ecosystem and name
// prefix, in name order, paged within in.MaxTokens and in.Limit. Errors are as Search's.
func (s *Service) List(ctx context.Context, in ListInput) (string, ListOutput, error) {
	out := ListOutput{SchemaVersion: docidx.SchemaVersion, Packages: []PackageListing{}}
	eco, err := parseEcosystem(in.Ecosystem, false)
	if err != nil {
		return "", out, err
	}
	prefix := strings.TrimSpace(in.Prefix)
	hash := RequestHash(IssuerList, string(eco), prefix)
	c, err := s.DecodeCursor(in.Cursor, IssuerList, hash)
	if err != nil {
		return "", out, err
	}
	if in.Cursor != "" && c.Next == "" {
		return "", out, s.badCursor("not a %s cursor", s.opts.Words.name(IssuerList))
	}
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultListLimit
	}
	limit = min(limit, MaxListLimit)
	page, next, err := s.reader().List(eco, prefix, c.Next, limit)
	if err != nil {
		if errors.Is(err, index.ErrBadCursor) {
			return "", out, s.badCursor("not issued by this snapshot; omit %s to start over", s.opts.Words.Cursor)
		}
		return "", out, internalError("list packages", err)
	}
	// Cut at a package boundary within the budget; the first package always goes in. The
	// index's cursor for a shorter page comes from listing that many again.
	budget := s.Budget(in.MaxTokens)
	var t strings.Builder
	for i, l := range page {
		vs := l.Versions
		if vs == nil {
			vs = []string{}
		}
		var e strings.Builder
		fmt.Fprintf(&e, "- %s:%s — latest %s", l.Ecosystem, l.Name, l.Latest)
		if len(vs) > 1 {
			fmt.Fprintf(&e, " (versions %s)", strings.Join(vs, ", "))
		}
		if l.Description != "" {
			fmt.Fprintf(&e, " — %s", Clip(index.CollapseSpace(l.Description), 200))
		}
		e.WriteByte('\n')
		if i > 0 && t.Len()+e.Len() > budget {
			if _, next, err = s.reader().List(eco, prefix, c.Next, i); err != nil {
				return "", out, internalError("list packages", err)
			}
			page = page[:i]
			break
		}
		t.WriteString(e.String())
		out.Packages = append(out.Packages, PackageListing{
			Ecosystem: string(l.Ecosystem), Package: l.Name, Latest: l.Latest, Versions: vs, Description: l.Description,
		})
	}
	if len(page) == 0 {
		t.WriteString("No packages")
		if eco != "" || prefix != "" {
			t.WriteString(" match")
		} else {
			t.WriteString(" are indexed yet; run docidx crawl")
		}
		t.WriteString(".\n")
	}
	if next != "" {
		out.NextCursor = Cursor{Tool: IssuerList, Hash: hash, Next: next}.Encode()
		t.WriteString(s.opts.Words.continuation(out.NextCursor))
	}
	return t.String(), out, nil
}
