//! The [`Value`] enum and its accessors.
pub mod number;

use self::number::Number;
use std::collections::BTreeMap;

/// The map type of [`Value::Object`].
pub type Map = BTreeMap<String, Value>;

/// Any JSON value.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    /// JSON `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
    #[doc(hidden)]
    __NonExhaustive,
}

impl Value {
    /// The `null` value, usable in constants.
    pub const NULL: Value = Value::Null;

    /// Returns true if the value is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// Returns the string if the value is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Looks up a key of an object or an element of an array.
    pub fn get<I>(&self, index: I) -> Option<&Value>
    where
        I: Index,
    {
        index.index_into(self)
    }

    /// The JSON type name: `"null"`, `"object"` …
    pub fn r#type(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) | Value::__NonExhaustive => "object",
        }
    }

    #[allow(dead_code)]
    pub(crate) fn kind(&self) -> u8 {
        0
    }

    #[allow(dead_code)]
    fn private_helper(&self) {}
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<i32> for Value {
    fn from(n: i32) -> Self {
        Value::Number(Number::from_i64(n as i64))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

/// Types that can index into a [`Value`]: `usize` for arrays, `&str` for objects.
///
/// This trait is sealed.
pub trait Index: private::Sealed {
    /// A short name for the kind of index, for messages.
    const KIND: &'static str;

    /// What a successful lookup yields.
    type Output: ?Sized;

    /// Looks `self` up in `v`.
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;

    #[doc(hidden)]
    fn __hidden(&self) {}
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for &str {}
}

impl Index for usize {
    const KIND: &'static str = "array index";
    type Output = Value;
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match v {
            Value::Array(a) => a.get(*self),
            _ => None,
        }
    }
}

impl Index for &str {
    const KIND: &'static str = "object key";
    type Output = Value;
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match v {
            Value::Object(m) => m.get(*self),
            _ => None,
        }
    }
}
