package answer

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// A Cursor is the opaque paging token every paged answer returns as nextCursor and accepts back
// as cursor. On the wire it is unpadded base64url of a small JSON object. It binds itself to the
// request that issued it with a hash of that request's defining arguments (the query and its
// filters, the package and document …), so a cursor replayed against another request is refused
// with an *ArgumentError instead of silently paging something else. Clients must treat it as
// opaque. ListPages (MCP's resources/list) pages with it too, through Ver and Snapshot.
type Cursor struct {
	V    int    `json:"v"`            // cursorVersion
	Tool string `json:"t"`            // issuer: the answer that issued it (the Issuer constants)
	Hash string `json:"h"`            // RequestHash of the issuing request
	Unit int    `json:"u,omitempty"`  // index of the first unit (hit, section, outline entry) of the next page
	Byte int    `json:"b,omitempty"`  // byte offset inside that unit, when one unit spans pages
	Next string `json:"n,omitempty"`  // an inner cursor (index.Reader.List's), carried through
	Ver  int    `json:"vi,omitempty"` // ListPages: index of the version in the package's versions
	// Snapshot names the snapshot the page was read from (snapshotID), for a listing whose
	// positions mean nothing in another snapshot (ListPages); empty for the others.
	Snapshot string `json:"s,omitempty"`
}

// cursorVersion is bumped when the cursor encoding changes; older cursors are then refused.
const cursorVersion = 1

// maxCursorLen bounds the cursor a client may send, in bytes, before any decoding.
const maxCursorLen = 4096

// RequestHash returns a short digest of the arguments that define a paged request.
func RequestHash(tool string, args ...string) string {
	h := sha256.New()
	h.Write([]byte(tool))
	for _, a := range args {
		h.Write([]byte{0})
		h.Write([]byte(a))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Encode returns the wire form of c.
func (c Cursor) Encode() string {
	c.V = cursorVersion
	b, _ := json.Marshal(c) // cannot fail: plain strings and ints
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses raw as a cursor that issuer issued for the request with hash. An empty
// raw is the first page (a zero Cursor). Any other failure is an *ArgumentError naming the
// problem in the Service's Words.
func (s *Service) DecodeCursor(raw, issuer, hash string) (Cursor, error) {
	if raw == "" {
		return Cursor{}, nil
	}
	w := &s.opts.Words
	bad := func(why string) (Cursor, error) {
		return Cursor{}, s.badCursor("%s; pass back %s unchanged, or omit %s to start over", why, w.NextCursor, w.Cursor)
	}
	if len(raw) > maxCursorLen {
		return bad("too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(raw, "="))
	if err != nil {
		return bad("not a docidx cursor")
	}
	var c Cursor
	if err := json.Unmarshal(b, &c); err != nil || c.V == 0 {
		return bad("not a docidx cursor")
	}
	switch {
	case c.V != cursorVersion:
		return bad("issued by another docidx version")
	case c.Tool != issuer:
		return bad("issued by " + w.name(c.Tool) + ", not " + w.name(issuer))
	case c.Hash != hash:
		return bad("issued for a different request (query, filters, package or path changed)")
	case c.Unit < 0 || c.Byte < 0 || c.Ver < 0:
		return bad("out of range")
	}
	return c, nil
}

// badCursor is the *ArgumentError for a cursor that cannot continue the request: "invalid
// cursor: " and why, in the Service's Words.
func (s *Service) badCursor(format string, args ...any) error {
	return badArgument("cursor", "invalid %s: %s", s.opts.Words.Cursor, fmt.Sprintf(format, args...))
}
