public import Foundation
import Subprocess
import Synchronization
import SystemPackage

/// A long-running child process for a test (a server such as nginx or `courier serve`), started on
/// swift-subprocess and stopped with a signal by ``stop(with:)``.
///
/// Its standard output and standard error go to files, so a test can poll what it printed (a
/// banner with a port) and a chatty process can never fill a pipe and stall. The files are removed,
/// and a process still running is killed, when the last reference goes.
public final class BackgroundProcess: Sendable {
    /// The file that receives its standard output.
    public let outputFile: URL
    /// The file that receives its standard error.
    public let errorFile: URL

    private let directory: URL
    private let command: String
    private let running: Task<Int32, any Error>
    /// The signal ``stop(with:)`` asked for, until the process is sent it.
    private let stopRequest = StopRequest()

    /// The process's ID once it has started (for reading its `/proc` entries), `nil` before.
    public var processIdentifier: Int32? { stopRequest.pid.withLock { $0 } }

    /// Starts `executable` with `arguments`; the process runs until ``stop(with:)``, or until it
    /// exits by itself.
    ///
    /// - Parameters:
    ///   - executable: a path (containing `/`) or a program name looked up on `PATH`.
    ///   - environment: variables set on top of this process's environment.
    ///   - directory: the working directory, or this process's when `nil`.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        directory workingDirectory: URL? = nil
    ) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("courier-process-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        directory = scratch
        outputFile = scratch.appendingPathComponent("stdout")
        errorFile = scratch.appendingPathComponent("stderr")
        command = ([executable] + arguments).joined(separator: " ")
        let output = try FileDescriptor.open(
            FilePath(outputFile.path), .writeOnly,
            options: [.create, .truncate], permissions: [.ownerReadWrite])
        let error: FileDescriptor
        do {
            error = try FileDescriptor.open(
                FilePath(errorFile.path), .writeOnly,
                options: [.create, .truncate], permissions: [.ownerReadWrite])
        } catch {
            try? output.close()
            throw error
        }
        let configuration = Configuration(
            executable: ChildProcess.executable(executable),
            arguments: Arguments(arguments),
            environment: ChildProcess.environment(environment),
            workingDirectory: workingDirectory.map { FilePath($0.path) }
        )
        let stopRequest = stopRequest
        running = Task {
            let result = try await Subprocess.run(
                configuration,
                input: .none,
                output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                error: .fileDescriptor(error, closeAfterSpawningProcess: true)
            ) { execution in
                stopRequest.pid.withLock { $0 = execution.processIdentifier.value }
                // Until a stop is requested or the process exits by itself.
                while !Self.hasExited(execution.processIdentifier.value) {
                    if let signal = stopRequest.signal.withLock({ $0.take() }) {
                        try? execution.send(signal: Signal(rawValue: signal))
                        return
                    }
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            return ChildProcess.exitStatus(result.terminationStatus)
        }
    }

    deinit {
        running.cancel()
        try? FileManager.default.removeItem(at: directory)
    }

    /// What it has written to standard output so far.
    public func output() -> String {
        String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)
    }

    /// What it has written to standard error so far.
    public func errorOutput() -> String {
        String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
    }

    /// Sends `signal` (SIGTERM by default), waits for the process to exit and returns its exit status (128 plus the signal's number when the signal ended it).
    ///
    /// A process still running `timeout` after the signal is killed.
    @discardableResult
    public func stop(with signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) async throws -> Int32 {
        stopRequest.signal.withLock { $0 = signal }
        let running = running
        return try await ChildProcess.withDeadline(timeout, command: command) {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                running.cancel()
            }
        }
    }

    /// Whether `pid` has exited, leaving it to be reaped by swift-subprocess (`WNOWAIT`).
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// Waits for the process to exit by itself, killing it after `timeout`; returns its exit status.
    public func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let running = running
        return try await ChildProcess.withDeadline(timeout, command: command) {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                running.cancel()
            }
        }
    }
}

/// The signal a stop asked for, and the process's ID, shared with the task that runs the process.
private final class StopRequest: Sendable {
    let signal = Mutex<Int32?>(nil)
    let pid = Mutex<Int32?>(nil)
}
