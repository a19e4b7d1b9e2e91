#![feature(test)]
extern crate test;

pub fn bench_input() -> String {
    "[1, 2, 3]".repeat(100)
}
