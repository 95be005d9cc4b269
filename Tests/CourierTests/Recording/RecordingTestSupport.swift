import Courier
import Foundation
import HTTPTypes
import TestProcesses
import Testing

/// A fresh directory for one test's cassettes and archives, removed afterwards.
func withScratchDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "courier-recording-\(UUID())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Checks `file` against the HAR 1.2 JSON schema with scripts/validate-har (jsonschema from
/// PyPI in a venv under .build); the test is cancelled, saying why, only when no venv or
/// package can be had on this machine.
func expectValidHAR(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let script = repository.appendingPathComponent("scripts/validate-har").path
    let outcome = try await ChildProcess.run(script, [file.path], timeout: .seconds(300))
    if outcome.status == 77 {
        try Test.cancel("the HAR schema check needs python3-venv and PyPI: \(outcome.errorOutput)")
    }
    #expect(outcome.status == 0, "\(outcome)", sourceLocation: sourceLocation)
}

/// A response's observable parts, for comparing a live answer with its replay.
struct ObservedResponse: Equatable {
    var status: Int
    var headers: [String]
    var body: Data

    init(_ response: Response) {
        status = response.status.code
        headers = response.headerFields.map { "\($0.name.canonicalName): \($0.value)" }
        body = response.body
    }
}

/// `path` (with its query) on the test server at `base`.
func url(_ base: URL, _ path: String) -> URL {
    URL(string: base.absoluteString + "/" + path)!
}
