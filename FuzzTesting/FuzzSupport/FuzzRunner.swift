#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every fuzz target's `LLVMFuzzerTestOneInput` does: run the input
/// through its check, time it, and stop the run on a finding.
public enum FuzzRunner {
    /// Runs one input through `check`.
    ///
    /// A finding is printed and the process aborts, so libFuzzer saves the
    /// input (that is what a fuzzer is for; `swift test` replays saved inputs
    /// through the same check). The time the check took is recorded by
    /// ``SlowInputs``.
    ///
    /// - Parameters:
    ///   - start: The input libFuzzer passes.
    ///   - count: Its length.
    ///   - framesFrom: Where the input's frames start, for targets whose
    ///     input holds frames: the time bound then grows with the payload
    ///     bytes those frames declare (``SlowInputs/bound(payloadBytes:)``).
    ///     `nil` for inputs that are not frames.
    ///   - allowance: How many thresholds the input's check may take (at
    ///     least one), for targets whose check's work grows with something
    ///     other than the input's frames; computed outside the timed check,
    ///     and the bound is the larger of the two.
    ///   - check: The property to test; returns a description of a finding,
    ///     or `nil`.
    /// - Returns: 0, as libFuzzer expects.
    public static func run(
        _ start: UnsafePointer<UInt8>?, _ count: Int, framesFrom: Int? = nil, allowance: (([UInt8]) -> Int)? = nil,
        check: ([UInt8]) -> String?
    ) -> CInt {
        let began = SlowInputs.now()
        let input = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        let finding = check(input)
        let elapsed = SlowInputs.now() - began
        if let finding {
            printError("finding: \(finding)\n")
            abort()
        }
        let payloadBytes = framesFrom.map { SlowInputs.declaredPayloadBytes(input.dropFirst($0)) } ?? 0
        let thresholds = UInt64(max(1, allowance?(input) ?? 1))
        let bound = max(SlowInputs.bound(payloadBytes: payloadBytes), SlowInputs.thresholdNanoseconds * thresholds)
        SlowInputs.record(start, count, nanoseconds: elapsed, bound: bound)
        return 0
    }

    /// Writes `text` to standard error, unbuffered (Swift 6 does not allow
    /// the C `stderr` global).
    ///
    /// - Parameter text: What to write.
    static func printError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count) }
    }
}
