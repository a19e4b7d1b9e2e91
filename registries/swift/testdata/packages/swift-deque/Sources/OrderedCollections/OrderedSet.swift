//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Deque open source project
//
//===----------------------------------------------------------------------===//

/// An ordered collection of unique elements.
///
/// Similar to the standard `Set`, ordered sets ensure that each element appears
/// only once in the collection, and they provide efficient tests for
/// membership. However, like `Array` (and unlike `Set`), ordered sets maintain
/// their elements in a particular user-specified order.
@frozen
public struct OrderedSet<Element> where Element: Hashable {
  @usableFromInline
  internal var __storage: _HashTable.Storage?

  @usableFromInline
  internal var _elements: ContiguousArray<Element>

  /// Creates an empty set.
  public init() {
    __storage = nil
    _elements = []
  }

  /// A view of the members of this set, as a regular array value.
  public var elements: [Element] {
    Array(_elements)
  }

  /// Returns the index of the given element in the set, or `nil` if the
  /// element is not a member of the set.
  ///
  /// - Complexity: Expected to be O(1) on average.
  public func firstIndex(of element: Element) -> Int? {
    _find(element).index
  }

  /// Append a new member to the end of the set, if the set doesn't
  /// already contain it.
  ///
  /// - Returns: A pair `(inserted, index)`, where `inserted` is a Boolean value
  ///    indicating whether the operation added a new element, and `index` is
  ///    the index of `item` in the resulting set.
  @discardableResult
  public mutating func append(_ item: Element) -> (inserted: Bool, index: Int) {
    let (index, bucket) = _find(item)
    if let index = index { return (false, index) }
    _appendNew(item, in: bucket)
    return (true, _elements.index(before: _elements.endIndex))
  }

  internal func _find(_ item: Element) -> (index: Int?, bucket: Int) {
    (_elements.firstIndex(of: item), 0)
  }

  fileprivate mutating func _appendNew(_ item: Element, in bucket: Int) {
    _elements.append(item)
  }

  private var hashTableEnabled: Bool { __storage != nil }

  /// Accesses the member at the specified position, or the members selected by
  /// a predicate (a static subscript is a type member too).
  public static subscript(dynamicMember keyPath: KeyPath<Element, Bool>) -> Int {
    0
  }

  /// Elements ordered by a custom predicate.
  public func sorted(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows -> Self {
    var r = Self()
    for e in try _elements.sorted(by: areInIncreasingOrder) { r.append(e) }
    return r
  }
}

/// A type that can be the `Element` of an ordered collection with a stable
/// identity.
public protocol OrderedCollectionElement: Hashable {
  /// The type of the identity.
  associatedtype ID: Hashable

  /// The stable identity of the element.
  var id: ID { get }

  /// Creates an element from its identity.
  init(id: ID)

  /// Compares two elements by identity.
  static func ~= (lhs: Self, rhs: Self) -> Bool

  /// Accesses a component by position.
  subscript(component index: Int) -> String { get set }
}

extension OrderedSet: ExpressibleByArrayLiteral {
  /// Creates a new set from the contents of an array literal.
  public init(arrayLiteral elements: Element...) {
    self.init()
    for e in elements { append(e) }
  }
}

extension OrderedSet: CustomStringConvertible {
  public var description: String { _elements.description }
}

/// Swift lets you write identifiers with non-ASCII letters and `backticks`.
public enum Ordering: String, CaseIterable {
  case ascending = "asc"
  case descending = "desc"
  case `default`
  /// Stable, in Unicode: straße.
  case straße
}

extension OrderedSet {
  /// How two ordered sets compare.
  public enum Comparison: Equatable {
    /// The sets hold the same elements in the same order.
    case equal
    /// The sets differ, first at `index`.
    case differ(at: Int, Element, Element)
    indirect case nested(Comparison)
  }

  /// Compares this set with another one, element by element.
  public func compare(with other: Self) -> Comparison {
    for (i, (a, b)) in zip(_elements, other._elements).enumerated() where a != b {
      return .differ(at: i, a, b)
    }
    return .equal
  }

  public static let maximumCapacity = 1 << 40, minimumCapacity = 0

  public static var (tupleA, tupleB) = (1, 2)
}

public typealias OrderedDictionaryKeys<Key: Hashable> = OrderedSet<Key>
