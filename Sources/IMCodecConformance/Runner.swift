/// Runs vector cases against a testee and collects the results.
///
/// Each case's checks are sent in order under one deadline
/// (``Options/timeout``); the first timeout or crash ends the case as failed
/// and the testee starts afresh for the next case. A case passes only when
/// every one of its checks ran and passed. A `skipped` answer counts as
/// skipped only for an operation the failure list declares unsupported
/// (``FailureList/skips``); otherwise it fails the case. The failure list
/// then turns expected failures (with the expected failure code) into known
/// failures; a listed case that passes, is skipped or fails another way is
/// unexpected.
public struct Runner: Sendable {
    /// How a run behaves.
    public struct Options: Sendable {
        /// The most time one case may take, all its checks together; nil for
        /// no limit. Default 10 seconds.
        public var timeout: Duration? = .seconds(10)
        /// Declared unsupported operations and cases expected to fail.
        public var failureList = FailureList()
        /// Only cases whose id contains one of these strings run; empty runs
        /// every case. A filter that selects no case fails the run.
        public var filters: [String] = []
        /// Areas that must be fully covered: a skipped case in one of them,
        /// or no case of it at all, fails the run.
        public var requiredAreas: [String] = []

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
        var usage = OperationUsage()
        for (index, (file, vector)) in selected.enumerated() {
            results.append(run(vector, in: file, against: testee, usage: &usage))
            progress?(index + 1, selected.count)
        }
        var problems: [String] = []
        var warnings: [String] = []
        if !options.filters.isEmpty && selected.isEmpty {
            let filters = options.filters.map { "'\($0)'" }.joined(separator: ", ")
            problems.append("the filter \(filters) selects no case")
        }
        if let problem = testee.finish() { problems.append(problem) }
        let existing = Set(files.lazy.flatMap(\.cases).map(\.id))
        let run = Set(selected.map { $0.1.id })
        for id in options.failureList.entries.keys.sorted() where !run.contains(id) {
            if existing.contains(id) {
                warnings.append("the failure list names \(id), which the filter left out")
            } else {
                problems.append("the failure list names \(id), which is not a case of the vectors")
            }
        }
        for (operation, reason) in options.failureList.skips.sorted(by: { $0.key < $1.key }) {
            let answered = usage.answered[operation, default: 0]
            if answered > 0 && usage.skipped[operation, default: 0] == 0 {
                problems.append(
                    "the failure list declares `skip \(operation)` (\(reason)), but the testee answered all "
                        + "\(answered) \(operation) requests: remove the declaration")
            }
        }
        for area in options.requiredAreas {
            let inArea = results.filter { $0.area == area }
            if inArea.isEmpty {
                problems.append("--require \(area): no case of this area ran")
                continue
            }
            let skipped = inArea.filter { $0.status == .skipped }
            if !skipped.isEmpty {
                let examples = skipped.prefix(3).map(\.id).joined(separator: ", ")
                problems.append(
                    "--require \(area): \(skipped.count) of \(inArea.count) cases were skipped (\(examples)"
                        + (skipped.count > 3 ? ", …)" : ")"))
            }
        }
        return RunReport(
            testee: testee.name, results: results, problems: problems, warnings: warnings,
            declaredSkips: options.failureList.skips, requiredAreas: options.requiredAreas,
            seconds: seconds(clock.now - start))
    }

    func isSelected(_ vector: VectorCase) -> Bool {
        options.filters.isEmpty || options.filters.contains { vector.id.contains($0) }
    }

    /// How often each operation was answered and how often skipped.
    struct OperationUsage {
        var answered: [String: Int] = [:]
        var skipped: [String: Int] = [:]
    }

    /// Runs one case.
    public func run(_ vector: VectorCase, in file: VectorFile, against testee: Testee) -> CaseResult {
        var usage = OperationUsage()
        return run(vector, in: file, against: testee, usage: &usage)
    }

    func run(_ vector: VectorCase, in file: VectorFile, against testee: Testee, usage: inout OperationUsage)
        -> CaseResult
    {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = options.timeout.map { start + $0 }
        var passed = 0
        var failed = 0
        var skipped = 0
        var failure: String?
        var messages: [String] = []
        func fail(_ message: String, _ code: String) {
            failed += 1
            if failure == nil { failure = code }
            messages.append(message)
        }
        let checks = CaseCheck.checks(for: vector)
        if checks.isEmpty {
            fail("the runner found no check to send for this case", CheckFailure.wrongAnswer)
        }
        for check in checks {
            switch testee.respond(to: check.request, deadline: deadline) {
            case .response(let response):
                let outcome = check.verify(response)
                if case .skipped = outcome {
                    usage.skipped[check.operation, default: 0] += 1
                } else {
                    usage.answered[check.operation, default: 0] += 1
                }
                switch outcome {
                case .passed:
                    passed += 1
                case .skipped(let reason):
                    if let declared = options.failureList.skips[check.operation] {
                        skipped += 1
                        messages.append("\(check.operation) skipped (declared: \(declared))")
                    } else {
                        fail(
                            "\(check.operation) answered skipped (\(reason)), but the failure list does not declare "
                                + "`skip \(check.operation)`", CheckFailure.undeclaredSkip)
                    }
                case .failed(let reason, let code):
                    fail("\(check.operation): \(reason)", code)
                }
                continue
            case .timedOut(let elapsed):
                let seconds = String(format1: elapsed)
                fail(
                    "\(check.operation): no answer within the timeout (\(seconds) s); the testee was killed",
                    CheckFailure.noAnswer)
            case .crashed(let reason):
                fail("\(check.operation): \(reason)", CheckFailure.noAnswer)
            }
            break
        }
        var status: CaseResult.Status
        if failed > 0 {
            status = .failed
        } else if skipped > 0 {
            status = .skipped
        } else {
            status = .passed
        }
        if let entry = options.failureList.entries[vector.id] {
            switch status {
            case .failed where failure == entry.failure:
                status = .knownFailure
                messages.insert("known failure (\(entry.failure)): \(entry.reason)", at: 0)
            case .failed:
                messages.insert(
                    "listed as a known failure with \(entry.failure) (\(entry.reason)), but it failed with "
                        + (failure ?? "?"), at: 0)
            case .passed:
                status = .unexpectedPass
                messages.insert("listed as a known failure (\(entry.reason)) but passed", at: 0)
            case .skipped:
                status = .failed
                messages.insert("listed as a known failure (\(entry.reason)) but skipped", at: 0)
            default:
                break
            }
        }
        if status == .passed { messages.removeAll() }
        return CaseResult(
            id: vector.id, file: file.path, area: file.area, operation: vector.operation, status: status,
            messages: messages, passedChecks: passed, failedChecks: failed, skippedChecks: skipped,
            failure: failure, seconds: seconds(clock.now - start))
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
