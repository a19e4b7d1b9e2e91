//! Pretty-prints a JSON document given on the command line.
use ferris_json::ser::{to_string_pretty, PrettyConfig};

fn main() {
    let input = std::env::args().nth(1).unwrap_or_else(|| r#"{"a": [1, 2, {"b": null}]}"#.to_string());
    let value = ferris_json::from_str(&input).expect("valid JSON");
    println!("{}", to_string_pretty(&value, PrettyConfig::default()));
}
