import IMCodecTestee

/// A differential run: requests generated from the model and mutated from
/// the vectors' inputs, each sent to a reference implementation and to one
/// or more others, their answers compared (``DifferentialAnswer``), every
/// disagreement grouped by ``DifferentialSignature`` and the first of each
/// group shrunk to a minimal request (`docs/spec/testee-protocol.md`,
/// "Differential runs").
public final class DifferentialRun {
    /// What to run.
    public struct Options: Sendable {
        /// The generator's seed: equal seeds, vectors and operations give the
        /// same requests.
        public var seed: UInt64 = 1
        /// Stop after this many requests; nil for no bound.
        public var maxRequests: Int?
        /// Stop after this long; nil for no bound.
        public var duration: Duration?
        /// The operations to send; nil for every operation of the protocol.
        public var operations: Set<String>?
        /// How long to spend shrinking one disagreement.
        public var shrinkBudget: Duration = .seconds(10)
        /// How long one implementation may take to answer one request.
        public var timeout: Duration = .seconds(10)

        /// Creates the default options: seed 1, no bound, every operation.
        public init() {}
    }

    /// An implementation compared with the reference.
    public struct Implementation {
        /// Its name in reports.
        public var name: String
        /// The implementation.
        public var testee: any Testee
        /// What it declares: the operations it skips and the disagreements
        /// it is known to have (`differential OPERATION REFERENCE OTHER`).
        public var failureList: FailureList

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - name: The name in reports.
        ///   - testee: The implementation.
        ///   - failureList: Its declared skips and known disagreements.
        public init(name: String, testee: any Testee, failureList: FailureList = FailureList()) {
            self.name = name
            self.testee = testee
            self.failureList = failureList
        }
    }

    let reference: any Testee
    let referenceName: String
    var implementations: [Implementation]
    let options: Options
    var generator: DifferentialGenerator
    var runEnd: ContinuousClock.Instant?

    /// Creates a run.
    ///
    /// - Parameters:
    ///   - reference: The implementation the others are compared with,
    ///     usually ``InProcessTestee``.
    ///   - referenceName: Its name in reports.
    ///   - implementations: The others.
    ///   - vectors: The vector files whose inputs are mutated.
    ///   - options: Seed, bounds and operations.
    public init(
        reference: any Testee, referenceName: String = "library", implementations: [Implementation],
        vectors: [VectorFile], options: Options
    ) {
        self.reference = reference
        self.referenceName = referenceName
        self.implementations = implementations
        self.options = options
        let operations = options.operations ?? Set(FailureList.operations)
        let seeds = vectors.flatMap(\.cases).flatMap { CaseCheck.checks(for: $0) }.map(\.request)
        generator = DifferentialGenerator(seed: options.seed, seeds: seeds, operations: operations)
    }

    /// Runs until a bound is reached.
    ///
    /// - Parameter progress: Called after each request with the requests
    ///   sent so far and the disagreements found.
    /// - Returns: What was found.
    public func run(progress: ((_ requests: Int, _ disagreements: Int) -> Void)? = nil) -> DifferentialResult {
        warmUp()
        let start = ContinuousClock.now
        runEnd = options.duration.map { start + $0 }
        var result = DifferentialResult(
            reference: referenceName, seed: options.seed,
            pairs: implementations.map { DifferentialResult.Pair(name: $0.name) })
        var groupIndex: [String: Int] = [:]
        var requests = 0
        while true {
            if let maxRequests = options.maxRequests, requests >= maxRequests { break }
            if let duration = options.duration, ContinuousClock.now - start >= duration { break }
            let request = generator.next()
            guard let operation = request.operation.map(DifferentialGenerator.name) else { break }
            requests += 1
            let referenceAnswer = answer(reference, request)
            for (index, implementation) in implementations.enumerated() {
                guard implementation.failureList.skips[operation] == nil, !referenceAnswer.isSkipped else {
                    result.pairs[index].skipped += 1
                    continue
                }
                let checkStart = ContinuousClock.now
                let other = answer(implementation.testee, request)
                result.pairs[index].seconds += Self.seconds(ContinuousClock.now - checkStart)
                result.pairs[index].checks += 1
                if referenceAnswer.agrees(with: other, on: request) { continue }
                result.pairs[index].disagreements += 1
                let signature = DifferentialSignature(
                    operation: operation, reference: referenceAnswer.token, other: other.token)
                let key = "\(index) \(signature)"
                if let existing = groupIndex[key] {
                    result.groups[existing].count += 1
                    continue
                }
                groupIndex[key] = result.groups.count
                result.groups.append(
                    shrink(request, signature: signature, implementation: index, first: (referenceAnswer, other)))
            }
            progress?(requests, result.pairs.reduce(0) { $0 + $1.disagreements })
        }
        result.requests = requests
        result.seconds = Self.seconds(ContinuousClock.now - start)
        return result
    }

    /// Starts every implementation with one request outside the run's clock
    /// and deadlines: a launcher that builds or a virtual machine that starts
    /// is not a disagreement, and its start is not counted in its speed.
    func warmUp() {
        var request = TesteeRequest()
        request.caseID = "differential.warm-up"
        var operation = TesteeDecodePayloadRequest()
        operation.kind = TesteePayloadKind(rawValue: 1)
        request.operation = .decodePayload(operation)
        for implementation in implementations {
            _ = implementation.testee.respond(to: request, deadline: ContinuousClock.now + .seconds(300))
        }
    }

    func answer(_ testee: any Testee, _ request: TesteeRequest) -> DifferentialAnswer {
        DifferentialAnswer(testee.respond(to: request, deadline: ContinuousClock.now + options.timeout))
    }

    /// The group of a new signature: its request shrunk, both answers to the
    /// minimal request, and whether every other implementation sides against
    /// the reference on it.
    func shrink(
        _ request: TesteeRequest, signature: DifferentialSignature, implementation index: Int,
        first: (DifferentialAnswer, DifferentialAnswer)
    ) -> DifferentialResult.Group {
        let testee = implementations[index].testee
        let shrinkStart = ContinuousClock.now
        // A bound on the run's length bounds shrinking too.
        var deadline = shrinkStart + options.shrinkBudget
        if let runEnd { deadline = min(deadline, runEnd) }
        var shrinker = DifferentialShrinker(deadline: deadline) { candidate in
            let reference = self.answer(self.reference, candidate)
            let other = self.answer(testee, candidate)
            return !reference.agrees(with: other, on: candidate) && reference.token == signature.reference
                && other.token == signature.other
        }
        var minimal = shrinker.shrink(request)
        minimal.caseID = "differential"
        let referenceAnswer = answer(reference, minimal)
        let otherAnswer = answer(testee, minimal)
        // The reference is the odd one out when every other implementation
        // that answers agrees with the one that disagreed.
        var sidingWithOther = 0
        var sidingWithReference = 0
        for (position, implementation) in implementations.enumerated() where position != index {
            guard implementation.failureList.skips[signature.operation] == nil else { continue }
            let third = answer(implementation.testee, minimal)
            if third.agrees(with: otherAnswer, on: minimal) { sidingWithOther += 1 }
            if third.agrees(with: referenceAnswer, on: minimal) { sidingWithReference += 1 }
        }
        let listed = implementations[index].failureList.differentialReason(for: signature)
        return DifferentialResult.Group(
            implementation: implementations[index].name, signature: signature, count: 1, listedReason: listed,
            original: request, minimal: minimal, reference: referenceAnswer, other: otherAnswer,
            referenceIsOddOneOut: sidingWithOther > 0 && sidingWithReference == 0,
            shrinkSeconds: Self.seconds(ContinuousClock.now - shrinkStart), shrinkAttempts: shrinker.attempts)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

/// What a differential run found.
public struct DifferentialResult: Sendable {
    /// One implementation against the reference.
    public struct Pair: Sendable {
        /// The implementation's name.
        public var name: String
        /// Requests it answered and the reference's answer was compared with.
        public var checks = 0
        /// Requests not sent to it: operations it declares skipped.
        public var skipped = 0
        /// Checks on which it disagreed with the reference.
        public var disagreements = 0
        /// Time spent waiting for its answers.
        public var seconds = 0.0

        /// Checks per second of its own answering time.
        public var checksPerSecond: Double { seconds > 0 ? Double(checks) / seconds : 0 }
    }

    /// The disagreements of one implementation with one signature.
    public struct Group: Sendable {
        /// The implementation that disagreed with the reference.
        public var implementation: String
        /// The operation and the two answers' tokens.
        public var signature: DifferentialSignature
        /// How many checks ended with this signature.
        public var count: Int
        /// The reason of the implementation's failure list, when it lists
        /// the signature; nil for a new disagreement.
        public var listedReason: String?
        /// The first request that showed it.
        public var original: TesteeRequest
        /// That request shrunk.
        public var minimal: TesteeRequest
        /// The reference's answer to the minimal request.
        public var reference: DifferentialAnswer
        /// The other implementation's answer to it.
        public var other: DifferentialAnswer
        /// Whether every other implementation asked agrees with the one that
        /// disagreed: the reference's answer needs a decision.
        public var referenceIsOddOneOut: Bool
        /// Time spent shrinking.
        public var shrinkSeconds: Double
        /// Candidates tried while shrinking.
        public var shrinkAttempts: Int

        /// Whether the failure list names this disagreement.
        public var isListed: Bool { listedReason != nil }
    }

    /// The reference's name.
    public var reference: String
    /// The seed the run used.
    public var seed: UInt64
    /// Each implementation against the reference, in the order given.
    public var pairs: [Pair]
    /// Every signature found, in the order first found.
    public var groups: [Group] = []
    /// Requests generated.
    public var requests = 0
    /// The run's length.
    public var seconds = 0.0

    /// The groups no failure list names: what fails a run.
    public var unlisted: [Group] { groups.filter { !$0.isListed } }
}
