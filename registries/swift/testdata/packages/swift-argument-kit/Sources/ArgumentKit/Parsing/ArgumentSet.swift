/// A nested tree of argument definitions.
///
/// The main use of a tree of argument definitions is to build a help screen.
struct ArgumentSet {
  var content: [ArgumentDefinition] = []
  var namePositions: [Name: Int] = [:]

  init<S: Sequence>(_ arguments: S) where S.Element == ArgumentDefinition {
    self.content = Array(arguments)
  }

  init() {}

  /// Public-looking but inside an internal type: not API.
  public func first(named name: Name) -> ArgumentDefinition? {
    content.first { $0.names.contains(name) }
  }
}

extension ArgumentSet: CustomDebugStringConvertible {
  public var debugDescription: String {
    content.map { $0.debugDescription }.joined(separator: " / ")
  }
}

/// Parses the input into a tree of argument values.
package struct LenientParser {
  package var inputArguments: SplitArguments
}

fileprivate extension ArgumentSet {
  func helper() {}
}
