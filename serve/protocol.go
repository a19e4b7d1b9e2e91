package serve

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requestProtocol is the protocol revision a request follows, which decides the revision-dependent
// parts of an answer (the error code of an unknown resource, the shape of a tool result): the
// one in its _meta for the sessionless requests of 2026-07-28 on, else the one its session
// negotiated in initialize; "" when neither is known.
//
// It is not the SDK's ServerRequest.ProtocolVersion, which gives the version the client asked
// for in initialize: a client asking for a revision the server does not speak (a newer one)
// is answered with the server's latest of the handshake, 2025-11-25
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation),
// and must then get that revision's behaviour, not the one of what it asked.
func requestProtocol(req mcp.Request) string {
	if p := req.GetParams(); p != nil {
		if v, ok := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string); ok && v != "" {
			return v
		}
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return ""
	}
	ip := ss.InitializeParams()
	if ip == nil {
		return ""
	}
	return negotiated(ip.ProtocolVersion)
}

// negotiated is the revision the SDK agrees to when a client asks for v in initialize: v when
// the SDK speaks it and it has the handshake (before 2026-07-28), else the newest that does.
func negotiated(v string) string {
	supported := mcp.SupportedProtocolVersions() // newest first
	if v < newProtocol && slices.Contains(supported, v) {
		return v
	}
	for _, s := range supported {
		if s < newProtocol {
			return s
		}
	}
	return v
}
