/// One vector file: a group of cases of one area with the facts that apply to
/// all of them (`Vectors/README.md`).
public struct VectorFile: Sendable, Hashable {
    /// The value of every file's `format` member.
    public static let format = "imcodec-vectors"
    /// The schema version this runner reads.
    public static let version = 1

    /// The file's path relative to the vectors directory, such as
    /// `elems/text.json`.
    public var path: String
    /// The area the file belongs to (`elems`, `frames`, `malformed`, ...):
    /// the summary groups results by it.
    public var area: String
    public var title: String
    public var description: String
    /// How the expectations of the cases were obtained.
    public var derivation: String
    /// The flags the cases use, each with its explanation.
    public var flags: [String: String]
    public var cases: [VectorCase]
}
