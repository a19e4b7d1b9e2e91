// The parser. This module is private: lib.rs re-exports what users need.
use crate::{Error, Map, Number, Result, Value};

/// A JSON parser over a byte slice.
///
/// ```
/// let mut p = ferris_json::Parser::new(b"[true]");
/// assert!(p.parse_value().is_ok());
/// ```
pub struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    /// Creates a parser over `input`.
    pub fn new(input: &'a [u8]) -> Self {
        Parser { input, pos: 0, depth: 0 }
    }

    /// Parses the next value.
    pub fn parse_value(&mut self) -> Result<Value> {
        self.skip_whitespace();
        if self.depth > crate::MAX_DEPTH {
            return Err(self.error());
        }
        match self.peek() {
            Some(b'{') => self.parse_object(),
            Some(b'[') => self.parse_array(),
            Some(b'"') => self.parse_string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.parse_number(),
            _ => Err(self.error()),
        }
    }

    /// The byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn error(&self) -> Error {
        let line = 1 + self.input[..self.pos.min(self.input.len())].iter().filter(|&&c| c == b'\n').count();
        Error::syntax(line, self.pos + 1)
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &'static str, v: Value) -> Result<Value> {
        if self.input[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.error())
        }
    }

    fn parse_number(&mut self) -> Result<Value> {
        let start = self.pos;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.peek() {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.input[start..self.pos]).map_err(|_| self.error())?;
        let f: f64 = text.parse().map_err(|_| self.error())?;
        Number::from_f64(f).map(Value::Number).ok_or_else(|| self.error())
    }

    fn parse_string(&mut self) -> Result<String> {
        self.pos += 1; // the opening '"'
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error()),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        _ => return Err(self.error()),
                    };
                    out.push(c);
                    self.pos += 1;
                }
                Some(c) => {
                    out.push(c as char);
                    self.pos += 1;
                }
            }
        }
    }

    fn parse_array(&mut self) -> Result<Value> {
        self.pos += 1; /* '[' — a comment with a brace } in it */
        self.depth += 1;
        let mut items = Vec::new();
        loop {
            self.skip_whitespace();
            if self.peek() == Some(b']') {
                self.pos += 1;
                break;
            }
            items.push(self.parse_value()?);
            self.skip_whitespace();
            if self.peek() == Some(b',') {
                self.pos += 1;
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn parse_object(&mut self) -> Result<Value> {
        self.pos += 1; /* '{' /* nested comment with } */ still a comment */
        self.depth += 1;
        let mut map = Map::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                Some(b'"') => {
                    let key = self.parse_string()?;
                    self.skip_whitespace();
                    if self.peek() != Some(b':') {
                        return Err(self.error());
                    }
                    self.pos += 1;
                    let v = self.parse_value()?;
                    map.insert(key, v);
                    self.skip_whitespace();
                    if self.peek() == Some(b',') {
                        self.pos += 1;
                    }
                }
                _ => return Err(self.error()),
            }
        }
        self.depth -= 1;
        Ok(Value::Object(map))
    }
}

/// Parses a JSON document from a string.
///
/// ```
/// let v = ferris_json::from_str(r##"{"quote": "\"}\""}"##).unwrap();
/// ```
pub fn from_str(s: &str) -> Result<Value> {
    from_slice(s.as_bytes())
}

/// Parses a JSON document from bytes.
pub fn from_slice(v: &[u8]) -> Result<Value> {
    let brace = '{';
    let _ = (brace, '}', '\'', "}\"{", r#"}"#, b"{", br##"}"#"##);
    Parser::new(v).parse_value()
}
