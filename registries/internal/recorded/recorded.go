// Package recorded serves responses recorded from a real registry from a fake one (the
// <ecosystem>test packages), so that the fakes answer with what the real registries sent: their
// fields, media types and URL shapes (issue 27). Recorded bodies name their registry by the
// placeholder Host, never by the host they came from.
package recorded

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
)

// Host is the placeholder that stands for a registry's host in recorded responses:
// "https://" + Host is replaced with the fake's URL when they are served.
const Host = "registry.example.test"

// Responses are recorded responses by request path. The zero value is empty and ready; it is
// safe for concurrent use.
type Responses struct {
	mu sync.Mutex
	m  map[string]response
}

type response struct {
	contentType string
	body        []byte
}

// Record makes Serve answer GET and HEAD of path (exact, e.g. "/pypi/six/json") with body and
// contentType, every "https://" + Host in body replaced by url (the fake's URL), so that the
// absolute URLs a recorded response holds lead back to the fake.
func (r *Responses) Record(path, contentType string, body []byte, url string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]response{}
	}
	r.m[path] = response{contentType, bytes.ReplaceAll(body, []byte("https://"+Host), []byte(url))}
}

// Serve writes the response recorded for req's path, with its Content-Type and
// Content-Length, and reports whether there was one. It leaves the method to the caller.
func (r *Responses) Serve(w http.ResponseWriter, req *http.Request) bool {
	r.mu.Lock()
	rec, ok := r.m[req.URL.Path]
	r.mu.Unlock()
	if !ok {
		return false
	}
	w.Header().Set("Content-Type", rec.contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(rec.body)))
	w.Write(rec.body)
	return true
}
