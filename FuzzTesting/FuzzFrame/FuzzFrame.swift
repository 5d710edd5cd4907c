import Foundation
import IMCodecTestSupport

// libFuzzer entry point: a finding stops the run with the input saved, which
// is what a fuzzer is for; swift test replays saved inputs through the same
// check (FuzzTesting/FailCases/FuzzFrame).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if let finding = FuzzChecks.frame(input) {
        FileHandle.standardError.write(Data("finding: \(finding)\n".utf8))
        abort()
    }
    return 0
}
