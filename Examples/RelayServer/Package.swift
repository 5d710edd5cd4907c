// swift-tools-version:6.2
import PackageDescription

// A relay server on IMCodecNIO (TCP and WebSocket, with a chat page), and the
// integration's tests over loopback sockets. It depends on imcodec as a
// server would, with the SwiftNIO trait on beside Zstd and LibDeflate (naming
// traits replaces the default ones, which would leave zstd frames refused
// with frame.zstd-unavailable); the root package's own
// `swift build` and `swift test` never build NIO. From the repository root:
//
//     swift build --package-path Examples/RelayServer --scratch-path .build-nio
//     swift test --package-path Examples/RelayServer --scratch-path .build-nio
//     scripts/bench/relay_load.sh
//     scripts/bench/relay_soak.sh
let package = Package(
    name: "imcodec-relay-example",
    products: [
        .executable(name: "imcodec-relay", targets: ["imcodec-relay"]),
        .executable(name: "imcodec-relay-load", targets: ["imcodec-relay-load"]),
    ],
    dependencies: [
        .package(name: "imcodec", path: "../..", traits: ["SwiftNIO", "Zstd", "LibDeflate"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // HMAC-SHA256 of the login tickets.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // Groups, validation, fan-out, the connection guards and the chat
        // page's files: everything but the command line.
        .target(
            name: "RelayServer",
            dependencies: [
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "IMCodecNIO", package: "imcodec"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // glibc's mallopt, for the command's allocator setting.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "imcodec-relay",
            dependencies: [
                "RelayServer",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The load generator, the soak run and the fan-out measurement:
        // clients in one process, over 127.0.0.1 only.
        .executableTarget(
            name: "imcodec-relay-load",
            dependencies: [
                "RelayServer",
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "IMCodecNIO", package: "imcodec"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
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
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ]
)
