import Foundation
import IMCodecTestee

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The testee side of the protocol: reads framed requests from one
/// descriptor, answers each on another, until the input ends.
public enum TesteeServer {
    /// Serves requests until the input ends.
    ///
    /// A request that does not parse is answered with `runtime_error`, so
    /// the runner sees the problem and the stream stays in step. Only a
    /// broken stream ends the loop early: input that ends inside a message, a
    /// length above ``TesteeFraming/maxMessageBytes``, or output that can no
    /// longer be written.
    ///
    /// - Parameters:
    ///   - input: Where requests arrive; standard input by default.
    ///   - output: Where responses go; standard output by default.
    ///   - handler: Answers one request.
    /// - Returns: The process exit status: 0 when the input ended cleanly
    ///   between requests, 1 when the stream broke.
    public static func serve(
        input: Int32 = 0, output: Int32 = 1, handler: (TesteeRequest) -> TesteeResponse
    ) -> Int32 {
        // A runner that goes away must not kill us with SIGPIPE mid-write.
        signal(SIGPIPE, SIG_IGN)
        while true {
            let prefix = TesteeFraming.readBlocking(input, count: 4)
            if prefix.isEmpty { return 0 }
            guard prefix.count == 4 else { return broken("the input ends inside a length prefix") }
            let length = TesteeFraming.length(prefix)
            guard length <= TesteeFraming.maxMessageBytes else {
                return broken("a request of \(length) bytes is larger than the protocol allows")
            }
            let body = TesteeFraming.readBlocking(input, count: length)
            guard body.count == length else { return broken("the input ends inside a request") }
            var response: TesteeResponse
            do {
                let request = try TesteeRequest(serializedBytes: body)
                response = handler(request)
            } catch {
                response = TesteeResponse()
                response.result = .runtimeError("the request does not parse: \(error)")
            }
            let bytes = response.serializedBytes()
            guard TesteeFraming.writeBlocking(output, TesteeFraming.prefix(bytes.count) + bytes) else {
                return broken("the output cannot be written")
            }
        }
    }

    private static func broken(_ reason: String) -> Int32 {
        FileHandle.standardError.write(Data("imcodec testee: \(reason)\n".utf8))
        return 1
    }
}
