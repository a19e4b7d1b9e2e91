//! JSON numbers.

/// A JSON number: an integer or a finite float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    n: N,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum N {
    Int(i64),
    Float(f64),
}

impl Number {
    /// Makes a number from an integer.
    pub const fn from_i64(i: i64) -> Number {
        Number { n: N::Int(i) }
    }

    /// Makes a number from a float; `None` for NaN and infinities.
    pub fn from_f64(f: f64) -> Option<Number> {
        if f.is_finite() {
            Some(Number { n: N::Float(f) })
        } else {
            None
        }
    }

    /// The number as a float.
    pub fn as_f64(&self) -> f64 {
        match self.n {
            N::Int(i) => i as f64,
            N::Float(f) => f,
        }
    }

    /// Returns true for numbers made from integers.
    pub fn is_i64(&self) -> bool {
        matches!(self.n, N::Int(_))
    }
}
