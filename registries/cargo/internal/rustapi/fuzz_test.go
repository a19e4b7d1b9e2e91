package rustapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docidx/docidx/registries/internal/testutil"
)

// FuzzExtract runs the tokenizer, parser and module resolution over arbitrary crate roots (with a
// second file reachable as `mod m;`) and checks that Extract never panics, keeps qualified names
// unique and stays fast.
func FuzzExtract(f *testing.F) {
	for _, dir := range []string{"../../testdata/crates/ferris-json/1.1.0/src", "testdata/third_party/flatbuffers/src"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(b) < 16<<10 {
				f.Add(string(b), "pub fn m() {}")
			}
		}
	}
	for _, seed := range []string{
		"pub mod m; pub use m::*; pub use self::m as n;",
		"pub use a::{b::{c as d, *}, self};",
		"impl<'a, T: Fn(&'a u8) -> bool, const N: usize> Foo<{ N }> for &'a [T; N] where T: 'a {",
		"pub struct S<T>(pub T) where T: Copy; pub enum E { A = 1 << 2 >> 3, B }",
		"/* /* */ pub fn f() {} */ r#\"\"# '\\'' 'a b'\"' c\"",
		"#[path = \"m.rs\"] pub mod x; #![doc = include_str!(\"m.rs\")]",
		"macro_rules! m { ($($t:tt)*) => { $($t)* } } #[macro_export] macro_rules! n [() => ()];",
		"pub mod a { pub use super::b::*; } pub mod b { pub use super::a::*; } pub use a::*;",
		"macro_rules! g { ($(#[$m:meta])* $n:ident<$($a:ident),*>($t:ty) $(where $($b:tt)*)*) => { $(#[$m])* pub struct $n<$($a),*>($t); g!(x<>(u8)); }; () => { pub fn e() {} } } g!(/// d\n S<A, B>(Vec<A>) where A: B); g!(); cfg_x! { pub mod m; }",
		"pub(in crate::x) fn f() {} pub (crate) struct S(pub (u8), crate u8);",
		"extern \"C\" { pub fn f(); } unsafe extern { pub safe fn g(); }",
		strings.Repeat("pub mod a {", 200) + strings.Repeat("}", 10),
		strings.Repeat("<", 1000) + "{" + strings.Repeat("(", 1000),
	} {
		f.Add(seed, "pub use crate::*; pub mod inner { pub use super::*; }")
	}
	f.Fuzz(func(t *testing.T, lib, other string) {
		fsys := fstest.MapFS{
			"src/lib.rs": &fstest.MapFile{Data: []byte(lib)},
			"src/m.rs":   &fstest.MapFile{Data: []byte(other)},
		}
		start := time.Now()
		for _, edition := range []string{"2015", "2021"} {
			res := Extract(fsys, Options{Crate: "c", Edition: edition, MaxSymbols: 5000})
			seen := map[string]bool{}
			for _, s := range res.Symbols {
				if seen[s.QualifiedName] {
					t.Fatalf("duplicate qualified name %q", s.QualifiedName)
				}
				seen[s.QualifiedName] = true
				if s.Line < 1 || s.File == "" {
					t.Fatalf("symbol without position: %+v", s)
				}
			}
		}
		if d := time.Since(start); d > 5*time.Second && len(lib)+len(other) < 64<<10 {
			testutil.TimingError(t, "slow: %v for %d bytes", d, len(lib)+len(other))
		}
	})
}

// BenchmarkExtract measures extraction over the real flatbuffers crate and the ferris-json
// fixture, reporting symbols and source bytes per second.
func BenchmarkExtract(b *testing.B) {
	for _, tc := range []struct{ name, dir, crate string }{
		{"flatbuffers", "testdata/third_party/flatbuffers", "flatbuffers"},
		{"ferris-json", "../../testdata/crates/ferris-json/1.1.0", "ferris_json"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			// Read the files once so the benchmark measures the scanner, not the disk.
			mem := fstest.MapFS{}
			var size int64
			_ = filepath.WalkDir(tc.dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(tc.dir, p)
				mem[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
				if strings.HasSuffix(p, ".rs") {
					size += int64(len(data))
				}
				return nil
			})
			b.SetBytes(size)
			b.ReportAllocs()
			symbols := 0
			for b.Loop() {
				symbols += len(Extract(mem, Options{Crate: tc.crate, Edition: "2018"}).Symbols)
			}
			b.ReportMetric(float64(symbols)/b.Elapsed().Seconds(), "symbols/s")
		})
	}
}
