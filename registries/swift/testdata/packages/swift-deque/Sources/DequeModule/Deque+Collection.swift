//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Deque open source project
//
//===----------------------------------------------------------------------===//

extension Deque: Sequence {}

extension Deque: RandomAccessCollection {
  public typealias Index = Int
  public typealias SubSequence = Slice<Self>
  public typealias Indices = Range<Int>

  /// The position of the first element in a nonempty deque.
  ///
  /// For an instance of `Deque`, `startIndex` is always zero.
  @inlinable
  @inline(__always)
  public var startIndex: Int { 0 }

  /// The deque's "past the end" position.
  @inlinable
  @inline(__always)
  public var endIndex: Int { count }

  /// Accesses the element at the specified position.
  ///
  /// - Parameter index: The position of the element to access.
  /// - Complexity: Reading an element from a deque is O(1).
  @inlinable
  public subscript(index: Int) -> Element {
    get {
      precondition(index >= 0 && index < count, "Index out of bounds")
      return _storage.read { $0.ptr(at: $0.slot(forOffset: index)).pointee }
    }
    set {
      _storage.update { $0.mutablePtr(at: $0.slot(forOffset: index)).pointee = newValue }
    }
  }

  /// Accesses a contiguous subrange of the deque's elements.
  @inlinable
  public subscript(bounds: Range<Int>) -> Slice<Self> {
    get { Slice(base: self, bounds: bounds) }
  }
}

extension Deque: MutableCollection {
  /// Exchanges the values at the specified indices of the collection.
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    _storage.update { $0.swapAt(i, j) }
  }
}

extension Deque: RangeReplaceableCollection {
  /// Replaces a range of elements with the elements in the specified
  /// collection.
  @inlinable
  public mutating func replaceSubrange<C: Collection>(
    _ subrange: Range<Int>,
    with newElements: __owned C
  ) where C.Element == Element {
    _storage.update { $0.replaceSubrange(subrange, with: newElements) }
  }

  /// Inserts a new element at the specified position.
  public mutating func insert(_ newElement: Element, at index: Int) {
    replaceSubrange(index..<index, with: CollectionOfOne(newElement))
  }

  /// Inserts the elements of a collection into the deque at the specified
  /// position.
  public mutating func insert<C: Collection>(
    contentsOf newElements: __owned C, at index: Int
  ) where C.Element == Element {
    replaceSubrange(index..<index, with: newElements)
  }

  /// Removes and returns the element at the specified position.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let e = self[index]
    replaceSubrange(index..<index + 1, with: EmptyCollection())
    return e
  }

  /// Appends the elements of a sequence or collection to the end of this deque.
  public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
    for e in newElements { append(e) }
  }

  /// Appends the elements of a collection to the end of this deque.
  public mutating func append<C: Collection>(contentsOf newElements: C) where C.Element == Element {
    for e in newElements { append(e) }
  }
}
