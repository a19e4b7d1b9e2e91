/// Builds a [`Value`](crate::Value) from JSON-like syntax.
///
/// ```
/// # use ferris_json::json;
/// let v = json!({ "ok": true, "list": [1, 2] });
/// ```
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::Value::Null
    };
    ([ $($elem:tt),* $(,)? ]) => {
        $crate::Value::Array(vec![ $( $crate::json!($elem) ),* ])
    };
    ({ $($key:literal : $value:tt),* $(,)? }) => {{
        let mut map = $crate::Map::new();
        $( map.insert($key.to_string(), $crate::json!($value)); )*
        $crate::Value::Object(map)
    }};
    ($other:expr) => {
        $crate::Value::from($other)
    };
}

/// Not exported: only this crate can use it.
#[allow(unused_macros)]
macro_rules! bail {
    ($err:expr) => {
        return Err($err)
    };
}
