package jsapi

import (
	"slices"
	"testing"
	"testing/fstest"
)

// TestLinkedValues: a parameter default that names a constant of the function's file (a
// destructured option's too) gives the symbol the constant's declaration, as Go's and Python's
// extractors do: "maxDelay = MAX_TASK_DELAY" is 100.
func TestLinkedValues(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"retry","main":"index.js"}`)},
		"index.js": {Data: []byte(`const MAX_TASK_TIMEOUT = 60000;
const MAX_TASK_DELAY = 100;
let mutable = 5;
const computed = compute();
const NAME = 'retrier';

/** Retries async calls. */
class Retrier {
  /**
   * @param {Function} check
   * @param {Object} [options]
   */
  constructor(check, { timeout = MAX_TASK_TIMEOUT, maxDelay = MAX_TASK_DELAY, other = mutable, more = computed } = {}) {}
}

/** Waits. */
function wait(ms = MAX_TASK_DELAY, label = NAME, fn = Math.max) {}

function plain(a, b) {}

module.exports = { Retrier, wait, plain };
`)},
	}
	res := extractPackage(t, fsys, Options{})
	values := map[string][]string{}
	for _, s := range res.Symbols {
		values[s.QualifiedName] = s.Values
	}
	want := map[string][]string{
		"Retrier":             {"const MAX_TASK_TIMEOUT = 60000", "const MAX_TASK_DELAY = 100"},
		"Retrier.constructor": {"const MAX_TASK_TIMEOUT = 60000", "const MAX_TASK_DELAY = 100"},
		"wait":                {"const MAX_TASK_DELAY = 100", "const NAME = 'retrier'"},
		"plain":               nil,
	}
	for q, w := range want {
		if !slices.Equal(values[q], w) {
			t.Errorf("%s: values %q, want %q", q, values[q], w)
		}
	}
}
