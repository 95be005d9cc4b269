public import Foundation
import Subprocess
import SystemPackage

/// Runs a child process to completion for a test, on swift-subprocess, and never through
/// Foundation's `Process`.
///
/// `Process.run()` crashed the whole test process at random on Linux (a bad pointer copied inside
/// it while suites launched `curl`, `cc` and `courier` at once), so every launch in the tests goes
/// through this type or ``BackgroundProcess`` instead. swift-subprocess spawns with `posix_spawn`,
/// waits on a pidfd without holding a thread, and needs no process-wide lock.
public enum ChildProcess {
    /// Output beyond this many bytes per stream fails the run instead of growing without bound.
    public static let outputLimit = 256 << 20

    /// Runs `executable` with `arguments` and returns how it ended and what it wrote.
    ///
    /// - Parameters:
    ///   - executable: a path (containing `/`) or a program name looked up on `PATH`.
    ///   - environment: variables set on top of this process's environment.
    ///   - directory: the working directory, or this process's when `nil`.
    ///   - input: bytes written to its standard input; `nil` gives it `/dev/null`.
    ///   - mergingErrorIntoOutput: standard error goes where standard output goes (`2>&1`).
    ///   - timeout: the process is killed, and ``ChildProcessError/timedOut(_:after:)`` thrown, after this.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String] = [:],
        directory: URL? = nil,
        input: [UInt8]? = nil,
        mergingErrorIntoOutput: Bool = false,
        timeout: Duration = .seconds(600)
    ) async throws -> ChildProcessOutcome {
        let command = ([executable] + arguments).joined(separator: " ")
        return try await withDeadline(timeout, command: command) {
            let configuration = Configuration(
                executable: Self.executable(executable),
                arguments: Arguments(arguments),
                environment: Self.environment(environment),
                workingDirectory: directory.map { FilePath($0.path) }
            )
            if let input {
                return try await collect(
                    configuration, input: .array(input), command: command, merging: mergingErrorIntoOutput)
            }
            return try await collect(configuration, input: .none, command: command, merging: mergingErrorIntoOutput)
        }
    }

    /// Runs `configuration` to its end, capturing its output as it comes.
    private static func collect(
        _ configuration: Configuration, input: some InputProtocol, command: String,
        merging: Bool
    ) async throws -> ChildProcessOutcome {
        if merging {
            let result = try await Subprocess.run(
                configuration, input: input, output: .bytes(limit: outputLimit), error: .combinedWithOutput)
            return ChildProcessOutcome(
                command: command, status: exitStatus(result.terminationStatus),
                standardOutput: result.standardOutput, standardError: [])
        }
        let result = try await Subprocess.run(
            configuration, input: input, output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit))
        return ChildProcessOutcome(
            command: command, status: exitStatus(result.terminationStatus),
            standardOutput: result.standardOutput, standardError: result.standardError)
    }

    /// Runs `command` with `shell -c`, the way a user would paste it into a terminal.
    public static func shell(
        _ command: String, shell: String = "/bin/sh",
        timeout: Duration = .seconds(600)
    ) async throws -> ChildProcessOutcome {
        try await run(shell, ["-c", command], timeout: timeout)
    }

    static func executable(_ executable: String) -> Executable {
        executable.contains("/") ? .path(FilePath(executable)) : .name(executable)
    }

    static func environment(_ additions: [String: String]) -> Subprocess.Environment {
        additions.isEmpty
            ? .inherit
            : .inherit.updating(
                Dictionary(
                    uniqueKeysWithValues: additions.map {
                        (Subprocess.Environment.Key(stringLiteral: $0.key), $0.value as String?)
                    }))
    }

    /// A shell's view of an ending: the exit code, or 128 plus the signal that ended it.
    static func exitStatus(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
    }

    /// Runs `work`, cancelling it (which makes swift-subprocess kill the child) after `timeout`.
    static func withDeadline<Value: Sendable>(
        _ timeout: Duration, command: String, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw ChildProcessError.timedOut(command, after: timeout)
            }
            return value
        }
    }
}

/// How a child process ended and what it wrote.
public struct ChildProcessOutcome: Sendable, CustomStringConvertible {
    /// The command line, for messages.
    public var command: String
    /// The exit code, or 128 plus the signal number when a signal ended it (as a shell reports).
    public var status: Int32
    /// Everything written to standard output (and standard error, when merged).
    public var standardOutput: [UInt8]
    /// Everything written to standard error, unless it was merged into standard output.
    public var standardError: [UInt8]

    /// Standard output decoded as UTF-8.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error decoded as UTF-8.
    public var errorOutput: String { String(decoding: standardError, as: UTF8.self) }

    public var description: String { "`\(command)` exited \(status):\n\(output)\(errorOutput)" }
}

/// Why a child process gave no outcome.
public enum ChildProcessError: Error, CustomStringConvertible {
    /// It was still running after the deadline, and was killed.
    case timedOut(String, after: Duration)

    public var description: String {
        switch self {
        case .timedOut(let command, let after): "`\(command)` was still running after \(after) and was killed"
        }
    }
}
