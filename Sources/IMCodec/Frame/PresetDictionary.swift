/// A preset deflate dictionary that frames name by id in their header.
///
/// Short messages compress poorly on their own because deflate has nothing
/// earlier to refer back to; a dictionary of text typical of IM payloads gives
/// it that history. The writer primes its compressor with the dictionary and
/// writes its id in the header; the reader primes its decompressor with the
/// same bytes. Only dictionaries the library ships are known: a frame naming
/// any other id is `frame.dictionary`.
///
/// Two dictionaries are equal when their ids are equal: a known id always
/// names the same bytes.
public struct PresetDictionary: Hashable, Sendable, CustomStringConvertible {
    /// The id written in frame headers; at least 1.
    public let id: UInt32
    /// The dictionary bytes: `Schemas/dictionaries/<id>.bin`.
    public let bytes: [UInt8]

    /// Creates a dictionary that is not one of the ``known`` ones.
    ///
    /// For tools in this package that evaluate candidate dictionaries:
    /// frames compressed with it name an id no reader knows.
    package init(id: UInt32, bytes: [UInt8]) {
        self.id = id
        self.bytes = bytes
    }

    /// Looks up a known dictionary.
    ///
    /// - Parameter id: The id a frame header names.
    /// - Returns: The dictionary, or `nil` when no dictionary has this id.
    public init?(id: UInt32) {
        guard let known = Self.known.first(where: { $0.id == id }) else { return nil }
        self = known
    }

    /// Dictionary 1: IM messages (`Schemas/dictionaries/1.bin`, made by
    /// `scripts/bench/make_dictionary.sh`; see `docs/DICTIONARY.md`).
    public static let imMessages = PresetDictionary(id: 1, bytes: embedded(base64Dictionary1))

    /// Dictionary 2: IM messages, trained on both synthetic traffic models of
    /// this package, the dictionary trainer's and the benchmarks'
    /// (`Schemas/dictionaries/2.bin`; see `docs/DICTIONARY.md`). The same
    /// size and cost as dictionary 1; smaller frames on the benchmarks'
    /// traffic, slightly larger ones on the trainer's.
    public static let imMessages2 = PresetDictionary(id: 2, bytes: embedded(base64Dictionary2))

    /// Dictionary 3: IM messages, a zstd dictionary (8 KiB, entropy tables
    /// and content) trained by zstd's ZDICT on the training model
    /// (`Schemas/dictionaries/3.bin`; see `docs/DICTIONARY.md`). Meant for
    /// zstd at level 1, the fastest choice; deflate can use it as well, as
    /// raw history.
    public static let zstdMessagesSmall = PresetDictionary(id: 3, bytes: embedded(base64Dictionary3))

    /// Dictionary 4: IM messages, a 32 KiB zstd dictionary trained by ZDICT
    /// on the training model (`Schemas/dictionaries/4.bin`; see
    /// `docs/DICTIONARY.md`): the smallest frames, and the default of
    /// ``CompressionPolicy/zstd(level:dictionary:threshold:)``.
    public static let zstdMessages = PresetDictionary(id: 4, bytes: embedded(base64Dictionary4))

    /// Every dictionary the library knows, by increasing id.
    public static let known: [PresetDictionary] = [imMessages, imMessages2, zstdMessagesSmall, zstdMessages]

    /// Decodes the base64 text of a dictionary embedded by
    /// `scripts/codegen/embed_dictionary_swift.py`. The text comes from a file in the
    /// repository, never from input, so a malformed literal is a build defect.
    private static func embedded(_ base64: String) -> [UInt8] {
        guard let bytes = Base64.decode(base64) else { preconditionFailure("embedded dictionary is not base64") }
        return bytes
    }

    /// Whether two dictionaries have the same id.
    public static func == (lhs: PresetDictionary, rhs: PresetDictionary) -> Bool { lhs.id == rhs.id }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// `dictionary <id> (<n> bytes)`.
    public var description: String { "dictionary \(id) (\(bytes.count) bytes)" }
}
