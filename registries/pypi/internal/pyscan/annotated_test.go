package pyscan

import (
	"testing"

	"github.com/docidx/docidx"
)

// TestAnnotatedDoc checks PEP 727's documentation in annotations (FastAPI's style): a
// parameter written "name: Annotated[T, Doc("…")]" is documented by the string and typed T, in
// the parameters and in the signature, whether Annotated, Doc or both are qualified, beside
// other metadata, and on a class's attributes; an Annotated without Doc stays as written.
func TestAnnotatedDoc(t *testing.T) {
	m, _ := scanMap(t, `from typing import Annotated
import typing_extensions
from annotated_doc import Doc

class App:
    """The app."""

    version: Annotated[str, Doc("The version of the API.")] = "0.1.0"

    def __init__(
        self,
        *,
        title: Annotated[
            str,
            Doc(
                """
                The title of the API.

                It shows in /docs.
                """
            ),
        ] = "FastAPI",
        debug: typing_extensions.Annotated[bool, typing_extensions.Doc("Return tracebacks on errors.")] = False,
        root_path: Annotated[str, Doc("Deprecated."), deprecated("Use --root-path.")] = "",
        limit: Annotated[int, Field(gt=0)] = 10,
    ) -> None:
        pass

def get(path: Annotated[str, Doc("The URL path.")]) -> None:
    """Add a GET operation."""
`)
	checkSymbols(t, m, map[string]symbolWant{
		"App":          {docidx.KindClass, "class App", "The app."},
		"App.version":  {docidx.KindField, `version: str = "0.1.0"`, "The version of the API."},
		"App.__init__": {docidx.KindMethod, `def __init__(self, *, title: str = "FastAPI", debug: bool = False, root_path: Annotated[str, deprecated("Use --root-path.")] = "", limit: Annotated[int, Field(gt=0)] = 10) -> None`, ""},
		"get":          {docidx.KindFunc, "def get(path: str) -> None", "Add a GET operation."},
	}, false)
	want := map[string]docidx.Param{
		"title":     {Name: "title", Type: "str", Default: `"FastAPI"`, Doc: "The title of the API.\n\nIt shows in /docs."},
		"debug":     {Name: "debug", Type: "bool", Default: "False", Doc: "Return tracebacks on errors."},
		"root_path": {Name: "root_path", Type: `Annotated[str, deprecated("Use --root-path.")]`, Default: `""`, Doc: "Deprecated."},
	}
	got := map[string]docidx.Param{}
	for _, p := range m["App"].Params {
		got[p.Name] = p
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("App parameter %s = %+v, want %+v", name, got[name], w)
		}
	}
	if p, ok := got["limit"]; ok && p.Doc != "" {
		t.Errorf("App parameter limit documented as %q: its annotation holds no Doc", p.Doc)
	}
	if ps := m["get"].Params; len(ps) != 1 || ps[0] != (docidx.Param{Name: "path", Type: "str", Doc: "The URL path."}) {
		t.Errorf("get parameters %+v, want path documented by its annotation", ps)
	}
}
