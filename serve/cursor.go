package serve

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// A cursor is the opaque paging token every paged tool returns as nextCursor and accepts back as
// cursor. On the wire it is unpadded base64url of a small JSON object. It binds itself to the
// request that issued it with a hash of that request's defining arguments (the query and its
// filters, the package and document …), so a cursor replayed against another request is refused
// with -32602 instead of silently paging something else. Clients must treat it as opaque.
type cursor struct {
	V    int    `json:"v"`            // cursorVersion
	Tool string `json:"t"`            // tool that issued it
	Hash string `json:"h"`            // requestHash of the issuing request
	Unit int    `json:"u,omitempty"`  // index of the first unit (hit, section, outline entry) of the next page
	Byte int    `json:"b,omitempty"`  // byte offset inside that unit, when one unit spans pages
	Next string `json:"n,omitempty"`  // an inner cursor (index.Reader.List's), carried through
	Pass int    `json:"p,omitempty"`  // resources/list: 0 lists package pages, 1 symbol pages
	Ver  int    `json:"vi,omitempty"` // resources/list: index of the version in the package's versions
}

// cursorVersion is bumped when the cursor encoding changes; older cursors are then refused.
const cursorVersion = 1

// maxCursorLen bounds the cursor a client may send, in bytes, before any decoding.
const maxCursorLen = 4096

// requestHash returns a short digest of the arguments that define a paged request.
func requestHash(tool string, args ...string) string {
	h := sha256.New()
	h.Write([]byte(tool))
	for _, a := range args {
		h.Write([]byte{0})
		h.Write([]byte(a))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// encode returns the wire form of c.
func (c cursor) encode() string {
	c.V = cursorVersion
	b, _ := json.Marshal(c) // cannot fail: plain strings and ints
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor parses s as a cursor that tool issued for the request with hash. An empty s is
// the first page (a zero cursor). Any other failure is a -32602 error naming the problem.
func decodeCursor(s, tool, hash string) (cursor, error) {
	if s == "" {
		return cursor{}, nil
	}
	bad := func(why string) (cursor, error) {
		return cursor{}, invalidParams(map[string]string{"argument": "cursor"},
			"invalid cursor: %s; pass back the nextCursor of the previous page unchanged, or omit cursor to start over", why)
	}
	if len(s) > maxCursorLen {
		return bad("too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return bad("not a docidx cursor")
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.V == 0 {
		return bad("not a docidx cursor")
	}
	switch {
	case c.V != cursorVersion:
		return bad("issued by another docidx version")
	case c.Tool != tool:
		return bad("issued by " + c.Tool + ", not " + tool)
	case c.Hash != hash:
		return bad("issued for a different request (query, filters, package or path changed)")
	case c.Unit < 0 || c.Byte < 0 || c.Ver < 0 || c.Pass < 0 || c.Pass > 1:
		return bad("out of range")
	}
	return c, nil
}
