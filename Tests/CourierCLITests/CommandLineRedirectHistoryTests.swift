import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie 3.2's `--all` and `--history-print` with `--follow` on the built `courier`: every
    /// redirect exchange is printed before the final one, in the order it happened.
    @Suite("--all and --history-print")
    struct CommandLineRedirectHistoryTests {
        func statusLines(_ run: CourierRun) -> [Substring] {
            run.out.split(separator: "\n").filter { $0.hasPrefix("HTTP/1.1 ") }
        }

        @Test func allPrintsEachRedirectBeforeTheFinalExchange() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--follow", "--all", "--print", "h", ":\(server.port)/redirect/2",
                ])
                #expect(run.status == 0, "\(run.err)")
                #expect(
                    statusLines(run) == ["HTTP/1.1 302 Found", "HTTP/1.1 302 Found", "HTTP/1.1 200 OK"], "\(run.out)")
                #expect(run.out.components(separatedBy: "\nLocation: ").count == 3)
            }
        }

        @Test func withoutAllOnlyTheFinalExchangeIsPrinted() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--follow", "--print", "h", ":\(server.port)/redirect/2"])
                #expect(run.status == 0, "\(run.err)")
                #expect(statusLines(run) == ["HTTP/1.1 200 OK"])
            }
        }

        @Test func allPrintsTheRedirectBodiesAsTheFinalOneWhenPiped() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--follow", "--all", ":\(server.port)/redirect/2"])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.out.hasPrefix("redirecting to 1\n\n\nredirecting to ../echo/get\n\n\n{"), "\(run.out)")
                let json = try #require(run.out.range(of: "{"))
                let echoed = try JSONDecoder().decode(EchoedRequest.self, from: Data(run.out[json.lowerBound...].utf8))
                #expect(echoed.path == "/echo/get")
            }
        }

        @Test func historyPrintChoosesWhatIsPrintedOfTheRedirects() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--follow", "--all", "--history-print", "H", "--print", "hb", ":\(server.port)/redirect/2",
                ])
                #expect(run.status == 0, "\(run.err)")
                let requestLines = run.out.split(separator: "\n").filter { $0.hasPrefix("GET ") }
                #expect(requestLines == ["GET /redirect/2 HTTP/1.1", "GET /redirect/1 HTTP/1.1"], "\(run.out)")
                #expect(statusLines(run) == ["HTTP/1.1 200 OK"])
                #expect(!run.out.contains("redirecting to"))
                #expect(run.out.contains(#""path": "/echo/get""#) || run.out.contains(#""path":"/echo/get""#))

                let short = try await CourierProcess.run([
                    "--follow", "--all", "-P", "h", "--print", "", ":\(server.port)/redirect/1",
                ])
                #expect(statusLines(short) == ["HTTP/1.1 302 Found"])
            }
        }

        @Test func historyPrintWithoutAllIsAUsageError() async throws {
            let run = try await CourierProcess.run(["--follow", "--history-print", "h", "example.org"])
            #expect(run.status == 1)
            #expect(
                run.err.contains("--history-print chooses what --all prints of each redirect; give --all with it"),
                "\(run.err)")
        }

        @Test func checkStatusLooksAtTheFinalResponseOnly() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--follow", "--all", "--check-status", "--print", "h", ":\(server.port)/redirect/1",
                ])
                #expect(run.status == 0, "\(run.err)")
                #expect(statusLines(run) == ["HTTP/1.1 302 Found", "HTTP/1.1 200 OK"])
            }
        }
    }
}
