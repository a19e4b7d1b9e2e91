// swift-tools-version:5.9
//===----------------------------------------------------------*- swift -*-===//
//
// This source file is part of the Swift Argument Kit open source project
//
//===----------------------------------------------------------------------===//

import PackageDescription

var package = Package(
    name: "swift-argument-kit",
    products: [
        .library(
            name: "ArgumentKit",
            targets: ["ArgumentKit"]),
        .plugin(
            name: "GenerateManual",
            targets: ["GenerateManual"]),
    ],
    dependencies: [],
    targets: [
        // Core Library
        .target(
            name: "ArgumentKit",
            dependencies: ["ArgumentKitToolInfo"],
            exclude: ["CMakeLists.txt"]),
        .target(
            name: "ArgumentKitToolInfo",
            dependencies: []),

        // Plugins
        .plugin(
            name: "GenerateManual",
            capability: .command(
                intent: .custom(verb: "generate-manual", description: "Generate a manual entry for a specified target.")),
            dependencies: []),

        // Tests
        .testTarget(
            name: "ArgumentKitTests",
            dependencies: ["ArgumentKit"]),
    ]
)
