// swift-tools-version:6.1
import PackageDescription

// The benchmarks of imcodec, kept out of the root package so that its
// `swift build` and `swift test` never fetch or build the harness. Run them
// with scripts/bench/bench.sh from the repository root.
let package = Package(
    name: "imcodec-benchmarks",
    dependencies: [
        .package(name: "imcodec", path: ".."),
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The peers written in C: protobuf-c straight, the C reference's
        // frame pipeline, zlib used the naive way and libzstd alone.
        .target(
            name: "CBenchmarkPeers",
            dependencies: [.product(name: "_IMCodecTestSupport", package: "imcodec")],
            cSettings: [
                // The reference's internal headers: the peer calls its frame
                // pipeline's own steps, which its public API does not expose.
                .unsafeFlags(["-I\(Context.packageDirectory)/../Sources/IMCodecReference"])
            ],
            linkerSettings: [.linkedLibrary("protobuf-c"), .linkedLibrary("z"), .linkedLibrary("zstd")]
        ),
        // The prepared corpus and the peers behind one Swift interface.
        .target(
            name: "BenchmarkCorpus",
            dependencies: [
                "CBenchmarkPeers",
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "_IMCodecTestSupport", package: "imcodec"),
                .product(name: "_IMCodecTraffic", package: "imcodec"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // Wire sizes, allocation budgets and the table of ratios.
        .executableTarget(
            name: "imcodec-bench-report",
            dependencies: ["BenchmarkCorpus", .product(name: "_IMCodecTraffic", package: "imcodec")],
            // A script-like top level: its globals are read by its functions.
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // One benchmark body in a loop, for callgrind and perf.
        .executableTarget(
            name: "imcodec-bench-profile",
            dependencies: [
                "BenchmarkCorpus", .product(name: "IMCodec", package: "imcodec"),
                .product(name: "_IMCodecTraffic", package: "imcodec"),
            ]
        ),
        .executableTarget(
            name: "IMCodecBenchmarks",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "IMCodec", package: "imcodec"),
                .product(name: "_IMCodecTraffic", package: "imcodec"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/IMCodecBenchmarks",
            // The harness's own types are not Sendable (it builds in Swift 5 mode too).
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
