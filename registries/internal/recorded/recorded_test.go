package recorded

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestResponses(t *testing.T) {
	var rs Responses
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !rs.Serve(w, r) {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	rs.Record("/pypi/six/json", "application/json", []byte(`{"url": "https://`+Host+`/packages/six.whl"}`), srv.URL)
	resp, err := http.Get(srv.URL + "/pypi/six/json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"url": "` + srv.URL + `/packages/six.whl"}`; string(body) != want || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("got %q (%s), want %q", body, resp.Header.Get("Content-Type"), want)
	}
	if resp, err := http.Get(srv.URL + "/pypi/other/json"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unrecorded path: %v %v", resp.StatusCode, err)
	}
}
