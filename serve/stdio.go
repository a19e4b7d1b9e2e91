package serve

import (
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

// batchingDropped is the first MCP protocol version without JSON-RPC batches; the SDK's
// newline-delimited connection refuses them from sessions at this version or later.
const batchingDropped = "2025-06-18"

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

// stdioConn is the mcp.Connection of RunStdio: the SDK's newline-delimited connection
// (mcp.IOTransport in go-sdk v1.8.0 mcp/transport.go: frames up to mcp.DefaultMaxLineLength,
// JSON-RPC batches before protocol 2025-06-18, errors that end the session) with two changes.
//
//   - It keeps the set of requests read but not yet answered, and at EOF on in withholds EOF
//     from the SDK until that set is empty (or DrainTimeout passes, or Close).
//   - It decodes each frame once, and writes a result without re-encoding it. The SDK's
//     connection decodes a frame three times (as JSON, as a batch, as a message, the last two
//     with a 32 KB buffer each), and re-scans every result it writes: 0.06 ms for a page of
//     search hits. TestStdioConnWire holds both paths to the SDK's encoding and decoding.
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

	mu       sync.Mutex // guards the fields below: Write runs concurrently with Read
	pending  map[jsonrpc.ID]bool
	changed  chan struct{}              // closed and replaced whenever pending shrinks
	batches  map[jsonrpc.ID]*stdioBatch // the batch each unanswered batched request came in
	initID   jsonrpc.ID                 // the initialize request, until it is answered
	protocol string                     // the negotiated protocol version, once initialized

	writeMu sync.Mutex // serializes writes
	buf     []byte     // the message being written, under writeMu
}

// frame is one JSON value read from in, or the error that ended reading.
type frame struct {
	raw json.RawMessage
	err error
}

func newStdioConn(in io.Reader, out io.Writer, timeout time.Duration, log *slog.Logger) *stdioConn {
	incoming := make(chan frame)
	c := &stdioConn{
		out: out, in: in, timeout: timeout, log: log,
		incoming: incoming,
		closed:   make(chan struct{}),
		pending:  make(map[jsonrpc.ID]bool),
		changed:  make(chan struct{}),
	}
	// Reads happen in their own goroutine so that Close can release a Read waiting for input,
	// as in the SDK; the goroutine leaks if in.Read never returns after Close.
	go c.readFrames(incoming)
	return c
}

// readFrames sends each JSON value of in, then the error that ends the stream, as the SDK's
// connection reads them: a value per line, at most mcp.DefaultMaxLineLength bytes buffered.
func (c *stdioConn) readFrames(incoming chan<- frame) {
	limit := &frameLimitReader{r: c.in, limit: mcp.DefaultMaxLineLength}
	dec := json.NewDecoder(limit)
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == nil {
			var next [1]byte
			if n, _ := dec.Buffered().Read(next[:]); n > 0 && next[0] != '\n' && next[0] != '\r' {
				err = errors.New("invalid trailing data at the end of stream")
			}
		}
		select {
		case incoming <- frame{raw, err}:
		case <-c.closed:
			return
		}
		if err != nil {
			return
		}
		limit.count = 0
	}
}

// errFrameTooLarge is the SDK's error for a frame over its limit.
var errFrameTooLarge = errors.New("inbound JSON-RPC frame exceeded the configured maximum line length")

// frameLimitReader fails a read once limit bytes have been read since count was last reset.
type frameLimitReader struct {
	r            io.Reader
	limit, count int
}

// Read reads from r.r, failing with errFrameTooLarge once the frame's limit is reached.
func (r *frameLimitReader) Read(p []byte) (int, error) {
	if r.count >= r.limit {
		return 0, errFrameTooLarge
	}
	if len(p) > r.limit-r.count {
		p = p[:r.limit-r.count]
	}
	n, err := r.r.Read(p)
	r.count += n
	return n, err
}

// Read implements mcp.Connection: the next message of in. At EOF it waits for the requests read
// to be answered before it returns io.EOF.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
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
	if len(f.raw) > 0 && f.raw[0] == '[' {
		msgs, err := c.readBatch(f.raw)
		if err != nil {
			return nil, err
		}
		c.queue = msgs[1:]
		return msgs[0], nil
	}
	m, err := decodeMessage(f.raw)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.note(m)
	c.mu.Unlock()
	return m, nil
}

// readBatch decodes a batch as the SDK does, and records it so that its responses go out
// together.
func (c *stdioConn) readBatch(raw json.RawMessage) ([]jsonrpc.Message, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc batch: %w", err)
	}
	if len(raws) == 0 {
		return nil, errors.New("empty batch")
	}
	msgs := make([]jsonrpc.Message, len(raws))
	for i, r := range raws {
		m, err := decodeMessage(r)
		if err != nil {
			return nil, err
		}
		msgs[i] = m
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.protocol >= batchingDropped {
		return nil, fmt.Errorf("JSON-RPC batching is not supported in %s and later (request version: %s)", batchingDropped, c.protocol)
	}
	b := &stdioBatch{unresolved: make(map[jsonrpc.ID]int)}
	for _, m := range msgs {
		if r, ok := m.(*jsonrpc.Request); ok && r.ID.IsValid() {
			if _, dup := b.unresolved[r.ID]; dup {
				return nil, fmt.Errorf("duplicate message ID %v", r.ID.Raw())
			}
			if _, seen := c.batches[r.ID]; seen {
				return nil, fmt.Errorf("%w: batch contains previously seen request %v", errInvalidRequest, r.ID.Raw())
			}
			b.unresolved[r.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
	}
	if c.batches == nil && len(b.unresolved) > 0 {
		c.batches = make(map[jsonrpc.ID]*stdioBatch)
	}
	for id := range b.unresolved {
		c.batches[id] = b
	}
	for _, m := range msgs {
		c.note(m)
	}
	return msgs, nil
}

// errInvalidRequest is the SDK's error for an invalid request (jsonrpc2.ErrInvalidRequest).
var errInvalidRequest = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request"}

// stdioBatch is an incoming batch whose responses are collected to be written together, as the
// JSON-RPC specification asks (https://www.jsonrpc.org/specification#batch).
type stdioBatch struct {
	unresolved map[jsonrpc.ID]int // request ID → its place in responses
	responses  []*jsonrpc.Response
}

// note records what a message read asks of the connection, under c.mu: a request to be
// answered, a cancellation (a cancelled request may never be answered), or the initialize
// request whose answer names the protocol version.
func (c *stdioConn) note(m jsonrpc.Message) {
	r, ok := m.(*jsonrpc.Request)
	if !ok {
		return
	}
	switch {
	case r.ID.IsValid():
		c.pending[r.ID] = true
		if r.Method == "initialize" {
			c.initID = r.ID
		}
	case r.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(r.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				c.answered(id)
			}
		}
	}
}

// answered strikes id off the pending requests, under c.mu.
func (c *stdioConn) answered(id jsonrpc.ID) {
	if c.pending[id] {
		delete(c.pending, id)
		close(c.changed)
		c.changed = make(chan struct{})
	}
}

// wait blocks until no request is pending, the connection is closed, or c.timeout passes. It
// returns how many requests were still unanswered.
func (c *stdioConn) wait() int {
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	for {
		c.mu.Lock()
		n, changed := len(c.pending), c.changed
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

// Write implements mcp.Connection: msg as one line of out, or, for the response that completes
// a batch, the batch's responses as one array.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	resp, isResponse := msg.(*jsonrpc.Response)
	var (
		answers []*jsonrpc.Response
		batched bool
	)
	if isResponse {
		c.mu.Lock()
		if c.initID.IsValid() && resp.ID == c.initID {
			c.initID = jsonrpc.ID{}
			c.protocol = protocolOf(resp)
		}
		answers, batched = c.collect(resp)
		c.mu.Unlock()
		if batched && answers == nil {
			return nil // the batch is not complete yet
		}
		if !batched {
			answers = []*jsonrpc.Response{resp}
		}
	}
	var err error
	if batched {
		c.buf, err = appendBatch(c.buf[:0], answers)
	} else {
		c.buf, err = appendMessage(c.buf[:0], msg)
	}
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	c.buf = append(c.buf, '\n')
	_, err = c.out.Write(c.buf)
	if cap(c.buf) > 1<<20 {
		c.buf = nil // do not keep a huge answer's buffer
	}
	if err == nil && len(answers) > 0 {
		c.mu.Lock()
		for _, a := range answers {
			c.answered(a.ID)
		}
		c.mu.Unlock()
	}
	return err
}

// collect records resp in its batch, under c.mu. batched reports whether resp belongs to a
// batch; done is the whole batch's responses once resp completes it, and nil before.
func (c *stdioConn) collect(resp *jsonrpc.Response) (done []*jsonrpc.Response, batched bool) {
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	i := b.unresolved[resp.ID]
	b.responses[i] = resp
	delete(b.unresolved, resp.ID)
	delete(c.batches, resp.ID)
	if len(b.unresolved) > 0 {
		return nil, true
	}
	return b.responses, true
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

// wireMessage is a JSON-RPC message as the SDK decodes it (go-sdk v1.8.0
// internal/jsonrpc2/messages.go wireDecode): method raw, so that "method":"" is told from none.
type wireMessage struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *jsonrpc.Error  `json:"error,omitempty"`
}

// decodeMessage is jsonrpc.DecodeMessage without its 32 KB read buffer: the same decoder
// (segmentio/encoding, struct fields matched case-sensitively) parsing data in place.
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var w wireMessage
	// Like the SDK's decoder, Parse stops after the first value; the frame reader has already
	// refused anything after it.
	if _, err := segjson.Parse(data, &w, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if w.VersionTag != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", w.VersionTag, "2.0")
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return nil, err
	}
	if len(w.Method) > 0 {
		var method string
		if err := segjson.Unmarshal(w.Method, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: w.Params}, nil
	}
	if !id.IsValid() {
		return nil, errInvalidRequest
	}
	resp := &jsonrpc.Response{ID: id, Result: w.Result}
	if w.Error != nil {
		resp.Error = w.Error
	}
	return resp, nil
}

// appendMessage appends msg's JSON encoding to b. A result is written as it is: the SDK encodes
// every result compactly before it reaches the connection, so jsonrpc.EncodeMessage would only
// copy it again. Other messages, and results with an ID other than a plain integer or string,
// go through jsonrpc.EncodeMessage.
func appendMessage(b []byte, msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 && bytes.IndexByte(r.Result, '\n') < 0 {
		start := len(b)
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		switch id := r.ID.Raw().(type) {
		case int64:
			b = strconv.AppendInt(b, id, 10)
		case string:
			if !plainString(id) {
				return appendEncoded(b[:start], msg)
			}
			b = append(append(append(b, '"'), id...), '"')
		default:
			return appendEncoded(b[:start], msg)
		}
		b = append(b, `,"result":`...)
		b = append(b, r.Result...)
		return append(b, '}'), nil
	}
	return appendEncoded(b, msg)
}

// appendEncoded appends msg as jsonrpc.EncodeMessage encodes it.
func appendEncoded(b []byte, msg jsonrpc.Message) ([]byte, error) {
	data, err := jsonrpc.EncodeMessage(msg)
	return append(b, data...), err
}

// appendBatch appends a batch's responses as a JSON array.
func appendBatch(b []byte, rs []*jsonrpc.Response) ([]byte, error) {
	b = append(b, '[')
	for i, r := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendMessage(b, r); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// plainString reports whether s is written in JSON as it is between quotes: printable ASCII
// without quote or backslash (and without <, > or &, which some encoders escape).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
