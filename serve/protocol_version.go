package serve

// newProtocol is the first protocol revision whose requests carry their version in _meta and
// need no session (SEP-2575), and which initialize never negotiates.
//
// It is the same constant as in branch i15-http's http.go, which shares protocol.go with this
// branch: when both are merged, this file goes.
const newProtocol = "2026-07-28"
