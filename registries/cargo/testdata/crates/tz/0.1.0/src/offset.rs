/// An offset from UTC in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offset {
    /// Seconds east of UTC.
    pub seconds: i32,
}

impl Offset {
    /// An offset of `h` whole hours.
    pub fn hours(h: i32) -> Offset {
        Offset { seconds: h * 3600 }
    }
}
