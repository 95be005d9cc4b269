import Courier
import CourierTestServer
import Foundation
import TestProcesses
import Testing

@testable import CourierCurl

@Suite("CurlTransport: throughput", .timeLimit(.minutes(2)))
struct CurlThroughputTests {
    /// Sequential keep-alive GETs; prints requests per second. Off unless `COURIER_MEASURE=1`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COURIER_MEASURE"] == "1"))
    func sequentialGetsPerSecond() async throws {
        try await withCurl { server, transport in
            let request = Request(url: server.url("/status/204"))
            for _ in 0..<50 { _ = try await transport.fetch(request) }
            let count = 2000
            let start = ContinuousClock.now
            for _ in 0..<count { _ = try await transport.fetch(request) }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("CurlTransport: \(count) sequential GETs in \(elapsed): \(Int(Double(count) / seconds)) req/s")
            #expect(transport.connectionsOpened == 1)

            let cliElapsed = try await runCurlCLI(server.baseURL.absoluteString + "/status/204?n=[1-\(count)]")
            let cliSeconds = Double(cliElapsed.components.seconds) + Double(cliElapsed.components.attoseconds) / 1e18
            #expect(server.receivedRequests.count == 2 * count + 50)
            print("curl CLI, same server: \(count) sequential GETs: \(Int(Double(count) / cliSeconds)) req/s")
        }
    }

    /// The same against a minimal blocking server, so the server's own cost hardly counts.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COURIER_MEASURE"] == "1"))
    func sequentialGetsPerSecondAgainstAMinimalServer() async throws {
        let server = try RawServer { connection, _ in connection.answerEveryRequestWithNoContent() }
        defer { server.stop() }
        let transport = CurlTransport()
        let request = Request(url: server.url("/"))
        for _ in 0..<50 { _ = try await transport.fetch(request) }
        let count = 5000
        let start = ContinuousClock.now
        for _ in 0..<count { _ = try await transport.fetch(request) }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("CurlTransport, minimal server: \(count) sequential GETs: \(Int(Double(count) / seconds)) req/s")
        #expect(transport.connectionsOpened == 1)
        await transport.shutdown()
        let cli = try await runCurlCLI(server.url("/").absoluteString + "?n=[1-\(count)]")
        let cliSeconds = Double(cli.components.seconds) + Double(cli.components.attoseconds) / 1e18
        print("curl CLI, minimal server: \(count) sequential GETs: \(Int(Double(count) / cliSeconds)) req/s")
    }

    /// Runs the `curl` command line on a globbed URL (one kept-alive connection) and returns how long it took.
    private func runCurlCLI(_ globbedURL: String) async throws -> Duration {
        let start = ContinuousClock.now
        _ = try await ChildProcess.run("curl", ["-s", "-o", "/dev/null", globbedURL])
        return ContinuousClock.now - start
    }
}
