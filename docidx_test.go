package docidx_test

import (
	"testing"

	"github.com/docidx/docidx"
)

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{"PyYAML": "pyyaml", "Flask_Cors": "flask-cors", "zope.interface": "zope-interface", "a--b__c": "a-b-c", "_x": "x"} {
		if got := docidx.NormalizeName(docidx.PyPI, in); got != want {
			t.Errorf("NormalizeName(pypi, %q) = %q, want %q", in, got, want)
		}
	}
	if got := docidx.NormalizeName(docidx.NPM, "@Types/Node"); got != "@Types/Node" {
		t.Errorf("npm names are kept as written, got %q", got)
	}
}
