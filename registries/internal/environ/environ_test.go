package environ

import (
	"maps"
	"testing"
)

func TestMap(t *testing.T) {
	got := Map([]string{"A=1", "B=x=y", "A=2", "C=", "noequals", "=C:=C:\\"})
	want := map[string]string{"A": "2", "B": "x=y", "C": ""}
	if !maps.Equal(got, want) {
		t.Errorf("Map = %v, want %v", got, want)
	}
	t.Setenv("DOCIDX_ENVIRON_TEST", "yes")
	if v := Map(nil)["DOCIDX_ENVIRON_TEST"]; v != "yes" {
		t.Errorf("Map(nil) does not read the process environment: %q", v)
	}
}
