package crawl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

// fakeInstalled is a site-packages: versions, what each requires, and markers that are
// "yes", "no", "unknown" or extra == "NAME".
type fakeInstalled struct {
	*fakeSource
	requires map[string][]string // "name@version" -> PEP 508 requirements
}

func (f *fakeInstalled) Resolve(ctx context.Context, name, query string) (string, error) {
	vs := f.versions[name]
	if len(vs) == 0 {
		return "", fmt.Errorf("%s is not installed: %w", name, docidx.ErrNotFound)
	}
	v := vs[len(vs)-1]
	if min, ok := strings.CutPrefix(query, ">="); ok && v < min || query != "" && !strings.HasPrefix(query, ">=") && v != strings.TrimPrefix(query, "==") {
		return "", fmt.Errorf("no version of %s matches %q: %w", name, query, docidx.ErrNotFound)
	}
	return v, nil
}

func (f *fakeInstalled) EvalMarker(marker string, extras []string) (holds, known bool, err error) {
	switch {
	case marker == "yes":
		return true, true, nil
	case marker == "no":
		return false, true, nil
	case marker == "unknown":
		return false, false, nil
	case strings.HasPrefix(marker, "extra == "):
		return slices.Contains(extras, strings.Trim(strings.TrimPrefix(marker, "extra == "), `"`)), true, nil
	}
	return false, false, errors.New("bad marker")
}

func (f *fakeInstalled) Requires(ctx context.Context, name, version string) ([]string, error) {
	return f.requires[name+"@"+version], nil
}

var _ Installed = (*fakeInstalled)(nil)

func newFakeSitePackages() *fakeInstalled {
	return &fakeInstalled{
		fakeSource: &fakeSource{eco: docidx.PyPI, name: "/venv/lib/python3.11/site-packages", list: true, setSrc: true, versions: map[string][]string{
			"flask": {"3.1.3"}, "werkzeug": {"3.1.3"}, "click": {"8.1.8"}, "markupsafe": {"3.0.2"},
			"asgiref": {"3.8.1"}, "jsonschema": {"3.2.0"}, "unrelated": {"1.0"},
		}},
		requires: map[string][]string{
			"flask@3.1.3": {"Werkzeug>=3.1", "click>=8.1", `asgiref>=3.2 ; extra == "async"`, "importlib-metadata ; no",
				"maybe-dep ; unknown", "ext @ https://example.test/ext.whl"},
			"werkzeug@3.1.3": {"MarkupSafe>=2.1.1"},
		},
	}
}

func requirementSpecs(t *testing.T, data string) []Spec {
	t.Helper()
	lf, err := parseLockfile("requirements.txt", []byte(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	return lf.Specs
}

func failures(sum *Summary) []string {
	var out []string
	for _, r := range sum.Results {
		if r.Status == Failed {
			out = append(out, r.Error)
		}
	}
	slices.Sort(out)
	return out
}

// TestRunRequirementsClosure: a requirements file crawled with a site-packages crawls the
// installed version of each requirement and what it requires, transitively (issue 27: flask
// brings werkzeug); markers are evaluated and extras followed only when asked.
func TestRunRequirementsClosure(t *testing.T) {
	sp := newFakeSitePackages()
	reg := &fakeSource{eco: docidx.PyPI, name: "pypi index", versions: map[string][]string{"flask": {"3.1.3"}}}
	sink := &fakeSink{}
	sum, err := Run(context.Background(), sink, Options{
		Specs:      requirementSpecs(t, "flask>=3.0\nwinonly==1.0 ; no\n"),
		Caches:     []docidx.Cache{sp},
		Registries: []docidx.Registry{reg},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pypi:click@8.1.8", "pypi:flask@3.1.3", "pypi:markupsafe@3.0.2", "pypi:werkzeug@3.1.3"}
	if got := sink.putStrings(); !slices.Equal(got, want) {
		t.Errorf("indexed %q, want %q", got, want)
	}
	if sum.Failed != 0 || sum.Err() != nil {
		t.Errorf("failures: %q", failures(sum))
	}
	if n := reg.resolves.Load(); n != 0 {
		t.Errorf("the registry was asked %d times; requirements resolve against the site-packages", n)
	}

	// With the extra, flask's conditional requirement is followed too.
	sink = &fakeSink{}
	if _, err := Run(context.Background(), sink, Options{Specs: requirementSpecs(t, "Flask[Async]\n"), Caches: []docidx.Cache{sp}}); err != nil {
		t.Fatal(err)
	}
	if got := sink.putStrings(); !slices.Contains(got, "pypi:asgiref@3.8.1") || len(got) != 5 {
		t.Errorf("with [async]: indexed %q, want asgiref too", got)
	}
}

// TestRunRequirementsUnsatisfied: a requirement that the site-packages does not satisfy fails
// with exit-worthy errors that say what is installed and what to do; it never falls back to
// the registry, and the satisfied ones are still crawled.
func TestRunRequirementsUnsatisfied(t *testing.T) {
	sp := newFakeSitePackages()
	sp.requires["werkzeug@3.1.3"] = append(sp.requires["werkzeug@3.1.3"], "gone>=1")
	reg := &fakeSource{eco: docidx.PyPI, name: "pypi index", versions: map[string][]string{"jsonschema": {"4.23.0"}, "missing": {"1.0"}}}
	sink := &fakeSink{}
	sum, err := Run(context.Background(), sink, Options{
		Specs:      requirementSpecs(t, "jsonschema>=4.0\nmissing\nflask\n"),
		Caches:     []docidx.Cache{sp},
		Registries: []docidx.Registry{reg},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(sum.Err(), ErrSomeFailed) || sum.Failed != 3 {
		t.Fatalf("Failed = %d, Err = %v; want 3 failures", sum.Failed, sum.Err())
	}
	got := failures(sum)
	for i, want := range []string{
		"pypi:gone@>=1 (required by werkzeug 3.1.3): gone is not installed in site-packages (python3.11), though werkzeug 3.1.3 requires it; repair that environment (pip install werkzeug, then pip check)",
		"pypi:jsonschema@>=4.0 (requirements.txt:1): site-packages (python3.11) has jsonschema 3.2.0, which does not satisfy >=4.0; install the project's requirements there (pip install -r requirements.txt)",
		"pypi:missing (requirements.txt:2): missing is not installed in site-packages (python3.11); install the project's requirements there (pip install -r requirements.txt)",
	} {
		if i >= len(got) || !strings.HasPrefix(got[i], want) {
			t.Errorf("failure %d = %q\nwant it to start %q", i, got, want)
		}
	}
	if n := reg.resolves.Load(); n != 0 {
		t.Errorf("the registry was asked %d times", n)
	}
	if got := sink.putStrings(); !slices.Contains(got, "pypi:werkzeug@3.1.3") {
		t.Errorf("indexed %q: the satisfied requirements must still be crawled", got)
	}
}

// TestRunRequirementsWithoutSitePackages: without an Installed cache a requirement's range is
// resolved by the registry, as before, and nothing is walked.
func TestRunRequirementsWithoutSitePackages(t *testing.T) {
	// The index also knows what jsonschema requires; a registry crawl still takes only what the
	// file names (the index's resolver, not docidx, would pick the rest).
	reg := &fakeInstalled{fakeSource: &fakeSource{eco: docidx.PyPI, name: "pypi index", versions: map[string][]string{"jsonschema": {"4.23.0"}, "attrs": {"23.1.0"}}},
		requires: map[string][]string{"jsonschema@4.23.0": {"attrs>=22"}}}
	sink := &fakeSink{}
	sum, err := Run(context.Background(), sink, Options{Specs: requirementSpecs(t, "jsonschema>=4.0\n"), Registries: []docidx.Registry{reg}})
	if err != nil || sum.Failed != 0 {
		t.Fatalf("err %v, failures %q", err, failures(sum))
	}
	if got := sink.putStrings(); !slices.Equal(got, []string{"pypi:jsonschema@4.23.0"}) {
		t.Errorf("indexed %q", got)
	}
}
