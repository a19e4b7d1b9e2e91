package pyscan

import (
	"reflect"
	"testing"
)

// TestNewDocs: the three shapes of add_newdoc's doc argument, by the bare and a dotted name,
// with the Argument Clinic signature stripped and the trailing arguments ignored; calls of
// other shapes give nothing.
func TestNewDocs(t *testing.T) {
	src := `"""Docstrings for builtins."""
from numpy._core.function_base import add_newdoc

add_newdoc('pkg._core.multiarray', 'array',
    """
    array(object, dtype=None)
    --

    array(object, dtype=None)

    Create an array.

    Parameters
    ----------
    object : array_like
        An array.
    """)

add_newdoc('pkg._core', 'flatiter', ('base',
    """A reference to the array that is iterated over."""))

np.lib.add_newdoc("pkg._core", "ndarray", [
    ("T", "View of the transposed array."),
    ("size", r"Number of " "elements."),
], warn_on_python=False)

add_newdoc('pkg', 'computed', make_doc())
add_newdoc(module, 'name', "doc")
if add_newdoc('pkg', 'x', "not a statement"): pass
`
	got := NewDocs([]byte(src))
	for i := range got {
		got[i].Params = nil
	}
	want := []NewDoc{
		{Module: "pkg._core.multiarray", Name: "array", Doc: "array(object, dtype=None)\n\nCreate an array.\n\nParameters\n----------\nobject : array_like\n    An array.", Line: 4},
		{Module: "pkg._core", Name: "flatiter", Attr: "base", Doc: "A reference to the array that is iterated over.", Line: 19},
		{Module: "pkg._core", Name: "ndarray", Attr: "T", Doc: "View of the transposed array.", Line: 22},
		{Module: "pkg._core", Name: "ndarray", Attr: "size", Doc: "Number of elements.", Line: 22},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NewDocs:\n got %+v\nwant %+v", got, want)
	}
	if d := NewDocs([]byte(src)); len(d) == 0 || len(d[0].Params) != 1 || d[0].Params[0].Name != "object" {
		t.Errorf("array's params %+v, want object's from its docstring", d[0].Params)
	}
	if d := NewDocs([]byte("def f():\n    \"\"\"add_newdoc( is mentioned.\"\"\"\n")); d != nil {
		t.Errorf("a docstring naming add_newdoc gave %+v", d)
	}
}
