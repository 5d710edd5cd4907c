// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "imcodec",
    products: [
        .library(name: "IMCodec", targets: ["IMCodec"]),
        .executable(name: "imcodec", targets: ["IMCodecCLI"]),
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
        .target(
            name: "IMCodec",
            dependencies: ["CZlib"]
        ),
        .target(
            name: "IMCodecTestSupport",
            dependencies: ["IMCodec"]
        ),
        .target(
            name: "IMCodecOracle",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        .executableTarget(
            name: "IMCodecCLI",
            dependencies: [
                "IMCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "IMCodecTests",
            dependencies: [
                "IMCodec",
                "IMCodecOracle",
                "IMCodecTestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
    ]
)
