//! Fixed offsets from UTC.
//!
//! Written in Rust 2015, where `use` paths start at the crate root.

pub use offset::Offset;

mod offset;

/// Named zones.
pub mod zones {
    pub use super::offset::Offset as ZoneOffset;

    /// Coordinated Universal Time.
    pub const UTC: ::offset::Offset = ::offset::Offset { seconds: 0 };

    /// Looks a zone up by its abbreviation ("UTC", "CET").
    pub fn by_name(name: &str) -> Option<::Offset> {
        match name {
            "UTC" => Some(UTC),
            "CET" => Some(::Offset::hours(1)),
            _ => None,
        }
    }
}
