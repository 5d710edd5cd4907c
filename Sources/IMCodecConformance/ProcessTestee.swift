import IMCodecTestee

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    // pipe2 is a GNU extension the Glibc module does not export. Creating the
    // pipes close-on-exec atomically matters: tests run in parallel, and a pipe
    // end inherited by another child would hide a testee's exit from us.
    @_silgen_name("pipe2")
    private func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
#else
    private func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        guard pipe(descriptors) == 0 else { return -1 }
        for index in 0..<2 { _ = fcntl(descriptors[index], F_SETFD, FD_CLOEXEC) }
        return 0
    }
#endif

/// Another program as a testee, driven over the testee protocol
/// (`docs/spec/testee-protocol.md`).
///
/// The command runs under `/bin/sh -c` in a process group of its own, with
/// its standard input and output connected to the runner and its standard
/// error passed through. It is started on the first request and kept for all
/// later ones. When it misses a deadline, the whole group is killed; when it
/// dies or breaks the framing, it is reaped; either way the next request
/// starts it again. After ``maxConsecutiveFailures`` timeouts or crashes with
/// no answer in between it is not started again, and every later request
/// fails at once, so a testee that cannot start does not cost a restart per
/// case.
public final class ProcessTestee: Testee {
    /// The shell command line.
    public let command: String
    public var name: String { command }
    /// How many times the testee was started.
    public private(set) var starts = 0
    /// After this many timeouts or crashes in a row the testee is given up.
    public var maxConsecutiveFailures = 5

    private var child: Child?
    private var consecutiveFailures = 0

    private struct Child {
        var pid: pid_t
        /// Our end of the testee's standard input.
        var input: Int32
        /// Our end of the testee's standard output.
        var output: Int32
    }

    /// Creates a testee for a command line; nothing starts until the first
    /// request.
    ///
    /// - Parameter command: A shell command line, such as
    ///   `.build/debug/imcodec testee`.
    public init(command: String) {
        self.command = command
        // A testee that dies makes our next write fail with EPIPE; the
        // default SIGPIPE action would kill the runner instead.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        if let child { stop(child) }
    }

    public func respond(to request: TesteeRequest, deadline: ContinuousClock.Instant?) -> TesteeOutcome {
        if consecutiveFailures >= maxConsecutiveFailures {
            return .crashed("not restarted after \(consecutiveFailures) failures in a row")
        }
        let outcome = exchange(request, deadline: deadline)
        switch outcome {
        case .response: consecutiveFailures = 0
        case .timedOut, .crashed: consecutiveFailures += 1
        }
        return outcome
    }

    private func exchange(_ request: TesteeRequest, deadline: ContinuousClock.Instant?) -> TesteeOutcome {
        let running: Child
        if let child {
            running = child
        } else {
            switch start() {
            case .success(let started): running = started
            case .failure(let reason): return .crashed(reason.text)
            }
        }
        let body = request.serializedBytes()
        let started = ContinuousClock.now
        switch transfer(TesteeFraming.prefix(body.count) + body, to: running.input, deadline: deadline) {
        case .done: break
        case .timedOut: return timeout(running, since: started)
        case .closed: return crash(running, "stopped reading its input")
        }
        var prefix: [UInt8] = []
        switch receive(4, from: running.output, into: &prefix, deadline: deadline) {
        case .done: break
        case .timedOut: return timeout(running, since: started)
        case .closed:
            return crash(running, prefix.isEmpty ? "closed its output" : "closed its output inside a length prefix")
        }
        let length = TesteeFraming.length(prefix)
        guard length <= TesteeFraming.maxMessageBytes else {
            return crash(running, "announced a response of \(length) bytes")
        }
        var answer: [UInt8] = []
        switch receive(length, from: running.output, into: &answer, deadline: deadline) {
        case .done: break
        case .timedOut: return timeout(running, since: started)
        case .closed: return crash(running, "closed its output inside a response")
        }
        do {
            return .response(try TesteeResponse(serializedBytes: answer))
        } catch {
            return crash(running, "answered bytes that are not a Response: \(error)")
        }
    }

    public func finish() -> String? {
        guard let running = child else { return nil }
        child = nil
        close(running.input)
        // A testee exits when its input ends; give it a moment to do so.
        let deadline = ContinuousClock.now + .seconds(5)
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let reaped = waitpid(running.pid, &status, WNOHANG)
            if reaped == running.pid {
                close(running.output)
                return status == 0 ? nil : "the testee \(Self.describe(status: status)) when its input ended"
            }
            if reaped < 0 { break }
            usleep(10_000)
        }
        stop(running)
        return "the testee did not exit within 5 s of its input ending and was killed"
    }

    // MARK: Process control

    private struct StartFailure: Error {
        var text: String
    }

    private func start() -> Result<Child, StartFailure> {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe2(&toChild, O_CLOEXEC) == 0 else { return .failure(StartFailure(text: "pipe: \(Self.errorText())")) }
        guard pipe2(&fromChild, O_CLOEXEC) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return .failure(StartFailure(text: "pipe: \(Self.errorText())"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so a timeout kills whatever the shell started;
        // SIGPIPE back to its default, since ignored signals survive exec.
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1])
            close(fromChild[0])
            return .failure(StartFailure(text: "cannot start /bin/sh: \(String(cString: strerror(result)))"))
        }
        for fd in [toChild[1], fromChild[0]] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let started = Child(pid: pid, input: toChild[1], output: fromChild[0])
        child = started
        starts += 1
        return .success(started)
    }

    /// Kills the testee's process group and reaps it.
    private func stop(_ running: Child) {
        kill(-running.pid, SIGKILL)
        kill(running.pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(running.pid, &status, 0) < 0 && errno == EINTR {}
        close(running.input)
        close(running.output)
        if child?.pid == running.pid { child = nil }
    }

    private func timeout(_ running: Child, since started: ContinuousClock.Instant) -> TesteeOutcome {
        stop(running)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return .timedOut(seconds: seconds)
    }

    /// Reaps a testee that stopped talking and says how it ended.
    private func crash(_ running: Child, _ what: String) -> TesteeOutcome {
        var status: Int32 = 0
        var reaped: pid_t = 0
        // It usually has exited already; give it a moment, then make sure.
        for _ in 0..<100 {
            reaped = waitpid(running.pid, &status, WNOHANG)
            if reaped != 0 { break }
            usleep(10_000)
        }
        if reaped == running.pid {
            close(running.input)
            close(running.output)
            child = nil
            return .crashed("the testee \(what) and \(Self.describe(status: status))")
        }
        stop(running)
        return .crashed("the testee \(what) and was killed")
    }

    static func describe(status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        return "was killed by signal \(signal)"
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    // MARK: Non-blocking I/O with a deadline

    private enum Transfer {
        case done
        case timedOut
        case closed
    }

    /// Waits until `fd` is ready for `events` or the deadline passes.
    private func wait(_ fd: Int32, _ events: Int16, deadline: ContinuousClock.Instant?) -> Bool {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                if remaining <= .zero { return false }
                let milliseconds =
                    remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
                timeout = Int32(clamping: max(1, milliseconds))
            }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return true }
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && deadline == nil { continue }
            if ready == 0 { return false }
            return true  // an error on the descriptor shows up in the read or write
        }
    }

    private func transfer(_ bytes: [UInt8], to fd: Int32, deadline: ContinuousClock.Instant?) -> Transfer {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, bytes.count - written)
            }
            if result > 0 {
                written += result
                continue
            }
            if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard wait(fd, Int16(POLLOUT), deadline: deadline) else { return .timedOut }
                continue
            }
            return .closed
        }
        return .done
    }

    private func receive(_ count: Int, from fd: Int32, into bytes: inout [UInt8], deadline: ContinuousClock.Instant?)
        -> Transfer
    {
        bytes.reserveCapacity(count)
        var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 1 << 16))
        while bytes.count < count {
            let wanted = min(chunk.count, count - bytes.count)
            let result = chunk.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress!, wanted) }
            if result > 0 {
                bytes.append(contentsOf: chunk[0..<result])
                continue
            }
            if result == 0 { return .closed }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(fd, Int16(POLLIN), deadline: deadline) else { return .timedOut }
                continue
            }
            return .closed
        }
        return .done
    }
}
