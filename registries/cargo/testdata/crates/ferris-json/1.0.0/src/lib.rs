//! ferris-json 1.0.0: a small JSON value type.

/// Any JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// JSON `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
}

/// Parses a JSON document (only `null`, `true` and `false` in this version).
pub fn parse_str(s: &str) -> Option<Value> {
    match s.trim() {
        "null" => Some(Value::Null),
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => None,
    }
}
