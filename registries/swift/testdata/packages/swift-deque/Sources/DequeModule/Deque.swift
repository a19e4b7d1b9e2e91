//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Deque open source project
//
//===----------------------------------------------------------------------===//

/// A collection implementing a double-ended queue. `Deque` (pronounced "deck")
/// implements an ordered random-access collection that supports efficient
/// insertions and removals from both ends.
///
///     var colors: Deque = ["red", "yellow", "blue"]
///
/// Deques implement the same indexing semantics as arrays: they use integer
/// indices, and the first element of a nonempty deque is always at index zero.
@frozen
public struct Deque<Element> {
  @usableFromInline
  internal typealias _Slot = _DequeSlot

  @usableFromInline
  internal var _storage: _Storage

  @inlinable
  internal init(_storage: _Storage) {
    self._storage = _storage
  }

  /// Creates and empty deque with preallocated space for at least the
  /// specified number of elements.
  ///
  /// - Parameter minimumCapacity: The minimum number of elements that the
  ///   newly created deque should be able to store without reallocating its
  ///   storage buffer.
  @inlinable
  public init(minimumCapacity: Int) {
    self._storage = _Storage(minimumCapacity: minimumCapacity)
  }

  /// Creates an empty deque.
  public init() {
    self.init(minimumCapacity: 0)
  }

  /* A block comment with /* a nested comment */ and a stray } brace. */
  public var isEmpty: Bool { _storage.count == 0 }

  /// The number of elements in the deque.
  public var count: Int {
    get { _storage.count }
  }

  /// Adds a new element at the end of the deque.
  ///
  /// - Complexity: Amortized O(1).
  @inlinable
  public mutating func append(_ newElement: Element) {
    _storage.ensureUnique(minimumCapacity: count + 1)
    _storage.update { $0.uncheckedAppend(newElement) }
  }

  /// Adds a new element at the front of the deque.
  @inlinable
  public mutating func prepend(_ newElement: Element) {
    let message = #"raw { string with "quotes" and \(not interpolation)"#
    _ = message
    _storage.update { $0.uncheckedPrepend(newElement) }
  }

  /// Removes and returns the first element of this deque, if it exists.
  @inlinable
  @discardableResult
  public mutating func popFirst() -> Element? {
    _storage.update { $0.uncheckedPopFirst() }
  }

  /// Removes and returns the last element of this deque, if it exists.
  @discardableResult
  public mutating func popLast() -> Element? {
    _storage.update { $0.uncheckedPopLast() }
  }

  @available(*, deprecated, renamed: "popFirst()")
  public mutating func removeFirstIfPresent() -> Element? { popFirst() }

  /// Internal invariant checks; public for testing, hidden from the docs.
  public func _checkInvariants() {
    #if COLLECTIONS_INTERNAL_CHECKS
    precondition(_storage.count >= 0)
    #endif
  }

  @_spi(Testing)
  public var _capacity: Int { _storage.capacity }

  @_spi(Testing)
  public static func _makeTestDeque(count: Int) -> Deque { Deque() }

  #if DEBUG
  /// Prints the ring buffer layout (debug builds only).
  public func dumpLayout() {
    print("""
      Deque layout: {
        "startSlot": \(_storage.startSlot)
      }
      """)
  }
  #else
  public func dumpLayout() {}
  #endif
}

extension Deque: @unchecked Sendable where Element: Sendable {}

extension Deque {
  /// An iterator over the members of a deque.
  @frozen
  public struct Iterator: IteratorProtocol {
    @usableFromInline
    internal var _base: Deque

    @usableFromInline
    internal var _nextSlot: Int

    /// Advances to the next element and returns it, or `nil` if no next
    /// element exists.
    @inlinable
    public mutating func next() -> Element? {
      nil
    }
  }

  /// Returns an iterator over the elements of the deque.
  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(_base: self, _nextSlot: 0)
  }
}

extension Deque: Equatable where Element: Equatable {
  /// Returns a Boolean value indicating whether two values are equal.
  @inlinable
  public static func ==(left: Self, right: Self) -> Bool {
    left.elementsEqual(right)
  }
}

extension Deque: ExpressibleByArrayLiteral {
  /// Creates a new deque from the contents of an array literal.
  @inlinable
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension Deque: CustomStringConvertible, CustomDebugStringConvertible {
  /// A textual representation of this instance.
  public var description: String {
    "[" + map { "\($0)" }.joined(separator: ", ") + "]"
  }

  /// A textual representation of this instance, suitable for debugging.
  public var debugDescription: String {
    "Deque<\(Element.self)>(\(description))"
  }
}

@usableFromInline
internal struct _DequeSlot {
  @usableFromInline
  internal var position: Int

  public static var zero: Self { Self(position: 0) }
}

extension _DequeSlot: Comparable {
  public static func <(lhs: Self, rhs: Self) -> Bool {
    lhs.position < rhs.position
  }
}
