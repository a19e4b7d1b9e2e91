//! Writing values as JSON text, compact or pretty.
mod escape;

pub use escape::escape_str;

use crate::Value;

/// How [`to_string_pretty`] lays out its output.
#[derive(Debug, Clone, Copy)]
pub struct PrettyConfig {
    /// Spaces per nesting level.
    pub indent: usize,
    /// Write object keys in sorted order.
    pub sort_keys: bool,
    _private: (),
}

impl Default for PrettyConfig {
    fn default() -> Self {
        PrettyConfig { indent: 2, sort_keys: true, _private: () }
    }
}

/// Writes `v` as compact JSON.
pub fn to_string(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v, None, 0);
    out
}

/// Writes `v` as indented JSON.
pub fn to_string_pretty(v: &Value, cfg: PrettyConfig) -> String {
    let mut out = String::new();
    write(&mut out, v, Some(cfg), 0);
    out
}

fn write(out: &mut String, v: &Value, cfg: Option<PrettyConfig>, level: usize) {
    let nl = |out: &mut String, level: usize| {
        if let Some(c) = cfg {
            out.push('\n');
            out.push_str(&" ".repeat(c.indent * level));
        }
    };
    match v {
        Value::Null | Value::__NonExhaustive => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.as_f64().to_string()),
        Value::String(s) => {
            out.push('"');
            out.push_str(&escape_str(s));
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                nl(out, level + 1);
                write(out, item, cfg, level + 1);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                nl(out, level + 1);
                out.push_str(&format!("\"{}\":", escape_str(k)));
                write(out, item, cfg, level + 1);
            }
            out.push('}');
        }
    }
}
