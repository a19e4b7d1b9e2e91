package index

// stub.go is replaced by the real implementation.

import (
	"context"
	"errors"

	"github.com/docidx/docidx"
)

var errTODO = errors.New("index: not implemented")

type writer struct{}

func create(dir string) (*Writer, error)                               { return nil, errTODO }
func (w *writer) has(ref docidx.Ref) bool                              { return false }
func (w *writer) put(ctx context.Context, d *docidx.PackageDocs) error { return errTODO }
func (w *writer) addSource(s string)                                   {}
func (w *writer) commit(ctx context.Context) (*Manifest, error)        { return nil, errTODO }
func (w *writer) abort() error                                         { return errTODO }

type reader struct {
	dir      string
	manifest *Manifest
}

func open(dir string) (*Reader, error)                                         { return nil, errTODO }
func (r *reader) close() error                                                 { return errTODO }
func (r *reader) search(ctx context.Context, q Query) (*Results, error)        { return nil, errTODO }
func (r *reader) pkg(ref docidx.Ref) (*docidx.Package, error)                  { return nil, errTODO }
func (r *reader) versions(eco docidx.Ecosystem, name string) ([]string, error) { return nil, errTODO }
func (r *reader) list(eco docidx.Ecosystem, prefix, after string, limit int) ([]Listing, string, error) {
	return nil, "", errTODO
}
func (r *reader) documents(ref docidx.Ref) ([]docidx.Document, error)            { return nil, errTODO }
func (r *reader) document(ref docidx.Ref, path string) (*docidx.Document, error) { return nil, errTODO }
func (r *reader) symbols(ref docidx.Ref) ([]docidx.Symbol, error)                { return nil, errTODO }
func (r *reader) lookupSymbol(ref docidx.Ref, name string) ([]docidx.Symbol, error) {
	return nil, errTODO
}
func (r *reader) suggest(eco docidx.Ecosystem, name string, n int) []docidx.Ref { return nil }
