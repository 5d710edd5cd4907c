import IMCodec
import IMCodecNIO
import NIOCore
import NIOPosix
import Testing

/// IMCodecPayloadDecoder behind a real TCP socket on 127.0.0.1.
@Suite(.serialized) struct LoopbackDecoderTests {
    @Test func readsFramesDeliveredOneByteAtATime() async throws {
        let server = try await LoggingServer(readSize: 1)
        let client = try await connectRawClient(port: server.port, group: server.group)
        let stream = Samples.stream()
        try await client.send(stream)
        try await eventually("every payload") { server.log(0).payloads.count == Samples.payloads.count }

        let log = server.log(0)
        #expect(log.payloads == Samples.payloads)
        // One byte per read: the decoder saw every possible segmentation point.
        #expect(log.reads == stream.count)
        #expect(log.bytesRead == stream.count)
        #expect(log.errors.isEmpty)
        try await client.close()
        try await server.shutdown()
    }

    @Test func reassemblesAFrameSplitAtEveryOffset() async throws {
        let server = try await LoggingServer()
        let client = try await connectRawClient(port: server.port, group: server.group)
        // An uncompressed and a compressed frame; every split falls in the
        // header, the body or at their border somewhere.
        let payloads = [Samples.payloads[0], Samples.payloads[1]]
        var sent = 0
        var expected: [FramePayload] = []
        for payload in payloads {
            let frame = try FrameEncoder().encode(payload)
            for offset in 1..<frame.count {
                try await client.send(frame[..<offset])
                let before = sent + offset
                // The first part has arrived on its own before the rest is sent.
                try await eventually("the first \(offset) bytes") { server.log(0).bytesRead == before }
                #expect(server.log(0).payloads.count == expected.count)
                try await client.send(frame[offset...])
                sent += frame.count
                expected.append(payload)
                try await eventually("the frame split at \(offset)") {
                    server.log(0).payloads.count == expected.count
                }
            }
        }
        let log = server.log(0)
        #expect(log.payloads == expected)
        #expect(log.errors.isEmpty)
        #expect(!log.isClosed)
        try await client.close()
        try await server.shutdown()
    }

    @Test func reportsAClientThatClosesInsideAFrame() async throws {
        let server = try await LoggingServer()
        let client = try await connectRawClient(port: server.port, group: server.group)
        let whole = Samples.stream(Array(Samples.payloads.prefix(2)))
        let last = try FrameEncoder().encode(Samples.payloads[2])
        try await client.send(whole + last.prefix(last.count / 2))
        try await eventually("the whole frames") { server.log(0).payloads.count == 2 }
        try await client.close()
        try await eventually("the server closing") { server.log(0).isClosed }

        let log = server.log(0)
        #expect(log.payloads == Array(Samples.payloads.prefix(2)))
        #expect(log.errors.map(\.code) == [.frameTruncated])
        try await server.shutdown()
    }

    @Test func aClientStalledInsideAFrameHoldsUpNoOne() async throws {
        let server = try await LoggingServer()
        let stalled = try await connectRawClient(port: server.port, group: server.group)
        let frame = try FrameEncoder().encode(Samples.payloads[1])
        try await stalled.send(frame.prefix(frame.count - 1))
        try await eventually("the stalled client's bytes") { server.log(0).bytesRead == frame.count - 1 }

        let other = try await connectRawClient(port: server.port, group: server.group)
        try await other.send(Samples.stream())
        try await eventually("the other client's payloads") { server.log(1).payloads == Samples.payloads }
        #expect(server.log(0).payloads.isEmpty)
        #expect(!server.log(0).isClosed)
        #expect(server.log(0).errors.isEmpty)

        // The last byte completes the stalled frame.
        try await stalled.send(frame.suffix(1))
        try await eventually("the stalled frame") { server.log(0).payloads == [Samples.payloads[1]] }
        try await stalled.close()
        try await other.close()
        try await server.shutdown()
    }

    @Test func aMalformedFrameClosesOnlyItsConnection() async throws {
        let server = try await LoggingServer()
        let bad = try await connectRawClient(port: server.port, group: server.group)
        let good = [
            try await connectRawClient(port: server.port, group: server.group),
            try await connectRawClient(port: server.port, group: server.group),
        ]
        try await eventually("three connections") { server.logs.withLock { $0.count } == 3 }
        let rounds = 200
        let before = (0..<6).map { FramePayload.message(Samples.message(sender: "mallory", seq: $0)) }
        try await bad.send(Samples.stream(before))
        try await bad.send(Samples.corruptFrame())
        // The server may have closed the connection by now; what still goes
        // out is dropped unread.
        for seq in 6..<10 {
            try? await bad.send(Samples.stream([.message(Samples.message(sender: "mallory", seq: seq))]))
        }
        for round in 0..<rounds {
            for (index, client) in good.enumerated() {
                try await client.send(Samples.stream([.message(Samples.message(sender: "c\(index)", seq: round))]))
            }
        }
        try await eventually("the bad connection closing") { server.log(0).isClosed }
        try await eventually("every good frame") {
            server.log(1).payloads.count == rounds && server.log(2).payloads.count == rounds
        }
        try await bad.closeFuture.get()

        #expect(server.log(0).payloads == before)
        #expect(server.log(0).errors.map(\.code) == [.frameChecksum])
        for index in 0..<2 {
            let log = server.log(index + 1)
            #expect(log.payloads == (0..<rounds).map { .message(Samples.message(sender: "c\(index)", seq: $0)) })
            #expect(log.errors.isEmpty)
            #expect(!log.isClosed)
        }
        for client in good { try await client.close() }
        try await server.shutdown()
    }

    @Test func refusesAFrameOverTheLimitFromItsHeaderAlone() async throws {
        var limits = DecodingLimits()
        limits.maxFrameBytes = 1_000
        let server = try await LoggingServer(limits: limits)
        let client = try await connectRawClient(port: server.port, group: server.group)
        let frame = try FrameEncoder(policy: .disabled).encode(Samples.payloads[1])
        #expect(frame.count > 2_000)
        // The header and a few body bytes; the rest never comes.
        try await client.send(frame.prefix(FrameHeader.maxEncodedLength + 4))
        try await eventually("the server closing") { server.log(0).isClosed }
        #expect(server.log(0).errors.map(\.code) == [.limitFrameSize])
        try await client.closeFuture.get()
        try await server.shutdown()
    }
}
