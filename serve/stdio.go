package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long RunStdio keeps a session open after stdin closes, waiting for the
// answers to requests it had already read.
const DrainTimeout = 30 * time.Second

// maxTrackedLine bounds the bytes of one inbound line kept to find its request ID; the SDK
// refuses longer frames itself (mcp.DefaultMaxLineLength).
const maxTrackedLine = mcp.DefaultMaxLineLength

// RunStdio serves one MCP session over newline-delimited JSON-RPC on in and out — the stdio
// transport of the MCP specification (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio)
// — until in reaches EOF, ctx is done, or the client goes away. Only JSON-RPC messages are
// written to out; logs go to Options.Logger.
//
// When in reaches EOF, every request already read is answered before RunStdio returns (waiting
// at most DrainTimeout): go-sdk v1.8.0 drops such requests (upstream issue #1061), so RunStdio
// withholds EOF from the SDK until the response to each request read has been written. EOF on in
// is a normal end and returns nil; other errors are returned as they are.
func (s *Server) RunStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	t := newDrainTransport(in, out, DrainTimeout, s.log)
	err := s.mcp.Run(ctx, t)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

// drainTransport is an mcp.IOTransport whose reader and writer watch the JSON-RPC traffic: the
// reader notes the ID of every request it passes to the SDK, the writer strikes off each ID it
// sees answered, and at EOF the reader blocks until none is left (or timeout, or Close).
//
// It wraps the byte streams rather than the mcp.Connection, so the SDK keeps its own
// newline-delimited connection, with its batching and protocol-version handling.
type drainTransport struct {
	mcp.IOTransport
}

func newDrainTransport(in io.Reader, out io.Writer, timeout time.Duration, log *slog.Logger) *drainTransport {
	p := &pending{ids: make(map[string]bool), closed: make(chan struct{}), changed: make(chan struct{})}
	return &drainTransport{mcp.IOTransport{
		Reader: &drainReader{r: in, p: p, timeout: timeout, log: log},
		Writer: &drainWriter{w: out, p: p},
	}}
}

// pending is the set of request IDs read but not yet answered.
type pending struct {
	mu      sync.Mutex
	ids     map[string]bool
	changed chan struct{} // closed and replaced whenever ids shrinks
	closed  chan struct{} // closed by Close
	once    sync.Once
}

func (p *pending) add(id string) {
	p.mu.Lock()
	p.ids[id] = true
	p.mu.Unlock()
}

func (p *pending) done(id string) {
	p.mu.Lock()
	if p.ids[id] {
		delete(p.ids, id)
		close(p.changed)
		p.changed = make(chan struct{})
	}
	p.mu.Unlock()
}

// wait blocks until no request is pending, the transport is closed, or timeout passes. It
// returns how many requests were still unanswered.
func (p *pending) wait(timeout time.Duration) int {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		p.mu.Lock()
		n, changed := len(p.ids), p.changed
		p.mu.Unlock()
		if n == 0 {
			return 0
		}
		select {
		case <-changed:
		case <-p.closed:
			return n
		case <-timer.C:
			return n
		}
	}
}

func (p *pending) close() { p.once.Do(func() { close(p.closed) }) }

// drainReader passes stdin through to the SDK, noting request IDs line by line.
type drainReader struct {
	r       io.Reader
	p       *pending
	timeout time.Duration
	log     *slog.Logger
	line    []byte // the current line so far, up to maxTrackedLine
	over    bool   // the current line is longer than maxTrackedLine
	eof     bool
}

func (d *drainReader) Read(b []byte) (int, error) {
	if d.eof {
		return 0, io.EOF
	}
	n, err := d.r.Read(b)
	d.scan(b[:n])
	if err != nil {
		d.flush()
		if errors.Is(err, io.EOF) {
			d.eof = true
			if left := d.p.wait(d.timeout); left > 0 {
				d.log.Warn("serve: stdin closed with requests unanswered", "requests", left)
			}
		}
	}
	return n, err
}

// scan feeds bytes read to the line tracker: requests are noted as each line completes, before
// the SDK can have decoded them (it has not been handed the bytes yet).
func (d *drainReader) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		if !d.over {
			if len(d.line)+len(chunk) > maxTrackedLine {
				d.over, d.line = true, d.line[:0]
			} else {
				d.line = append(d.line, chunk...)
			}
		}
		if i < 0 {
			return
		}
		d.flush()
		b = b[i+1:]
	}
}

// flush notes the requests of the line collected so far and starts a new line.
func (d *drainReader) flush() {
	if !d.over && len(bytes.TrimSpace(d.line)) > 0 {
		forEachMessage(d.line, func(m *wireMessage) {
			switch {
			case m.Method == "notifications/cancelled":
				// A cancelled request may never be answered.
				var c struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				if json.Unmarshal(m.Params, &c) == nil {
					if id, ok := idKey(c.RequestID); ok {
						d.p.done(id)
					}
				}
			case m.Method != "":
				if id, ok := idKey(m.ID); ok {
					d.p.add(id)
				}
			}
		})
	}
	d.line, d.over = d.line[:0], false
}

// Close marks the transport closed, releasing a Read waiting at EOF, and closes stdin when it
// can be closed.
func (d *drainReader) Close() error {
	d.p.close()
	if c, ok := d.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// drainWriter passes the SDK's messages to stdout and strikes off the requests they answer.
type drainWriter struct {
	mu   sync.Mutex
	w    io.Writer
	p    *pending
	line []byte
}

func (d *drainWriter) Write(b []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, err := d.w.Write(b)
	// Strike off only what reached stdout.
	for rest := b[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			d.line = append(d.line, rest...)
			break
		}
		d.line = append(d.line, rest[:i]...)
		if id, method, ok := peekMessage(d.line); ok {
			if method == "" {
				if key, ok := idKey(id); ok {
					d.p.done(key)
				}
			}
		} else {
			forEachMessage(d.line, func(m *wireMessage) {
				if m.Method == "" {
					if id, ok := idKey(m.ID); ok {
						d.p.done(id)
					}
				}
			})
		}
		d.line = d.line[:0]
		rest = rest[i+1:]
	}
	return n, err
}

// Close does not close stdout: the process may still write to it after the session.
func (d *drainWriter) Close() error { return nil }

// wireMessage is the part of a JSON-RPC message the drain transport reads.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// forEachMessage calls f for each message in line: one JSON-RPC message or a batch (array).
// Lines that are not JSON-RPC are ignored; the SDK reports them.
func forEachMessage(line []byte, f func(*wireMessage)) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if line[0] == '[' {
		var batch []wireMessage
		if json.Unmarshal(line, &batch) == nil {
			for i := range batch {
				f(&batch[i])
			}
		}
		return
	}
	var m wireMessage
	if json.Unmarshal(line, &m) == nil {
		f(&m)
	}
}

// peekMessage reads the id and method of a single JSON-RPC message from the members before its
// result, error or params, without parsing those: a search answer is kilobytes the SDK has just
// encoded. ok is false when the message does not start that way (a batch, or members in another
// order), for the caller to parse it whole.
func peekMessage(line []byte) (id json.RawMessage, method string, ok bool) {
	// The SDK writes a response as {"jsonrpc":"2.0","id":ID,"result":… (or "error"): read that
	// shape directly, and anything else with a tokenizer.
	const head = `{"jsonrpc":"2.0","id":`
	if rest, found := bytes.CutPrefix(line, []byte(head)); found {
		if n := plainIDLen(rest); n > 0 &&
			(bytes.HasPrefix(rest[n:], []byte(`,"result":`)) || bytes.HasPrefix(rest[n:], []byte(`,"error":`))) {
			return rest[:n], "", true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, "", false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, "", false
		}
		switch t {
		case "id":
			if dec.Decode(&id) != nil {
				return nil, "", false
			}
		case "method":
			if dec.Decode(&method) != nil {
				return nil, "", false
			}
		case "result", "error", "params":
			return id, method, id != nil || method != ""
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, "", false
			}
		}
	}
	return id, method, id != nil || method != ""
}

// idKey normalizes a JSON-RPC ID the way the SDK does (numbers as integers), so a request's ID
// and its response's ID compare equal. Absent and null IDs are not keys.
func idKey(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if n := plainIDLen(raw); n == len(raw) { // the common IDs, without decoding
		if raw[0] == '"' {
			return "s:" + string(raw[1:n-1]), true
		}
		return "n:" + string(raw), true
	}
	return decodedIDKey(raw)
}

// decodedIDKey is idKey for any ID, decoding it as the SDK does.
func decodedIDKey(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return "s:" + v, true
	case float64:
		return "n:" + strconv.FormatInt(int64(v), 10), true
	}
	return "", false // not a valid ID; the SDK rejects the message
}

// plainIDLen returns the length of the JSON-RPC ID at the start of b when it is a plain one —
// an integer of 1 to 15 digits without leading zeros, or a string of printable ASCII without
// escapes — and 0 otherwise. A plain ID reads the same whether decoded or not: a number of 15
// digits or fewer is exact as a float64, as the SDK decodes it.
func plainIDLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	if b[0] == '"' {
		for i := 1; i < len(b); i++ {
			switch c := b[i]; {
			case c == '"':
				return i + 1
			case c < 0x20 || c > 0x7e || c == '\\':
				return 0
			}
		}
		return 0
	}
	i := 0
	if b[0] == '-' {
		i = 1
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	digits := i - start
	if digits == 0 || digits > 15 || b[start] == '0' && (digits > 1 || start == 1) { // no 01, no -0
		return 0
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0
	}
	return i
}
