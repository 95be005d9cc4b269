import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// `Response.metrics` on every transport against delays injected per phase: each phase a
/// transport measures holds its delay, and each it does not is `nil`, never 0 (the Transports
/// article's table says which is which). Each phase is at least its injected delay and at most
/// the time the caller saw the send take, however busy the machine.
@Suite("Transport conformance: per-phase metrics", .timeLimit(.minutes(1)))
struct MetricsConformanceTests {

    /// Whether `transport` measures the wait for the first byte (the table's "wait" row).
    static func measuresWaiting(_ transport: TransportUnderTest) -> Bool { transport.description != "URLSession" }

    @Test(arguments: TransportUnderTest.all)
    func aDelayedHeadIsWaitingAndADripIsTheBodyTransfer(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let clock = ContinuousClock()
            let start = clock.now
            let delayed = try await client.send(try server.request("/delay/200"))
            let seen = clock.now - start
            let total = try #require(delayed.metrics.total)
            #expect(total >= .milliseconds(200))
            #expect(total <= seen)
            if Self.measuresWaiting(transport) {
                let waiting = try #require(delayed.metrics.waiting)
                #expect(waiting >= .milliseconds(200) && waiting <= total)
            } else {
                #expect(delayed.metrics.waiting == nil)
            }
            let dripStart = clock.now
            let dripped = try await client.send(try server.request("/drip?numbytes=4&duration_ms=300&chunk=1"))
            let dripSeen = clock.now - dripStart
            #expect(dripped.body.count == 4)
            // The last byte leaves the server 225 ms after the head, so the total holds it whatever
            // the load. The body phase itself can be as short as one read: an event loop kept busy
            // elsewhere may find the head and the whole body waiting together.
            let transfer = try #require(dripped.metrics.bodyTransfer)
            let dripTotal = try #require(dripped.metrics.total)
            #expect(dripTotal >= .milliseconds(200), "four writes 75 ms apart")
            #expect(transfer <= dripTotal && dripTotal <= dripSeen)
            #expect(dripped.metrics.decodedBodyBytes == 4)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func whatATransportCannotSeeIsNilNotZero(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let metrics = try await client.send(try server.request("/echo/nil")).metrics
            for (name, duration) in metrics.phases {
                #expect(duration.map { $0 >= .zero } ?? true, "\(name)")
            }
            if transport.description != "curl" {
                #expect(metrics.dnsLookup == nil && metrics.connect == nil && metrics.tlsHandshake == nil)
                #expect(metrics.remoteAddress == nil && metrics.reusedConnection == nil)
            } else {
                #expect(metrics.dnsLookup != nil && metrics.reusedConnection == false)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aRedirectChainReportsItsHopsOnEveryTransport(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let response = try await client.send(try server.request("/redirect/2"))
            #expect(response.metrics.redirectCount == 2)
            #expect(try #require(response.metrics.redirectTime) > .zero)
            #expect(response.metrics.total != nil)
        }
    }
}
