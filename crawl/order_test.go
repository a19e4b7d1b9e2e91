package crawl

import (
	"fmt"
	"testing"

	"github.com/docidx/docidx"
)

func TestInterleave(t *testing.T) {
	var jobs []job
	for _, s := range []string{"golang:a", "golang:b", "golang:c", "npm:x", "pypi:p", "npm:y"} {
		sp, err := ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{spec: sp})
	}
	var got []string
	for _, j := range interleave(jobs) {
		got = append(got, j.spec.String())
	}
	if want := "[golang:a npm:x pypi:p golang:b npm:y golang:c]"; fmt.Sprint(got) != want {
		t.Errorf("interleave = %v, want %s", got, want)
	}
	one := []job{{spec: Spec{Ecosystem: docidx.NPM, Name: "x"}}}
	if got := interleave(one); len(got) != 1 {
		t.Errorf("one job: %v", got)
	}
}
