import Foundation
import TestProcesses
import Testing

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

    /// Runs `courier arguments…` with `stdin` piped in (or `/dev/null`), its output read as it
    /// comes (never a full pipe), killed after `deadline` so a hang fails instead of blocking.
    ///
    /// `program` runs instead of `courier` itself, for a wrapper such as `script` that gives it a terminal.
    ///
    /// `COURIER_CONFIG_DIR` names a directory that does not exist unless `environment` sets it, so
    /// no `config.json` or session of the machine's user changes what a test sees.
    static func run(
        _ arguments: [String], stdin: Data? = nil, directory: URL? = nil, program: URL? = nil,
        environment: [String: String] = [:], deadline: Duration = .seconds(60)
    ) async throws -> CourierRun {
        guard let executable = program ?? builtExecutable else { throw NotBuilt() }
        // No configuration directory and no .netrc of the machine's: each test says what it reads.
        let isolated = [
            "COURIER_CONFIG_DIR": "/nonexistent/courier-test-config", "NETRC": "/nonexistent/courier-test-netrc",
        ]
        .merging(environment) { $1 }
        let outcome = try await ChildProcess.run(
            executable.path, arguments, environment: isolated, directory: directory,
            input: stdin.map { [UInt8]($0) }, timeout: deadline)
        return CourierRun(
            status: outcome.status, stdout: Data(outcome.standardOutput), stderr: Data(outcome.standardError))
    }

    /// Starts `courier arguments…` in the background (`courier serve`), stopped with a signal.
    static func start(_ arguments: [String]) throws -> BackgroundProcess {
        guard let executable = builtExecutable else { throw NotBuilt() }
        return try BackgroundProcess(executable.path, arguments)
    }
}
