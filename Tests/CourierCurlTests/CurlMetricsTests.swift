import Courier
import CourierRecording
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@testable import CourierCurl

/// `Response.metrics` from libcurl, against the loopback server with a delay injected per phase:
/// each measured phase holds its delay, a reused connection has no connect phase, redirects are
/// counted, and HAR takes the phases. Each phase is at least its delay and at most the time the
/// caller saw the send take.
@Suite("CurlTransport: per-phase metrics", .timeLimit(.minutes(1)))
struct CurlMetricsTests {

    @Test func aDelayedHeadIsWaitingAndADripIsTheBodyTransfer() async throws {
        try await withTestServer { server in
            let client = Client(transport: CurlTransport())
            let clock = ContinuousClock()
            let start = clock.now
            let delayed = try await client.send(Request(url: server.url("/delay/200")))
            let seen = clock.now - start
            let metrics = delayed.metrics
            #expect(try #require(metrics.waiting) >= .milliseconds(200))
            #expect(try #require(metrics.total) <= seen)
            #expect(try #require(metrics.waiting) <= metrics.total!)
            #expect(metrics.dnsLookup != nil && metrics.connect != nil, "a new connection has both")
            #expect(metrics.tlsHandshake == nil, "plain HTTP has no handshake")
            #expect(metrics.reusedConnection == false)
            #expect(metrics.remoteAddress == "127.0.0.1")
            #expect(metrics.remotePort == server.port)
            #expect(metrics.httpVersion == "1.1")
            #expect(try #require(metrics.total) >= .milliseconds(200))
            #expect(try #require(metrics.responseBytes) > Int64(delayed.body.count))
            #expect(metrics.decodedBodyBytes == Int64(delayed.body.count))

            let dripStart = clock.now
            let dripped = try await client.send(Request(url: server.url("/drip?numbytes=4&duration_ms=300&chunk=1")))
            let dripSeen = clock.now - dripStart
            #expect(dripped.body.count == 4)
            // Four writes, one every 75 ms: the last leaves 225 ms after the head. The body phase
            // alone can be one read if the I/O thread was kept from the socket meanwhile.
            let transfer = try #require(dripped.metrics.bodyTransfer)
            let dripTotal = try #require(dripped.metrics.total)
            #expect(dripTotal >= .milliseconds(200))
            #expect(transfer <= dripTotal && dripTotal <= dripSeen)
            #expect(dripped.metrics.reusedConnection == true)
            #expect(
                dripped.metrics.dnsLookup == nil && dripped.metrics.connect == nil, "a reused connection has neither")
        }
    }

    /// The kernel completes the TCP handshake while the connection waits in the listener's
    /// backlog, so a server slow to accept shows in the wait for the first byte, not the connect.
    @Test func anAcceptDelayIsWaitingNotConnecting() async throws {
        let server = try RawServer(acceptDelay: .milliseconds(200)) { connection, _ in
            connection.answerEveryRequestWithNoContent()
        }
        defer { server.stop() }
        let metrics = try await Client(transport: CurlTransport()).send(Request(url: server.url())).metrics
        #expect(try #require(metrics.total) >= .milliseconds(200))
        // curl stamps the start of sending a moment after the connect ended, which a loaded
        // machine can stretch: the wait holds most of the delay, the connect none of it.
        #expect(try #require(metrics.waiting) >= .milliseconds(150))
        #expect(try #require(metrics.connect) < .milliseconds(150))
        #expect(metrics.reusedConnection == false)
    }

    @Test func aStreamedBodyHasItsTotalsOnceItEnds() async throws {
        try await withTestServer { server in
            let client = Client(transport: CurlTransport())
            let streamed = try await client.stream(Request(url: server.url("/stream-bytes/200000?chunk_size=1000")))
            #expect(streamed.metrics.total == nil, "not over yet")
            #expect(streamed.metrics.waiting != nil)
            let stream = try #require(streamed.bodyStream)
            var count = 0
            for try await chunk in stream { count += chunk.count }
            #expect(count == 200_000)
            let final = try #require(stream.metrics)
            #expect(final.total != nil && final.bodyTransfer != nil)
            #expect(final.decodedBodyBytes == 200_000)
        }
    }

    @Test func aRedirectChainReportsItsHops() async throws {
        try await withTestServer { server in
            let client = Client(transport: CurlTransport())
            let response = try await client.send(Request(url: server.url("/redirect/3")))
            #expect(response.status == .ok)
            #expect(response.metrics.redirectCount == 3)
            #expect(try #require(response.metrics.redirectTime) > .zero)
            #expect(response.history.allSatisfy { $0.metrics.waiting != nil })
        }
    }

    @Test func harEntriesTakeTheMeasuredPhasesAndTheServerAddress() async throws {
        try await withTestServer { server in
            let recorder = HARRecorder()
            let client = Client(transport: CurlTransport(), interceptors: [recorder])
            _ = try await client.send(Request(url: server.url("/delay/100")))
            let entry = try #require(recorder.entries.first)
            #expect(entry.timings.dns >= 0 && entry.timings.connect >= 0)
            #expect(entry.timings.wait >= 100)
            #expect(entry.timings.ssl == -1)
            #expect(entry.serverIPAddress == "127.0.0.1")
            #expect(entry.connection == "127.0.0.1:\(server.port)")
        }
    }

    @Test func explainingPrintsTheTimeline() async throws {
        try await withTestServer { server in
            let (client, recorder) = Client(transport: CurlTransport()).explaining()
            _ = try await client.send(Request(url: server.url("/echo/x")))
            let timeline = try #require(recorder.last?.steps.last?.timeline)
            #expect(timeline.phases.map(\.name).contains("wait"))
            #expect(timeline.reusedConnection == false)
            #expect(recorder.last?.text.contains("(new connection to 127.0.0.1:\(server.port))") == true)
        }
    }
}
