package answer

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// A Cursor is the opaque paging token every paged answer returns as nextCursor and accepts back
// as cursor. On the wire it is unpadded base64url of a few bytes (see Encode): 20 characters
// for a search's, where the JSON object of version 1 took 84, which an assistant read twice in
// every paged answer (in the text and in nextCursor). It binds itself to the
// request that issued it with a hash of that request's defining arguments (the query and its
// filters, the package and document …), so a cursor replayed against another request is refused
// with an *ArgumentError instead of silently paging something else. Clients must treat it as
// opaque. ListPages (MCP's resources/list) pages with it too, through Ver and Snapshot.
type Cursor struct {
	Tool string // issuer: the answer that issued it (the Issuer constants)
	Hash string // RequestHash of the issuing request: 16 hexadecimal digits
	Unit int    // index of the first unit (hit, section, outline entry) of the next page
	Byte int    // byte offset inside that unit, when one unit spans pages
	Next string // an inner cursor (index.Reader.List's), carried through
	Ver  int    // ListPages: index of the version in the package's versions
	// Snapshot names the snapshot the page was read from (snapshotID), for a listing whose
	// positions mean nothing in another snapshot (ListPages); empty for the others.
	Snapshot string
}

// cursorVersion is bumped when the cursor encoding changes; older cursors are then refused.
// Version 1 was a JSON object, which starts with '{'.
const cursorVersion = 2

// cursorIssuers numbers the issuers for the wire form: a cursor carries its issuer's index.
var cursorIssuers = func() []string {
	is := []string{IssuerSearch, IssuerRead, IssuerList, IssuerGetDoc, IssuerGetNPMDoc, IssuerPages}
	for _, eco := range docidx.Ecosystems {
		is = append(is, IssuerDescribe(eco))
	}
	return is
}()

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

// Encode returns the wire form of c: unpadded base64url of the version byte, the issuer's index
// in cursorIssuers, the request hash's 8 bytes, Unit, Byte and Ver as unsigned varints, and Next
// and Snapshot each as a varint length and its bytes.
func (c Cursor) Encode() string {
	b := make([]byte, 0, 24+len(c.Next)+len(c.Snapshot))
	b = append(b, cursorVersion, byte(slices.Index(cursorIssuers, c.Tool)))
	h, err := hex.DecodeString(c.Hash)
	if err != nil || len(h) != hashBytes {
		h = make([]byte, hashBytes) // not a RequestHash: matches none, so the cursor is refused
	}
	b = append(b, h...)
	for _, n := range []int{c.Unit, c.Byte, c.Ver} {
		b = binary.AppendUvarint(b, uint64(max(n, 0)))
	}
	for _, t := range []string{c.Next, c.Snapshot} {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashBytes is the length of a RequestHash in bytes.
const hashBytes = 8

// decodeCursor parses the bytes of a cursor's wire form (see Encode); ok is false when they are
// not one of this version. The issuer of an unknown index is empty.
func decodeCursor(b []byte) (c Cursor, ok bool) {
	if len(b) < 2+hashBytes || b[0] != cursorVersion {
		return c, false
	}
	if i := int(b[1]); i < len(cursorIssuers) {
		c.Tool = cursorIssuers[i]
	}
	c.Hash = hex.EncodeToString(b[2 : 2+hashBytes])
	b = b[2+hashBytes:]
	for _, n := range []*int{&c.Unit, &c.Byte, &c.Ver} {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > math.MaxInt32 {
			return c, false
		}
		*n, b = int(v), b[k:]
	}
	for _, t := range []*string{&c.Next, &c.Snapshot} {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > uint64(len(b)-k) {
			return c, false
		}
		*t, b = string(b[k:k+int(v)]), b[k+int(v):]
	}
	return c, len(b) == 0
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
	c, ok := decodeCursor(b)
	switch {
	case len(b) > 0 && (b[0] == '{' || b[0] < cursorVersion): // version 1 was JSON
		return bad("issued by another docidx version")
	case !ok || c.Tool == "":
		return bad("not a docidx cursor")
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
