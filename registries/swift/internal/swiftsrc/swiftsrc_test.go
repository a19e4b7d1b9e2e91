package swiftsrc

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// symbols parses src as one file of module M and returns its public symbols by qualified name.
func symbols(t *testing.T, src string) map[string]docidx.Symbol {
	t.Helper()
	res := Symbols([]File{{Path: "M.swift", Module: "M", Decls: Parse([]byte(src))}}, Options{})
	out := map[string]docidx.Symbol{}
	for _, s := range res.Symbols {
		if _, dup := out[s.QualifiedName]; dup {
			t.Errorf("duplicate %s", s.QualifiedName)
		}
		out[s.QualifiedName] = s
	}
	return out
}

func names(m map[string]docidx.Symbol) []string {
	return slices.Collect(maps.Keys(m))
}

func TestAccessControl(t *testing.T) {
	src := `
public struct Pub {
	public var a: Int
	var implicitInternal: Int
	internal var b: Int
	fileprivate var c: Int
	private var d: Int
	package var e: Int
	public private(set) var f: Int
	public internal(set) var g: Int
	private(set) public var h: Int
	open var i: Int
	struct Nested { public var hidden: Int }
	public struct PubNested { public var shown: Int; var notShown: Int }
}
struct Internal { public var x: Int; public struct Inner { public var y: Int } }
private struct Priv { public var z: Int }
public extension Pub { func fromPublicExtension() {}; private func privateInPublicExtension() {} }
extension Pub { public func markedPublic() {}; func unmarked() {} }
internal extension Pub { public func cappedByExtension() {} }
extension Internal { public func extendsInternal() {} }
extension Array { public func extendsForeign() {} }
public protocol P { func requirement(); var prop: Int { get } }
extension P { func defaultImpl() {}; public func publicDefault() {} }
public enum E { case a, b; func method() {}; public static var all: [E] { [] } }
enum HiddenEnum { case x }
@_spi(Private) public func spi() {}
public func _underscored() {}
public struct _Hidden { public func inside() {} }
public class C { public class func classMethod() {}; class var classProp: Int { 0 }; public final class func finalClassMethod() {} }
`
	got := symbols(t, src)
	want := []string{
		"M.Pub", "M.Pub.a", "M.Pub.f", "M.Pub.g", "M.Pub.h", "M.Pub.i", "M.Pub.PubNested", "M.Pub.PubNested.shown",
		"M.Pub.fromPublicExtension()", "M.Pub.markedPublic()",
		"M.Array.extendsForeign()",
		"M.P", "M.P.requirement()", "M.P.prop", "M.P.publicDefault()",
		"M.E", "M.E.a", "M.E.b", "M.E.all",
		"M.C", "M.C.classMethod()", "M.C.finalClassMethod()",
	}
	for _, w := range want {
		if _, ok := got[w]; !ok {
			t.Errorf("missing %s", w)
		}
		delete(got, w)
	}
	if len(got) > 0 {
		t.Errorf("unexpected public symbols: %v", names(got))
	}
}

func TestKindsAndNames(t *testing.T) {
	src := `
/// A free function.
public func free(_ x: Int, label y: Int, z: Int) -> Int { x }
public var globalVar = 1
public let globalLet = 2
public typealias Alias = [String: Int]
public struct S {
	public init?(rawValue: Int) {}
	public init<T: Sequence>(_ s: T) where T.Element == Int {}
	public subscript(i: Int) -> Int { 0 }
	public subscript(key k: String, default d: Int) -> Int { 0 }
	public static func + (l: S, r: S) -> S { l }
	public static prefix func -(x: S) -> S { x }
	public static prefix func √(x: S) -> S { x }
	public func ñame(x: Int) {}
	public func method() async throws -> Int { 0 }
	public var computed: Int { get { 1 } set {} }
	public let a = 1, b: Int = 2
	public var (tx, ty) = (1, 2)
}
public actor A { public func f() {} }
public class K {}
public enum En: Int { case one = 1, two; indirect case tree(En, En) }
public protocol Pr { associatedtype Item; subscript(i: Int) -> Item { get set } }
@freestanding(expression) public macro m(_ v: Int) -> Int = #externalMacro(module: "X", type: "Y")
`
	got := symbols(t, src)
	for qn, kind := range map[string]docidx.SymbolKind{
		"M.free(_:label:z:)":          docidx.KindFunc,
		"M.globalVar":                 docidx.KindVar,
		"M.globalLet":                 docidx.KindConst,
		"M.Alias":                     docidx.KindType,
		"M.S":                         docidx.KindStruct,
		"M.S.init(rawValue:)":         docidx.KindMethod,
		"M.S.init(_:)":                docidx.KindMethod,
		"M.S.subscript(_:)":           docidx.KindMethod,
		"M.S.subscript(key:default:)": docidx.KindMethod,
		"M.S.+(_:_:)":                 docidx.KindMethod,
		"M.S.-(_:)":                   docidx.KindMethod,
		"M.S.method()":                docidx.KindMethod,
		"M.S.computed":                docidx.KindProperty,
		"M.S.a":                       docidx.KindField,
		"M.S.b":                       docidx.KindField,
		"M.A":                         docidx.KindClass,
		"M.A.f()":                     docidx.KindMethod,
		"M.K":                         docidx.KindClass,
		"M.En":                        docidx.KindEnum,
		"M.En.one":                    docidx.KindConst,
		"M.En.two":                    docidx.KindConst,
		"M.En.tree":                   docidx.KindConst,
		"M.Pr":                        docidx.KindProtocol,
		"M.Pr.Item":                   docidx.KindType,
		"M.Pr.subscript(_:)":          docidx.KindMethod,
		"M.m(_:)":                     docidx.KindMacro,
	} {
		s, ok := got[qn]
		if !ok {
			t.Errorf("missing %s (have %v)", qn, names(got))
			continue
		}
		if s.Kind != kind {
			t.Errorf("%s: kind %s, want %s", qn, s.Kind, kind)
		}
	}
	if s := got["M.free(_:label:z:)"]; s.Name != "free" || s.Parent != "" || s.Doc != "A free function." || s.Line != 3 || s.Package != "M" {
		t.Errorf("free = %+v", s)
	}
	if s := got["M.S.init(rawValue:)"]; s.Name != "init" || s.Parent != "S" || s.Signature != "public init?(rawValue: Int)" {
		t.Errorf("init? = %+v", s)
	}
	wantSignatures(t, got, map[string]string{
		"M.S.a":              "public let a = 1",
		"M.S.b":              "public let b: Int = 2",
		"M.Pr.subscript(_:)": "subscript(i: Int) -> Item { get set }",
		"M.m(_:)":            "@freestanding(expression)\npublic macro m(_ v: Int) -> Int",
		"M.S.computed":       "public var computed: Int",
	})
}

// wantSignatures checks the signature of each symbol of got named by a key of want.
func wantSignatures(t *testing.T, got map[string]docidx.Symbol, want map[string]string) {
	t.Helper()
	testutil.Mapping(t, "signature", func(qn string) string { return got[qn].Signature }, want)
}

func TestSignatures(t *testing.T) {
	src := `
public struct S {
	@inlinable @inline(__always)
	@discardableResult
	@available(macOS 10.15, iOS 13, *)
	public func f<T>(
		_ a: T,   // a comment inside
		b: [String: (Int) -> Void] = [:]
	) async throws -> T
		where T: Sendable
	{
		a
	}
	@available(swift, deprecated: 5.9, message: "no")
	public var v: Int { 0 }
	public var closureValue: () -> Int = { 42 }
	public var long = "a very long default value that goes on and on and on and on and on and on and on"
	public var observed: Int = 0 {
		didSet { print("changed") }
	}
}
`
	got := symbols(t, src)
	wantSignatures(t, got, map[string]string{
		"M.S.f(_:b:)":      "@discardableResult\n@available(macOS 10.15, iOS 13, *)\npublic func f<T>(_ a: T, b: [String: (Int) -> Void] = [:]) async throws -> T where T: Sendable",
		"M.S.closureValue": "public var closureValue: () -> Int", // the closure value is cut
		"M.S.long":         "public var long",                    // a long value is cut
		"M.S.observed":     "public var observed: Int = 0",
	})
	if s := got["M.S.v"]; !s.Deprecated {
		t.Errorf("@available(swift, deprecated:) not deprecated: %+v", s)
	}
}

func TestTokenizerEdgeCases(t *testing.T) {
	src := `
let a = "unterminated
let b = "}" + "{" + "\"" + "\\"
let c = """
	}}} """ is not the end: \"""
	"""
let d = #"raw } "# + ##"raw "# still"##
let e = "interp \(f("nested \("deep") }")) {"
let r = #/re{gex}/#
/* outer /* inner } */ still comment { */
public struct AfterAll {
	/**
	 * Block doc.
	 * Second line.
	 */
	public func documented() {}
	/// First block.

	/// Second block wins.
	public func twoBlocks() {}
	//// Not a doc comment.
	public func quadSlash() {}
	public func ` + "`" + `default` + "`" + `() {}
}
`
	got := symbols(t, src)
	if _, ok := got["M.AfterAll"]; !ok {
		t.Fatalf("strings or comments swallowed the struct: %v", names(got))
	}
	if s := got["M.AfterAll.documented()"]; s.Doc != "Block doc.\nSecond line." {
		t.Errorf("block doc %q", s.Doc)
	}
	if s := got["M.AfterAll.twoBlocks()"]; s.Doc != "Second block wins." {
		t.Errorf("two blocks doc %q", s.Doc)
	}
	if s := got["M.AfterAll.quadSlash()"]; s.Doc != "" {
		t.Errorf("//// taken as doc: %q", s.Doc)
	}
	if s, ok := got["M.AfterAll.default()"]; !ok || s.Name != "default" {
		t.Errorf("backticked name: %+v %v", s, names(got))
	}
	if s := got["M.AfterAll.documented()"]; s.Line != 16 {
		t.Errorf("line %d, want 16 (multi-line strings and comments count their lines)", s.Line)
	}
}

func TestConditionalCompilation(t *testing.T) {
	src := `
#if os(Linux)
import Glibc
public struct Platform { public static let name = "linux" }
#elseif os(macOS)
public struct Platform { public static let name = "macos" }
#else
public struct Platform {}
#endif
public enum Feature {
	case always
	#if swift(>=5.9)
	case modern
	#endif
}
`
	got := symbols(t, src)
	testutil.Present(t, got, "", "M.Platform", "M.Platform.name", "M.Feature.always", "M.Feature.modern")
	if s := got["M.Platform.name"]; s.Signature != "public static let name = \"linux\"\npublic static let name = \"macos\"" {
		t.Errorf("branches not merged: %q", s.Signature)
	}
}

func TestExtensionOfNestedType(t *testing.T) {
	src := `
public struct Outer { public struct Inner {} ; struct Hidden {} }
extension Outer.Inner { public func f() {} }
extension Outer.Hidden { public func g() {} }
extension Swift.Array where Element == Int { public var sum: Int { 0 } }
`
	got := symbols(t, src)
	if s, ok := got["M.Outer.Inner.f()"]; !ok || s.Parent != "Outer.Inner" {
		t.Errorf("Outer.Inner.f = %+v (have %v)", s, names(got))
	}
	if _, ok := got["M.Outer.Hidden.g()"]; ok {
		t.Error("member of an extension of an internal nested type is public")
	}
	if _, ok := got["M.Swift.Array.sum"]; !ok {
		t.Errorf("qualified extension: %v", names(got))
	}
}

// TestMembers checks that the members of types and extensions are symbols of their own: stored
// properties are fields, computed ones and protocol requirements properties, each with its own
// doc, line, declaration and Parent (the extended type for extension members).
func TestMembers(t *testing.T) {
	src := `
/// Connection settings.
public struct Config {
	/// Port to listen on.
	///
	/// Default 8080.
	public var port: Int = 8080
	/// Host name.
	public let host: String
	/// Logs every change.
	public var level: Int = 0 {
		didSet { print(level) }
	}
	/// Observed without an initial value.
	public var tag: String {
		@MainActor willSet {}
	}
	/// Derived from port.
	public var isPrivileged: Bool { port < 1024 }
	/// With accessors.
	public var name: String {
		get { host }
		set {}
	}
	/// The shared default.
	public static let shared = Config(host: "localhost")
	/// Loaded on first use.
	public lazy var cache: [String: Int] = [:]
	var hidden: Int = 0
	/// Creates settings for host.
	public init(host: String) { self.host = host }
	/// A nested type.
	public enum Mode {
		/// Plain TCP.
		case plain
		/// TLS with a certificate path.
		case tls(path: String)
	}
}
/// Something with a name.
public protocol Named {
	/// The name.
	var name: String { get }
}
extension Config: Named {
	/// Connects to host and port.
	public func connect(timeout: Double = 5) throws {}
	/// Extension properties are computed.
	public var url: String { "tcp://" + host }
	func internalHelper() {}
}
extension Config.Mode {
	/// Whether the mode encrypts.
	public var isSecure: Bool { self != .plain }
}
`
	got := symbols(t, src)
	for _, tc := range []struct {
		qn     string
		kind   docidx.SymbolKind
		parent string
		sig    string
		doc    string
		line   int
	}{
		{"M.Config.port", docidx.KindField, "Config", "public var port: Int = 8080", "Port to listen on.\n\nDefault 8080.", 7},
		{"M.Config.host", docidx.KindField, "Config", "public let host: String", "Host name.", 9},
		{"M.Config.level", docidx.KindField, "Config", "public var level: Int = 0", "Logs every change.", 11},
		{"M.Config.tag", docidx.KindField, "Config", "public var tag: String", "Observed without an initial value.", 15},
		{"M.Config.isPrivileged", docidx.KindProperty, "Config", "public var isPrivileged: Bool", "Derived from port.", 19},
		{"M.Config.name", docidx.KindProperty, "Config", "public var name: String", "With accessors.", 21},
		{"M.Config.shared", docidx.KindField, "Config", `public static let shared = Config(host: "localhost")`, "The shared default.", 26},
		{"M.Config.cache", docidx.KindField, "Config", "public lazy var cache: [String: Int] = [:]", "Loaded on first use.", 28},
		{"M.Config.init(host:)", docidx.KindMethod, "Config", "public init(host: String)", "Creates settings for host.", 31},
		{"M.Config.Mode", docidx.KindEnum, "Config", "public enum Mode", "A nested type.", 33},
		{"M.Config.Mode.plain", docidx.KindConst, "Config.Mode", "case plain", "Plain TCP.", 35},
		{"M.Config.Mode.tls", docidx.KindConst, "Config.Mode", "case tls(path: String)", "TLS with a certificate path.", 37},
		{"M.Named.name", docidx.KindProperty, "Named", "var name: String { get }", "The name.", 43},
		{"M.Config.connect(timeout:)", docidx.KindMethod, "Config", "public func connect(timeout: Double = 5) throws", "Connects to host and port.", 47},
		{"M.Config.url", docidx.KindProperty, "Config", "public var url: String", "Extension properties are computed.", 49},
		{"M.Config.Mode.isSecure", docidx.KindProperty, "Config.Mode", "public var isSecure: Bool", "Whether the mode encrypts.", 54},
	} {
		s, ok := got[tc.qn]
		if !ok {
			t.Errorf("missing %s (have %v)", tc.qn, names(got))
			continue
		}
		if s.Kind != tc.kind || s.Parent != tc.parent || s.Signature != tc.sig || s.Doc != tc.doc || s.Line != tc.line || s.Package != "M" {
			t.Errorf("%s = %s parent %q sig %q doc %q line %d\nwant %s parent %q sig %q doc %q line %d",
				tc.qn, s.Kind, s.Parent, s.Signature, s.Doc, s.Line, tc.kind, tc.parent, tc.sig, tc.doc, tc.line)
		}
	}
	testutil.Absent(t, got, "not public", "M.Config.hidden", "M.Config.internalHelper()")
	if s := got["M.Config"]; s.Signature != "public struct Config" {
		t.Errorf("the type keeps a compact signature: %q", s.Signature)
	}
}

func TestMaxSymbols(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		b.WriteString("public func f" + strings.Repeat("x", i) + "() {}\n")
	}
	res := Symbols([]File{{Path: "a.swift", Module: "M", Decls: Parse([]byte(b.String()))}}, Options{MaxSymbols: 10})
	if len(res.Symbols) != 10 || res.Dropped != 40 {
		t.Errorf("%d symbols, %d dropped; want 10, 40", len(res.Symbols), res.Dropped)
	}
}

func TestReadManifest(t *testing.T) {
	for _, tc := range []struct{ src, name, tools string }{
		{"// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(\n  name: \"swift-nio\",\n  products: [.library(name: \"NIO\", targets: [\"NIO\"])]\n)\n", "swift-nio", "5.9"},
		{"// swift-tools-version: 6.0; (experimentalFeature)\nlet package = Package(name: #\"Raw\"#)", "Raw", "6.0"},
		{"// swift-tools-version:5.5\nlet package = Package(\n  // name: \"commented\"\n  name: \"a\\u{62}c\\\"\")", "abc\"", "5.5"},
		{"let name = \"x\"\nlet package = Package(name: name)", "", ""},
		{"let deps: [Package.Dependency] = [.package(name: \"wrong\", url: \"u\")]\nlet package = Package(name: \"right\", dependencies: deps)", "right", ""},
		{"let package = Package(products: [.library(name: \"inner\")], name: \"outer\")", "outer", ""},
		{"let package = Package(name: \"interp \\(x)\")", "", ""},
		{"", "", ""},
	} {
		m := ReadManifest([]byte(tc.src))
		if m.Name != tc.name || m.ToolsVersion != tc.tools {
			t.Errorf("ReadManifest(%q) = %+v, want name %q tools %q", tc.src, m, tc.name, tc.tools)
		}
	}
}

// The executables a manifest declares are the commands its package builds: the products and
// the executable targets, by literal names.
func TestReadManifestExecutables(t *testing.T) {
	src := "// swift-tools-version:5.9\nlet package = Package(\n  name: \"swift-format\",\n" +
		"  products: [.executable(name: \"swift-format\", targets: [\"swift-format\"]), .library(name: \"SwiftFormat\", targets: [])],\n" +
		"  targets: [.executableTarget(\n    name: \"generate-swift-syntax\",\n    dependencies: []),\n" +
		"    .executableTarget(name: toolName), .target(name: \"Lib\")]\n)\n"
	m := ReadManifest([]byte(src))
	if want := []string{"swift-format", "generate-swift-syntax"}; !slices.Equal(m.Executables, want) {
		t.Errorf("Executables = %q, want %q", m.Executables, want)
	}
	if m.Name != "swift-format" {
		t.Errorf("Name = %q", m.Name)
	}
}

// TestPathological checks that hostile inputs parse in about linear time and never panic.
func TestPathological(t *testing.T) {
	inputs := map[string]string{
		"open braces":     strings.Repeat("public struct S {", 20000),
		"executables":     "let package = Package(name: \"p\", products: [" + strings.Repeat(".executable(", 20000),
		"close braces":    strings.Repeat("}", 50000),
		"open parens":     "public func f" + strings.Repeat("(", 50000),
		"interpolations":  "let s = " + strings.Repeat(`"\(`, 20000),
		"raw hashes":      strings.Repeat("#", 50000) + `"`,
		"block comments":  strings.Repeat("/*", 50000),
		"angles":          "public func f" + strings.Repeat("<", 50000),
		"attributes":      strings.Repeat("@available(*, deprecated) ", 20000),
		"modifiers":       strings.Repeat("public static final ", 20000),
		"modifier lines":  strings.Repeat("public\n", 50000),
		"attribute lines": strings.Repeat("@objc\n", 50000),
		"extensions":      strings.Repeat("extension A.B.C.D where X == Y { public func f() {} }\n", 5000),
	}
	for name, src := range inputs {
		start := time.Now()
		res := Symbols([]File{{Path: "x.swift", Module: "M", Decls: Parse([]byte(src))}}, Options{})
		ReadManifest([]byte(src)) // a Package.swift is read without being parsed as declarations
		if d := time.Since(start); d > 5*time.Second {
			testutil.TimingError(t, "%s: %v for %d bytes", name, d, len(src))
		}
		_ = res
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"public struct S { public func f(_ x: Int) -> Int { x } }",
		"/// doc\n@available(*, deprecated) public enum E { case a, b(Int) }",
		"let s = \"\\(\"}\")\" ; public protocol P { var x: Int { get } }",
		"#if X\npublic extension Array where Element: Equatable { func f() {} }\n#endif",
		"public macro m() = #externalMacro(module: \"A\", type: \"B\")",
		"let r = #\"\\#(x)\"# /* /* */ */ public static func == (a: A, b: A) -> Bool",
		"// swift-tools-version:5.9\nlet package = Package(name: \"p\")",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res := Symbols([]File{{Path: "f.swift", Module: "M", Decls: Parse(src)}}, Options{MaxSymbols: 1000})
		seen := map[string]bool{}
		for _, s := range res.Symbols {
			if seen[s.QualifiedName] {
				t.Fatalf("duplicate qualified name %q", s.QualifiedName)
			}
			seen[s.QualifiedName] = true
			if s.Name == "" || s.Line < 1 {
				t.Fatalf("bad symbol %+v", s)
			}
		}
		_ = ReadManifest(src)
	})
}
