package testutil

import (
	"net/http"
	"strconv"
)

// Reply writes a fake registry's 200 reply of body with its Content-Type and its length in
// bytes as Content-Length, as a registry serves an archive: a client can refuse one over its
// limit before reading it.
func Reply(w http.ResponseWriter, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}
