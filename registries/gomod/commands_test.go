package gomod

import (
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

// A module's commands are its main packages by their last path element, as go install names
// them; those under internal, testdata and example directories are no user's commands.
func TestCommands(t *testing.T) {
	pkg := func(path, name string) docidx.Symbol {
		return docidx.Symbol{Kind: docidx.KindPackage, Name: name, Package: path, QualifiedName: path}
	}
	syms := []docidx.Symbol{
		pkg("golang.org/x/tools/cmd/stringer", "main"),
		pkg("golang.org/x/tools/cmd/goimports", "main"),
		pkg("golang.org/x/tools/go/packages", "packages"),
		pkg("example.com/tool/v2", "main"),
		pkg("example.com/tool/cmd/v1", "main"),
		pkg("golang.org/x/tools/internal/cmd/deadcode", "main"),
		pkg("golang.org/x/tools/go/analysis/testdata/src/a", "main"),
		pkg("github.com/x/y/examples/basic", "main"),
		pkg("github.com/x/y/_example/server", "main"),
		pkg("github.com/x/y/pkg/test/main", "main"),
		{Kind: docidx.KindFunc, Name: "main", Package: "golang.org/x/tools/cmd/stringer", QualifiedName: "main.main"},
	}
	want := []string{"goimports", "stringer", "tool", "v1"}
	if got := commands(syms); !slices.Equal(got, want) {
		t.Errorf("commands = %q, want %q", got, want)
	}
}
