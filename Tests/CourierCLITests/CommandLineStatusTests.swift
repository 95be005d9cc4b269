import Courier
import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// Exit statuses, error lines, downloads and the `serve` and `demo` subcommands of the built executable.
    @Suite("status, errors, downloads, subcommands")
    struct CommandLineStatusTests {
        @Test(arguments: [(302, Int32(3)), (404, 4), (500, 5), (503, 5), (204, 0)])
        func checkStatusMapsTheStatusClassToTheExitStatus(code: Int, expected: Int32) async throws {
            try await withTestServer { server in
                let checked = try await CourierProcess.run(["--check-status", ":\(server.port)/status/\(code)"])
                #expect(checked.status == expected)
                #expect(
                    checked.errLines
                        == (expected == 0 ? [] : ["courier: warning: HTTP \(code) \(checked.warningReason(code))"]))
                let unchecked = try await CourierProcess.run([":\(server.port)/status/\(code)"])
                #expect(unchecked.status == 0)
            }
        }

        @Test func malformedItemIsOneErrorLineAndStatusOne() async throws {
            try await withTestServer { server in
                for arguments in [
                    [":\(server.port)/anything", "notanitem"], [":\(server.port)/anything", "n:={bad"],
                    [":\(server.port)/anything", "Bad Header:x"], ["--pretty", "loud", ":\(server.port)/"],
                    ["--form", "--json", ":\(server.port)/"], ["-p", "Hz", ":\(server.port)/"], [],
                ] {
                    let run = try await CourierProcess.run(arguments)
                    #expect(run.status == 1, "\(arguments)")
                    #expect(run.errLines.count == 1, "\(arguments): \(run.err)")
                    #expect(run.err.hasPrefix("courier: error: "), "\(arguments): \(run.err)")
                    #expect(run.out.isEmpty)
                }
                #expect(server.receivedRequests.isEmpty)
            }
        }

        /// Port 1 on the loopback interface, as the transport conformance tests use: privileged, and nothing listens there.
        @Test(arguments: ["curl", "ahc"])
        func unreachablePortIsOneErrorLineAndStatusOne(transport: String) async throws {
            let run = try await CourierProcess.run(["--transport", transport, "--timeout", "20", ":1/anything"])
            #expect(run.status == 1)
            #expect(run.errLines.count == 1, "\(run.err)")
            #expect(run.err.hasPrefix("courier: error: "))
            #expect(run.err.contains("http://127.0.0.1:1/anything"))
            #expect(run.out.isEmpty)
        }

        @Test func timeoutIsStatusTwo() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--timeout", "0.3", ":\(server.port)/delay/60000"])
                #expect(run.status == 2)
                #expect(run.errLines.count == 1, "\(run.err)")
            }
        }

        @Test func downloadStreamsToTheFileWithoutProgressWhenPiped() async throws {
            try await withTestServer { server in
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "courier-download-\(UUID())")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let count = 3 * 1024 * 1024 + 17
                let named = try await CourierProcess.run(
                    ["--download", ":\(server.port)/bytes/\(count)"], directory: directory)
                #expect(named.status == 0, "\(named.err)")
                #expect(named.out.isEmpty)
                #expect(named.err.isEmpty)
                let saved = try Data(contentsOf: directory.appendingPathComponent(String(count)))
                #expect(saved.count == count)
                #expect(CountingBytesStream.matches(saved, at: 0))

                let output = directory.appendingPathComponent("chosen.bin")
                let chosen = try await CourierProcess.run(["-d", "-o", output.path, ":\(server.port)/bytes/1000"])
                #expect(chosen.status == 0)
                #expect(try Data(contentsOf: output).count == 1000)

                let missing = try await CourierProcess.run([
                    "-d", "-o", directory.appendingPathComponent("none").path, ":\(server.port)/status/404",
                ])
                #expect(missing.status == 4)
                #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("none").path))
            }
        }

        @Test func helpListsOptionsExamplesAndExitStatuses() async throws {
            let run = try await CourierProcess.run(["--help"])
            #expect(run.status == 0)
            for text in [
                "--print", "--pretty", "--download", "--curl", "--timeout", "--auth", "--bearer", "--follow",
                "--max-redirects", "--transport", "--check-status", "--form", "--json", "--ignore-stdin",
                "--retry", "--verbose", "--explain", "--explain-json", "--plugin", "PIPELINE",
                "--offline", "--raw", "--multipart", "--boundary", "--chunked", "--compress", "--path-as-is", "--quiet",
                "--stream", "--all", "--history-print", "--session", "--session-read-only", "config.json", "--har",
                "EXAMPLES:", "EXIT STATUS:", "name:=json", "serve", "demo",
            ] {
                #expect(run.out.contains(text), "\(text)")
            }
        }

        @Test func serveAnswersUntilInterrupted() async throws {
            let serve = try CourierProcess.start(["serve"])
            var port: Int?
            for _ in 0..<300 where port == nil {
                try await Task.sleep(for: .milliseconds(100))
                let banner = serve.output()
                if let range = banner.range(of: "http://127.0.0.1:") {
                    port = Int(banner[range.upperBound...].prefix { $0.isNumber })
                }
            }
            guard let served = port else {
                try await serve.stop(with: SIGKILL)
                Issue.record("serve printed no URL")
                return
            }
            let run = try await CourierProcess.run(["--check-status", ":\(served)/anything"])
            #expect(run.status == 0)
            #expect(try await serve.stop(with: SIGINT) == 0)
        }

        @Test func demoRunsOffline() async throws {
            let run = try await CourierProcess.run(["demo"])
            #expect(run.status == 0, "\(run.err)")
            #expect(!run.err.contains("error"))
            #expect(run.out.contains("$ courier -p Hhb :"))
            #expect(run.out.contains("[StampRequestID] added X-Request-ID: "))
            #expect(run.out.contains("X-Request-ID: req-"))
            #expect(run.out.contains("(exit status 4)"))
            #expect(run.out.contains("curl 'http://127.0.0.1:"))
        }
    }
}

extension CourierRun {
    /// The reason phrase `courier` prints for `code`.
    func warningReason(_ code: Int) -> String {
        [302: "Found", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"][code] ?? ""
    }
}
