//! ferris-json 1.0.0: a small JSON value type.
//!
//! This version stands in the crate's history for resolving requirements; 1.1.0 holds the API.

/// Parses a JSON boolean: `Some(true)`, `Some(false)`, or `None` for anything else.
pub fn parse_str(s: &str) -> Option<bool> {
    s.trim().parse().ok()
}
