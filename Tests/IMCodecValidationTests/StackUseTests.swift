import Foundation
import IMCodec
import IMCodecREST
import IMCodecValidation
import Testing

/// The most stack an operation uses, measured on a thread whose stack is a
/// painted buffer: the bytes still holding the paint afterwards were never
/// touched.
func measuredStackUse(_ body: @escaping @Sendable () -> Void) -> Int {
    let size = 16 << 20
    let stack = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
    defer { stack.deallocate() }
    stack.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
    final class Job: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstack(&attributes, stack, size)
    var thread = pthread_t()
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    let created = pthread_create(
        &thread, &attributes,
        { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            job.body()
            return nil
        }, job)
    precondition(created == 0, "pthread_create failed: \(created)")
    pthread_join(thread, nil)
    let bytes = stack.assumingMemoryBound(to: UInt8.self)
    var untouched = 0
    while untouched < size && bytes[untouched] == 0xA5 { untouched += 1 }
    return size - untouched
}

/// Stack use per merger layer: the operations that walk forwarded messages
/// from a heap stack use the same stack at 100 layers as at 1. Measured on a
/// painted 16 MiB stack, so an operation that did grow would be seen, not
/// crash.
@Suite struct StackUseTests {
    static func nested(_ layers: Int) -> Message {
        var message = Message(sender: "innermost", elems: [Elem(kind: .text(TextElem(text: "deepest")))])
        for _ in 0..<layers {
            message = Message(sender: "s", elems: [Elem(kind: .merger(MergerElem(title: "t", messages: [message])))])
        }
        return message
    }

    /// The stack `operation` uses on the input `prepare` makes of a 1-layer
    /// and of a 100-layer message; `prepare` runs on the test's own stack.
    static func growth<Input: Sendable>(
        _ prepare: (Message) -> Input, _ operation: @escaping @Sendable (Input) -> Void
    ) -> (shallow: Int, deep: Int) {
        let shallow = prepare(nested(1))
        let deep = prepare(nested(100))
        return (measuredStackUse { operation(shallow) }, measuredStackUse { operation(deep) })
    }

    @Test func restImportExportAndValidationUseNoStackPerLayer() {
        let rest: (Message) -> [UInt8] = { Array((try? RESTCodec.export($0))!.utf8) }
        let uses = [
            ("REST import", Self.growth(rest) { _ = try? RESTCodec.importMessage($0) }),
            ("REST export", Self.growth({ $0 }) { _ = try? RESTCodec.export($0) }),
            ("REST validation", Self.growth(rest) { _ = RESTValidator.validate($0, limits: .current) }),
            ("validation", Self.growth({ $0 }) { _ = Validator.validate($0, limits: .current) }),
            (
                "JSON check",
                Self.growth({ Array($0.jsonString().utf8) }) {
                    _ = try? JSONDocument.read($0, limits: nil, maxNesting: 5_000) { _ in }
                }
            ),
            (
                "JSON parsing",
                Self.growth({ Array($0.jsonString().utf8) }) { _ = try? JSONValue(parsing: $0, maxNesting: 5_000) }
            ),
        ]
        for (name, use) in uses {
            // Releasing the nested value is recursive; it takes well under 2 KiB a layer.
            #expect(use.deep - use.shallow < 200 << 10, "\(name): \(use.shallow) bytes at 1 layer, \(use.deep) at 100")
        }
    }
}
