/// The hash table behind `OrderedSet`: internal, with members that look public.
@usableFromInline
internal struct _HashTable {
  @usableFromInline
  internal final class Storage {
    public var scale: Int = 0
  }

  public var bucketCount: Int { 0 }
}

extension _HashTable {
  public static func scale(forCapacity capacity: Int) -> Int { 0 }
}

/// Visible to the other modules of this package only.
package struct PackageBucket {
  public var offset: Int
  package init(offset: Int) { self.offset = offset }
}

internal extension OrderedSet {
  func internalHelper() {}
  public func looksPublicButIsnt() {}
}

private extension OrderedSet {
  func privateHelper() {}
}

fileprivate struct Scratch {
  public var x = 0
}

struct ImplicitlyInternal {
  public init() {}
}

extension ImplicitlyInternal {
  public func ignored() {}
}
