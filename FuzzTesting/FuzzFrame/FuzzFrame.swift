import FuzzSupport
import IMCodecTestSupport

// libFuzzer entry point: FuzzRunner times the check and stops the run on a
// finding, with the input saved; swift test replays saved inputs through the
// same check (FuzzTesting/FailCases/FuzzFrame).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzRunner.run(start, count, framesFrom: 0, check: FuzzChecks.frame)
}

// Most plain mutations of a frame fail its checksum; this one repairs the
// lengths and the checksum, so mutations reach the inflater and the payload
// decoder (FrameMutator says how often it does not).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateFrame(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    FrameMutator.mutate(data, size: size, maxSize: maxSize, seed: seed, prefixLength: 0, singleFrame: true)
}
