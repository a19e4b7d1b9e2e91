//===----------------------------------------------------------*- swift -*-===//
//
// This source file is part of the Swift Argument Kit open source project
//
//===----------------------------------------------------------------------===//

/// A property wrapper that represents a command-line flag.
///
/// Use the `@Flag` wrapper to define a property of your custom type as a
/// command-line flag. A *flag* is a dash-prefixed label that can be provided on
/// the command line, such as `-d` and `--debug`.
@propertyWrapper
public struct Flag<Value>: Decodable, ParsedWrapper {
  internal var _parsedValue: Parsed<Value>

  public init(from _decoder: Decoder) throws {
    try self.init(_decoder: _decoder)
  }

  /// The value presented by this property wrapper.
  public var wrappedValue: Value {
    get { _parsedValue.value! }
    set { _parsedValue = .value(newValue) }
  }
}

/// The options for converting a Boolean flag into a `true`/`false` pair.
public enum FlagInversion: Hashable {
  /// Adds a matching flag with a `no-` prefix to represent `false`.
  ///
  /// For example, the `shouldRender` property in this declaration is set to
  /// `true` when a user provides `--render` and to `false` when the user
  /// provides `--no-render`:
  ///
  ///     @Flag(name: .customLong("render"), inversion: .prefixedNo)
  ///     var shouldRender: Bool
  case prefixedNo

  /// Uses matching flags with `enable-` and `disable-` prefixes.
  case prefixedEnableDisable
}

/// The options for treating enumeration-based flags as exclusive.
public enum FlagExclusivity: Hashable {
  case exclusive, chooseFirst, chooseLast
}

extension Flag where Value == Bool {
  /// Creates a Boolean property with a default value provided by standard Swift
  /// default value syntax.
  public init(
    wrappedValue: Bool,
    name: NameSpecification = .long,
    inversion: FlagInversion,
    exclusivity: FlagExclusivity = .chooseLast,
    help: ArgumentHelp? = nil
  ) {
    self.init(_parsedValue: .value(wrappedValue))
  }

  /// Creates a property that gets its value from the presence of a flag.
  public init(
    wrappedValue: Bool = false,
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil
  ) {
    self.init(_parsedValue: .value(wrappedValue))
  }
}

extension Flag where Value == Int {
  /// Creates an integer property that gets its value from the number of times
  /// a flag appears.
  public init(
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil
  ) {
    self.init(_parsedValue: .value(0))
  }
}
