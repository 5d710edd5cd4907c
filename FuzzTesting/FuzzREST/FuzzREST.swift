import FuzzSupport
import IMCodecTestSupport

// libFuzzer entry point: FuzzRunner times the check and stops the run on a
// finding, with the input saved; swift test replays saved inputs through the
// same check (FuzzTesting/FailCases/FuzzREST).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzREST(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzRunner.run(start, count, check: FuzzChecks.rest)
}
