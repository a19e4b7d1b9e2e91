package answer

// snapshot.go is what the snapshot as a whole holds: the docidx://snapshot page and the counts
// of docidx stats.

import (
	"encoding/json"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// URI templates (RFC 6570) of the pages of a package version, as docidx://snapshot lists them
// and MCP's resource templates give them. The package name and the page path use reserved
// expansion ({+…}) because they contain slashes.
const (
	TemplateOverview = "docidx://{ecosystem}/{+package}@{version}/overview"
	TemplateReadme   = "docidx://{ecosystem}/{+package}@{version}/readme"
	TemplateAPI      = "docidx://{ecosystem}/{+package}@{version}/api"
	TemplateDocument = "docidx://{ecosystem}/{+package}@{version}/doc/{+path}"
	TemplateSymbol   = "docidx://{ecosystem}/{+package}@{version}/symbol/{+name}"
)

// SnapshotInfo is the content of the docidx://snapshot resource.
type SnapshotInfo struct {
	Format        int                     `json:"format"`
	DocidxVersion string                  `json:"docidxVersion"`
	Created       string                  `json:"created,omitempty"`
	Sources       []string                `json:"sources"`
	Counts        []index.EcosystemCounts `json:"counts"`
	Totals        index.EcosystemCounts   `json:"totals"`
	Templates     []string                `json:"uriTemplates"`
}

// snapshotJSON renders the docidx://snapshot page.
func (s *Service) snapshotJSON() (string, error) {
	r := s.reader()
	info := SnapshotInfo{Sources: []string{}, Counts: []index.EcosystemCounts{}}
	if m := r.Manifest(); m != nil {
		info.Format, info.DocidxVersion = m.Format, m.DocidxVersion
		if !m.Created.IsZero() {
			info.Created = m.Created.UTC().Format(time.RFC3339)
		}
		if m.Sources != nil {
			info.Sources = m.Sources
		}
	}
	if c := r.Counts(); c != nil {
		info.Counts = c
	}
	info.Totals = total(info.Counts)
	info.Templates = []string{TemplateOverview, TemplateReadme, TemplateAPI, TemplateDocument, TemplateSymbol}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return "", internalError("render snapshot", err)
	}
	return string(b) + "\n", nil
}

// total adds counts up; its Ecosystem is empty.
func total(counts []index.EcosystemCounts) index.EcosystemCounts {
	var t index.EcosystemCounts
	for _, c := range counts {
		t.Packages += c.Packages
		t.Versions += c.Versions
		t.Documents += c.Documents
		t.Sections += c.Sections
		t.Symbols += c.Symbols
	}
	return t
}

// Stats is what docidx stats tells of a snapshot, in the stable shape of its --json.
type Stats struct {
	SchemaVersion int                     `json:"schemaVersion" jsonschema:"version of this document's shape (docs/json-changelog.md); raised when a field is renamed, removed or changes type"`
	Ecosystems    []index.EcosystemCounts `json:"ecosystems"`
	Total         index.EcosystemCounts   `json:"total"` // Ecosystem "all"
	Format        int                     `json:"format"`
	Docidx        string                  `json:"docidxVersion"`
	Created       time.Time               `json:"created"`
	Snapshot      string                  `json:"snapshot"`  // directory opened
	SizeBytes     int64                   `json:"sizeBytes"` // on disk
	Sources       []string                `json:"sources"`
	Segments      []index.Segment         `json:"segments"` // see docidx compact
}

// Stats counts what the snapshot holds, per ecosystem and in all, with its manifest's format,
// creator, creation time, sources and segments, its directory and its size on disk.
func (s *Service) Stats() Stats {
	r := s.reader()
	m := r.Manifest()
	out := Stats{SchemaVersion: docidx.SchemaVersion, Ecosystems: r.Counts(), Format: m.Format, Docidx: m.DocidxVersion, Created: m.Created, Snapshot: r.Dir(), Sources: m.Sources, Segments: m.Segments}
	if out.Segments == nil {
		out.Segments = []index.Segment{}
	}
	if out.Ecosystems == nil {
		out.Ecosystems = []index.EcosystemCounts{}
	}
	if out.Sources == nil {
		out.Sources = []string{}
	}
	out.Total = total(out.Ecosystems)
	out.Total.Ecosystem = "all"
	out.SizeBytes = r.Size()
	return out
}
