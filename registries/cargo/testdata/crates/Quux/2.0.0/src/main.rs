//! The quux command.

/// Not API: binaries have no public items.
pub fn run() {}

fn main() {
    run();
}
