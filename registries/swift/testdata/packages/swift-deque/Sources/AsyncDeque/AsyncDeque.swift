import DequeModule

/// A queue that producers and consumers share across tasks.
public actor AsyncDeque<Element: Sendable> {
  private var buffer = Deque<Element>()
  private var waiters: [CheckedContinuation<Element, Never>] = []

  /// Creates an empty queue.
  public init() {}

  /// Adds an element, resuming a waiting consumer if there is one.
  public func push(_ element: Element) {
    if !waiters.isEmpty {
      waiters.removeFirst().resume(returning: element)
    } else {
      buffer.append(element)
    }
  }

  /// Removes the first element, waiting until one is available.
  public func pop() async -> Element {
    if let e = buffer.popFirst() { return e }
    return await withCheckedContinuation { waiters.append($0) }
  }

  /// The number of buffered elements.
  public var count: Int { buffer.count }

  nonisolated public func describe() -> String { "AsyncDeque" }
}

/// Errors thrown by ``BoundedQueue``.
public enum QueueError: Error, Equatable {
  case full(capacity: Int)
  case closed
}

/// A queue with a fixed capacity, usable from the main actor.
@MainActor
open class BoundedQueue<Element> {
  /// The most elements the queue holds.
  public let capacity: Int
  public private(set) var elements: [Element] = []

  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// Adds an element or throws ``QueueError/full(capacity:)``.
  open func push(_ e: Element) throws(QueueError) {
    guard elements.count < capacity else { throw .full(capacity: capacity) }
    elements.append(e)
  }

  /// Makes a queue of the default capacity.
  open class func makeDefault() -> BoundedQueue { BoundedQueue(capacity: 16) }

  public final func drain() -> [Element] {
    defer { elements.removeAll() }
    return elements
  }

  deinit {}
}

/// Clamps a value to a closed range.
///
///     @Clamped(0...100) var percent = 150 // 100
@propertyWrapper
public struct Clamped<Value: Comparable> {
  private var value: Value
  public let range: ClosedRange<Value>

  public init(wrappedValue: Value, _ range: ClosedRange<Value>) {
    self.range = range
    self.value = min(max(wrappedValue, range.lowerBound), range.upperBound)
  }

  public var wrappedValue: Value {
    get { value }
    set { value = min(max(newValue, range.lowerBound), range.upperBound) }
  }

  /// The projected value: the range itself.
  public var projectedValue: ClosedRange<Value> { range }
}

/// Builds a deque from statements.
@resultBuilder
public enum DequeBuilder<Element> {
  public static func buildBlock(_ parts: Element...) -> Deque<Element> {
    Deque(parts)
  }

  public static func buildOptional(_ part: Deque<Element>?) -> Deque<Element> {
    part ?? []
  }
}

/// A global helper.
public func makeDeque<Element>(@DequeBuilder<Element> _ content: () -> Deque<Element>) -> Deque<Element> {
  content()
}

/// Global state, for tests.
public var sharedCounter = 0

public let defaultCapacity: Int = 16

infix operator <+>: AdditionPrecedence

/// Concatenates two deques.
public func <+> <E>(lhs: Deque<E>, rhs: Deque<E>) -> Deque<E> {
  var r = lhs
  r.append(contentsOf: rhs)
  return r
}

// Top-level code in a library is unusual but harmless.
let _ = { () -> Int in
  struct Local { public func invisible() {} }
  return 0
}()
