import XCTest
import DequeModule

public final class DequeTests: XCTestCase {
  public func testAppend() {
    var d: Deque<Int> = []
    d.append(1)
    XCTAssertEqual(d.count, 1)
  }
}
