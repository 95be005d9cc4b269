import Foundation
import CourierTestServer

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

    /// Runs `command` with `shell -c`; output goes to temporary files, so a large output cannot
    /// fill a pipe and stall the child while we wait for it to exit.
    static func run(_ command: String, shell: String = "/bin/sh") async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let outputURL = directory.appending(path: "courier-shell-\(UUID().uuidString).out")
        let errorURL = directory.appending(path: "courier-shell-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }

        let process = Process()
        process.executableURL = URL(filePath: shell)
        process.arguments = ["-c", command]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        let status: Int32 = try await ProcessLaunch.exitStatus(of: process)
        return Result(status: status,
                      standardOutput: try Data(contentsOf: outputURL),
                      standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}
