import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie's documentation's examples, sent by the built `courier` to the loopback server's
    /// httpbin routes, read as httpbin's users read them: `args`, `form`, `files`, `json`, `headers`.
    @Suite("HTTPie's examples against httpbin's shape")
    struct CommandLineHTTPBinTests {
        func answer(_ run: CourierRun) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.err)")
        }

        @Test func aQueryParameterIsInArgs() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([":\(server.port)/get", "search==httpie"])
                #expect(try answer(run)["args"] as? NSDictionary == ["search": "httpie"])
            }
        }

        @Test func aPutWithAHeaderAndAFieldIsJSON() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["PUT", ":\(server.port)/put", "X-API-Token:123", "name=John"])
                let body = try answer(run)
                #expect(body["json"] as? NSDictionary == ["name": "John"])
                #expect((body["headers"] as? [String: String])?["X-Api-Token"] == "123")
                #expect((body["headers"] as? [String: String])?["Content-Type"] == "application/json")
            }
        }

        @Test func aFormWithAFileIsFormAndFiles() async throws {
            try await withTestServer { server in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cv-\(UUID()).xml")
                try Data("<cv/>\n".utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let run = try await CourierProcess.run([
                    "-f", "POST", ":\(server.port)/post", "name=John Smith", "cv@\(file.path)",
                ])
                let body = try answer(run)
                #expect(body["form"] as? NSDictionary == ["name": "John Smith"])
                #expect(body["files"] as? NSDictionary == ["cv": "<cv/>\n"])
            }
        }

        @Test func aURLEncodedFormIsForm() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--form", "POST", ":\(server.port)/post", "name=John Smith", "tag=a", "tag=b",
                ])
                #expect(try answer(run)["form"] as? NSDictionary == ["name": "John Smith", "tag": ["a", "b"]])
            }
        }
    }
}
