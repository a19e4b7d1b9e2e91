package rustapi

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docidx/docidx"

	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// render prints a Result in the golden-file format: one header line per symbol, then its signature
// lines and the first line of its doc, indented.
func render(res Result) string {
	var b strings.Builder
	for _, s := range res.Symbols {
		testutil.Symbol(&b, s)
	}
	testutil.Outcome(&b, res.Result)
	return b.String()
}

// TestGolden extracts the fixture crates (written for docidx and packaged with cargo package, in
// ../../testdata/crates) and a real crate (testdata/third_party, see its README.md), comparing with
// testdata/golden/*.golden; -update rewrites them. The fixtures' expected public API was checked
// against rustdoc's JSON output.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, dir string
		opts      Options
	}{
		{"ferris-json-1.1.0", "../../testdata/crates/ferris-json/1.1.0", Options{Crate: "ferris_json", Edition: "2021"}},
		{"tz-0.1.0", "../../testdata/crates/tz/0.1.0", Options{Crate: "tz", Root: "src/tz.rs"}},
		{"flatbuffers-25.2.10", "testdata/third_party/flatbuffers", Options{Crate: "flatbuffers", Edition: "2018"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Extract(os.DirFS(filepath.FromSlash(tc.dir)), tc.opts)
			testutil.CheckSymbols(t, res.Symbols)
			got := render(res)
			goldenPath := filepath.Join("testdata", "golden", tc.name+".golden")
			golden.Check(t, goldenPath, []byte(got))
		})
	}
}

// TestFixtureMatchesRustdoc pins the public item paths of ferris-json 1.1.0 to what rustdoc
// (nightly, --output-format json) lists for it, each item at its shortest path, with its enum
// variants and pub fields (rustdoc's "variant" and "struct_field" items); #[doc(hidden)] items,
// which rustdoc strips, are absent from both.
func TestFixtureMatchesRustdoc(t *testing.T) {
	res := Extract(os.DirFS("../../testdata/crates/ferris-json/1.1.0"), Options{Crate: "ferris_json", Edition: "2021"})
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.QualifiedName)
	}
	slices.Sort(got)
	want := []string{
		"ferris_json", "ferris_json::Error", "ferris_json::Error::classify", "ferris_json::Error::column",
		"ferris_json::Error::line", "ferris_json::Index", "ferris_json::Index::KIND", "ferris_json::Index::Output",
		"ferris_json::Index::index_into", "ferris_json::MAX_DEPTH", "ferris_json::MAX_INPUT", "ferris_json::Map",
		"ferris_json::Number", "ferris_json::Number::as_f64", "ferris_json::Number::from_f64", "ferris_json::Number::from_i64",
		"ferris_json::Number::is_i64", "ferris_json::Parser", "ferris_json::Parser::new", "ferris_json::Parser::offset",
		"ferris_json::Parser::parse_value", "ferris_json::Result", "ferris_json::VERSION", "ferris_json::Value",
		"ferris_json::Value::Array", "ferris_json::Value::Bool", "ferris_json::Value::NULL", "ferris_json::Value::Null",
		"ferris_json::Value::Number", "ferris_json::Value::Object", "ferris_json::Value::String", "ferris_json::Value::as_str", "ferris_json::Value::get", "ferris_json::Value::is_object",
		"ferris_json::Value::type", "ferris_json::error", "ferris_json::error::Category",
		"ferris_json::error::Category::Data", "ferris_json::error::Category::Eof", "ferris_json::error::Category::Syntax",
		"ferris_json::ffi", "ferris_json::ffi::RawNumber", "ferris_json::ffi::RawNumber::f", "ferris_json::ffi::RawNumber::i",
		"ferris_json::ffi::ferris_json_log", "ferris_json::ffi::ferris_json_validate",
		"ferris_json::from_str", "ferris_json::json!", "ferris_json::parse_bytes", "ferris_json::parse_str",
		"ferris_json::platform", "ferris_json::ser", "ferris_json::ser::PrettyConfig",
		"ferris_json::ser::PrettyConfig::indent", "ferris_json::ser::PrettyConfig::sort_keys", "ferris_json::ser::escape_str",
		"ferris_json::ser::to_string", "ferris_json::ser::to_string_pretty", "ferris_json::value", "ferris_json::value::number",
	}
	if !slices.Equal(got, want) {
		t.Errorf("public paths differ from rustdoc's:\n got %q\nwant %q", got, want)
	}
}

// extract runs Extract over files given as path, content pairs, with src/lib.rs as root.
func extract(t *testing.T, opts Options, files ...string) Result {
	t.Helper()
	fsys := fstest.MapFS{}
	for i := 0; i+1 < len(files); i += 2 {
		fsys[files[i]] = &fstest.MapFile{Data: []byte(files[i+1])}
	}
	if opts.Crate == "" {
		opts.Crate = "c"
	}
	if opts.Edition == "" {
		opts.Edition = "2021"
	}
	res := Extract(fsys, opts)
	testutil.CheckSymbols(t, res.Symbols)
	return res
}

// names returns "kind qualifiedName" for each symbol.
func names(res Result) []string {
	var out []string
	for _, s := range res.Symbols {
		out = append(out, string(s.Kind)+" "+s.QualifiedName)
	}
	return out
}

func TestVisibility(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
pub fn public() {}
pub(crate) fn krate() {}
pub(super) fn sup() {}
pub(self) fn slf() {}
pub(in crate::a) fn within() {}
crate fn old_crate() {}
fn private() {}
pub struct S(pub (u8, u8), u8);
pub(crate) struct Hidden;
#[doc(hidden)] pub fn hidden() {}
#[cfg(test)] pub fn test_only() {}
#[cfg(all(test, feature = "x"))] pub fn test_only_too() {}
#[cfg(not(test))] pub fn not_test() {}
#[cfg(any(test, feature = "x"))] pub fn maybe_test() {}
#[cfg(test)] mod tests { pub fn t() {} }
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
mod private_mod { pub fn reachable_only_by_reexport() {} }
pub mod a { pub fn f() {} pub(crate) fn g() {} }
`)
	want := []string{"package c", "func c::public", "struct c::S", "func c::not_test", "func c::maybe_test", "package c::a", "func c::a::f"}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if s := testutil.ByName(res.Symbols)["c::S"]; s.Signature != "pub struct S(pub (u8, u8), /* private fields */);" {
		t.Errorf("tuple struct signature %q", s.Signature)
	}
}

func TestModuleFiles(t *testing.T) {
	res := extract(t, Options{},
		"src/lib.rs", "//! Crate doc.\npub mod a;\npub mod b;\n#[path = \"other/c_impl.rs\"] pub mod c;\npub mod inline { pub mod deep; }\nmod missing;\n",
		"src/a.rs", "//! Module a.\npub mod nested;\npub fn in_a() {}\n",
		"src/a/nested.rs", "pub fn in_nested() {}\n",
		"src/b/mod.rs", "pub mod leaf;\n",
		"src/b/leaf.rs", "pub const LEAF: u8 = 1;\n",
		"src/other/c_impl.rs", "pub mod sub;\npub fn in_c() {}\n",
		"src/other/sub.rs", "pub fn in_sub() {}\n",
		"src/inline/deep.rs", "pub fn in_deep() {}\n",
		"src/tests.rs", "pub fn never_read() {}\n",
	)
	// Breadth-first: each module's items right after it, shallow modules first.
	want := []string{
		"package c", "package c::a", "func c::a::in_a", "package c::b", "package c::c", "func c::c::in_c",
		"package c::inline", "package c::a::nested", "func c::a::nested::in_nested", "package c::b::leaf",
		"const c::b::leaf::LEAF", "package c::c::sub", "func c::c::sub::in_sub", "package c::inline::deep",
		"func c::inline::deep::in_deep",
	}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	syms := testutil.ByName(res.Symbols)
	if s := syms["c"]; s.Doc != "Crate doc." || s.Signature != "crate c" || s.File != "src/lib.rs" {
		t.Errorf("crate symbol %+v", s)
	}
	if s := syms["c::a"]; s.Doc != "Module a." || s.File != "src/a.rs" || s.Package != "c::a" {
		t.Errorf("module a %+v", s)
	}
	if s := syms["c::c::sub::in_sub"]; s.File != "src/other/sub.rs" {
		t.Errorf("module under #[path] %+v", s)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "module missing: none of src/missing.rs, src/missing/mod.rs found") {
		t.Errorf("problems %q", res.Problems)
	}
	if !slices.Equal(res.Files, []string{"src/lib.rs", "src/a.rs", "src/a/nested.rs", "src/b/mod.rs", "src/b/leaf.rs", "src/other/c_impl.rs", "src/other/sub.rs", "src/inline/deep.rs"}) {
		t.Errorf("files %q", res.Files)
	}
}

func TestPathAttributeCannotLeaveCrate(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", "#[path = \"../../etc/passwd\"] pub mod evil;\n#[path = \"/abs.rs\"] pub mod abs;\n")
	if len(res.Files) != 1 || len(res.Problems) != 2 {
		t.Errorf("files %q problems %q", res.Files, res.Problems)
	}
}

func TestReexports(t *testing.T) {
	res := extract(t, Options{},
		"src/lib.rs", `
mod imp;
mod util;
pub mod api;
pub use imp::{Engine, start as begin, self as implementation};
pub use crate::util::*;
pub use std::collections::HashMap;
pub use api::Client as ApiClient;
pub use imp::nested::deep::Deep;
pub(crate) use imp::Internal;
`,
		"src/imp.rs", `
pub struct Engine;
pub fn start() -> Engine { Engine }
pub(crate) struct Internal;
pub mod nested { pub mod deep { pub struct Deep; } }
impl Engine { pub fn run(&self) {} fn private(&self) {} }
`,
		"src/util.rs", "pub fn helper() {}\npub(crate) fn not_exported() {}\npub use self::more::*;\nmod more { pub const MORE: u8 = 1; }\n",
		"src/api.rs", "pub struct Client;\nimpl Client { pub fn new() -> Self { Client } }\n",
	)
	want := []string{
		"package c",
		"struct c::Engine", "method c::Engine::run",
		"func c::implementation::start", // begin is an alias; imp is public as implementation
		"func c::helper", "const c::MORE",
		// Listed under its declared name (in the public module api), not the shorter alias.
		"struct c::api::Client", "method c::api::Client::new",
		"struct c::Deep",
		"package c::api",
		// imp is public as implementation, but its items are listed once, at their shorter paths.
		"package c::implementation", "package c::implementation::nested", "package c::implementation::nested::deep",
	}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	syms := testutil.ByName(res.Symbols)
	if s := syms["c::implementation::start"]; s.Signature != "pub fn start() -> Engine" || s.File != "src/imp.rs" || s.Line != 3 || s.Package != "c::implementation" {
		t.Errorf("item first seen under an alias %+v", s)
	}
	// Only an alias: listed under it, the signature renamed.
	res = extract(t, Options{}, "src/lib.rs", "mod imp { pub fn start() {} }\npub use imp::start as begin;\n")
	if s := testutil.ByName(res.Symbols)["c::begin"]; s.Name != "begin" || s.Signature != "pub fn begin()" {
		t.Errorf("renamed re-export %+v", s)
	}
	if s := syms["c::api::Client::new"]; s.Parent != "Client" || s.Package != "c::api" || s.Key() != "Client.new" {
		t.Errorf("method of a type first seen under an alias %+v", s)
	}
}

func TestReexportsEdition2015(t *testing.T) {
	src := "pub use inner::Thing;\nmod inner { pub struct Thing; }\npub mod m { pub use inner::Thing as Again; pub use ::inner::Thing as Rooted; }\n"
	res := extract(t, Options{Edition: "2015"}, "src/lib.rs", src)
	if got := names(res); !slices.Equal(got, []string{"package c", "struct c::Thing", "package c::m"}) {
		t.Errorf("2015: %q", got) // Thing is listed once, under its shortest path
	}
	res = extract(t, Options{Edition: "2018"}, "src/lib.rs", src)
	if got := names(res); !slices.Equal(got, []string{"package c", "struct c::Thing", "package c::m"}) {
		t.Errorf("2018: %q", got) // in 2018 `inner::Thing` inside m names an extern crate: nothing
	}
}

func TestReexportCycles(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
pub mod a { pub use crate::b::*; pub fn fa() {} }
pub mod b { pub use crate::a::*; pub fn fb() {} }
pub use self::a::*;
pub mod me { pub use super::me; pub use self::me as again; }
`)
	want := []string{"package c", "func c::fa", "func c::fb", "package c::a", "package c::b", "package c::me"}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestItemsAndSignatures(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
/// Adds.
///
///   Indented line.
#[inline]
#[must_use]
pub const fn add<const N: usize>(a: u8,
    b: u8,
) -> u8
where
    [(); N]: Sized,
{
    a + b
}

/** Block
 * doc.
 */
pub async unsafe fn block() {}

#[doc = "Attribute"]
#[doc = r#"doc."#]
pub extern "C" fn ext(x: i32) -> i32 { x }

pub struct Unit;
pub struct Generic<T: Clone = String, const M: usize = { 1 + 2 }> where T: Default { pub t: T, pub(crate) m: [u8; M] }
pub enum Shifts { A = 1 << 0, B = 1 << 1, C(Vec<Vec<u8>>), D { x: HashMap<u8, u16> } }
pub union U { pub a: u32, b: f32 }
pub type Callback<'a> = Box<dyn Fn(&'a str) -> Result<(), Box<dyn Error>> + Send + 'a>;
pub const BIG: [u8; 4] = { let mut a = [0; 4]; a[0] = 1; a };
pub const SMALL: &str = "}{";
pub static mut COUNTER: u32 = 0;
pub trait Alias = Clone + Send;
pub unsafe trait Zeroable: Sized + Copy { unsafe fn zeroed() -> Self { core::mem::zeroed() } }
pub fn r#match(c: char) -> bool { c == '{' || c == '}' || "}" == "{" }
`)
	syms := testutil.ByName(res.Symbols)
	testutil.Signatures(t, syms, map[string]string{
		"c::add":              "pub const fn add<const N: usize>(a: u8, b: u8) -> u8 where [(); N]: Sized",
		"c::block":            "pub async unsafe fn block()",
		"c::ext":              `pub extern "C" fn ext(x: i32) -> i32`,
		"c::Unit":             "pub struct Unit;",
		"c::Generic":          "pub struct Generic<T: Clone = String, const M: usize = { 1 + 2 }> where T: Default { pub t: T, /* private fields */ }",
		"c::Shifts":           "pub enum Shifts { A = 1 << 0, B = 1 << 1, C(Vec<Vec<u8>>), D { x: HashMap<u8, u16> } }",
		"c::U":                "pub union U { pub a: u32, /* private fields */ }",
		"c::Callback":         "pub type Callback<'a> = Box<dyn Fn(&'a str) -> Result<(), Box<dyn Error>> + Send + 'a>;",
		"c::BIG":              "pub const BIG: [u8; 4];",
		"c::SMALL":            `pub const SMALL: &str = "}{";`,
		"c::COUNTER":          "pub static mut COUNTER: u32 = 0;",
		"c::Alias":            "pub trait Alias = Clone + Send;",
		"c::Zeroable":         "pub unsafe trait Zeroable: Sized + Copy",
		"c::Zeroable::zeroed": "unsafe fn zeroed() -> Self",
		"c::match":            "pub fn r#match(c: char) -> bool",
	})
	testutil.Docs(t, syms, map[string]string{"c::add": "Adds.\n\n  Indented line.", "c::block": "Block\ndoc.", "c::ext": "Attribute\ndoc."})
	if s := syms["c::COUNTER"]; s.Kind != docidx.KindVar {
		t.Errorf("static kind %s", s.Kind)
	}
	if s := testutil.ByName(res.Symbols)["c::U"]; s.Kind != docidx.KindStruct {
		t.Errorf("union kind %s", s.Kind)
	}
}

func TestImpls(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
pub struct Point<T> { pub x: T }
struct Private;
mod inner {
    use super::Point;
    impl<T: Copy> Point<T> {
        /// The x coordinate.
        pub fn x(&self) -> T { self.x }
        pub(crate) fn hidden(&self) {}
        pub const ORIGIN: u8 = 0;
        #[doc(hidden)] pub fn undocumented(&self) {}
        #[cfg(test)] pub fn test_helper(&self) {}
    }
    impl crate::Private { pub fn not_listed(&self) {} }
}
impl<T> Clone for Point<T> where T: Clone { fn clone(&self) -> Self { todo!() } }
impl<T> Point<T> where for<'a> &'a T: Send { pub fn hrtb(&self) {} }
impl<F: for<'a> Fn(&'a u8)> Point<F> { pub fn call(&self) {} }
impl dyn Shape { pub fn area(&self) -> f64 { 0.0 } }
pub trait Shape {}
impl !Send for Private {}
#[cfg(unix)] impl Point<u8> { pub fn platform(&self) -> &str { "unix" } }
#[cfg(windows)] impl Point<u8> { pub fn platform(&self) -> &'static str { "windows" } }
`)
	// Impls of a module come before those of its child modules.
	want := []string{
		"package c", "struct c::Point", "field field@c::Point::x",
		"method c::Point::hrtb", "method c::Point::call", "method c::Point::platform", "method c::Point::x", "const c::Point::ORIGIN",
		"trait c::Shape", "method c::Shape::area",
	}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	syms := testutil.ByName(res.Symbols)
	if s := syms["c::Point::x"]; s.Parent != "Point" || s.Doc != "The x coordinate." || s.Key() != "Point.x" {
		t.Errorf("method %+v", s)
	}
	if s := syms["c::Point::platform"]; s.Signature != "pub fn platform(&self) -> &str\npub fn platform(&self) -> &'static str" {
		t.Errorf("cfg variants merge into one symbol: %q", s.Signature)
	}
}

// TestImplDocs: an impl's doc comment joins the doc of the public type it implements, or of the
// public trait it implements for a foreign type, under a heading that names the impl, as rustdoc
// shows it, with the documented fns of an impl on a foreign type under their declarations (an
// impl on the crate's own type has them as members); an impl of a private type or a foreign
// trait for a foreign type, or one hidden, adds nothing, nor does one on a foreign type whose
// fns have no docs.
func TestImplDocs(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
use std::rc::Rc;
/// A point.
pub struct Point;
/// Serializes things.
pub trait Serialize {}
struct Private;
/// Points serialize as pairs.
impl Serialize for Point {}
/// This impl needs the rc feature. It will not deduplicate shared data.
impl<T> Serialize for Rc<T> {}
/// Private types keep their impls' docs.
impl Serialize for Private {}
/// Foreign for foreign: nowhere to show.
impl Clone for Rc<u8> {}
/// Hidden.
#[doc(hidden)] impl Serialize for Box<u8> {}
impl<T: Serialize> Serialize for [T] {
    /// Slices serialize as sequences.
    ///
    /// A slice longer than u32::MAX is an error.
    fn serialize(&self,
        out: &mut Vec<u8>) {}
    fn undocumented(&self) {}
}
impl Serialize for Vec<u8> { fn serialize(&self) {} }
impl Default for Point {
    /// The origin.
    fn default() -> Self { Point }
}
`)
	syms := testutil.ByName(res.Symbols)
	if got, want := syms["c::Point"].Doc, "A point.\n\n## `impl Serialize for Point`\n\nPoints serialize as pairs."; got != want {
		t.Errorf("Point's doc:\n%s\nwant\n%s", got, want)
	}
	if got, want := syms["c::Serialize"].Doc, "Serializes things.\n\n## `impl Serialize for Rc<T>`\n\nThis impl needs the rc feature. It will not deduplicate shared data."+
		"\n\n## `impl Serialize for [T]`\n\n### `fn serialize(&self, out: &mut Vec<u8>)`\n\nSlices serialize as sequences.\n\nA slice longer than u32::MAX is an error."; got != want {
		t.Errorf("Serialize's doc:\n%s\nwant\n%s", got, want)
	}
	if s, ok := syms["c::Point::default"]; !ok || s.Doc != "The origin." || strings.Contains(syms["c::Point"].Doc, "origin") {
		t.Errorf("a documented fn of an impl on the crate's own type is its member, not part of its doc: %+v", s)
	}
}

func TestMacros(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
mod macros {
    /// Makes a vector.
    #[macro_export]
    macro_rules! myvec {
        () => { Vec::new() };
        ($($x:expr),+ $(,)?) => { vec![$($x),+] };
    }
    macro_rules! internal { () => {} }
}
#[macro_export]
#[doc(hidden)]
macro_rules! __hidden { () => {} }
pub fn myvec() {}
bitflags::bitflags! { pub struct Flags: u32 { const A = 1; } }
`)
	// bitflags! declares the struct it is given, which rustdoc lists (see TestMacroItems).
	want := []string{"package c", "macro c::myvec!", "func c::myvec", "struct c::Flags"}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if s := testutil.ByName(res.Symbols)["c::myvec!"]; s.Signature != "macro_rules! myvec {\n    () => { ... };\n    ($($x:expr),+ $(,)?) => { ... };\n}" || s.Doc != "Makes a vector." || s.Name != "myvec" {
		t.Errorf("macro %+v", s)
	}
}

func TestNameCollisions(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
pub mod json { pub fn parse() {} }
pub fn json() {}
pub struct Json {}
#[allow(non_snake_case)] pub fn Json() {}
`)
	// The first listed keeps the plain path; the other gets rustdoc's disambiguator.
	want := []string{"package c", "func c::json", "struct c::Json", "func fn@c::Json", "package mod@c::json", "func c::json::parse"}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestDeprecated(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", "#[deprecated]\npub fn a() {}\n#[deprecated = \"no\"]\npub fn b() {}\n#[deprecated(since = \"1\", note = \"x\")]\npub mod m {}\npub fn c() {}\n")
	for q, want := range map[string]bool{"c::a": true, "c::b": true, "c::m": true, "c::c": false} {
		if testutil.ByName(res.Symbols)[q].Deprecated != want {
			t.Errorf("%s deprecated = %v", q, !want)
		}
	}
}

// TestCfgAttrDoc checks that attributes under cfg_attr apply when the predicate holds in the
// build rustdoc documents, every feature on: toml's crate docs open their code fences so, and
// lost them before (the example's lines read as prose, its "# Parsing TOML" heading as code).
func TestCfgAttrDoc(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", "//! Intro.\n//!\n"+
		"#![cfg_attr(not(feature = \"default\"), doc = \" ```ignore\")]\n"+
		"#![cfg_attr(feature = \"default\", doc = \" ```\")]\n"+
		"//! let v = 1;\n//! ```\n"+
		"/// Item.\n"+
		"#[cfg_attr(all(docsrs, feature = \"x\"), doc = \"Docs build.\", deprecated)]\n"+
		"#[cfg_attr(any(test, windows), doc = \"Never.\")]\n"+
		"#[cfg_attr(not(feature = \"x\"), doc(hidden))]\n"+
		"pub fn f() {}\n")
	syms := testutil.ByName(res.Symbols)
	if doc := syms["c"].Doc; !strings.Contains(doc, "```rust\nlet v = 1;\n```") || strings.Contains(doc, "ignore") {
		t.Errorf("crate doc %q, want the example fenced once", doc)
	}
	f, ok := syms["c::f"]
	if !ok {
		t.Fatalf("c::f missing: %v", names(res))
	}
	if f.Doc != "Item.\nDocs build." || !f.Deprecated {
		t.Errorf("c::f doc %q, deprecated %v; want \"Item.\\nDocs build.\", deprecated", f.Doc, f.Deprecated)
	}
}

// TestDocCfg checks that an item's #[doc(cfg(…))], written directly or under
// cfg_attr(docsrs, …), and the one of a module around it end its doc as rustdoc's portability
// note does: "Available on crate feature `x` only.", after the summary paragraph.
func TestDocCfg(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", "/// Filters.\n"+
		"#[cfg(feature = \"env-filter\")]\n#[cfg_attr(docsrs, doc(cfg(feature = \"env-filter\")))]\npub struct EnvFilter;\n"+
		"/// Both.\n#[doc(cfg(all(feature = \"std\", feature = \"net\")))]\npub fn both() {}\n"+
		"/// Either.\n#[doc(cfg(any(feature = \"a\", feature = \"b\")))]\npub fn either() {}\n"+
		"/// Unix only.\n#[doc(cfg(unix))]\npub fn unix() {}\n"+
		"#[doc(cfg(feature = \"x\"))]\npub fn undocumented() {}\n"+
		"/// Runtime.\n///\n/// More.\n#[cfg_attr(docsrs, doc(cfg(feature = \"rt\")))]\npub mod rt {\n"+
		"    /// Spawns.\n    pub fn spawn() {}\n"+
		"    /// Blocks.\n    #[cfg_attr(docsrs, doc(cfg(feature = \"rt-multi\")))]\n    pub fn block() {}\n}\n")
	testutil.Docs(t, testutil.ByName(res.Symbols), map[string]string{
		"c::EnvFilter":    "Filters.\n\nAvailable on crate feature `env-filter` only.",
		"c::both":         "Both.\n\nAvailable on crate features `std` and `net` only.",
		"c::either":       "Either.\n\nAvailable on crate features `a` or `b` only.",
		"c::unix":         "Unix only.",
		"c::undocumented": "",
		"c::rt":           "Runtime.\n\nAvailable on crate feature `rt` only.\n\nMore.",
		"c::rt::spawn":    "Spawns.\n\nAvailable on crate feature `rt` only.",
		"c::rt::block":    "Blocks.\n\nAvailable on crate feature `rt-multi` only.",
	})
}

// TestDeferredMacro: an item-level invocation "name! { … }" of a macro_rules that a
// #[macro_use] module declared above it defines (tokio's cfg_fs! { pub mod fs; } in lib.rs,
// its macros in src/macros/cfg.rs) expands through that macro when the module has been read,
// so that its items carry what the macro adds: rustdoc's portability note. An invocation of a
// macro the crate never defines keeps the items its body holds, and an impl's body keeps them
// too.
func TestDeferredMacro(t *testing.T) {
	res := extract(t, Options{},
		"src/lib.rs", "#[macro_use]\nmod macros;\ncfg_fs! {\n    pub mod fs;\n}\ncfg_fs! {\n    /// Inline.\n    pub fn inline() {}\n}\nunknown! {\n    /// Kept.\n    pub fn kept() {}\n}\n/// S.\npub struct S;\nimpl S {\n    later! {\n        /// Method.\n        pub fn method(&self) {}\n    }\n}\n",
		"src/macros/mod.rs", "#[macro_use]\nmod cfg;\n",
		"src/macros/cfg.rs", "macro_rules! cfg_fs {\n    ($($item:item)*) => {\n        $(\n            #[cfg(feature = \"fs\")]\n            #[cfg_attr(docsrs, doc(cfg(feature = \"fs\")))]\n            $item\n        )*\n    }\n}\nmacro_rules! later {\n    ($($item:item)*) => { $( $item )* }\n}\n",
		"src/fs/mod.rs", "//! Files.\n\n/// Reads.\npub async fn read() {}\n")
	testutil.Docs(t, testutil.ByName(res.Symbols), map[string]string{
		"c::inline":    "Inline.\n\nAvailable on crate feature `fs` only.",
		"c::fs":        "Files.\n\nAvailable on crate feature `fs` only.",
		"c::fs::read":  "Reads.\n\nAvailable on crate feature `fs` only.",
		"c::kept":      "Kept.",
		"c::S::method": "Method.",
	})
}

// TestMacroFragmentSpacing: a fragment substituted for "$name" is spaced from what precedes it
// as "$" is in the macro, or as it was in the invocation: "pub struct $name" with AtomicU8
// written right after "(" renders "pub struct AtomicU8", and "A, B" keeps its space.
func TestMacroFragmentSpacing(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
macro_rules! atomic {
    ($name:ident, $t:ty) => {
        /// An atomic.
        pub struct $name { v: $t }
    };
}
atomic!(AtomicU8, u8);
macro_rules! pair {
    ($name:ident<$($g:ident),*>) => {
        /// A pair.
        pub struct $name<$($g),*>($($g),*);
    };
}
pair!(Pair<A, B>);
`)
	syms := testutil.ByName(res.Symbols)
	for name, want := range map[string]string{
		"c::AtomicU8": "pub struct AtomicU8 { /* private fields */ }",
		"c::Pair":     "pub struct Pair<A, B>(",
	} {
		if got := syms[name].Signature; !strings.HasPrefix(got, want) {
			t.Errorf("%s: signature %q, want %q…", name, got, want)
		}
	}
}

// TestConcatDoc: #[doc = concat!(…)] of literals and stringify!(…) reads as the string rustdoc
// shows, in a macro's transcription too (portable-atomic's atomic integer types); a concat!
// of anything else (env!) documents nothing.
func TestConcatDoc(t *testing.T) {
	src := strings.ReplaceAll(`
macro_rules! atomic_int {
    ($atomic:ident, $int:ident, $align:literal) => {
        #[doc = concat!("An integer type which can be safely shared between threads.\n\n",
            "It has the same in-memory representation as [BT", stringify!($int), "BT], aligned to ", $align, " bytes", '.')]
        pub struct $atomic { v: $int }
    };
}
atomic_int!(AtomicU8, u8, 1);
#[doc = concat!("Version ", env!("CARGO_PKG_VERSION"))]
pub struct Versioned;
`, "BT", "`")
	res := extract(t, Options{}, "src/lib.rs", src)
	testutil.Docs(t, testutil.ByName(res.Symbols), map[string]string{
		"c::AtomicU8":  "An integer type which can be safely shared between threads.\n\nIt has the same in-memory representation as `u8`, aligned to 1 bytes.",
		"c::Versioned": "",
	})
}

// TestAutoCfg: in a crate whose root turns rustdoc's auto_cfg on (#![feature(doc_cfg)] under
// cfg_attr(docsrs, …), as docs.rs builds it), an item under a #[cfg(…)] of features, or in a
// module under one, has the portability note a #[doc(cfg(…))] would give it; its own
// #[doc(cfg(…))] says it instead. A crate without the feature gets no note from #[cfg].
func TestAutoCfg(t *testing.T) {
	src := "#![cfg_attr(docsrs, feature(doc_cfg))]\n" +
		"/// A guard.\n#[cfg(feature = \"arc_lock\")]\npub struct ArcGuard;\n" +
		"/// Either.\n#[cfg(any(feature = \"std\", feature = \"alloc\"))]\npub fn either() {}\n" +
		"/// Unix.\n#[cfg(unix)]\npub fn unix() {}\n" +
		"/// Told.\n#[cfg(feature = \"a\")]\n#[cfg_attr(docsrs, doc(cfg(feature = \"b\")))]\npub fn told() {}\n" +
		"/// Serde.\n#[cfg(feature = \"serde\")]\npub mod ser {\n    /// Serializes.\n    pub fn to_vec() {}\n}\n" +
		"/// S.\npub struct S;\nimpl S {\n    /// Locks.\n    #[cfg(feature = \"arc_lock\")]\n    pub fn lock_arc(&self) {}\n}\n"
	res := extract(t, Options{}, "src/lib.rs", src)
	testutil.Docs(t, testutil.ByName(res.Symbols), map[string]string{
		"c::ArcGuard":    "A guard.\n\nAvailable on crate feature `arc_lock` only.",
		"c::either":      "Either.\n\nAvailable on crate features `std` or `alloc` only.",
		"c::unix":        "Unix.",
		"c::told":        "Told.\n\nAvailable on crate feature `b` only.",
		"c::ser":         "Serde.\n\nAvailable on crate feature `serde` only.",
		"c::ser::to_vec": "Serializes.\n\nAvailable on crate feature `serde` only.",
		"c::S::lock_arc": "Locks.\n\nAvailable on crate feature `arc_lock` only.",
	})
	res = extract(t, Options{}, "src/lib.rs", strings.TrimPrefix(src, "#![cfg_attr(docsrs, feature(doc_cfg))]\n"))
	testutil.Docs(t, testutil.ByName(res.Symbols), map[string]string{
		"c::ArcGuard": "A guard.",
		"c::told":     "Told.\n\nAvailable on crate feature `b` only.",
	})
}

// TestDeprecationNote checks that #[deprecated]'s since and note come with the item's doc as
// rustdoc shows them ("Deprecated since 0.4.23: use `from_ymd_opt()` instead"), after its first
// paragraph and before a portability note, and that an undocumented item stays undocumented.
func TestDeprecationNote(t *testing.T) {
	src := "#![cfg_attr(docsrs, feature(doc_cfg))]\n" +
		"pub struct D;\nimpl D {\n" +
		"    /// Makes a date.\n    ///\n    /// # Panics\n    ///\n    /// On a bad day.\n" +
		"    #[deprecated(since = \"0.4.23\", note = \"use `from_ymd_opt()`\n    instead\")]\n    pub fn from_ymd() {}\n" +
		"    /// Old.\n    #[deprecated = \"use `new`\"]\n    pub fn old() {}\n" +
		"    /// Gone.\n    #[deprecated(since = \"2.0\")]\n    pub fn gone() {}\n" +
		"    /// Bare.\n    #[deprecated]\n    pub fn bare() {}\n" +
		"    #[deprecated(note = \"use `new`\")]\n    pub fn undocumented() {}\n}\n" +
		"/// Locks.\n#[cfg(feature = \"arc_lock\")]\n#[deprecated(note = \"use `lock`\")]\npub fn lock_arc() {}\n"
	res := extract(t, Options{}, "src/lib.rs", src)
	syms := testutil.ByName(res.Symbols)
	testutil.Docs(t, syms, map[string]string{
		"c::D::from_ymd":     "Makes a date.\n\nDeprecated since 0.4.23: use `from_ymd_opt()` instead\n\n# Panics\n\nOn a bad day.",
		"c::D::old":          "Old.\n\nDeprecated: use `new`",
		"c::D::gone":         "Gone.\n\nDeprecated since 2.0",
		"c::D::bare":         "Bare.",
		"c::D::undocumented": "",
		"c::lock_arc":        "Locks.\n\nDeprecated: use `lock`\n\nAvailable on crate feature `arc_lock` only.",
	})
	for _, name := range []string{"c::D::from_ymd", "c::D::bare", "c::D::undocumented", "c::lock_arc"} {
		if !syms[name].Deprecated {
			t.Errorf("%s: not marked deprecated", name)
		}
	}
}

func TestIncludeStrDoc(t *testing.T) {
	res := extract(t, Options{},
		"src/lib.rs", "#![doc = include_str!(\"../README.md\")]\n#![doc = include_str!(\"../../outside.md\")]\n/// Item.\n#[doc = include_str!(\"item.md\")]\npub fn f() {}\n",
		"README.md", "# Title\n\n    indented code\n",
		"src/item.md", "More.",
	)
	syms := testutil.ByName(res.Symbols)
	if syms["c"].Doc != "# Title\n\n    indented code" {
		t.Errorf("crate doc %q", syms["c"].Doc)
	}
	if syms["c::f"].Doc != "Item.\nMore." {
		t.Errorf("item doc %q", syms["c::f"].Doc)
	}
}

func TestLimits(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "pub fn f%d() {}\n", i)
	}
	res := extract(t, Options{MaxSymbols: 10}, "src/lib.rs", b.String())
	if len(res.Symbols) != 10 || !res.Truncated {
		t.Errorf("MaxSymbols: %d symbols, truncated %v", len(res.Symbols), res.Truncated)
	}
	res = extract(t, Options{MaxFiles: 2}, "src/lib.rs", "pub mod a;\npub mod b;\n", "src/a.rs", "pub fn a() {}", "src/b.rs", "pub fn b() {}")
	if len(res.Files) != 2 || !res.Truncated {
		t.Errorf("MaxFiles: files %q truncated %v", res.Files, res.Truncated)
	}
	res = extract(t, Options{MaxFileSize: 20}, "src/lib.rs", "pub mod a;\n", "src/a.rs", "pub fn a() {} // a long file\n")
	if len(res.Files) != 1 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "too large") {
		t.Errorf("MaxFileSize: files %q problems %q", res.Files, res.Problems)
	}
	res = extract(t, Options{}, "src/main.rs", "pub fn main() {}")
	if len(res.Symbols) != 0 || len(res.Problems) != 1 {
		t.Errorf("no lib.rs: %+v", res)
	}
}

func TestLongSignaturesAreCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("pub enum Big {")
	for i := range 100 {
		fmt.Fprintf(&b, " V%d,", i)
	}
	b.WriteString(" }\npub fn long(")
	for i := range 500 {
		fmt.Fprintf(&b, "a%d: u8, ", i)
	}
	b.WriteString(") {}\n")
	syms := testutil.ByName(extract(t, Options{}, "src/lib.rs", b.String()).Symbols)
	if s := syms["c::Big"].Signature; !strings.HasSuffix(s, "V39, /* 60 more variants */ }") {
		t.Errorf("enum signature %q", s)
	}
	if s := syms["c::long"].Signature; len(s) > maxSignature+10 || !strings.HasSuffix(s, " …") {
		t.Errorf("long signature: %d bytes", len(s))
	}
}

// TestResolutionIsBounded builds many modules that glob-import one another in cycles: resolution
// must stay fast and list each item once.
func TestResolutionIsBounded(t *testing.T) {
	var b strings.Builder
	const n = 150
	for i := range n {
		fmt.Fprintf(&b, "pub mod m%d { pub use crate::m%d::*; pub use super::*; pub use crate::m%d::f%d as g%d; pub fn f%d() {} }\n", i, (i+1)%n, (i+7)%n, (i+7)%n, i, i)
	}
	b.WriteString("pub use m0::*;\n")
	start := time.Now()
	res := extract(t, Options{}, "src/lib.rs", b.String())
	if d := time.Since(start); d > 3*time.Second {
		testutil.TimingError(t, "took %v", d)
	}
	funcs := 0
	for _, s := range res.Symbols {
		if s.Kind == docidx.KindFunc {
			funcs++
		}
	}
	if funcs != n {
		t.Errorf("%d functions listed, want %d", funcs, n)
	}
}

// TestMembers checks that pub fields, enum variants and the members of trait impls are symbols
// of their own, after their type, with their own doc comment and declaration, and that what
// rustdoc hides stays out.
func TestMembers(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
/// Connection settings.
pub struct Config {
    /// Port to listen on.
    ///
    /// Default 8080.
    pub port: u16,
    #[doc = "Host name."]
    pub r#host: String,
    secret: String,
    pub(crate) internal: u8,
    #[doc(hidden)] pub hidden: u8,
    #[cfg(test)] pub test_only: u8,
}
/// A tuple struct: its fields are not members.
pub struct Meters(pub f64);
/// How to retry.
pub enum Retry {
    /// Never retry.
    Never,
    /// Retry n times.
    Times(u32),
    /// Back off exponentially.
    Backoff { base_ms: u64, max_ms: u64 },
    #[doc(hidden)] Unknown,
    /// Numbered.
    Code = 7,
}
impl Default for Config {
    /// Port 8080 on localhost.
    fn default() -> Self { todo!() }
}
impl Clone for Config { fn clone(&self) -> Self { todo!() } }
impl Iterator for Retry {
    /// Delays, in milliseconds.
    type Item = u64;
    fn next(&mut self) -> Option<u64> { None }
}
pub struct Getter { pub len: usize }
impl Getter { pub fn len(&self) -> usize { self.len } }
`)
	want := []string{
		"package c",
		"struct c::Config", "field c::Config::port", "field c::Config::host", "method c::Config::default",
		"struct c::Meters",
		"enum c::Retry", "const c::Retry::Never", "const c::Retry::Times", "const c::Retry::Backoff", "const c::Retry::Code", "type c::Retry::Item",
		"struct c::Getter", "field field@c::Getter::len", "method c::Getter::len",
	}
	if got := names(res); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	syms := testutil.ByName(res.Symbols)
	for _, tc := range []struct {
		q, parent, sig, doc, key string
		line                     int
	}{
		{"c::Config::port", "Config", "pub port: u16", "Port to listen on.\n\nDefault 8080.", "Config.port", 7},
		{"c::Config::host", "Config", "pub r#host: String", "Host name.", "Config.host", 9},
		{"c::Retry::Times", "Retry", "Times(u32)", "Retry n times.", "Retry.Times", 22},
		{"c::Retry::Backoff", "Retry", "Backoff { base_ms: u64, max_ms: u64 }", "Back off exponentially.", "Retry.Backoff", 24},
		{"c::Retry::Code", "Retry", "Code = 7", "Numbered.", "Retry.Code", 27},
		{"c::Config::default", "Config", "fn default() -> Self", "Port 8080 on localhost.", "Config.default", 31},
		{"c::Retry::Item", "Retry", "type Item = u64;", "Delays, in milliseconds.", "Retry.Item", 36},
		{"field@c::Getter::len", "Getter", "pub len: usize", "", "Getter.len", 39},
	} {
		s, ok := syms[tc.q]
		if !ok {
			t.Errorf("%s missing", tc.q)
			continue
		}
		if s.Parent != tc.parent || s.Signature != tc.sig || s.Doc != tc.doc || s.Key() != tc.key || s.Line != tc.line || s.File != "src/lib.rs" {
			t.Errorf("%s = parent %q sig %q doc %q key %q at %s:%d\nwant parent %q sig %q doc %q key %q line %d",
				tc.q, s.Parent, s.Signature, s.Doc, s.Key(), s.File, s.Line, tc.parent, tc.sig, tc.doc, tc.key, tc.line)
		}
	}
	// The enclosing types keep their compact signatures.
	if s := syms["c::Config"]; s.Signature != "pub struct Config { pub port: u16, pub r#host: String, /* private fields */ }" {
		t.Errorf("struct signature %q", s.Signature)
	}
}

// TestMacroItems: items written inside an item-level macro invocation, the way crates gate
// groups of items behind a macro_rules of their own (tokio's cfg_net!, reqwest's if_hyper!,
// hyper's cfg_feature!) or cfg_if!, are the enclosing module's items, and lazy_static!'s
// "static ref" is a static; a test-only invocation's items are not.
func TestMacroItems(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
macro_rules! cfg_net { ($($item:item)*) => { $( #[cfg(feature = "net")] $item )* } }
cfg_net! {
    /// Networking.
    pub mod net;
    pub use crate::inner::Listener;
}
cfg_feature! {
    #![feature = "client"]
    pub fn connect() {}
}
cfg_if::cfg_if! {
    if #[cfg(unix)] {
        pub fn on_unix() {}
    } else {
        pub fn elsewhere() {}
    }
}
#[cfg(test)]
cfg_net! { pub fn test_only() {} }
lazy_static! { pub static ref LAZY: u8 = 1; }
mod inner { pub struct Listener; }
`, "src/net.rs", "pub fn dial() {}\n")
	got := names(res)
	for _, want := range []string{"package c::net", "func c::net::dial", "struct c::Listener", "func c::connect", "func c::on_unix", "func c::elsewhere", "var c::LAZY"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	for _, s := range got {
		if strings.Contains(s, "test_only") || strings.Contains(s, "ref") {
			t.Errorf("%q should not be extracted", s)
		}
	}
	if s := testutil.ByName(res.Symbols)["c::net"]; s.Doc != "Networking." {
		t.Errorf("c::net doc %q", s.Doc)
	}
}

// TestExternReexports: a `pub use` into another crate lists what it names under the
// re-exporting path, as rustdoc inlines it: a glob everything under the module it names, a
// single name its item (with members) or module, renamed by "as"; the crate's own items win.
func TestExternReexports(t *testing.T) {
	dep := extract(t, Options{Crate: "dep"}, "src/lib.rs", `
/// An argument.
pub struct Arg { pub name: String }
impl Arg { /// Makes one.
pub fn new() -> Self { Arg { name: String::new() } } }
pub mod stream { /// A stream.
pub trait Stream { fn next(&mut self); } }
/// Says it.
#[macro_export]
macro_rules! say { () => {} }
pub fn own() {}
pub mod header { mod map { /// A map.
pub struct HeaderMap; impl HeaderMap { pub fn new() -> Self { HeaderMap } } } pub use self::map::HeaderMap; }
pub use header::HeaderMap;
`)
	if q := dep.Aliases["dep::header::HeaderMap"]; q != "dep::HeaderMap" {
		t.Errorf("dep's alias dep::header::HeaderMap = %q, want dep::HeaderMap", q)
	}
	asked := map[string]int{}
	res := extract(t, Options{Extern: func(name string) ExternAPI {
		asked[name]++
		if name == "dep" {
			return ExternAPI{Symbols: dep.Symbols, Aliases: dep.Aliases}
		}
		return ExternAPI{}
	}}, "src/lib.rs", `
pub use dep::*;
pub use dep::stream as streams;
pub use dep::say;
pub use nowhere::Thing;
pub mod facade { pub use dep::Arg as Argument; }
pub mod headers { pub use dep::header; }
/// Mine.
pub fn own() {}
`)
	got := names(res)
	for _, want := range []string{"struct c::Arg", "method c::Arg::new", "field c::Arg::name", "package c::stream", "trait c::stream::Stream",
		"package c::streams", "trait c::streams::Stream", "macro c::say!", "struct c::facade::Argument", "method c::facade::Argument::new",
		"package c::headers::header", "struct c::headers::header::HeaderMap", "method c::headers::header::HeaderMap::new"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	syms := testutil.ByName(res.Symbols)
	if s := syms["c::own"]; s.Doc != "Mine." {
		t.Errorf("c::own is not the crate's own: %+v", s)
	}
	if s := syms["c::Arg"]; s.Doc != "An argument." || s.Package != "c" {
		t.Errorf("c::Arg = %+v", s)
	}
	if s := syms["c::facade::Argument"]; s.Name != "Argument" || s.Package != "c::facade" {
		t.Errorf("c::facade::Argument = %+v", s)
	}
	if s := syms["c::headers::header::HeaderMap"]; s.Doc != "A map." || s.Package != "c::headers::header" || s.Name != "HeaderMap" {
		t.Errorf("c::headers::header::HeaderMap = %+v", s)
	}
	if asked["dep"] != 1 || asked["nowhere"] != 1 {
		t.Errorf("Extern asked %v, want each crate once", asked)
	}
}

// TestExternCrateRoot: "pub use dep;" re-exports a crate's root, which rustdoc lists as a
// re-export and does not inline (rust-lang/rust#55804): its items stay dep's. With
// #[doc(inline)] they are inlined.
func TestExternCrateRoot(t *testing.T) {
	dep := extract(t, Options{Crate: "dep"}, "src/lib.rs", `
/// A digest.
pub trait Digest { fn update(&mut self); }
`)
	extern := func(name string) ExternAPI {
		if name == "dep" {
			return ExternAPI{Symbols: dep.Symbols, Aliases: dep.Aliases}
		}
		return ExternAPI{}
	}
	plain := names(extract(t, Options{Extern: extern}, "src/lib.rs", "pub use dep;\npub use dep::Digest;\n"))
	if slices.Contains(plain, "trait c::dep::Digest") || !slices.Contains(plain, "trait c::Digest") {
		t.Errorf("pub use dep; pub use dep::Digest: %q, want c::Digest and no c::dep::Digest", plain)
	}
	inlined := names(extract(t, Options{Extern: extern}, "src/lib.rs", "#[doc(inline)]\npub use dep;\n"))
	if !slices.Contains(inlined, "trait c::dep::Digest") {
		t.Errorf("#[doc(inline)] pub use dep: %q, want c::dep::Digest", inlined)
	}
}

// TestExternThroughPrivateModule: a re-export of a private module's re-export of another crate's
// item, and a path through a re-exported crate root, reach the item (parking_lot's
// "pub use self::condvar::WaitTimeoutResult" with "pub use lock_api::WaitTimeoutResult" in
// condvar, and "pub use ::lock_api; pub use self::lock_api::Mutex").
func TestExternThroughPrivateModule(t *testing.T) {
	dep := extract(t, Options{Crate: "dep"}, "src/lib.rs", `
/// Waited.
pub struct WaitResult;
/// A lock.
pub struct Mutex;
`)
	got := names(extract(t, Options{Extern: func(name string) ExternAPI {
		if name == "dep" {
			return ExternAPI{Symbols: dep.Symbols, Aliases: dep.Aliases}
		}
		return ExternAPI{}
	}}, "src/lib.rs", `
mod condvar { pub use dep::WaitResult; }
pub use self::condvar::WaitResult;
pub use ::dep;
pub use self::dep::Mutex;
`))
	for _, want := range []string{"struct c::WaitResult", "struct c::Mutex"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	if slices.Contains(got, "struct c::dep::Mutex") {
		t.Errorf("the re-exported crate root was inlined: %q", got)
	}
}

// TestMacroNoArgs: an invocation "name!();" of a macro_rules of the crate whose rule "()"
// holds items (serde's crate_root!()) brings those items, whether the macro is defined in the
// same file or in a #[macro_use] module's (serde_core's); other macros' invocations do not.
func TestMacroNoArgs(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
#[macro_use]
mod other_file;
other_root!();
macro_rules! crate_root {
    () => {
        /// Deserialization.
        pub mod de { pub trait Deserialize {} }
        pub use self::de::Deserialize;
    };
    ($x:ident) => { pub fn $x() {} };
}
crate_root!();
other!();
`, "src/other_file.rs", "macro_rules! other_root { () => { /// From the other file.\npub struct Other; } }\n")
	got := names(res)
	for _, want := range []string{"package c::de", "trait c::Deserialize", "struct c::Other"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	// The ($x:ident) rule needs an argument, and other!() names no macro of the crate: neither
	// brings an item.
	if len(got) != 4 {
		t.Errorf("%d symbols %q, want the crate and the three above", len(got), got)
	}
}

// TestMacroExpansion: an item-level invocation of a macro_rules of the crate expands through
// the first rule that matches, fragments and repetitions substituted, doc comments passed as
// #[doc] attributes, invocations in the output expanded too (serde's primitive_deserializer!,
// axum's top_level_handler_fn!, futures' delegate_all!).
func TestMacroExpansion(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
macro_rules! primitive {
    ($ty:ty, $doc:tt, $name:ident, $method:ident $($cast:tt)*) => {
        #[doc = "A deserializer holding"]
        #[doc = $doc]
        pub struct $name<E> { value: $ty, marker: PhantomData<E> }
        impl<E> $name<E> {
            /// Makes one.
            pub fn new(value: $ty) -> Self { $name { value, marker: PhantomData } }
        }
    };
}
primitive!(bool, "a bool.", BoolDeserializer, visit_bool);
primitive!(u8, "a u8.", U8Deserializer, visit_u8 as u64);

macro_rules! handler {
    ($name:ident, GET) => { handler!(/// Routes GET requests.
        $name, GET, get); };
    ($(#[$m:meta])+ $name:ident, $method:ident, $lower:ident) => {
        $(#[$m])+
        pub fn $name() {}
    };
}
handler!(get, GET);

macro_rules! delegate {
    ($(#[$attr:meta])* $name:ident<$($arg:ident),*>($t:ty) $(where $($bound:tt)*)*) => {
        $(#[$attr])*
        pub struct $name<$($arg),*> { inner: $t }
        impl<$($arg),*> $name<$($arg),*> where $($($bound)*)* { pub fn inner(&self) {} }
    };
}
delegate!(/// Joins two.
    Join<A, B>(Inner<A, B>) where A: Send);
not_a_macro_of_this_crate!(Missing);

macro_rules! consts {
    ($($(#[$docs:meta])* ($konst:ident, $upcase:ident, $bytes:literal);)+) => {
        $(
            $(#[$docs])*
            pub const $upcase: Name = Name::$konst;
        )+
    };
}
consts! {
    /// Advertises content types.
    ///
    /// More.
    (Accept, ACCEPT, b"accept");
    (Age, AGE, b"age");
}
`)
	got := names(res)
	for _, want := range []string{"struct c::BoolDeserializer", "method c::BoolDeserializer::new", "struct c::U8Deserializer", "func c::get", "struct c::Join",
		"const c::ACCEPT", "const c::AGE"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	syms := testutil.ByName(res.Symbols)
	if s := syms["c::U8Deserializer"]; s.Doc != "A deserializer holding\na u8." {
		t.Errorf("c::U8Deserializer doc %q", s.Doc)
	}
	if s := syms["c::get"]; s.Doc != "Routes GET requests." {
		t.Errorf("c::get doc %q", s.Doc)
	}
	if s := syms["c::Join"]; s.Doc != "Joins two." || !strings.Contains(s.Signature, "Join<A, B>") {
		t.Errorf("c::Join = %+v", s)
	}
	if s, age := syms["c::ACCEPT"], syms["c::AGE"]; s.Doc != "Advertises content types.\n\nMore." || age.Doc != "" {
		t.Errorf("c::ACCEPT doc %q, c::AGE doc %q", s.Doc, age.Doc)
	}
}

// TestMacroShadowing: a macro_rules shadows an earlier one of the same name, as serde_core's de
// and ser modules each define and invoke their own declare_error_trait!: ser's Error is not
// de's.
func TestMacroShadowing(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", "pub mod de;\npub mod ser;\n",
		"src/de.rs", `
macro_rules! declare_error_trait {
    (Error: Sized) => {
        /// The de error.
        pub trait Error: Sized { fn custom(msg: &str) -> Self; fn unknown_field(field: &str) -> Self; }
    };
}
declare_error_trait!(Error: Sized);
`,
		"src/ser.rs", `
macro_rules! declare_error_trait {
    (Error: Sized) => {
        /// The ser error.
        pub trait Error: Sized { fn custom(msg: &str) -> Self; }
    };
}
declare_error_trait!(Error: Sized);
`)
	got := names(res)
	for _, want := range []string{"trait c::de::Error", "method c::de::Error::unknown_field", "trait c::ser::Error", "method c::ser::Error::custom"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	if slices.Contains(got, "method c::ser::Error::unknown_field") {
		t.Errorf("ser's Error expanded de's macro: %q", got)
	}
	if s := testutil.ByName(res.Symbols)["c::ser::Error"]; s.Doc != "The ser error." {
		t.Errorf("c::ser::Error doc %q", s.Doc)
	}
}

// TestMacroExpansionBounded: a macro that expands to many invocations of itself stops at the
// crate's expansion budget instead of growing without end: unbounded, 8^8 functions; bounded,
// at most one per transcription of its rule (over 40 tokens) within maxCrateExpansion tokens.
func TestMacroExpansionBounded(t *testing.T) {
	res := extract(t, Options{}, "src/lib.rs", `
macro_rules! boom {
    ($x:ident) => { boom!(a); boom!(b); boom!(c); boom!(d); boom!(e); boom!(f); boom!(g); boom!(h); pub fn $x() {} };
}
boom!(start);
`)
	if !slices.Contains(names(res), "func c::a") {
		t.Errorf("no c::a in %q", names(res))
	}
	if n := len(res.Symbols); n > maxCrateExpansion/40 {
		t.Errorf("%d symbols: the expansion budget (%d tokens) did not hold", n, maxCrateExpansion)
	}
}

// TestProcMacros: a proc-macro crate's functions are the macros it exports, as rustdoc lists
// them: a derive under its derive name with its helper attributes, an attribute macro and a
// function-like macro (with the "!") under the function's name; a crate that re-exports them
// (thiserror's `pub use thiserror_impl::*`) lists them as its own.
func TestProcMacros(t *testing.T) {
	imp := extract(t, Options{Crate: "derive_impl"}, "src/lib.rs", `
use proc_macro::TokenStream;
/// Derives Error.
#[proc_macro_derive(Error, attributes(error, from, source))]
pub fn derive_error(input: TokenStream) -> TokenStream { input }
/// Marks the entry point.
#[proc_macro_attribute]
pub fn main(args: TokenStream, item: TokenStream) -> TokenStream { item }
#[proc_macro]
pub fn html(input: TokenStream) -> TokenStream { input }
`)
	want := []string{"package derive_impl", "macro derive_impl::Error", "macro derive_impl::main", "macro derive_impl::html!"}
	if got := names(imp); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	syms := testutil.ByName(imp.Symbols)
	if s := syms["derive_impl::Error"]; s.Name != "Error" || s.Doc != "Derives Error." ||
		s.Signature != "#[derive(Error)]\n// Attributes available to this derive: #[error] #[from] #[source]" {
		t.Errorf("derive %+v", s)
	}
	if s := syms["derive_impl::main"]; s.Signature != "#[main]" || s.Doc != "Marks the entry point." {
		t.Errorf("attribute %+v", s)
	}
	if s := syms["derive_impl::html!"]; s.Signature != "html!() { /* proc-macro */ }" || s.Name != "html" {
		t.Errorf("function-like %+v", s)
	}
	res := extract(t, Options{Extern: func(name string) ExternAPI {
		if name == "derive_impl" {
			return ExternAPI{Symbols: imp.Symbols, Aliases: imp.Aliases}
		}
		return ExternAPI{}
	}}, "src/lib.rs", "pub use derive_impl::*;\n")
	if got := names(res); !slices.Contains(got, "macro c::Error") || !slices.Contains(got, "macro c::html!") {
		t.Errorf("re-exported: %q", got)
	}
}

// TestExternMacro: an item-level invocation written with another crate's path expands through
// that crate's #[macro_export] macro_rules (Options.Extern's Macros), and the "$crate::" calls
// its transcription makes through that crate's too: RustCrypto's sha2 declares Sha256 with
// digest::buffer_fixed!, whose rule with an oid calls $crate::buffer_fixed! for the struct.
func TestExternMacro(t *testing.T) {
	dep := extract(t, Options{Crate: "digest"}, "src/lib.rs", `
#[macro_export]
macro_rules! fixed {
    ($(#[$attr:meta])* $v:vis struct $name:ident; oid: $oid:literal;) => {
        $crate::fixed!($(#[$attr])* $v struct $name;);
    };
    ($(#[$attr:meta])* $v:vis struct $name:ident;) => {
        $(#[$attr])*
        $v struct $name { core: u8 }
    };
}
macro_rules! private { () => {} }
#[macro_export]
macro_rules! wrap { ($($t:tt)*) => { $crate::__wrap_internal! { @struct $($t)* } }; }
`)
	res := extract(t, Options{Extern: func(name string) ExternAPI {
		if name == "digest" {
			return ExternAPI{Symbols: dep.Symbols, Aliases: dep.Aliases, Macros: dep.Macros}
		}
		return ExternAPI{}
	}}, "src/lib.rs", `
digest::fixed!(
    /// SHA-256 hasher.
    pub struct Sha256;
    oid: "2.16.840.1.101.3.4.2.1";
);
other::fixed!(pub struct Unknown;);
digest::wrap! {
    /// Wrapped.
    pub struct Wrapped { x: u8 }
}
`)
	syms := testutil.ByName(res.Symbols)
	if s := syms["c::Sha256"]; s.Kind != docidx.KindStruct || s.Doc != "SHA-256 hasher." {
		t.Errorf("c::Sha256 = %+v\nall: %q", s, names(res))
	}
	if _, ok := syms["c::Unknown"]; ok {
		t.Errorf("a macro of an unknown crate expanded: %q", names(res))
	}
	// A braces invocation by path wraps items (pin_project_lite::pin_project! { … }): read as
	// written, not through the other crate's internal rules.
	if s := syms["c::Wrapped"]; s.Kind != docidx.KindStruct || s.Doc != "Wrapped." {
		t.Errorf("c::Wrapped = %+v", s)
	}
	if len(dep.Macros.rules) != 2 || dep.Macros.rules["fixed"] == nil {
		t.Errorf("digest's exported macros: %v", dep.Macros.rules)
	}
}
