import IMCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-input timing for the "no input slower than 100 ms" bound, which
/// libFuzzer's whole-second `-timeout` cannot show.
///
/// Every input's check is timed with the monotonic clock. The bound is the
/// threshold (`IMCODEC_FUZZ_SLOW_MS`, default 100) for every input, and for
/// an input of frames that declare more than ``payloadBytesPerThreshold``
/// payload bytes, the threshold per that many bytes: a check's work grows
/// with the payload it decodes, and a 6 KB deflated frame may inflate to
/// 764 KB (up to the inflate-ratio limit, 250 times), so a flat bound would
/// measure the frame's compressibility rather than the decoder. An input
/// whose check takes longer than its bound is written, when
/// `IMCODEC_FUZZ_SLOW_DIR` names a folder, as `slow-HASH` there and
/// announced on stderr. At exit (libFuzzer ends a run that found nothing
/// with `exit`, so `atexit` handlers run) one line reports the slowest input:
///
///     slowest input: 1.234 ms, 57 bytes, fnv1a 0123456789abcdef; inputs: 1200; over 100 ms per 64 KiB: 0
///
/// The slowest input is the one with the largest share of its bound.
///
/// and, with `IMCODEC_FUZZ_SLOW_DIR` set, the slowest input is written there
/// as `slowest`.
///
/// An input run several times in a row (libFuzzer's `-runs=N` on files runs
/// each file N times) counts with its fastest run, so a replay reports how
/// slow an input is, not how noisy the machine was once.
///
/// Recording allocates only when an input is larger than any before, and then
/// frees the smaller buffer in the same call, so libFuzzer's per-input
/// malloc/free balance (its cheap leak test) is undisturbed.
public enum SlowInputs {
    /// Inputs slower than this many nanoseconds are saved and counted.
    static let thresholdNanoseconds: UInt64 = {
        let milliseconds = getenv("IMCODEC_FUZZ_SLOW_MS").flatMap { UInt64(String(cString: $0)) } ?? 100
        return milliseconds * 1_000_000
    }()
    /// The payload bytes one threshold covers.
    static let payloadBytesPerThreshold = 65_536

    /// The time an input may take, in nanoseconds: the threshold, or the
    /// threshold per ``payloadBytesPerThreshold`` of the payload bytes the
    /// input's frames declare, whichever is more.
    ///
    /// - Parameter payloadBytes: The payload bytes the input's frames declare
    ///   (``declaredPayloadBytes(_:)``); 0 for inputs that are not frames.
    public static func bound(payloadBytes: Int) -> UInt64 {
        guard payloadBytes > payloadBytesPerThreshold else { return thresholdNanoseconds }
        return thresholdNanoseconds / UInt64(payloadBytesPerThreshold) * UInt64(payloadBytes)
    }

    /// The payload bytes declared by the frames `bytes` start with, each
    /// counted up to the default `maxInflatedBytes` (a decoder refuses a
    /// frame that declares more before reading its body); a stored frame
    /// counts its body. Reading stops at the first header that does not read.
    ///
    /// - Parameter bytes: Frames written back to back, possibly mutated.
    public static func declaredPayloadBytes(_ bytes: ArraySlice<UInt8>) -> Int {
        let cap = DecodingLimits.default.maxInflatedBytes
        var rest = bytes
        var total = 0
        while let header = try? FrameHeader.peek(rest) {
            total += min(header.compression == .none ? header.bodyLength : header.payloadLength, cap)
            guard header.frameLength > 0, header.frameLength <= rest.count else { break }
            rest = rest.dropFirst(header.frameLength)
        }
        return total
    }

    /// Where slow inputs are written, if anywhere.
    static let directory: String? = getenv("IMCODEC_FUZZ_SLOW_DIR").map { String(cString: $0) }

    /// The input last run, to recognise a repeated run of it.
    nonisolated(unsafe) static var last = Buffer()
    /// The fastest run so far of the input last run.
    nonisolated(unsafe) static var lastFastest: UInt64 = 0
    /// The bound of the input last run.
    nonisolated(unsafe) static var lastBound: UInt64 = 0
    /// The slowest input of those finished (the largest share of its bound,
    /// by its fastest run), its time and its bound.
    nonisolated(unsafe) static var slowest = Buffer()
    nonisolated(unsafe) static var slowestNanoseconds: UInt64 = 0
    nonisolated(unsafe) static var slowestBound: UInt64 = 1
    nonisolated(unsafe) static var inputCount = 0
    nonisolated(unsafe) static var overThreshold = 0
    nonisolated(unsafe) static var reportRegistered = false

    /// A growable byte buffer that survives between inputs.
    struct Buffer {
        var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        var count = -1

        /// Whether the buffer holds exactly `bytes`.
        func holds(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard count == bytes.count else { return false }
            guard count > 0, let mine = storage.baseAddress, let theirs = bytes.baseAddress else { return true }
            return memcmp(mine, theirs, count) == 0
        }

        /// Replaces the contents with `bytes`, growing the storage if needed.
        mutating func set(_ bytes: UnsafeRawBufferPointer) {
            if storage.count < bytes.count {
                storage.deallocate()
                storage = .allocate(byteCount: bytes.count, alignment: 1)
            }
            if let base = bytes.baseAddress, bytes.count > 0 {
                storage.baseAddress!.copyMemory(from: base, byteCount: bytes.count)
            }
            count = bytes.count
        }

        /// The contents.
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.baseAddress, count: max(count, 0)) }
    }

    /// The monotonic clock in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Records one run of an input.
    ///
    /// - Parameters:
    ///   - start: The input.
    ///   - count: Its length.
    ///   - nanoseconds: How long its check took.
    ///   - bound: How long it may take (``bound(payloadBytes:)``).
    public static func record(_ start: UnsafePointer<UInt8>?, _ count: Int, nanoseconds: UInt64, bound: UInt64) {
        if !reportRegistered {
            reportRegistered = true
            atexit { SlowInputs.report() }
        }
        let bytes = UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)
        if last.holds(bytes) {
            lastFastest = min(lastFastest, nanoseconds)
        } else {
            finishLast()
            last.set(bytes)
            lastFastest = nanoseconds
            lastBound = bound
        }
        if nanoseconds > bound, let directory {
            let name = "\(directory)/slow-\(fnv1a(bytes))"
            save(bytes, to: name)
            FuzzRunner.printError(
                "slow input: \(milliseconds(nanoseconds)) ms (bound \(milliseconds(bound)) ms), \(bytes.count) bytes, "
                    + "written to \(name)\n")
        }
    }

    /// Counts the input last run, now that a different one has come.
    static func finishLast() {
        guard last.count >= 0 else { return }
        inputCount += 1
        if lastFastest > lastBound { overThreshold += 1 }
        // lastFastest / lastBound > slowestNanoseconds / slowestBound
        if lastFastest.multipliedFullWidth(by: slowestBound) > slowestNanoseconds.multipliedFullWidth(by: lastBound)
            || slowest.count < 0
        {
            slowestNanoseconds = lastFastest
            slowestBound = lastBound
            slowest.set(last.bytes)
        }
    }

    /// Prints the report line and writes the slowest input; runs at exit.
    static func report() {
        finishLast()
        last.count = -1
        guard slowest.count >= 0 else { return }
        let line =
            "slowest input: \(milliseconds(slowestNanoseconds)) ms, \(slowest.count) bytes, "
            + "fnv1a \(fnv1a(slowest.bytes)); inputs: \(inputCount); "
            + "over \(thresholdNanoseconds / 1_000_000) ms per \(payloadBytesPerThreshold / 1024) KiB: \(overThreshold)\n"
        FuzzRunner.printError(line)
        if let directory { save(slowest.bytes, to: "\(directory)/slowest") }
    }

    /// Milliseconds with three decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micro = nanoseconds / 1000
        let fraction = String(micro % 1000)
        return "\(micro / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The 64-bit FNV-1a hash of `bytes` in hex: a name for an input.
    static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Writes `bytes` to `path`, creating or replacing it.
    static func save(_ bytes: UnsafeRawBufferPointer, to path: String) {
        guard let file = fopen(path, "wb") else {
            FuzzRunner.printError("cannot write \(path)\n")
            return
        }
        if let base = bytes.baseAddress, bytes.count > 0 { fwrite(base, 1, bytes.count, file) }
        fclose(file)
    }
}
