// swift-tools-version:6.2
// 6.2, not 6.1 (which package traits need): where the standard library has
// them, the library reads strings through `UTF8Span` and `String(copying:)`,
// declared only by the Swift 6.2 standard library, and marks that call with
// the `unsafe` keyword, new in Swift 6.2: an older compiler cannot compile
// that file, even for a platform where only the portable path runs.
//
// The platforms are the lowest releases the code can honestly declare: newer
// APIs (UTF8Span, the 26 releases; next(isolation:), the 2024 releases) sit
// behind availability checks with a portable path beside them, which the
// tests run on Linux too (README: "Apple platforms";
// Sources/IMCodec/Binary/PortablePaths.swift).
import Foundation
import PackageDescription

let package = Package(
    name: "imcodec",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // What users depend on. The codec (IMCodec), the Tencent REST form
        // (IMCodecREST) and the validator (IMCodecValidation): one line in a
        // package's dependencies.
        .library(name: "IMCodec", targets: ["IMCodec", "IMCodecREST", "IMCodecValidation"]),
        // Foundation's `Data` in and out of the frame and payload APIs, and as
        // the chunks of an asynchronous stream: a product of its own, so that
        // a package that does not name it links no Foundation through imcodec
        // (README: "Foundation").
        .library(name: "IMCodecFoundation", targets: ["IMCodecFoundation"]),
        // The testee protocol, for a Swift program another runner checks.
        .library(name: "IMCodecTestee", targets: ["IMCodecTestee"]),
        // The conformance runner, for running the vectors from a program.
        .library(name: "IMCodecConformance", targets: ["IMCodecConformance"]),
        .executable(name: "imcodec", targets: ["IMCodecCLI"]),
        // SwiftNIO channel handlers; empty unless the SwiftNIO trait is enabled.
        .library(name: "IMCodecNIO", targets: ["IMCodecNIO"]),
        // Not API: products only because the nested Benchmarks/ package can
        // depend on nothing else, `_`-prefixed as SwiftNIO marks its own
        // (`_NIOFileSystem`); they change without notice. The oracle and the
        // C reference beside the library, and the seeded model of IM traffic
        // the benchmarks run on and dictionaries are trained on.
        .library(name: "_IMCodecTestSupport", targets: ["IMCodecTestSupport"]),
        .library(name: "_IMCodecTraffic", targets: ["IMCodecTraffic"]),
        // The project's own programs are executable targets and no
        // products: SwiftPM gives a root package's executable targets
        // products of their own names, so `swift run imcodec-devtools` works
        // in this repository, and a package that depends on imcodec never
        // sees them. The C testee is built by the C reference's Makefile
        // (testees/c/testee).
    ],
    traits: [
        // Opt-in integration. A package that depends on imcodec without
        // naming this trait never fetches or builds swift-nio (Sources/IMCodecNIO/IMCodecNIO.docc/Servers.md).
        .trait(
            name: "SwiftNIO",
            description: "Builds IMCodecNIO: SwiftNIO handlers for frames over TCP and WebSocket, on swift-nio."
        ),
        // zstd frames (compression 2) through the system libzstd; on by
        // default. A package that depends on imcodec with `traits: []`
        // builds without libzstd, and its readers answer zstd frames with
        // frame.zstd-unavailable (docs/spec/frame-format.md).
        .trait(name: "Zstd", description: "zstd frames through the system libzstd (libzstd-dev)."),
        // Deflate without a preset dictionary through the system libdeflate
        // (a third less time than zlib for the same bytes); zlib otherwise.
        .trait(name: "LibDeflate", description: "Dictionary-less deflate through libdeflate (libdeflate-dev)."),
        // The project's own tools: the imcodec CLI and conformance runner,
        // the swift-protobuf oracle, the test support and the devtools. On by
        // default so that `swift run imcodec conformance` and `swift test`
        // work in a clone; a package that depends on imcodec names the
        // traits it wants (README: "Use it in your package") and then never
        // fetches or builds swift-protobuf or swift-argument-parser
        // (scripts/checks/check_consumer_deps.py).
        .trait(
            name: "Tools",
            description: "The imcodec CLI, conformance runner, swift-protobuf oracle and test support."
        ),
        .default(enabledTraits: ["Zstd", "LibDeflate", "Tools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .systemLibrary(
            name: "CProtobufC",
            pkgConfig: "libprotobuf-c",
            providers: [.apt(["libprotobuf-c-dev"])]
        ),
        .target(
            name: "IMCodecReference",
            dependencies: ["CProtobufC", "CZlib", .target(name: "CZstd", condition: .when(traits: ["Zstd"]))],
            exclude: ["Makefile", "README.md"],
            cSettings: [
                .headerSearchPath("."), .headerSearchPath("Generated"),
                .define("IMCODEC_REF_ZSTD", .when(traits: ["Zstd"])),
            ]
        ),
        // CRC-32 by carry-less multiplication for frame checksums (Swift
        // cannot reach PCLMULQDQ); zlib's crc32 where the processor lacks it.
        .target(
            name: "CIMCodecCRC32",
            linkerSettings: [.linkedLibrary("z")]
        ),
        // UTF-8 validation of string fields, sixteen bytes at a time (SSSE3
        // lookups, which Swift cannot express); one sequence at a time elsewhere.
        .target(name: "CIMCodecUTF8"),
        .target(
            name: "IMCodec",
            dependencies: [
                "CZlib", "CIMCodecCRC32", "CIMCodecUTF8", .target(name: "CZstd", condition: .when(traits: ["Zstd"])),
                .target(name: "CLibDeflate", condition: .when(traits: ["LibDeflate"])),
            ]
        ),
        // The layers above the codec. Each depends only on layers below it
        // (scripts/checks/check_layers.py checks the graph; `swift build` with
        // --explicit-target-dependency-import-check=error refuses an import of
        // a target that is not a declared dependency).
        .target(name: "IMCodecREST", dependencies: ["IMCodec"]),
        // The only library module that imports Foundation (or, where it is
        // split, FoundationEssentials); scripts/checks/check_layers.py checks
        // that no other does.
        .target(name: "IMCodecFoundation", dependencies: ["IMCodec"]),
        .target(name: "IMCodecValidation", dependencies: ["IMCodec", "IMCodecREST"]),
        .target(name: "IMCodecTestee", dependencies: ["IMCodec"]),
        // Compiled empty unless the SwiftNIO trait is on: its sources are
        // inside `#if SwiftNIO`, and swift-nio is a dependency only then.
        .target(
            name: "IMCodecNIO",
            dependencies: [
                "IMCodec",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["SwiftNIO"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["SwiftNIO"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["SwiftNIO"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["SwiftNIO"])),
            ]
        ),
        .target(
            name: "IMCodecTestSupport",
            dependencies: [
                "CZlib",
                "IMCodec",
                "IMCodecREST",
                "IMCodecValidation",
                "IMCodecTraffic",
                "IMCodecOracle",
                "IMCodecReference",
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["Tools"])),
            ]
        ),
        .target(
            name: "IMCodecOracle",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["Tools"]))
            ]
        ),
        .target(
            name: "IMCodecConformance",
            dependencies: ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecTestee", "IMCodecTraffic"]
        ),
        .executableTarget(
            name: "IMCodecCLI",
            dependencies: [
                "IMCodec",
                "IMCodecREST",
                "IMCodecValidation",
                "IMCodecTestee",
                "IMCodecConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ]
        ),
        .target(
            name: "IMCodecTraffic",
            dependencies: ["IMCodec"]
        ),
        // The properties the FuzzReference fuzz target checks on the C
        // reference, beside the Swift checks of IMCodecTestSupport's
        // FuzzChecks, so that `swift test` replays its saved inputs too.
        .target(name: "CReferenceChecks", dependencies: ["IMCodecReference"]),
        // Dictionary training and the traffic corpus as a file; named for the
        // command it builds, so that `swift run imcodec-devtools` works.
        .executableTarget(
            name: "imcodec-devtools",
            dependencies: [
                "IMCodec",
                "IMCodecValidation",
                .target(name: "CZstd", condition: .when(traits: ["Zstd"])),
                "IMCodecTraffic",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ],
            path: "Sources/IMCodecDevTools"
        ),
        // One test target per library module, each depending on its
        // module and the layers below it (a test lives with the highest
        // module it exercises), and one for the differential tests against
        // the swift-protobuf oracle and the C reference. IMCodecTestSupport
        // holds what more than one of them uses.
        .testTarget(name: "IMCodecTests", dependencies: ["IMCodec", "IMCodecTraffic", "IMCodecTestSupport"]),
        .testTarget(
            name: "IMCodecFoundationTests", dependencies: ["IMCodec", "IMCodecFoundation", "IMCodecTestSupport"]),
        .testTarget(name: "IMCodecRESTTests", dependencies: ["IMCodec", "IMCodecREST", "IMCodecTestSupport"]),
        .testTarget(
            name: "IMCodecValidationTests",
            dependencies: ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecTestSupport"]
        ),
        .testTarget(
            name: "IMCodecConformanceTests",
            dependencies: [
                "IMCodec", "IMCodecValidation", "IMCodecTestee", "IMCodecConformance", "IMCodecTestSupport",
            ]
        ),
        // The `imcodec` executable, run as users run it (it is built by
        // `swift build`, which `swift test` includes).
        .testTarget(
            name: "IMCodecCLITests",
            dependencies: ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecTestSupport"]
        ),
        .testTarget(
            name: "IMCodecDifferentialTests",
            dependencies: [
                "IMCodec",
                "IMCodecREST",
                "IMCodecValidation",
                "IMCodecTestee",
                "IMCodecConformance",
                "IMCodecTraffic",
                "IMCodecOracle",
                "IMCodecReference",
                "CReferenceChecks",
                "IMCodecTestSupport",
                // libzstd itself, to tell which byte-flipped zstd bodies its
                // answer depends on the room it is given for
                // (CorruptBodyDifferentialTests).
                .target(name: "CZstd", condition: .when(traits: ["Zstd"])),
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["Tools"])),
            ]
        ),
    ]
)

// libFuzzer targets, one product each, built only when IMCODEC_FUZZ is set
// (scripts/fuzz/fuzz.sh sets it): they have no `main` of their own, so an ordinary
// build could not link them. The executable products whose targets live in
// FuzzTesting/ are the fuzz targets; the scripts find them here
// (`scripts/fuzz/fuzz.sh --list`). A Swift target NAME is the folder
// FuzzTesting/NAME with its `LLVMFuzzerTestOneInput` calling its check in
// IMCodecTestSupport's FuzzChecks, seeds in scripts/fuzz/make_fuzz_corpus.py and,
// optionally, FuzzTesting/NAME.dict. FuzzReference is C only: the C
// reference's decoders with no Swift in the loop.
if ProcessInfo.processInfo.environment["IMCODEC_FUZZ"] != nil {
    let swiftFuzzTargets = ["FuzzPayload", "FuzzJSON", "FuzzFrame", "FuzzStream", "FuzzREST", "FuzzValidate"]
    package.targets += [
        // LLVMFuzzerMutate, for the custom mutators.
        .systemLibrary(name: "CLibFuzzer", path: "FuzzTesting/CLibFuzzer"),
        // The runner (timing, slow inputs) and the frame-repairing mutator.
        .target(
            name: "FuzzSupport", dependencies: ["IMCodec", "IMCodecTraffic", "CZlib", "CLibFuzzer"],
            path: "FuzzTesting/FuzzSupport"),
        .executableTarget(name: "FuzzReference", dependencies: ["CReferenceChecks"], path: "FuzzTesting/FuzzReference"),
    ]
    package.products.append(.executable(name: "FuzzReference", targets: ["FuzzReference"]))
    for name in swiftFuzzTargets {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: ["IMCodecTestSupport", "FuzzSupport"], path: "FuzzTesting/\(name)"))
        package.products.append(.executable(name: name, targets: [name]))
    }
}

// swift-docc-plugin, for `swift package generate-documentation`, only when
// IMCODEC_DOCS is set (scripts/checks/check_docs.sh sets it): a package that depends
// on imcodec never fetches it (scripts/checks/check_consumer_deps.py).
if ProcessInfo.processInfo.environment["IMCODEC_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
