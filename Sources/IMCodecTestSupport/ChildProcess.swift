import Foundation

/// Runs a program to completion with files for its standard streams, and
/// reports its exit status, output and peak resident set size.
public enum ChildProcess {
    /// How a child process ended and what it wrote.
    public struct Result {
        /// The exit status, or 128 plus the signal that ended it.
        public var status: Int32
        /// The standard output, as UTF-8 text.
        public var standardOutput: String
        /// The standard error, as UTF-8 text.
        public var standardError: String
        /// The standard output's bytes.
        public var standardOutputBytes: [UInt8]
        /// The child's `ru_maxrss` from `wait4`, in bytes.
        public var maxRSS: Int
    }

    /// A program that could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// What failed, with the error number.
        public var description: String
    }

    /// The executable of this process.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Forks, executes the program named in its arguments, waits, and writes
    /// the child's `ru_maxrss` (KiB) to the file `IMCODEC_RSS_FILE` names.
    ///
    /// Linux carries the high-water mark of the memory a process had before
    /// `exec` into its `ru_maxrss`, so a child spawned straight from this
    /// (large) test process would report this process's peak. A small Python
    /// process in between forks the program from its own small memory.
    public static let measuringLauncher = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        _, status, usage = os.wait4(pid, 0)
        with open(os.environ["IMCODEC_RSS_FILE"], "w") as f:
            f.write(str(usage.ru_maxrss))
        sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
        """

    /// Runs `executable` with `arguments`, `input` on its standard input, and
    /// `environment` added to this process's environment. With
    /// `measuringMemory`, the result's `maxRSS` is the program's own peak
    /// (see ``measuringLauncher``); without, it is not meaningful.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments, without its name.
    ///   - input: Its standard input.
    ///   - environment: Variables added to this process's environment.
    ///   - measuringMemory: Whether to measure the program's own peak memory.
    /// - Returns: How it ended and what it wrote.
    /// - Throws: ``SpawnError`` when it cannot be started; the file system's
    ///   errors for its standard streams.
    public static func run(
        executable: String, arguments: [String], input: [UInt8] = [], environment: [String: String] = [:],
        measuringMemory: Bool = false
    ) throws -> Result {
        if measuringMemory {
            let rssFile = FileManager.default.temporaryDirectory
                .appendingPathComponent("imcodec-rss-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: rssFile) }
            var result = try run(
                executable: "/usr/bin/env", arguments: ["python3", "-c", measuringLauncher, executable] + arguments,
                input: input, environment: environment.merging(["IMCODEC_RSS_FILE": rssFile]) { $1 })
            let kibibytes = try String(contentsOfFile: rssFile, encoding: .utf8)
            result.maxRSS = (Int(kibibytes) ?? Int.max / 2048) * 1024
            return result
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("imcodec-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = ["in", "out", "err"].map { directory.appendingPathComponent($0).path }
        try Data(input).write(to: URL(fileURLWithPath: paths[0]))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, paths[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, paths[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnError(description: "posix_spawn \(executable): \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let output = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let error = try Data(contentsOf: URL(fileURLWithPath: paths[2]))
        // WIFEXITED / WEXITSTATUS, which Swift cannot import as macros.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self),
            standardOutputBytes: [UInt8](output),
            maxRSS: usage.ru_maxrss * 1024)
    }
}
