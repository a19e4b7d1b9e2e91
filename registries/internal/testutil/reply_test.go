package testutil

import (
	"net/http/httptest"
	"testing"
)

func TestReply(t *testing.T) {
	body := make([]byte, 10000) // larger than the server buffers: no Content-Length of its own
	rec := httptest.NewRecorder()
	Reply(rec, "application/octet-stream", body)
	res := rec.Result()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/octet-stream" ||
		res.Header.Get("Content-Length") != "10000" || rec.Body.Len() != 10000 {
		t.Errorf("reply %d %v, %d bytes", res.StatusCode, res.Header, rec.Body.Len())
	}
}
