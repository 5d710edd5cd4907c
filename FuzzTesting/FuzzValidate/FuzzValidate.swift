import FuzzSupport
import IMCodecTestSupport

// libFuzzer entry point: FuzzRunner times the check and stops the run on a
// finding, with the input saved; swift test replays saved inputs through the
// same check (FuzzTesting/FailCases/, under the target's name). The first
// byte selects the kind and the form (FuzzChecks.validationInput). The time
// bound grows with the findings the check compares and prints
// (FuzzChecks.validationAllowance).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzRunner.run(start, count, allowance: FuzzChecks.validationAllowance, check: FuzzChecks.validation)
}
