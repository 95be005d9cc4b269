import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// `courier --har FILE` on the built tool: the exchange as sent, in a HAR 1.2 file that the
    /// schema accepts, secrets redacted; a failed exchange is recorded too.
    @Suite("--har")
    struct CommandLineHARTests {
        func withArchiveFile<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).har")
            defer { try? FileManager.default.removeItem(at: file) }
            return try await body(file)
        }

        func entries(in file: URL) throws -> [[String: Any]] {
            let archive = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let log = try #require(archive["log"] as? [String: Any])
            #expect(log["version"] as? String == "1.2")
            return try #require(log["entries"] as? [[String: Any]])
        }

        func headers(_ message: [String: Any]?) -> [String: String] {
            let list = message?["headers"] as? [[String: String]] ?? []
            return Dictionary(list.map { ($0["name"]?.lowercased() ?? "", $0["value"] ?? "") }) { first, _ in first }
        }

        @Test func theExchangeIsRecordedAsSentWithCredentialsRedacted() async throws {
            try await withTestServer { server in
                try await withArchiveFile { file in
                    let run = try await CourierProcess.run([
                        "--har", file.path, "-a", "ada:secret", ":\(server.port)/anything", "a=1",
                    ])
                    #expect(run.status == 0, "\(run.err)")
                    let recorded = try entries(in: file)
                    #expect(recorded.count == 1)
                    let request = recorded.first?["request"] as? [String: Any]
                    let response = recorded.first?["response"] as? [String: Any]
                    #expect(request?["method"] as? String == "POST")
                    #expect(request?["url"] as? String == "http://127.0.0.1:\(server.port)/anything")
                    #expect((request?["postData"] as? [String: Any])?["text"] as? String == #"{"a": "1"}"#)
                    #expect(headers(request)["authorization"] == "<redacted>")
                    #expect(response?["status"] as? Int == 200)
                    #expect(
                        ((response?["content"] as? [String: Any])?["text"] as? String)?.contains(#""path":"/anything""#)
                            == true)
                    try await expectValidHAR(file)
                }
            }
        }

        @Test func eachRetryIsAnEntryAndAFailureIsRecordedToo() async throws {
            try await withTestServer { server in
                try await withArchiveFile { file in
                    let run = try await CourierProcess.run([
                        "--har", file.path, "--retry", "2", ":\(server.port)/flaky/har-\(UUID())/1",
                    ])
                    #expect(run.status == 0, "\(run.err)")
                    #expect(
                        try entries(in: file).compactMap { ($0["response"] as? [String: Any])?["status"] as? Int } == [
                            503, 200,
                        ])
                }
                try await withArchiveFile { file in
                    let run = try await CourierProcess.run([
                        "--har", file.path, "--timeout", "0.2", ":\(server.port)/delay/5000",
                    ])
                    #expect(run.status == 2)
                    let failed = try entries(in: file).first?["response"] as? [String: Any]
                    #expect(failed?["status"] as? Int == 0)
                    #expect((failed?["comment"] as? String)?.isEmpty == false)
                }
            }
        }

        @Test func harWithOfflineIsAUsageError() async throws {
            let run = try await CourierProcess.run(["--har", "x.har", "--offline", "example.org"])
            #expect(run.status == 1)
            #expect(run.err.contains("--har records what is sent; --offline and --curl send nothing"), "\(run.err)")
        }
    }
}

/// Checks `file` against the HAR 1.2 JSON schema with scripts/validate-har, as the recorder's own
/// tests do; cancelled, saying why, only when no venv or package can be had on this machine.
private func expectValidHAR(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let script = CourierExecutableTests.CommandLineHARTests.repository.appendingPathComponent("scripts/validate-har")
        .path
    let outcome = try await ChildProcess.run(script, [file.path], timeout: .seconds(300))
    if outcome.status == 77 {
        try Test.cancel("the HAR schema check needs python3-venv and PyPI: \(outcome.errorOutput)")
    }
    #expect(outcome.status == 0, "\(outcome)", sourceLocation: sourceLocation)
}

extension CourierExecutableTests.CommandLineHARTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
