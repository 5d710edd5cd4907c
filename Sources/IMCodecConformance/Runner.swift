/// Runs vector cases against a testee and collects the results.
///
/// Each case's checks are sent in order under one deadline
/// (``Options/timeout``); the first timeout or crash ends the case as failed
/// and the testee starts afresh for the next case. The failure list then
/// turns expected failures into known failures and listed passes into
/// unexpected passes.
public struct Runner {
    /// How a run behaves.
    public struct Options: Sendable {
        /// The most time one case may take, all its checks together; nil for
        /// no limit. Default 10 seconds.
        public var timeout: Duration? = .seconds(10)
        /// Cases expected to fail.
        public var failureList = FailureList()
        /// Only cases whose id contains one of these strings run; empty runs
        /// every case.
        public var filters: [String] = []

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Runs every selected case of `files`.
    ///
    /// - Parameters:
    ///   - files: The vector files.
    ///   - testee: The implementation under test; finished at the end.
    ///   - progress: Called after each case with the number done and the
    ///     number selected.
    /// - Returns: The report.
    public func run(
        _ files: [VectorFile], against testee: Testee, progress: ((Int, Int) -> Void)? = nil
    ) -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        let selected = files.flatMap { file in
            file.cases.filter(isSelected).map { (file, $0) }
        }
        var results: [CaseResult] = []
        results.reserveCapacity(selected.count)
        for (index, (file, vector)) in selected.enumerated() {
            results.append(run(vector, in: file, against: testee))
            progress?(index + 1, selected.count)
        }
        var warnings: [String] = []
        if let warning = testee.finish() { warnings.append(warning) }
        let known = Set(selected.map { $0.1.id })
        for id in options.failureList.reasons.keys.sorted() where !known.contains(id) {
            warnings.append("the failure list names \(id), which is not among the cases run")
        }
        return RunReport(testee: testee.name, results: results, warnings: warnings, seconds: seconds(clock.now - start))
    }

    func isSelected(_ vector: VectorCase) -> Bool {
        options.filters.isEmpty || options.filters.contains { vector.id.contains($0) }
    }

    /// Runs one case.
    public func run(_ vector: VectorCase, in file: VectorFile, against testee: Testee) -> CaseResult {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = options.timeout.map { start + $0 }
        var passed = 0
        var failed = 0
        var skipped = 0
        var messages: [String] = []
        for check in CaseCheck.checks(for: vector) {
            switch testee.respond(to: check.request, deadline: deadline) {
            case .response(let response):
                switch check.verify(response) {
                case .passed:
                    passed += 1
                case .skipped(let reason):
                    skipped += 1
                    messages.append("\(check.operation) skipped: \(reason)")
                case .failed(let reason):
                    failed += 1
                    messages.append("\(check.operation): \(reason)")
                }
                continue
            case .timedOut(let elapsed):
                failed += 1
                let seconds = String(format1: elapsed)
                messages.append(
                    "\(check.operation): no answer within the timeout (\(seconds) s); the testee was killed")
            case .crashed(let reason):
                failed += 1
                messages.append("\(check.operation): \(reason)")
            }
            break
        }
        var status: CaseResult.Status
        if failed > 0 {
            status = .failed
        } else if passed == 0 {
            status = .skipped
        } else {
            status = .passed
        }
        if let reason = options.failureList.reasons[vector.id] {
            switch status {
            case .failed:
                status = .knownFailure
                messages.insert("known failure: \(reason)", at: 0)
            case .passed:
                status = .unexpectedPass
                messages.insert("listed as a known failure (\(reason)) but passed", at: 0)
            default:
                break
            }
        }
        if status == .passed { messages.removeAll() }
        return CaseResult(
            id: vector.id, file: file.path, area: file.area, operation: vector.operation, status: status,
            messages: messages, passedChecks: passed, failedChecks: failed, skippedChecks: skipped,
            seconds: seconds(clock.now - start))
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

extension String {
    /// A number with one decimal, without Foundation's locale machinery.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
