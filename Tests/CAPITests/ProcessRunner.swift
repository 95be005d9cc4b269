import Foundation
import TestProcesses

/// What a finished command did: its exit status and everything it wrote to stdout and stderr.
struct CommandOutcome: Sendable, CustomStringConvertible {
    var command: String
    var status: Int32
    var output: String

    var description: String { "`\(command)` exited \(status):\n\(output)" }
}

/// Runs commands for the C tests without holding a thread while they run.
enum ProcessRunner {
    /// Runs `arguments` (the first is looked up on PATH) in `directory`, stopped after `seconds`.
    ///
    /// Output is read as it comes, so a chatty command (valgrind) cannot fill a pipe buffer and
    /// stall; `timeout` kills a command that hangs (a deadlock in a test).
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        directory: URL? = nil,
        seconds: Int = 600
    ) async throws -> CommandOutcome {
        // `timeout` stops a hung command with its output kept; the deadline below is the backstop.
        let outcome = try await ChildProcess.run(
            "timeout", ["-k", "10", String(seconds)] + arguments, environment: environment, directory: directory,
            mergingErrorIntoOutput: true, timeout: .seconds(seconds + 60))
        return CommandOutcome(command: arguments.joined(separator: " "), status: outcome.status, output: outcome.output)
    }
}
