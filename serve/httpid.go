package serve

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	segjson "github.com/segmentio/encoding/json"
)

// Request ids over Streamable HTTP. The SDK decodes an id into an int64 or a string and encodes
// it again in the answer, so that 1.5 comes back as 1, 2^63 and longer numbers wrong, and a
// string written with escapes ("\u0041") in another spelling. JSON-RPC asks for the id as the
// client sent it (https://www.jsonrpc.org/specification#response_object), so, as stdioConn does
// for stdio, each request whose id the SDK would not echo as written gets an internal id for
// the SDK to see, and its answers (in the JSON body or the SSE events of the same POST) get the
// client's id back, byte for byte. Ids the SDK echoes faithfully — the usual small integers and
// plain strings — pass through untouched, so that a client's notifications/cancelled, sent in
// another POST, still names them; for the others the handler remembers, while the request is
// in flight, which internal id a session's client id stands for.

// internalIDPrefix starts the internal ids given to requests (a string id, "docidx.http:17").
// A client id that starts with it is itself rewritten, so that the two never meet.
const internalIDPrefix = "docidx.http:"

// httpCall is a request of a POST body given an internal id.
type httpCall struct {
	id     json.RawMessage // as the client wrote it
	method string
	params json.RawMessage // for clientError to say what is wrong with them
}

// httpBody is what serveMCP learns of a POST body beyond checkJSONRPC: the body to pass to the
// SDK, its calls given internal ids, and the params problem of a body that is one request.
type httpBody struct {
	body    []byte               // to pass on: the client's, or rewritten
	calls   map[string]*httpCall // by internal id; nil when none was rewritten
	keys    map[string]string    // session "\x00" client id → internal id, recorded for cancellation
	problem *jsonrpc.Error       // checkParams's error for a body that is one request, or nil
	id      json.RawMessage      // that request's id
}

// sdkEchoes reports whether the SDK writes the id, a raw JSON string or number, back as it
// is: an integer in canonical form that a float64 holds exactly (the SDK decodes numbers into
// float64, then int64), or a string that its encoder (encoding/json without HTML escaping)
// spells the same way and that does not start with internalIDPrefix.
func sdkEchoes(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) != nil || strings.HasPrefix(s, internalIDPrefix) {
			return false
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(s) != nil {
			return false
		}
		return bytes.Equal(bytes.TrimSuffix(b.Bytes(), []byte("\n")), id)
	}
	var f float64
	if json.Unmarshal(id, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return false
	}
	return string(id) == strconv.FormatInt(int64(f), 10)
}

// prepareBody reads a body that checkJSONRPC accepted: each request whose id the SDK would not
// echo as written, or whose params it cannot decode (checkParams), gets an internal id; a
// notifications/cancelled naming such a request of session (in flight in another POST) is made
// to name its internal id. The keys recorded for cancellation must be released with forget.
func (h *HTTPHandler) prepareBody(body []byte, session string) httpBody {
	out := httpBody{body: body}
	trimmed := bytes.TrimSpace(body)
	batch := len(trimmed) > 0 && trimmed[0] == '['
	items := []json.RawMessage{trimmed}
	if batch {
		items = nil
		if json.Unmarshal(trimmed, &items) != nil {
			return out
		}
	}
	changed := false
	for i, item := range items {
		var w wireMessage
		// Members are matched case-sensitively, as the SDK's decoder does.
		if _, err := segjson.Parse(item, &w, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
			continue
		}
		var method string
		if w.Method == nil || json.Unmarshal(w.Method, &method) != nil {
			continue // a response to the server: its id is the SDK's own
		}
		id := bytes.TrimSpace(w.ID)
		if w.ID == nil || !validID(id) {
			if method == "notifications/cancelled" && session != "" {
				if rewritten, ok := h.cancelled(item, w.Params, session); ok {
					items[i], changed = rewritten, true
				}
			}
			continue
		}
		problem := checkParams(method, w.Params)
		if !batch {
			out.problem, out.id = problem, id
		}
		if sdkEchoes(id) && problem == nil {
			continue
		}
		own := internalIDPrefix + strconv.FormatUint(h.nextID.Add(1), 10)
		rewritten, ok := setMember(item, "id", own)
		if !ok {
			continue
		}
		items[i], changed = rewritten, true
		if out.calls == nil {
			out.calls = make(map[string]*httpCall)
		}
		out.calls[own] = &httpCall{id: id, method: method, params: w.Params}
		if session != "" {
			// The latest request with a client id is the one a cancellation names, as over
			// stdio; forget leaves it when an earlier one with the same id ends first.
			key := session + "\x00" + string(id)
			h.idsMu.Lock()
			h.inflightIDs[key] = own
			h.idsMu.Unlock()
			if out.keys == nil {
				out.keys = make(map[string]string)
			}
			out.keys[key] = own
		}
	}
	if !changed {
		return out
	}
	if !batch {
		out.body = items[0]
		return out
	}
	out.body = joinArray(items)
	return out
}

// cancelled returns a notifications/cancelled item naming the internal id of the request of
// session it names, when that request was given one and is still in flight.
func (h *HTTPHandler) cancelled(item, params json.RawMessage, session string) (json.RawMessage, bool) {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return nil, false
	}
	h.idsMu.Lock()
	own, ok := h.inflightIDs[session+"\x00"+string(bytes.TrimSpace(p["requestId"]))]
	h.idsMu.Unlock()
	if !ok {
		return nil, false
	}
	newParams, ok := setMember(params, "requestId", own)
	if !ok {
		return nil, false
	}
	return setMember(item, "params", newParams)
}

// forget releases the cancellation keys of a POST once it is answered, but those that a later
// request with the same client id took over.
func (h *HTTPHandler) forget(keys map[string]string) {
	if len(keys) == 0 {
		return
	}
	h.idsMu.Lock()
	defer h.idsMu.Unlock()
	for k, own := range keys {
		if h.inflightIDs[k] == own {
			delete(h.inflightIDs, k)
		}
	}
}

// setMember returns the JSON object obj with member name set to v (marshalled, or as it is when
// a json.RawMessage).
func setMember(obj json.RawMessage, name string, v any) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return nil, false
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, false
		}
	}
	m[name] = raw
	b, err := json.Marshal(m)
	return b, err == nil
}

// joinArray writes items as a JSON array.
func joinArray(items []json.RawMessage) []byte {
	b := []byte{'['}
	for i, item := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, item...)
	}
	return append(b, ']')
}

// idWriter gives the answers to the calls of one POST that got internal ids the client's ids
// back, in an application/json body (one response or a batch's array, held until the SDK is
// done) or in the events of an SSE stream (each passed on once complete). Their errors get
// their protocol form (clientError), as over stdio. Other bodies pass through.
type idWriter struct {
	http.ResponseWriter
	calls map[string]*httpCall

	mode  int // idPass, idJSON or idSSE, once the header is written
	wrote bool
	buf   []byte // the JSON body, or the start of an SSE event not yet complete
}

// Modes of an idWriter.
const (
	idPass = iota
	idJSON
	idSSE
)

func (w *idWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	switch ct := w.Header().Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/json"):
		w.mode = idJSON
		w.Header().Del("Content-Length")
	case strings.HasPrefix(ct, "text/event-stream"):
		w.mode = idSSE
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *idWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	switch w.mode {
	case idJSON:
		w.buf = append(w.buf, b...)
		return len(b), nil
	case idSSE:
		w.buf = append(w.buf, b...)
		if err := w.events(); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// events writes the complete SSE events held, with ids restored.
func (w *idWriter) events() error {
	end := bytes.LastIndex(w.buf, []byte("\n\n"))
	if end < 0 {
		return nil
	}
	done := w.buf[:end+2]
	var out []byte
	for line := range bytes.SplitAfterSeq(done, []byte("\n")) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = bytes.TrimPrefix(data, []byte(" "))
			if fixed, ok := w.restore(bytes.TrimSuffix(data, []byte("\n"))); ok {
				out = append(out, "data: "...)
				out = append(out, fixed...)
				out = append(out, '\n')
				continue
			}
		}
		out = append(out, line...)
	}
	w.buf = append(w.buf[:0], w.buf[end+2:]...)
	_, err := w.ResponseWriter.Write(out)
	return err
}

// restore returns a JSON-RPC message with the client's id when it is the response to a call
// given an internal id, with its error in protocol form.
func (w *idWriter) restore(data []byte) ([]byte, bool) {
	if !bytes.Contains(data, []byte(internalIDPrefix)) {
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, false
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return nil, false
	}
	own, _ := resp.ID.Raw().(string)
	call := w.calls[own]
	if call == nil {
		return nil, false
	}
	if resp.Error != nil {
		resp = &jsonrpc.Response{ID: resp.ID, Error: clientError(call.method, call.params, resp.Error)}
	}
	return appendReply(nil, call.id, resp), true
}

// Flush sends the complete SSE events held.
func (w *idWriter) Flush() {
	if w.mode == idSSE && w.events() != nil {
		return
	}
	if w.mode != idJSON {
		http.NewResponseController(w.ResponseWriter).Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *idWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes what is held: the JSON body with ids restored, or what is left of an SSE
// stream.
func (w *idWriter) finish() {
	if len(w.buf) == 0 {
		return
	}
	if w.mode == idJSON {
		body := bytes.TrimSpace(w.buf)
		if fixed, ok := w.restore(body); ok {
			body = fixed
		} else if len(body) > 0 && body[0] == '[' {
			var items []json.RawMessage
			if json.Unmarshal(body, &items) == nil {
				for i, item := range items {
					if fixed, ok := w.restore(item); ok {
						items[i] = fixed
					}
				}
				body = joinArray(items)
			}
		}
		w.ResponseWriter.Write(body)
		return
	}
	w.ResponseWriter.Write(w.buf)
}
