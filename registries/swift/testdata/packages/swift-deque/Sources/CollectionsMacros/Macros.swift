import SwiftSyntax
import SwiftSyntaxMacros

/// A macro that produces both a value and a string containing the
/// source code that generated the value. For example,
///
///     #stringify(x + y)
///
/// produces a tuple `(x + y, "x + y")`.
@freestanding(expression)
public macro stringify<T>(_ value: T) -> (T, String) = #externalMacro(module: "CollectionsMacrosPlugin", type: "StringifyMacro")

/// Adds an `init` that takes every stored property.
@attached(member, names: named(init))
public macro MemberwiseInit(access: String = "public") = #externalMacro(
  module: "CollectionsMacrosPlugin",
  type: "MemberwiseInitMacro"
)

public struct StringifyMacro {
  public static func expansion(
    of node: some FreestandingMacroExpansionSyntax,
    in context: some MacroExpansionContext
  ) throws -> ExprSyntax {
    guard let argument = node.arguments.first?.expression else {
      fatalError("compiler bug: the macro does not have any arguments")
    }
    return "(\(argument), \(literal: argument.description))"
  }
}
