/// The paths the library takes where an Apple release newer than its
/// deployment floor brings a faster API, and the switch that makes the
/// library take the portable path beside it everywhere.
///
/// The manifest declares macOS 13, iOS 16, tvOS 16, watchOS 9 and visionOS 1.
/// Two places use something newer, each behind `if #available` with a path
/// for older releases beside it (README, "Apple platforms"):
///
/// - ``WireReader`` makes a string of checked UTF-8 with `UTF8Span` and
///   `String(copying:)` (the 26 releases); the portable path copies the bytes
///   with `String(unsafeUninitializedCapacity:initializingUTF8With:)`, which
///   checks them a second time.
/// - ``AsyncFrameReaderSequence``'s iterator reads its source with
///   `next(isolation:)` (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2)
///   when the caller's Swift asks for it, and with `next()` otherwise.
///
/// Linux has every API, so the newer paths are the ones that run there. So
/// that the string path older Apple releases take is tested as well, the
/// tests set ``isForced``, which sends every string through the portable path
/// in the whole process, and run the vectors and the oracle again
/// (`Tests/IMCodecDifferentialTests/PortablePathsTests.swift`). The two
/// asynchronous paths are two methods a caller picks, so the tests call each.
@usableFromInline package enum PortablePaths {
    /// Whether the portable string path is taken even where the newer API is
    /// available; `false` unless a test sets it. Process-wide: set it only
    /// while nothing else depends on which path runs.
    ///
    /// Read for every string, so the read is one load: a constant initial
    /// value (no lazy initialisation) and no dynamic exclusivity check, which
    /// would be a runtime call; the tests write it only between runs.
    @exclusivity(unchecked) @usableFromInline package nonisolated(unsafe) static var isForced = false

    /// A fault planted in the portable string path for the current task and
    /// the tasks it starts: each string loses its last byte. Only tests set
    /// it, to show that the vectors fail when the portable path is broken,
    /// so that their passing through it means something.
    @TaskLocal package static var plantedFault = false

    /// The portable path: a string of UTF-8 that `imcodec_utf8_check` has
    /// accepted, made by the initialiser that every release has.
    ///
    /// - Parameter units: Valid UTF-8.
    /// - Returns: The string.
    @usableFromInline
    package static func string(checkedUTF8 units: UnsafeBufferPointer<UInt8>) -> String {
        let count = plantedFault ? units.count - 1 : units.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(units)[0..<count]))
            return count
        }
    }
}
