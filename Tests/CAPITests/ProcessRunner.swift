import Foundation
import CourierTestServer

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
    /// Output goes to a file rather than a pipe, so a chatty command (valgrind) cannot fill a
    /// pipe buffer and stall; `timeout` kills a command that hangs (a deadlock in a test).
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        directory: URL? = nil,
        seconds: Int = 600
    ) async throws -> CommandOutcome {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-capi-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "-k", "10", String(seconds)] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        if let directory { process.currentDirectoryURL = directory }
        let status: Int32 = try await ProcessLaunch.exitStatus(of: process)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return CommandOutcome(command: arguments.joined(separator: " "), status: status, output: output)
    }
}
