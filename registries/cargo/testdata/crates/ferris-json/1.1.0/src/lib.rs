//! # ferris-json
//!
//! A small JSON [`Value`] type, a [`Parser`], a serializer in [`ser`] and
//! the [`json!`] macro.
//!
//! ```
//! use ferris_json::{from_str, Value};
//!
//! let v: Value = from_str(r#"{"a": [1, 2]}"#).unwrap();
//! assert!(v.is_object());
//! ```
#![cfg_attr(not(feature = "std"), allow(unused))]
#![warn(missing_docs)]

#[macro_use]
mod macros;
mod parse;

pub mod error;
pub mod value;

/// Serializing values back to JSON text.
#[path = "serialize.rs"]
pub mod ser;

#[doc(hidden)]
pub mod __private;

pub use crate::error::{Error, Result};
pub use crate::parse::{from_slice as parse_bytes, from_str, Parser};
pub use value::number::*;
pub use value::{Index, Map, Value};

/// The crate version, as a string.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The deepest nesting the parser accepts.
pub static MAX_DEPTH: usize = 128;

/// Bytes a document may hold before the parser gives up: `1 << 30`.
pub const MAX_INPUT: usize = 1 << 30;

pub(crate) const INTERNAL_LIMIT: u8 = 1;
#[allow(dead_code)]
const PRIVATE_LIMIT: u8 = 2;

/// Parses a JSON document.
///
/// Kept for callers of 0.9; it does exactly what [`from_str`] does.
#[deprecated(since = "1.0.0", note = "use `from_str`")]
pub fn parse_str(s: &str) -> Result<Value> {
    from_str(s)
}

/// The name of the platform this build targets.
#[cfg(unix)]
pub fn platform() -> &'static str {
    "unix"
}

/// The name of the platform this build targets.
#[cfg(not(unix))]
pub fn platform() -> &'static str {
    "other"
}

/// C bindings for embedding the parser.
pub mod ffi {
    use std::os::raw::c_char;

    extern "C" {
        /// Provided by the host: logs one NUL-terminated message.
        pub fn ferris_json_log(msg: *const c_char);
        #[allow(dead_code)]
        fn ferris_json_private_hook();
    }

    /// Validates a NUL-terminated document; returns 0 when it is valid JSON.
    ///
    /// # Safety
    ///
    /// `s` must point to a NUL-terminated string.
    #[no_mangle]
    pub unsafe extern "C" fn ferris_json_validate(s: *const c_char) -> i32 {
        let text = std::ffi::CStr::from_ptr(s).to_string_lossy();
        match crate::from_str(&text) {
            Ok(_) => 0,
            Err(_) => -1,
        }
    }

    /// A C view of a number: an integer or a float.
    #[repr(C)]
    pub union RawNumber {
        /// The integer view.
        pub i: i64,
        /// The float view.
        pub f: f64,
    }

    #[allow(dead_code)]
    pub(super) fn visible_to_parent() {}

    #[allow(dead_code)]
    pub(in crate::ffi) fn visible_here() {}

    #[allow(dead_code)]
    pub(self) fn visible_to_self() {}
}

#[cfg(test)]
mod tests {
    /// Not public: test modules are not compiled into the library.
    pub fn not_public() {}

    #[test]
    fn parses() {
        assert!(crate::from_str("{}").is_ok());
        not_public();
    }
}
