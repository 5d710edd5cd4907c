// swift-tools-version:6.1
import PackageDescription

// A relay server on IMCodecNIO, and the integration's tests over loopback
// sockets. It depends on imcodec as a server would, with the SwiftNIO trait
// on; the root package's own `swift build` and `swift test` never build NIO.
// From the repository root:
//
//     swift build --package-path Examples/RelayServer --scratch-path .build-nio
//     swift test --package-path Examples/RelayServer --scratch-path .build-nio
//     scripts/bench/relay_load.sh
let package = Package(
    name: "imcodec-relay-example",
    products: [
        .executable(name: "imcodec-relay", targets: ["imcodec-relay"]),
        .executable(name: "imcodec-relay-load", targets: ["imcodec-relay-load"]),
    ],
    dependencies: [
        .package(name: "imcodec", path: "../..", traits: ["SwiftNIO"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Groups, validation and fan-out: everything but the command line.
        .target(
            name: "RelayServer",
            dependencies: [
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "IMCodecNIO", package: "imcodec"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "imcodec-relay",
            dependencies: [
                "RelayServer",
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The load generator: clients in one process, over 127.0.0.1 only.
        .executableTarget(
            name: "imcodec-relay-load",
            dependencies: [
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "IMCodecNIO", package: "imcodec"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "IMCodecNIOTests",
            dependencies: [
                "RelayServer",
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "IMCodecNIO", package: "imcodec"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
    ]
)
