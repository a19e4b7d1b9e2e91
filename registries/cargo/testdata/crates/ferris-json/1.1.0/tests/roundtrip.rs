use ferris_json::{from_str, ser::to_string};

/// Not part of the API: integration tests are their own crates.
pub fn helper() -> &'static str {
    "[1,2]"
}

#[test]
fn roundtrip() {
    let v = from_str(helper()).unwrap();
    assert_eq!(to_string(&v), "[1,2]");
}
