import Foundation
import Testing
import CourierTestServer

/// What one run of the built `courier` executable produced.
struct CourierRun {
    var status: Int32
    var stdout: Data
    var stderr: Data

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
    /// The lines written to standard error.
    var errLines: [Substring] { err.split(separator: "\n") }
}

/// The `courier` executable was found neither next to the test bundle nor in `.build/debug`.
struct NotBuilt: Error {}

/// Runs the `courier` executable that `swift build` put next to the test bundle.
enum CourierProcess {
    /// The built executable: beside the test bundle, or in the package's `.build/debug`.
    static let builtExecutable: URL? = {
        var candidates: [URL] = []
        if let bundleDirectory = Bundle.main.executableURL?.deletingLastPathComponent() {
            candidates.append(bundleDirectory.appendingPathComponent("courier"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("courier"))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/courier"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `courier arguments…` with `stdin` piped in (or `/dev/null`), stdout and stderr captured
    /// in files (never a full pipe), killed after `deadline` so a hang fails instead of blocking.
    ///
    /// `program` runs instead of `courier` itself, for a wrapper such as `script` that gives it a terminal.
    static func run(_ arguments: [String], stdin: Data? = nil, directory: URL? = nil, program: URL? = nil,
                    deadline: Duration = .seconds(60)) async throws -> CourierRun {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let process = try makeProcess(arguments, scratch: scratch, stdin: stdin)
        if let program { process.executableURL = program }
        if let directory { process.currentDirectoryURL = directory }
        let status = try await exitStatus(of: process, deadline: deadline)
        return CourierRun(status: status, stdout: try Data(contentsOf: scratch.out), stderr: try Data(contentsOf: scratch.err))
    }

    /// Files for one process's output, in a fresh temporary directory.
    struct Scratch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-run-\(UUID())")
        var out: URL { directory.appendingPathComponent("out") }
        var err: URL { directory.appendingPathComponent("err") }

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data().write(to: out)
            try Data().write(to: err)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// A process for `courier arguments…` writing into `scratch`.
    static func makeProcess(_ arguments: [String], scratch: Scratch, stdin: Data? = nil) throws -> Process {
        let process = Process()
        guard let executable = builtExecutable else { throw NotBuilt() }
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: scratch.out)
        process.standardError = try FileHandle(forWritingTo: scratch.err)
        if let stdin {
            let inURL = scratch.directory.appendingPathComponent("in")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        return process
    }

    /// Starts `process` and waits for it without blocking a thread; terminates it after `deadline`.
    static func exitStatus(of process: Process, deadline: Duration) async throws -> Int32 {
        let watchdog = Task {
            try await Task.sleep(for: deadline)
            process.terminate()
        }
        defer { watchdog.cancel() }
        return try await ProcessLaunch.exitStatus(of: process)
    }
}
