package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// DrainTimeout bounds how long RunStdio keeps a session open after stdin closes, waiting for the
// answers to requests it had already read.
const DrainTimeout = 30 * time.Second

// MaxMessageBytes is the longest line RunStdio reads as a message, in bytes (the SDK's
// mcp.DefaultMaxLineLength, 16 MiB). A longer line is answered with -32600 and skipped without
// being held in memory.
const MaxMessageBytes = mcp.DefaultMaxLineLength

// maxNesting is how deeply a message may nest arrays and objects: the limit of encoding/json,
// which the SDK's decoders share.
const maxNesting = 10000

// idScanBytes is how much of a line that cannot be read whole (too long, too deeply nested) is
// kept to find the request's id in, so that the error answering it can name the request.
const idScanBytes = 64 << 10

// batchingDropped is the first MCP protocol version without JSON-RPC batches
// (https://modelcontextprotocol.io/specification/2025-06-18/changelog).
const batchingDropped = "2025-06-18"

// RunStdio serves one MCP session over newline-delimited JSON-RPC on in and out — the stdio
// transport of the MCP specification (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio)
// — until in reaches EOF, ctx is done, or the client goes away. Only JSON-RPC messages are
// written to out; logs go to Options.Logger.
//
// Every line read gets the answer JSON-RPC 2.0 gives it (https://www.jsonrpc.org/specification),
// and the session goes on: a line that is not JSON gets -32700 with id null; one that is not a
// JSON-RPC request or notification (a wrong or missing "jsonrpc", an id that is not a string or
// a number, params that are not structured, a line over MaxMessageBytes or nested deeper than
// 10,000 levels, an empty batch, a batch in a session on protocol 2025-06-18 or later) gets
// -32600, with the request's id when it can be read. Each item of a batch is answered in the
// batch's answer. Ids are echoed byte for byte as the client wrote them (1.5, 2^63 and longer
// numbers included). A UTF-8 byte order mark at the start of a line is ignored (RFC 8259 §8.1),
// and so are blank lines.
//
// When in reaches EOF, every request already read is answered before RunStdio returns (waiting
// at most DrainTimeout): go-sdk v1.8.0 drops such requests (upstream issue #1061), so RunStdio
// withholds EOF from the SDK until the response to each request read has been written. EOF on in
// is a normal end and returns nil; other errors are returned as they are.
func (s *Server) RunStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	err := s.mcp.Run(ctx, &stdioTransport{conn: newStdioConn(in, out, DrainTimeout, s.log)})
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

// stdioTransport hands the SDK its one stdioConn.
type stdioTransport struct{ conn *stdioConn }

// Connect implements mcp.Transport.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

// stdioConn is the mcp.Connection of RunStdio. It replaces the SDK's newline-delimited
// connection (mcp.IOTransport, go-sdk v1.8.0 mcp/transport.go), which ends the session on the
// first line it cannot decode and turns ids into int64 or string (so that 1.5 comes back as 1
// and 2^63 as -2^63):
//
//   - It frames by line, and answers each line it cannot pass on itself (see RunStdio), so one
//     bad line costs only its own answer.
//   - It gives every request the SDK sees an id of its own (1, 2, 3…) and writes the client's id,
//     byte for byte, back into the response; a cancellation names the request by the same id.
//   - It keeps the requests read but not yet answered, and at EOF on in withholds EOF from the
//     SDK until none is left (or DrainTimeout passes, or Close).
//   - It gives the errors it writes their protocol form (clientError): no Go type names or host
//     paths, and JSON-RPC codes for the SDK's code-0 errors.
//   - It decodes each line once, and writes a result without re-encoding it.
type stdioConn struct {
	out     io.Writer
	in      io.Reader
	timeout time.Duration
	log     *slog.Logger

	incoming  <-chan frame
	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error

	queue []jsonrpc.Message // the rest of a batch; Read is not called concurrently

	mu          sync.Mutex // guards the fields below: Write runs concurrently with Read
	next        int64      // the last id given to a request
	calls       map[jsonrpc.ID]*stdioCall
	latest      map[string]jsonrpc.ID // a client id (its bytes) → the id of the last request that used it
	waiting     int                   // calls not cancelled and not yet answered
	changed     chan struct{}         // closed and replaced whenever waiting drops
	initID      jsonrpc.ID            // the initialize request, until it is answered
	protocol    string                // the negotiated protocol version, from the initialize request on
	initialized bool                  // an initialize has been answered with a result

	writeMu sync.Mutex // serializes writes
	buf     []byte     // the message being written, under writeMu
}

// stdioCall is a request read and passed to the SDK, until its response is written.
type stdioCall struct {
	id        json.RawMessage // as the client wrote it
	method    string
	params    json.RawMessage // for clientError to say what is wrong with them
	batch     *stdioBatch     // the batch it came in, or nil
	slot      int             // its place in batch.replies
	cancelled bool            // the client cancelled it: EOF does not wait for it
}

// stdioBatch is an incoming batch whose answers are collected to be written together, as the
// JSON-RPC specification asks (https://www.jsonrpc.org/specification#batch).
type stdioBatch struct {
	replies    []stdioReply
	unresolved int // replies still to come from the SDK
	calls      []*stdioCall
}

// stdioReply is one answer: the client's id and the response.
type stdioReply struct {
	id   json.RawMessage
	resp *jsonrpc.Response
}

// frame is one line read from in (without its line end), or the error that ended reading. A line
// over MaxMessageBytes comes as its first idScanBytes, with size its length.
type frame struct {
	line []byte
	size int
	err  error
}

func newStdioConn(in io.Reader, out io.Writer, timeout time.Duration, log *slog.Logger) *stdioConn {
	incoming := make(chan frame)
	c := &stdioConn{
		out: out, in: in, timeout: timeout, log: log,
		incoming: incoming,
		closed:   make(chan struct{}),
		calls:    make(map[jsonrpc.ID]*stdioCall),
		latest:   make(map[string]jsonrpc.ID),
		changed:  make(chan struct{}),
	}
	// Reads happen in their own goroutine so that Close can release a Read waiting for input,
	// as in the SDK; the goroutine leaks if in.Read never returns after Close.
	go c.readFrames(incoming)
	return c
}

// readFrames sends each line of in, then the error that ends the stream.
func (c *stdioConn) readFrames(incoming chan<- frame) {
	br := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, size, err := readLine(br, MaxMessageBytes)
		if len(line) > 0 || size > 0 {
			select {
			case incoming <- frame{line: line, size: size}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case incoming <- frame{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads one line of br, without its "\n" or "\r\n". A line longer than limit bytes is
// read to its end but only its first idScanBytes are kept, and size is its length; size is 0
// otherwise. err is the error that ended the line, if it has no "\n" (io.EOF at the end).
func readLine(br *bufio.Reader, limit int) (line []byte, size int, err error) {
	over := false
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		body := chunk
		if err == nil {
			body = bytes.TrimSuffix(chunk[:len(chunk)-1], []byte("\r")) // the line end
			size -= len(chunk) - len(body)
		}
		switch {
		case over:
			line = append(line, body[:min(len(body), max(0, idScanBytes-len(line)))]...)
		case len(line)+len(body) <= limit:
			line = append(line, body...)
		default:
			// Keep only the start, in a buffer of its own, to find the id in.
			over = true
			keep := bytes.Clone(line[:min(len(line), idScanBytes)])
			line = append(keep, body[:min(len(body), idScanBytes-len(keep))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over {
			return line, size, err
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		return line, 0, err
	}
}

// Read implements mcp.Connection: the next message of in for the SDK. Lines that carry none
// are answered here (see RunStdio). At EOF it waits for the requests read to be answered before
// it returns io.EOF.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue = c.queue[1:]
			return m, nil
		}
		var f frame
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f = <-c.incoming:
		}
		if f.err != nil {
			if errors.Is(f.err, io.EOF) {
				if left := c.wait(); left > 0 {
					c.log.Warn("serve: stdin closed with requests unanswered", "requests", left)
				}
			}
			return nil, f.err
		}
		msgs, err := c.accept(f)
		if err != nil {
			return nil, err
		}
		c.queue = msgs
	}
}

// accept reads one line: the messages to pass to the SDK, after answering what the line holds
// that cannot be passed on. The error is one writing to out.
func (c *stdioConn) accept(f frame) ([]jsonrpc.Message, error) {
	line := bytes.TrimPrefix(f.line, []byte("\xef\xbb\xbf")) // a byte order mark (RFC 8259 §8.1)
	line = bytes.TrimSpace(line)
	switch {
	case f.size > 0:
		return nil, c.reject(idIn(line), jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: a message of %d bytes; the limit is %d bytes: send a smaller one", f.size, MaxMessageBytes))
	case len(line) == 0:
		return nil, nil
	case nesting(line) > maxNesting:
		return nil, c.reject(idIn(line[:min(len(line), idScanBytes)]), jsonrpc.CodeInvalidRequest, "Invalid Request: "+tooDeep)
	}
	if !json.Valid(line) {
		return nil, c.reject(nil, jsonrpc.CodeParseError, "Parse error: "+syntaxProblem(line))
	}
	if line[0] == '[' {
		return c.acceptBatch(line)
	}
	m, id, bad := parseMessage(line)
	if bad != nil {
		return nil, c.reject(bad.id, bad.code, bad.msg)
	}
	c.mu.Lock()
	m = c.admit(m, id, nil, 0)
	c.mu.Unlock()
	if m == nil {
		return nil, nil
	}
	return []jsonrpc.Message{m}, nil
}

// acceptBatch reads a batch: its requests are passed on, and its answers written together once
// the last is known.
func (c *stdioConn) acceptBatch(line []byte) ([]jsonrpc.Message, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil { // cannot fail: line is valid JSON
		return nil, c.reject(nil, jsonrpc.CodeParseError, "Parse error: "+err.Error())
	}
	if len(items) == 0 {
		return nil, c.reject(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch")
	}
	c.mu.Lock()
	protocol := c.protocol
	c.mu.Unlock()
	if protocol >= batchingDropped {
		return nil, c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"Invalid Request: JSON-RPC batches are not part of MCP from protocol %s on, and this session uses %s: send one message per line", batchingDropped, protocol))
	}
	b := &stdioBatch{}
	var msgs []jsonrpc.Message
	c.mu.Lock()
	for _, item := range items {
		m, id, bad := parseMessage(item)
		if bad != nil {
			b.replies = append(b.replies, stdioReply{id: bad.id, resp: &jsonrpc.Response{Error: &jsonrpc.Error{Code: bad.code, Message: bad.msg}}})
			continue
		}
		if m = c.admit(m, id, b, len(b.replies)); m == nil {
			continue
		}
		if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
			b.replies = append(b.replies, stdioReply{id: id})
			b.unresolved++
		}
		msgs = append(msgs, m)
	}
	c.mu.Unlock()
	if len(b.replies) > 0 && b.unresolved == 0 {
		// Nothing in it for the SDK to answer: the batch's answer is complete now.
		if err := c.writeReplies(b.replies, true); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// badMessage is why a JSON value is not a message to pass on, as the error answering it.
type badMessage struct {
	id   json.RawMessage // the request's id, or nil for null
	code int64
	msg  string
}

// wireMessage is a JSON-RPC message with every member raw, so that each can be checked and the
// id kept as written.
type wireMessage struct {
	VersionTag json.RawMessage `json:"jsonrpc"`
	ID         json.RawMessage `json:"id"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params"`
	Result     json.RawMessage `json:"result"`
	Error      json.RawMessage `json:"error"`
}

// parseMessage reads one valid JSON value as a JSON-RPC 2.0 message: a request (with id, the
// client's id, and a placeholder ID for admit to replace), a notification or a response; or nil
// and why it is none. Responses the SDK could not match to a request of its own (an id that is
// not an integer or a string, a malformed error) come back as nil and no reason: a response is
// never answered.
func parseMessage(data []byte) (m jsonrpc.Message, id json.RawMessage, _ *badMessage) {
	var w wireMessage
	if len(data) == 0 || data[0] != '{' {
		return nil, nil, &badMessage{code: jsonrpc.CodeInvalidRequest, msg: "Invalid Request: a message is a JSON object"}
	}
	// Members are matched case-sensitively, as the SDK's decoder does.
	if _, err := segjson.Parse(data, &w, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, nil, &badMessage{code: jsonrpc.CodeInvalidRequest, msg: "Invalid Request: " + err.Error()}
	}
	id = bytes.TrimSpace(w.ID)
	// An error answering what may be a response carries id null, so that the client cannot
	// take it for the answer to a request of its own with that id.
	idOK := w.Method != nil && validID(id)
	bad := func(format string, args ...any) *badMessage {
		b := &badMessage{code: jsonrpc.CodeInvalidRequest, msg: "Invalid Request: " + fmt.Sprintf(format, args...)}
		if idOK {
			b.id = id
		}
		return b
	}
	var version string
	if segjson.Unmarshal(w.VersionTag, &version) != nil || version != "2.0" {
		return nil, nil, bad(`"jsonrpc" must be "2.0"`)
	}
	if w.Method == nil {
		m, b := parseResponse(w, id, bad)
		return m, nil, b
	}
	var method string
	if segjson.Unmarshal(w.Method, &method) != nil {
		return nil, nil, bad(`"method" must be a string`)
	}
	if w.ID != nil && !idOK {
		return nil, nil, bad(`"id" must be a string or a number`)
	}
	params := bytes.TrimSpace(w.Params)
	if len(params) > 0 && params[0] != '{' && params[0] != '[' && string(params) != "null" {
		return nil, nil, bad(`"params" must be an object`)
	}
	r := &jsonrpc.Request{Method: method, Params: w.Params}
	if w.ID == nil {
		return r, nil, nil
	}
	r.ID, _ = jsonrpc.MakeID("") // a placeholder, so that r is a call until admit gives its ID
	return r, id, nil
}

// parseResponse reads a message without a method: a response to one of the SDK's requests.
func parseResponse(w wireMessage, id json.RawMessage, bad func(string, ...any) *badMessage) (jsonrpc.Message, *badMessage) {
	if w.Result == nil && w.Error == nil {
		return nil, bad(`a request needs "method"; a response, "result" or "error"`)
	}
	var v any
	if !validID(id) || segjson.Unmarshal(id, &v) != nil {
		return nil, nil
	}
	if f, ok := v.(float64); ok && (f != float64(int64(f)) || string(id) != strconv.FormatInt(int64(f), 10)) {
		return nil, nil // not an id the SDK gave
	}
	sid, err := jsonrpc.MakeID(v)
	if err != nil {
		return nil, nil
	}
	resp := &jsonrpc.Response{ID: sid, Result: w.Result}
	if w.Error != nil {
		var e jsonrpc.Error
		if segjson.Unmarshal(w.Error, &e) != nil {
			return nil, nil
		}
		resp.Error = &e
	}
	return resp, nil
}

// validID reports whether id, a raw JSON value, is an id a request may have: a string or a
// number. MCP forbids null (https://modelcontextprotocol.io/specification/2025-11-25/basic#requests).
func validID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	}
	return false
}

// admit records a message passed to the SDK, under c.mu, and returns it as the SDK is to see
// it: a request (id as the client wrote it) with the connection's own ID, or a cancellation
// naming that ID. It returns nil for a cancellation of no request the SDK still holds. b and
// slot place a request in a batch.
func (c *stdioConn) admit(m jsonrpc.Message, id json.RawMessage, b *stdioBatch, slot int) jsonrpc.Message {
	r, ok := m.(*jsonrpc.Request)
	if !ok {
		return m
	}
	if r.IsCall() {
		return c.admitCall(r, id, b, slot)
	}
	if r.Method != "notifications/cancelled" {
		return r
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(r.Params, &p) != nil {
		return r // the SDK answers nothing to a notification, and logs it
	}
	own, ok := c.latest[string(bytes.TrimSpace(p["requestId"]))]
	if !ok {
		return nil
	}
	if call := c.calls[own]; call != nil && !call.cancelled {
		call.cancelled = true
		c.drop()
	}
	p["requestId"] = json.RawMessage(strconv.FormatInt(own.Raw().(int64), 10))
	params, err := json.Marshal(p)
	if err != nil {
		return r
	}
	return &jsonrpc.Request{Method: r.Method, Params: params}
}

// admitCall gives request r, whose id the client wrote as id, the connection's next ID and
// records it, under c.mu.
func (c *stdioConn) admitCall(r *jsonrpc.Request, id json.RawMessage, b *stdioBatch, slot int) jsonrpc.Message {
	c.next++
	own, _ := jsonrpc.MakeID(float64(c.next))
	call := &stdioCall{id: id, method: r.Method, params: r.Params, batch: b, slot: slot}
	r.ID = own
	c.calls[own] = call
	c.latest[string(id)] = own
	c.waiting++
	if b != nil {
		b.calls = append(b.calls, call)
	}
	if r.Method == "initialize" {
		c.initID = own
		if c.protocol == "" {
			// The lines after initialize are read before its answer is written: take the version
			// the SDK will agree to now (negotiated), so that a batch pipelined behind initialize
			// meets the same rule as one sent after the answer. The answer confirms it, or a
			// refused initialize clears it.
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(r.Params, &p) == nil && p.ProtocolVersion != "" {
				c.protocol = negotiated(p.ProtocolVersion)
			}
		}
	}
	return r
}

// drop notes, under c.mu, that one request fewer is waited for.
func (c *stdioConn) drop() {
	c.waiting--
	close(c.changed)
	c.changed = make(chan struct{})
}

// wait blocks until no request is waited for, the connection is closed, or c.timeout passes.
// It returns how many requests were still unanswered.
func (c *stdioConn) wait() int {
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	for {
		c.mu.Lock()
		n, changed := c.waiting, c.changed
		c.mu.Unlock()
		if n == 0 {
			return 0
		}
		select {
		case <-changed:
		case <-c.closed:
			return n
		case <-timer.C:
			return n
		}
	}
}

// reject answers a line (or a batch) that carries nothing for the SDK: the error code and
// message, with id (nil for null).
func (c *stdioConn) reject(id json.RawMessage, code int64, msg string) error {
	c.log.Warn("serve: rejected a message on stdin", "code", code, "error", msg)
	return c.writeReplies([]stdioReply{{id: id, resp: &jsonrpc.Response{Error: &jsonrpc.Error{Code: code, Message: msg}}}}, false)
}

// Write implements mcp.Connection: msg as one line of out. A response goes out with the
// client's id, its error in protocol form (clientError); the response that completes a batch
// goes out with the rest of the batch as one array.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, ok := msg.(*jsonrpc.Response)
	var call *stdioCall
	if ok {
		c.mu.Lock()
		call = c.calls[resp.ID]
		c.mu.Unlock()
		if call == nil {
			// Not a request read here (cannot happen): written as the SDK would, rather than
			// failing the write, which would end the session.
			c.log.Error("serve: a response to a request stdin did not carry", "id", resp.ID.Raw())
		}
	}
	if call == nil {
		c.writeMu.Lock()
		defer c.writeMu.Unlock()
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return fmt.Errorf("marshaling message: %v", err)
		}
		_, err = c.out.Write(append(data, '\n'))
		return err
	}
	c.mu.Lock()
	delete(c.calls, resp.ID)
	if c.latest[string(call.id)] == resp.ID {
		delete(c.latest, string(call.id))
	}
	if resp.ID == c.initID {
		c.initID = jsonrpc.ID{}
		if resp.Error == nil {
			c.protocol = protocolOf(resp)
		} else if c.protocol != "" && !c.initialized {
			c.protocol = "" // the first initialize, refused: no version was agreed
		}
		c.initialized = c.initialized || resp.Error == nil
	}
	if resp.Error != nil {
		if call.cancelled && call.batch == nil {
			// MCP: no response to a cancelled request
			// (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation).
			c.mu.Unlock()
			return nil
		}
		resp = &jsonrpc.Response{ID: resp.ID, Error: clientError(call.method, call.params, resp.Error)}
	}
	replies, calls := []stdioReply{{id: call.id, resp: resp}}, []*stdioCall{call}
	batched := call.batch != nil
	if batched {
		b := call.batch
		b.replies[call.slot].resp = resp
		if b.unresolved--; b.unresolved > 0 {
			c.mu.Unlock()
			return nil // the batch is not complete yet
		}
		replies, calls = b.replies, b.calls
	}
	c.mu.Unlock()
	err := c.writeReplies(replies, batched)
	if err == nil {
		c.mu.Lock()
		for _, call := range calls {
			if !call.cancelled {
				call.cancelled = true // counted once
				c.drop()
			}
		}
		c.mu.Unlock()
	}
	return err
}

// writeReplies writes answers as one line: a batch's as an array, or the one answer alone.
func (c *stdioConn) writeReplies(rs []stdioReply, batch bool) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	b := c.buf[:0]
	if batch {
		b = append(b, '[')
	}
	for i, r := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendReply(b, r.id, r.resp)
	}
	if batch {
		b = append(b, ']')
	}
	b = append(b, '\n')
	_, err := c.out.Write(b)
	c.buf = b
	if cap(b) > 1<<20 {
		c.buf = nil // do not keep a huge answer's buffer
	}
	return err
}

// appendReply appends a JSON-RPC response with id as the client wrote it (nil for null). A
// result is written as it is: the SDK encodes every result compactly before it reaches the
// connection, so jsonrpc.EncodeMessage would only copy it again.
func appendReply(b []byte, id json.RawMessage, r *jsonrpc.Response) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		id = json.RawMessage("null")
	}
	b = append(b, id...)
	if r.Error != nil {
		e, ok := r.Error.(*jsonrpc.Error)
		if !ok {
			e = &jsonrpc.Error{Code: codeInternalError, Message: r.Error.Error()}
		}
		data, err := json.Marshal(e)
		if err != nil { // Data that is not JSON
			data, _ = json.Marshal(&jsonrpc.Error{Code: e.Code, Message: e.Message})
		}
		b = append(b, `,"error":`...)
		b = append(b, data...)
		return append(b, '}')
	}
	b = append(b, `,"result":`...)
	switch {
	case len(r.Result) == 0:
		b = append(b, "null"...)
	case bytes.IndexByte(r.Result, '\n') >= 0:
		var out bytes.Buffer
		if json.Compact(&out, r.Result) == nil {
			b = append(b, out.Bytes()...)
		} else {
			b = append(b, "null"...)
		}
	default:
		b = append(b, r.Result...)
	}
	return append(b, '}')
}

// protocolOf reads the protocol version from an initialize response; an error or a version
// not given leaves 2025-03-26, as the SDK assumes.
func protocolOf(resp *jsonrpc.Response) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if resp.Error == nil && json.Unmarshal(resp.Result, &r) == nil && r.ProtocolVersion != "" {
		return r.ProtocolVersion
	}
	return "2025-03-26"
}

// Close implements mcp.Connection: it releases a Read waiting for input or at EOF, and closes
// in when in can be closed. out stays open: the process may still write to it.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			c.closeErr = cl.Close()
		}
	})
	return c.closeErr
}

// SessionID implements mcp.Connection: stdio sessions have none.
func (c *stdioConn) SessionID() string { return "" }

// tooDeep says what is wrong with a message that nests deeper than maxNesting: it may be valid
// JSON, but encoding/json, and so the SDK, refuses to decode it.
var tooDeep = fmt.Sprintf("arrays and objects nested more than %d deep; the limit is %d levels", maxNesting, maxNesting)

// nesting returns how deeply the JSON text data nests arrays and objects, counting brackets
// outside strings. Lines with fewer brackets than maxNesting are not scanned.
func nesting(data []byte) int {
	if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) <= maxNesting {
		return 0
	}
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// syntaxProblem says where data, which is not valid JSON, goes wrong.
func syntaxProblem(data []byte) string {
	var v json.RawMessage
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not JSON: %s (at byte %d of the line)", se.Error(), se.Offset)
	}
	if err != nil {
		return "not JSON: " + err.Error()
	}
	return "not one JSON value"
}

// idIn finds the top-level "id" of the JSON object at the start of data, which may be cut short
// or too deep to decode whole; nil when there is none or it is not a valid id.
func idIn(data []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" && validID(v) {
			return v
		}
	}
	return nil
}
