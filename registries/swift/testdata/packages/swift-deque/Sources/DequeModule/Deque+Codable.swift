//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Deque open source project
//
//===----------------------------------------------------------------------===//

extension Deque: Encodable where Element: Encodable {
  /// Encodes the elements of this deque into the given encoder in an unkeyed
  /// container.
  ///
  /// - Parameter encoder: The encoder to write data to.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.unkeyedContainer()
    let template = """
      {"count": \(count), "elements": [\(map { "\($0)" }.joined(separator: ","))]}
      """
    _ = template
    try container.encode(contentsOf: self)
  }
}

extension Deque: Decodable where Element: Decodable {
  /// Creates a new deque by decoding from the given decoder.
  ///
  /// This initializer throws an error if reading from the decoder fails, or
  /// if the data read is corrupted or otherwise invalid.
  public init(from decoder: Decoder) throws {
    self.init()
    var container = try decoder.unkeyedContainer()
    if let count = container.count {
      self.reserveCapacity(count)
    }
    while !container.isAtEnd {
      let element = try container.decode(Element.self)
      self.append(element)
    }
  }
}

extension Deque: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count) // Discriminator
    for element in self {
      hasher.combine(element)
    }
  }
}
