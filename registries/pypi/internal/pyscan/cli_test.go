package pyscan

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

// TestCommandOptions checks that a click command's option and argument decorators become its
// parameters, in source order after those its docstring documents, with names, type, default,
// help (implicitly concatenated) and environment variable; other decorators with calls add none.
func TestCommandOptions(t *testing.T) {
	m, _ := scanMap(t, `
import click

@click.command(context_settings={"auto_envvar_prefix": "APP"})
@click.argument("app", envvar="APP_APP")
@click.option(
    "-w",
    "--workers",
    default=None,
    type=int,
    help="Number of worker processes. Defaults to the $WEB_CONCURRENCY environment"
    " variable if available, or 1.",
)
@click.option("--reload", is_flag=True, default=False, help="Enable auto-reload.")
@click.option("--app-dir", "app_dir", default="", show_default=True)
@functools.lru_cache(maxsize=None)
def main(app: str, workers: int, reload: bool, app_dir: str) -> None:
    """Run the app.

    :param app: the import string of the app.
    """

@app.route("/option")
def view():
    pass
`)
	want := []docidx.Param{
		{Name: "app", Type: "str", Doc: "the import string of the app."},
		{Name: "app", Doc: "Environment variable: APP_APP."},
		{Name: "-w, --workers", Type: "int", Default: "None",
			Doc: "Number of worker processes. Defaults to the $WEB_CONCURRENCY environment variable if available, or 1."},
		{Name: "--reload", Type: "flag", Default: "False", Doc: "Enable auto-reload."},
		{Name: "--app-dir", Default: `""`},
	}
	main := m["main"]
	if !reflect.DeepEqual(main.Params, want) {
		t.Errorf("main's params =\n%+v\nwant\n%+v", main.Params, want)
	}
	if doc := main.DocWithParams(); !strings.Contains(doc, "`-w, --workers` (int, default `None`): Number of worker processes.") {
		t.Errorf("main's doc with params =\n%s", doc)
	}
	if p := m["view"].Params; len(p) != 0 {
		t.Errorf("view's params = %+v, want none: a route is not an option", p)
	}
}
