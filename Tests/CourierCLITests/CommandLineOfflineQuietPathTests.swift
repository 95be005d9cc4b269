import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie 3.2's `--offline`, `--quiet` and `--path-as-is` on the built `courier`, checked by
    /// what the loopback server received (or that it received nothing) and what was printed.
    @Suite("offline, quiet and path-as-is")
    struct CommandLineOfflineQuietPathTests {
        @Test func offlinePrintsTheRequestHeadAndBodyAndSendsNothing() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--offline", ":\(server.port)/post", "hello=offline"])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.out.hasPrefix("POST /post HTTP/1.1\n"), "\(run.out)")
                #expect(run.out.contains("\nHost: 127.0.0.1:\(server.port)\n"))
                #expect(run.out.contains("\nContent-Type: application/json\n"))
                #expect(run.out.contains("\nContent-Length: 20\n"))
                #expect(run.out.hasSuffix("\n\n{\"hello\": \"offline\"}\n"), "\(run.out)")
                #expect(run.err.isEmpty)
                #expect(server.receivedRequests.isEmpty)
            }
        }

        @Test func offlinePrintsWhatPrintSelectsWithCredentialsAndTransferOptions() async throws {
            try await withTestServer { server in
                let head = try await CourierProcess.run([
                    "--offline", "--print", "H", "-a", "ada:secret", ":\(server.port)/anything", "a=1",
                ])
                #expect(head.status == 0, "\(head.err)")
                #expect(head.out.contains("\nAuthorization: Basic YWRhOnNlY3JldA==\n"))
                #expect(!head.out.contains(#"{"a": "1"}"#))

                let body = try await CourierProcess.run([
                    "--offline", "--print", "B", ":\(server.port)/anything", "a=1",
                ])
                #expect(body.out == "{\"a\": \"1\"}\n")

                let chunked = try await CourierProcess.run([
                    "--offline", "--chunked", ":\(server.port)/anything", "a=1",
                ])
                #expect(chunked.out.contains("\nTransfer-Encoding: chunked\n"))
                #expect(!chunked.out.contains("Content-Length"))

                let raw = try await CourierProcess.run(["--offline", "--raw", "verbatim", ":\(server.port)/anything"])
                #expect(raw.out.hasSuffix("\n\nverbatim\n"))
                #expect(server.receivedRequests.isEmpty)
            }
        }

        @Test func offlineWithDownloadOrCurlIsAUsageError() async throws {
            let download = try await CourierProcess.run(["--offline", "--download", "example.org"])
            #expect(download.status == 1)
            #expect(download.err.contains("--offline sends nothing, so it cannot be used with --download"))
            let curl = try await CourierProcess.run(["--offline", "--curl", "example.org"])
            #expect(curl.status == 1)
            #expect(curl.err.contains("--offline and --curl both print instead of sending"))
        }

        @Test func quietPrintsNothingButSendsTheRequest() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "-q", "-v", "--print", "HBhb", ":\(server.port)/anything", "a=1",
                ])
                #expect(run.status == 0)
                #expect(run.out.isEmpty)
                #expect(run.err.isEmpty)
                #expect(server.receivedRequests.count == 1)
                #expect(
                    server.receivedRequests.first.map { String(decoding: $0.body, as: UTF8.self) } == #"{"a": "1"}"#)
            }
        }

        @Test func quietKeepsWarningsAndErrorsAndDoubleQuietOnlyErrors() async throws {
            try await withTestServer { server in
                let once = try await CourierProcess.run(["-q", "--check-status", ":\(server.port)/status/404"])
                #expect(once.status == 4)
                #expect(once.out.isEmpty)
                #expect(once.err == "courier: warning: HTTP 404 Not Found\n")

                let twice = try await CourierProcess.run(["-qq", "--check-status", ":\(server.port)/status/404"])
                #expect(twice.status == 4)
                #expect(twice.err.isEmpty)

                let error = try await CourierProcess.run(["-qq", ":\(server.port)/anything", "tags[]=a", "tags[x]=b"])
                #expect(error.status == 1)
                #expect(error.errLines.count == 1)
                #expect(error.err.hasPrefix("courier: error: "))
            }
        }

        @Test func quietStillWritesTheOutputFile() async throws {
            try await withTestServer { server in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-quiet-\(UUID()).json")
                defer { try? FileManager.default.removeItem(at: file) }
                let run = try await CourierProcess.run(["-q", "--output", file.path, ":\(server.port)/anything"])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.out.isEmpty)
                let saved = try JSONDecoder().decode(EchoedRequest.self, from: Data(contentsOf: file))
                #expect(saved.path == "/anything")
            }
        }

        @Test(arguments: ["curl", "ahc"])
        func dotSegmentsAreSquashedUnlessPathAsIs(transport: String) async throws {
            try await withTestServer { server in
                let squashed = try await CourierProcess.run([
                    "--transport", transport, ":\(server.port)/echo/a/../b/./c",
                ])
                #expect(squashed.status == 0, "\(squashed.err)")
                #expect(try squashed.echoed().path == "/echo/b/c")

                let asIs = try await CourierProcess.run([
                    "--path-as-is", "--transport", transport, ":\(server.port)/echo/a/../b/./c",
                ])
                #expect(asIs.status == 0, "\(asIs.err)")
                #expect(try asIs.echoed().path == "/echo/a/../b/./c")
            }
        }

        @Test func pathAsIsIsWhatOfflinePrints() async throws {
            let squashed = try await CourierProcess.run(["--offline", "--print", "H", "example.org/../../etc/passwd"])
            #expect(squashed.out.hasPrefix("GET /etc/passwd HTTP/1.1\n"), "\(squashed.out)")
            let asIs = try await CourierProcess.run([
                "--offline", "--print", "H", "--path-as-is", "example.org/../../etc/passwd",
            ])
            #expect(asIs.out.hasPrefix("GET /../../etc/passwd HTTP/1.1\n"), "\(asIs.out)")
        }
    }
}
