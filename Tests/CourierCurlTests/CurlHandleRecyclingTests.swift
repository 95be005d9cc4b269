import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@testable import CourierCurl

/// Easy handles are recycled between transfers and keep the options that do not change; what
/// each transfer sets must still be its own.
///
/// Not among the suites `scripts/thread-sanitizer` runs: it checks options, not threads.
@Suite("CurlTransport: recycled easy handles", .timeLimit(.minutes(1)))
struct CurlHandleRecyclingTests {
    /// Easy handles are recycled and keep the timeouts their last transfer set, setting them again
    /// only when they change: each request must still get its own, in every order.
    @Test func aRecycledHandleTakesEachRequestsOwnTimeout() async throws {
        try await withCurl { server, transport in
            let slow = server.url("/delay/1500")
            let short = await courierError {
                _ = try await transport.fetch(Request(url: slow, timeout: .milliseconds(300)))
            }
            #expect(short?.code == .timedOut)
            let unbounded = try await transport.fetch(Request(url: slow))
            #expect(unbounded.status == .ok, "no timeout after a short one")
            let shortAgain = await courierError {
                _ = try await transport.fetch(Request(url: slow, timeout: .milliseconds(300)))
            }
            #expect(shortAgain?.code == .timedOut, "a short timeout after none")
            let long = try await transport.fetch(Request(url: slow, timeout: .seconds(30)))
            #expect(long.status == .ok, "a long timeout after a short one")
        }
    }
}
