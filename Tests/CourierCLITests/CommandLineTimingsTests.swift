import Courier
import CourierTestServer
import Foundation
import TestProcesses
import Testing

@testable import CourierCLI

extension CourierExecutableTests {
    /// `--timings` (where the time went, as httpstat shows it) and HTTPie 3.2's `--meta`/`--print m`.
    @Suite("--timings and --meta")
    struct CommandLineTimingsTests {
        @Test func timingsPrintAWaterfallOfTheMeasuredPhasesOnStandardError() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--timings", "-p", "b", ":\(server.port)/delay/150"])
                #expect(run.status == 0, "\(run.err)")
                #expect(
                    run.err.contains(
                        "GET http://127.0.0.1:\(server.port)/delay/150 — new connection to 127.0.0.1:\(server.port), HTTP/1.1"
                    ))
                let wait = try #require(run.errLines.first { $0.hasPrefix("  wait") })
                let milliseconds = try #require(
                    Double(wait.dropFirst(11).prefix(while: { $0 != "m" }).trimmingCharacters(in: .whitespaces)))
                #expect(milliseconds >= 150)
                #expect(wait.contains("█"))
                #expect(run.errLines.contains { $0.hasPrefix("  tls") && $0.hasSuffix("-") })
                #expect(run.errLines.contains { $0.hasPrefix("  total") })
            }
        }

        @Test func metaPrintsTheElapsedTimeAsHTTPieDoes() async throws {
            try await withTestServer { server in
                let meta = try await CourierProcess.run(["--meta", ":\(server.port)/delay/100"])
                #expect(meta.status == 0, "\(meta.err)")
                let line = meta.out.trimmingCharacters(in: .newlines)
                let seconds = Double(line.dropFirst("Elapsed time: ".count).dropLast())
                #expect(line.hasPrefix("Elapsed time: ") && line.hasSuffix("s") && (seconds ?? 0) >= 0.1, "\(line)")
                #expect(line.split(separator: ".").last?.count == 11, "ten decimals and the unit: \(line)")
                let both = try await CourierProcess.run(["--print", "hm", ":\(server.port)/echo/m"])
                #expect(both.out.contains("HTTP/1.1 200 OK"))
                #expect(both.out.contains("\n\nElapsed time: "))
                let refused = try await CourierProcess.run(["--meta", "--print", "h", ":\(server.port)/echo/m"])
                #expect(refused.status == 1)
            }
        }

        @Test func theWaterfallMarksUnmeasuredPhasesAndPlacesEachBarWhereItStarts() {
            var metrics = Courier.ResponseMetrics()
            metrics.dnsLookup = .milliseconds(10)
            metrics.connect = .milliseconds(10)
            metrics.waiting = .milliseconds(60)
            metrics.bodyTransfer = .milliseconds(20)
            metrics.total = .milliseconds(100)
            metrics.reusedConnection = false
            metrics.remoteAddress = "::1"
            metrics.remotePort = 8080
            metrics.httpVersion = "2"
            let request = Courier.Request(url: URL(string: "https://example.com/a")!)
            let text = TimingsWaterfall(metrics: metrics, request: request, width: 10).text
            #expect(
                text == """
                    GET https://example.com/a — new connection to [::1]:8080, HTTP/2
                      queued           -
                      dns        10.0 ms  █
                      connect    10.0 ms   █
                      tls              -
                      send             -
                      wait       60.0 ms    ██████
                      receive    20.0 ms          ██
                      total     100.0 ms

                    """)
        }
    }
}
