/// One differential run as the reports show it: the document
/// ``ReportedDifferentialRun/json()`` writes (`imcodec differential --json`),
/// read back, or a ``DifferentialResult`` taken as it is.
///
/// The differential section of ``HTMLReport`` reads only this, so
/// `imcodec report` given the JSON files of separate runs (other machines,
/// other testees) shows what `imcodec differential --html` shows.
///
/// ```json
/// {"format": "imcodec-differential-report", "version": 1, "reference": "library",
///  "seed": 1, "requests": 3000, "seconds": 8.6, "casesFile": "found.json",
///  "pairs": [{"name": "java", "checks": 3000, "disagreements": 64, "checksPerSecond": 348.8, "skipped": 0}],
///  "groups": [{"implementation": "java", "signature": "json_to_payload payload payload", "count": 31,
///              "listedReason": null, "minimal": "json_to_payload kind 1 json {...}",
///              "reference": "payload 0a03...", "other": "payload ...", "referenceIsOddOneOut": false}]}
/// ```
public struct ReportedDifferentialRun: Sendable, Equatable {
    /// One implementation compared with the reference.
    public struct Pair: Sendable, Equatable {
        /// The implementation's name.
        public var name: String
        /// The requests both answered and were compared.
        public var checks: Int
        /// The checks on which they disagreed.
        public var disagreements: Int
        /// Checks per second of the implementation's own time.
        public var checksPerSecond: Double
        /// Requests not sent, as the failure list declares the operation skipped.
        public var skipped: Int

        /// Creates a pair.
        ///
        /// - Parameters:
        ///   - name: The implementation's name.
        ///   - checks: Requests compared.
        ///   - disagreements: Checks that disagreed.
        ///   - checksPerSecond: Checks per second.
        ///   - skipped: Requests not sent.
        public init(name: String, checks: Int, disagreements: Int, checksPerSecond: Double, skipped: Int) {
            self.name = name
            self.checks = checks
            self.disagreements = disagreements
            self.checksPerSecond = checksPerSecond
            self.skipped = skipped
        }
    }

    /// The disagreements of one implementation with one signature.
    public struct Group: Sendable, Equatable {
        /// The implementation that answered otherwise than the reference.
        public var implementation: String
        /// The signature, as failure lists write it (`decode_payload payload runtime-error`).
        public var signature: String
        /// How many requests had it.
        public var count: Int
        /// The failure list's reason, when a failure list names the signature.
        public var listedReason: String?
        /// The minimal request, briefly.
        public var minimal: String
        /// The reference's answer to the minimal request.
        public var reference: String
        /// The implementation's answer to the minimal request.
        public var other: String
        /// Whether every other implementation asked agrees with this one.
        public var referenceIsOddOneOut: Bool
        /// The requests tried while shrinking.
        public var shrinkAttempts: Int

        /// Whether a failure list names the signature.
        public var isListed: Bool { listedReason != nil }

        /// Creates a group.
        ///
        /// - Parameters:
        ///   - implementation: The implementation.
        ///   - signature: The signature's three words.
        ///   - count: Requests with it.
        ///   - listedReason: The failure list's reason, or nil.
        ///   - minimal: The minimal request, briefly.
        ///   - reference: The reference's answer.
        ///   - other: The implementation's answer.
        ///   - referenceIsOddOneOut: Whether the reference is the odd one out.
        ///   - shrinkAttempts: The requests tried while shrinking.
        public init(
            implementation: String, signature: String, count: Int, listedReason: String?, minimal: String,
            reference: String, other: String, referenceIsOddOneOut: Bool, shrinkAttempts: Int = 0
        ) {
            self.implementation = implementation
            self.signature = signature
            self.count = count
            self.listedReason = listedReason
            self.minimal = minimal
            self.reference = reference
            self.other = other
            self.referenceIsOddOneOut = referenceIsOddOneOut
            self.shrinkAttempts = shrinkAttempts
        }
    }

    /// The reference implementation's name.
    public var reference: String
    /// The generator's seed.
    public var seed: UInt64
    /// Requests generated.
    public var requests: Int
    /// Wall time of the run, in seconds.
    public var seconds: Double
    /// Where the run wrote its minimal cases as a vector file, if it did.
    public var casesFile: String?
    /// Each implementation against the reference.
    public var pairs: [Pair]
    /// The disagreements by implementation and signature.
    public var groups: [Group]

    /// Creates a run from its parts.
    ///
    /// - Parameters:
    ///   - reference: The reference's name.
    ///   - seed: The seed.
    ///   - requests: Requests generated.
    ///   - seconds: Wall time.
    ///   - casesFile: The vector file of the minimal cases, or nil.
    ///   - pairs: Each implementation against the reference.
    ///   - groups: The disagreements.
    public init(
        reference: String, seed: UInt64, requests: Int, seconds: Double, casesFile: String? = nil, pairs: [Pair],
        groups: [Group]
    ) {
        self.reference = reference
        self.seed = seed
        self.requests = requests
        self.seconds = seconds
        self.casesFile = casesFile
        self.pairs = pairs
        self.groups = groups
    }

    /// The run of a result.
    ///
    /// - Parameters:
    ///   - result: A finished differential run.
    ///   - casesFile: Where its minimal cases were written, if they were.
    public init(_ result: DifferentialResult, casesFile: String? = nil) {
        // Times to the millisecond, as the document writes them, so that a
        // run read back from its document equals the run.
        func milli(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        self.init(
            reference: result.reference, seed: result.seed, requests: result.requests, seconds: milli(result.seconds),
            casesFile: casesFile,
            pairs: result.pairs.map {
                Pair(
                    name: $0.name, checks: $0.checks, disagreements: $0.disagreements,
                    checksPerSecond: milli($0.checksPerSecond), skipped: $0.skipped)
            },
            groups: result.groups.map {
                Group(
                    implementation: $0.implementation, signature: $0.signature.description, count: $0.count,
                    listedReason: $0.listedReason, minimal: DifferentialResult.describe($0.minimal),
                    reference: $0.reference.description, other: $0.other.description,
                    referenceIsOddOneOut: $0.referenceIsOddOneOut, shrinkAttempts: $0.shrinkAttempts)
            })
    }

    /// The disagreements no failure list names.
    public var unlisted: [Group] { groups.filter { !$0.isListed } }

    /// The run as text: checks per implementation, then each signature with
    /// its count, whether a failure list names it, and its minimal request.
    public func text() -> String {
        var lines = [
            "differential: \(requests) requests in \(DifferentialResult.format(seconds)) s (seed \(seed)), "
                + "reference \(reference)"
        ]
        for pair in pairs {
            var line = "  \(pair.name): \(pair.checks) checks, \(pair.disagreements) disagreements"
            line += ", \(Int(pair.checksPerSecond.rounded())) checks/s"
            if pair.skipped > 0 { line += ", \(pair.skipped) requests not sent (declared skips)" }
            lines.append(line)
        }
        for (index, group) in groups.enumerated() {
            let status = group.listedReason.map { "listed: \($0)" } ?? "NOT LISTED"
            lines.append(
                "  [\(index + 1)] \(group.implementation): differential \(group.signature)  × \(group.count) (\(status))"
            )
            lines.append("      minimal request: \(group.minimal) (\(group.shrinkAttempts) tries)")
            lines.append("      \(reference): \(DifferentialResult.shorten(group.reference))")
            lines.append("      \(group.implementation): \(DifferentialResult.shorten(group.other))")
            if group.referenceIsOddOneOut {
                lines.append("      every other implementation asked agrees with \(group.implementation): decide")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report document, pretty-printed (format
    /// `imcodec-differential-report`, version 1).
    public func json() -> String {
        func number(_ value: Int) -> VectorJSON { .number(String(value)) }
        func decimal(_ value: Double) -> VectorJSON { .number(JUnitReport.seconds(value)) }
        let document = VectorJSON.object([
            ("format", .string(Self.format)), ("version", number(1)), ("reference", .string(reference)),
            ("seed", .number(String(seed))), ("requests", number(requests)), ("seconds", decimal(seconds)),
            ("casesFile", casesFile.map { .string($0) } ?? .null),
            (
                "pairs",
                .array(
                    pairs.map {
                        .object([
                            ("name", .string($0.name)), ("checks", number($0.checks)),
                            ("disagreements", number($0.disagreements)),
                            ("checksPerSecond", decimal($0.checksPerSecond)), ("skipped", number($0.skipped)),
                        ])
                    })
            ),
            (
                "groups",
                .array(
                    groups.map {
                        .object([
                            ("implementation", .string($0.implementation)), ("signature", .string($0.signature)),
                            ("count", number($0.count)), ("listedReason", $0.listedReason.map { .string($0) } ?? .null),
                            ("minimal", .string($0.minimal)), ("reference", .string($0.reference)),
                            ("other", .string($0.other)), ("referenceIsOddOneOut", .bool($0.referenceIsOddOneOut)),
                            ("shrinkAttempts", number($0.shrinkAttempts)),
                        ])
                    })
            ),
        ])
        return document.prettyText + "\n"
    }

    /// The `format` member of the document.
    public static let format = "imcodec-differential-report"

    /// Whether a JSON document says it is a differential report, whatever
    /// else it holds: how `imcodec report` tells the two kinds of report
    /// apart.
    ///
    /// - Parameter text: The document.
    /// - Returns: True when it is JSON with `format` `imcodec-differential-report`.
    public static func isDifferentialReport(_ text: String) -> Bool {
        (try? VectorJSON(parsing: text))?["format"]?.stringValue == format
    }

    /// Reads a document written by ``json()``.
    ///
    /// - Parameter text: The document.
    /// - Throws: ``ReportReadError`` for text that is not JSON, another
    ///   format or version, a member missing or of the wrong type, and a
    ///   pair whose disagreements are not those of its groups.
    public init(json text: String) throws(ReportReadError) {
        let document: VectorJSON
        do {
            document = try VectorJSON(parsing: text)
        } catch {
            throw ReportReadError("not JSON: \(error)")
        }
        guard document["format"]?.stringValue == Self.format else {
            throw ReportReadError("not an imcodec differential report (its format is not \(Self.format))")
        }
        guard document["version"]?.intValue == 1 else {
            throw ReportReadError("a report of a version this imcodec does not read (it reads version 1)")
        }
        let reader = MemberReader(path: "")
        guard case .number(let seedText) = try reader.value(document, "seed"), let seed = UInt64(seedText) else {
            throw ReportReadError("seed: not a whole number")
        }
        var pairs: [Pair] = []
        for (index, entry) in try reader.array(document, "pairs").enumerated() {
            let member = MemberReader(path: "pairs[\(index)].")
            pairs.append(
                Pair(
                    name: try member.string(entry, "name"), checks: try member.int(entry, "checks"),
                    disagreements: try member.int(entry, "disagreements"),
                    checksPerSecond: try member.double(entry, "checksPerSecond"),
                    skipped: try member.int(entry, "skipped")))
        }
        var groups: [Group] = []
        for (index, entry) in try reader.array(document, "groups").enumerated() {
            let member = MemberReader(path: "groups[\(index)].")
            groups.append(
                Group(
                    implementation: try member.string(entry, "implementation"),
                    signature: try member.string(entry, "signature"), count: try member.int(entry, "count"),
                    listedReason: try member.optionalString(entry, "listedReason"),
                    minimal: try member.string(entry, "minimal"), reference: try member.string(entry, "reference"),
                    other: try member.string(entry, "other"),
                    referenceIsOddOneOut: try member.bool(entry, "referenceIsOddOneOut"),
                    shrinkAttempts: try member.int(entry, "shrinkAttempts")))
        }
        for pair in pairs {
            let counted = groups.filter { $0.implementation == pair.name }.reduce(0) { $0 + $1.count }
            guard counted == pair.disagreements else {
                throw ReportReadError(
                    "pairs: \(pair.name)'s \(pair.disagreements) disagreements are not its groups' \(counted)")
            }
        }
        self.init(
            reference: try reader.string(document, "reference"), seed: seed,
            requests: try reader.int(document, "requests"), seconds: try reader.double(document, "seconds"),
            casesFile: try reader.optionalString(document, "casesFile"), pairs: pairs, groups: groups)
    }
}
