package pyscan

import (
	"testing"

	"github.com/docidx/docidx"
)

// TestWhenNone: a parameter that defaults to None and that the function's body fills in (if …
// is None: …, "or", a conditional expression) is described with the value it takes when not
// given, a class attribute's with its value; a test joined by "or", a nested statement, an
// f-string, a value naming the parameter and a description that states its default add nothing.
func TestWhenNone(t *testing.T) {
	src := `class Task:
    default_retry_delay = 3 * 60

    def retry(self, args=None, countdown=None, eta=None, max_retries=None, limit=None, name=None):
        """Retry the task.

        Arguments:
            countdown (float): Time in seconds to delay the retry for.
            max_retries (int): Defaults to 3.
        """
        if not eta and countdown is None:
            countdown = self.default_retry_delay
        if args is None or eta:
            args = ()
        for x in range(3):
            if limit is None:
                limit = 5
        max_retries = max_retries or 3
        eta = eta if eta is not None else now()
        name = name or f"task-{args}"
        return countdown

def get(url, params=None, timeout=None, headers=None, stream=None):
    """Send a GET request."""
    if timeout is None: timeout = DEFAULT_TIMEOUT
    headers = {} if headers is None else headers
    if stream is None:
        stream = stream_of(url)
    return url

class Client:
    def __init__(self, mounts=None, timeout=None, retries=None, other=None):
        """A client.

        :param mounts: the mounted apps.
        :param timeout: seconds to wait
        :param retries: how often to retry. By default, this is disabled with None.
        """
        self.mounts = mounts or {}
        self.timeout = timeout if timeout is not None else 30
        self.retries = retries or 0
        self.other = mounts or []

def undocumented(x=None):
    if x is None:
        x = 1
`
	params := map[string]map[string]docidx.Param{}
	for _, sym := range Scan([]byte(src), Options{Module: "m", File: "m.py"}).Symbols {
		ps := map[string]docidx.Param{}
		for _, p := range sym.Params {
			ps[p.Name] = p
		}
		params[sym.Name] = ps
	}
	for _, c := range []struct{ fn, param, def, doc string }{
		{"retry", "countdown", "None", "Time in seconds to delay the retry for. When not given: self.default_retry_delay (3 * 60)."},
		{"retry", "max_retries", "3", "Defaults to 3."},
		{"retry", "eta", "None", "When not given: now()."},
		{"get", "timeout", "None", "When not given: DEFAULT_TIMEOUT."},
		{"get", "headers", "None", "When not given: {}."},
		{"get", "stream", "None", "When not given: stream_of(url)."},
		{"Client", "mounts", "None", "the mounted apps. When not given: {}."},
		{"Client", "timeout", "None", "seconds to wait. When not given: 30."}, // a sentence ends before the note
		{"Client", "retries", "None", "how often to retry. By default, this is disabled with None."},
	} {
		if p, ok := params[c.fn][c.param]; !ok || p.Doc != c.doc || p.Default != c.def {
			t.Errorf("%s(%s): %+v, %v; want default %s and doc %q", c.fn, c.param, p, ok, c.def, c.doc)
		}
	}
	for _, c := range []struct{ fn, param string }{{"retry", "args"}, {"retry", "limit"}, {"retry", "name"}, {"get", "params"}, {"Client", "other"}, {"undocumented", "x"}} {
		if p, ok := params[c.fn][c.param]; ok {
			t.Errorf("%s(%s) = %+v; want no parameter added", c.fn, c.param, p)
		}
	}
}
