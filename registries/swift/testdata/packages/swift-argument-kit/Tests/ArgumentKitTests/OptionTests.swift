import XCTest
@testable import ArgumentKit

public final class OptionTests: XCTestCase {
  public func testParsing() throws {
    struct Bar: ParsableCommand {
      @Option var name: String
    }
    let bar = try Bar.parse(["--name", "A"])
    XCTAssertEqual(bar.name, "A")
  }
}
