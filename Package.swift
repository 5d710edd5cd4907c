// swift-tools-version:6.1
import Foundation
import PackageDescription

let package = Package(
    name: "imcodec",
    products: [
        .library(name: "IMCodec", targets: ["IMCodec"]),
        .executable(name: "imcodec", targets: ["IMCodecCLI"]),
        .executable(name: "imcodec-devtools", targets: ["IMCodecDevTools"]),
        .executable(name: "imcodec-c-testee", targets: ["IMCodecCTestee"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CProtobufC",
            pkgConfig: "libprotobuf-c",
            providers: [.apt(["libprotobuf-c-dev"])]
        ),
        .target(
            name: "IMCodecReference",
            dependencies: ["CProtobufC", "CZlib"],
            exclude: ["tests", "Makefile", "README.md"],
            cSettings: [.headerSearchPath("."), .headerSearchPath("Generated")]
        ),
        .executableTarget(
            name: "IMCodecCTestee",
            dependencies: ["IMCodecReference"],
            cSettings: [.headerSearchPath("../IMCodecReference/Generated")]
        ),
        .target(
            name: "IMCodec",
            dependencies: ["CZlib"]
        ),
        .target(
            name: "IMCodecTestSupport",
            dependencies: [
                "IMCodec",
                "IMCodecOracle",
                "IMCodecReference",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .target(
            name: "IMCodecOracle",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        .target(
            name: "IMCodecConformance",
            dependencies: [
                "IMCodec",
                "IMCodecOracle",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .executableTarget(
            name: "IMCodecCLI",
            dependencies: [
                "IMCodec",
                "IMCodecConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "IMCodecDevTools",
            dependencies: [
                "IMCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "IMCodecTests",
            dependencies: [
                "IMCodec",
                "IMCodecConformance",
                "IMCodecOracle",
                "IMCodecTestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
    ]
)

// libFuzzer targets, one product each, built only when IMCODEC_FUZZ is set
// (scripts/fuzz.sh sets it): they have no `main` of their own, so an ordinary
// build could not link them.
if ProcessInfo.processInfo.environment["IMCODEC_FUZZ"] != nil {
    for name in ["FuzzPayload", "FuzzJSON", "FuzzFrame", "FuzzStream"] {
        package.targets.append(
            .executableTarget(name: name, dependencies: ["IMCodecTestSupport"], path: "FuzzTesting/\(name)"))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
