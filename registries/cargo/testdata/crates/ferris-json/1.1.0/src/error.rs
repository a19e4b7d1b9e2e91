//! The error type of every fallible operation.
use std::fmt;

/// An error while parsing or serializing JSON.
#[derive(Debug)]
pub struct Error {
    line: usize,
    column: usize,
    pub(crate) category: Category,
}

/// A `Result` whose error type defaults to [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// What kind of problem an [`Error`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Category {
    /// The input ended in the middle of a value.
    Eof,
    /// The input is not JSON.
    Syntax,
    /// The value does not fit the requested type.
    Data,
}

impl Error {
    pub(crate) fn syntax(line: usize, column: usize) -> Self {
        Error { line, column, category: Category::Syntax }
    }

    /// The one-based line at which the error was found.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The one-based column at which the error was found.
    pub fn column(&self) -> usize {
        self.column
    }

    /// What kind of error this is.
    pub fn classify(&self) -> Category {
        self.category
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} error at line {} column {}", self.category, self.line, self.column)
    }
}

impl std::error::Error for Error {}
