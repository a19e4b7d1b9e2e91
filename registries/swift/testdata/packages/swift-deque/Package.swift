// swift-tools-version:5.9
//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Deque open source project
//
//===----------------------------------------------------------------------===//

import PackageDescription
import CompilerPluginSupport

// This package recognizes the conditional compilation flags listed below.
var defines: [String] = [
  // "COLLECTIONS_INTERNAL_CHECKS",
]

let package = Package(
  name: "swift-deque",
  products: [
    .library(name: "DequeModule", targets: ["DequeModule"]),
    .library(name: "OrderedCollections", targets: ["OrderedCollections"]),
  ],
  targets: [
    .target(name: "DequeModule", swiftSettings: defines.map { .define($0) }),
    .target(name: "OrderedCollections"),
    .macro(name: "CollectionsMacros"),
    .target(name: "AsyncDeque", dependencies: ["DequeModule"]),
    .testTarget(name: "DequeTests", dependencies: ["DequeModule"]),
  ]
)
