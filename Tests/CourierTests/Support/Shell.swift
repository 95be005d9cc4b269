import Foundation
import TestProcesses

/// Runs shell command lines the way a user would paste them, without blocking the cooperative pool.
enum Shell {
    /// What a finished command left behind.
    struct Result {
        var status: Int32
        var standardOutput: Data
        var standardError: String
    }

    /// The shells to run pasted commands through: POSIX `sh`, plus dash and bash when installed.
    static let available: [String] = ["/bin/sh", "/bin/dash", "/bin/bash", "/bin/zsh", "/usr/bin/zsh"]
        .filter { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `command` with `shell -c`; its output is read as it comes, so a large output cannot
    /// fill a pipe and stall the child while we wait for it to exit.
    static func run(_ command: String, shell: String = "/bin/sh") async throws -> Result {
        let outcome = try await ChildProcess.shell(command, shell: shell)
        return Result(
            status: outcome.status, standardOutput: Data(outcome.standardOutput),
            standardError: outcome.errorOutput)
    }
}
