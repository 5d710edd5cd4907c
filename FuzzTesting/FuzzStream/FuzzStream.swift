import FuzzSupport
import IMCodecTestSupport

// libFuzzer entry point: FuzzRunner times the check and stops the run on a
// finding, with the input saved; swift test replays saved inputs through the
// same check (FuzzTesting/FailCases/FuzzStream).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStream(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzRunner.run(start, count, framesFrom: 2, check: FuzzChecks.stream)
}

// The input is two chunk sizes, then frames back to back: the mutator keeps
// the frames' lengths and checksums right, so mutations reach the inflater
// and the payload decoder through the streaming reader.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateStream(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int
{
    FrameMutator.mutate(data, size: size, maxSize: maxSize, seed: seed, prefixLength: 2, singleFrame: false)
}
