//! Support for the json! macro; not public API.

/// Called by code that json! expands to.
pub fn hidden_helper() {}
