#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress display on standard error.
///
/// It draws only when standard error is a terminal and only once the run has
/// lasted a second, so short runs, pipes and CI logs stay clean; it redraws
/// at most ten times a second and erases itself at the end.
public final class ProgressLine {
    private let enabled: Bool
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    /// Creates a display for this process's standard error.
    ///
    /// - Parameter enabled: Whether to draw at all; by default, when standard
    ///   error is a terminal.
    public init(enabled: Bool = isatty(2) == 1) {
        self.enabled = enabled
    }

    /// Shows that `done` of `total` cases have run.
    public func update(_ done: Int, of total: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - start >= .seconds(1) else { return }
        if let lastDraw, now - lastDraw < .milliseconds(100), done < total { return }
        lastDraw = now
        drawn = true
        let percent = total == 0 ? 100 : done * 100 / total
        draw("\r\u{1B}[K  conformance: \(done)/\(total) cases (\(percent)%)")
    }

    /// Erases the line if it was drawn.
    public func finish() {
        guard drawn else { return }
        draw("\r\u{1B}[K")
        drawn = false
    }

    private func draw(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { buffer in write(2, buffer.baseAddress, buffer.count) }
    }
}
