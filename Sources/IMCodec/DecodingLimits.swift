/// Bounds on what a decoder accepts, so memory and time stay bounded whatever
/// the input claims.
///
/// One value holds every limit of the payload codec and the frame layer. The
/// defaults suit IM traffic with a wide margin; lower them for hostile input
/// you expect to be small, raise them for archives.
public struct DecodingLimits: Sendable, Hashable {
    /// The largest frame body (stored bytes after the header) a frame decoder
    /// or stream reader accepts. Default 4 MiB.
    public var maxFrameBytes: Int = 4 << 20
    /// The largest payload a frame may declare and inflate to. Default 16 MiB.
    public var maxInflatedBytes: Int = 16 << 20
    /// The largest payload-to-body size ratio of a compressed frame. Deflate
    /// cannot exceed about 1032:1, so this bounds decompression bombs well
    /// below that. Default 250.
    public var maxInflateRatio: Int = 250
    /// How many merger layers may nest: a message inside `maxDepth` nested
    /// mergers decodes, one more layer is `limit.depth`. Default 100, the
    /// documented merger nesting limit.
    ///
    /// The binary and proto3 JSON decoders recurse once per layer: at 100
    /// layers a release build uses about 0.65 MB of stack (debug builds about
    /// 5.6 MB), well within the 8 MB of a Linux thread; lower this limit for
    /// threads with small stacks. REST import and export, JSON parsing and
    /// validation keep nesting on the heap and use the same stack at any
    /// depth (docs/CODEC.md, "Stack").
    public var maxDepth: Int = 100
    /// The most elems one message may hold. Default 1,000.
    public var maxElems: Int = 1_000
    /// The most entries any other repeated field may hold. Default 10,000.
    public var maxRepeated: Int = 10_000
    /// The most messages one batch may hold. Default 1,000.
    public var maxBatchMessages: Int = 1_000
    /// The largest JSON document (proto3 JSON or Tencent REST) a reader
    /// parses, in bytes; a larger one is `limit.document-size` before a byte
    /// of it is parsed. Default 64 MiB, room for the JSON form of the
    /// largest payload a frame may hold (``maxInflatedBytes``) with base64
    /// and escapes.
    ///
    /// Parsing keeps memory to a small multiple of the document: an array
    /// keeps at most ``largestCount`` + 1 entries (the rest are checked for
    /// syntax, then dropped), which no schema field accepts anyway, so the
    /// count limit of the field refuses such an array exactly as it would
    /// refuse it whole (`docs/PAYLOAD.md`, "JSON input").
    public var maxDocumentBytes: Int = 64 << 20
    /// The most problems ``RESTValidator`` reports for one REST document:
    /// the first ones in document order, then one `limit.problems` finding
    /// that counts them all. The walk still reads the whole document;
    /// problems past the limit are counted but given no path and no reason,
    /// so a document of many small mistakes costs time in proportion to its
    /// size, not to what reporting each mistake would take. Import, which
    /// throws the first problem, is not affected. Default 100.
    public var maxProblems: Int = 100

    /// The most entries any repeated field may hold under these limits: the
    /// largest of ``maxElems``, ``maxRepeated`` and ``maxBatchMessages``.
    public var largestCount: Int { Swift.max(maxElems, maxRepeated, maxBatchMessages) }

    /// Creates limits with the documented defaults.
    public init() {}

    /// The documented defaults.
    public static let `default` = DecodingLimits()
}
