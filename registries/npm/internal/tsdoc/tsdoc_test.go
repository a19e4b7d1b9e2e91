package tsdoc

import "testing"

func TestLinks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"The {@link differenceInDays} function options.", "The differenceInDays function options."},
		{"A \"pre-typed\" {@linkcode createSelector createSelector} call.", "A \"pre-typed\" createSelector call."},
		{"Use {@linkcode Options.limit} or {@linkplain Foo the foo}.", "Use `Options.limit` or the foo."},
		{"See {@link Foo|the foo} and {@link Bar | bar}.", "See the foo and bar."},
		{"Read {@link https://example.test/docs the docs} or {@link https://example.test/x}.", "Read [the docs](https://example.test/docs) or https://example.test/x."},
		{"While [`queue`]{@link module:ControlFlow.queue} passes one task", "While `queue` passes one task"},
		{"{@link module:ControlFlow.queue}", "ControlFlow.queue"},
		{"Code `{@link X}` and an open {@link Y stays", "Code `{@link X}` and an open {@link Y stays"},
		{"```ts\n/** {@link X} */\n```\nthen {@link Y}", "```ts\n/** {@link X} */\n```\nthen Y"},
		{"No tags here.", "No tags here."},
	} {
		if got := Links(c.in); got != c.want {
			t.Errorf("Links(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
