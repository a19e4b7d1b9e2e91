package rustapi

import (
	"slices"
	"testing"
)

// TestBodyErrors: a function's Errors are the panics and errors its body makes with a literal
// message, as the code writes them, for free functions and methods alike.
func TestBodyErrors(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
pub struct Buf { cap: usize }
impl Buf {
    /// Grows the buffer.
    pub fn grow(&mut self, n: usize) {
        assert!(n > 0, "grow by zero bytes");
        debug_assert!(n < 1 << 40, "debug only");
        let cap = self.cap.checked_add(n).expect("capacity overflow");
        if cap > MAX {
            panic!("buffer of {} bytes is over the limit", cap);
        }
        let s = "not an error";
        println!("{}", s);
    }
}
pub fn parse(s: &str) -> Result<u8, std::io::Error> {
    if s.is_empty() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty input"));
    }
    let f = |x: u8| -> Result<u8, &'static str> { Err("closure error") };
    unreachable!("parse {}", s)
}
pub fn quiet() -> u8 { let _ = "no letters: 123"; todo!() }
`)
	errs := map[string][]string{}
	for _, s := range res.Symbols {
		errs[s.QualifiedName] = s.Errors
	}
	want := map[string][]string{
		"c::Buf::grow": {`assert!(…, "grow by zero bytes")`, `expect("capacity overflow")`, `panic!("buffer of {} bytes is over the limit", …)`},
		"c::parse":     {`Err(…"empty input"…)`, `Err("closure error")`, `unreachable!("parse {}", …)`},
		"c::quiet":     nil,
	}
	for q, w := range want {
		if !slices.Equal(errs[q], w) {
			t.Errorf("%s: errors %q, want %q", q, errs[q], w)
		}
	}
}
