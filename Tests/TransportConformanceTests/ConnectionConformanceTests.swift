import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// Both transports' connection options against the test server's own count of accepted and open
/// connections: the per-host and total limits (requests held at a `RequestGate`, so the number in
/// flight stays put while the test counts), idle connections kept, the idle timeout, and the
/// default `User-Agent`. Where an option exists on one transport only, its test runs on that one.
@Suite("Transport conformance: connections", .timeLimit(.minutes(2)))
struct ConnectionConformanceTests {
    /// Sends `requests` at once and lets them through `gate` one at a time, each time once the
    /// client has as many held as `limit` allows (or all that remain), so a client that broke its
    /// limit would show it in `gate.peak`; returns the responses, in no particular order.
    private func sendHeld(
        _ requests: [Request], through gate: RequestGate, limit: Int, client: Client
    ) async throws -> [Response] {
        try await withThrowingTaskGroup(of: Response.self) { group in
            for request in requests {
                group.addTask { try await client.send(request) }
            }
            do {
                for released in 0..<requests.count {
                    try await gate.waitUntilHeld(min(limit, requests.count - released))
                    gate.release()
                }
            } catch {
                gate.open()
                throw error
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Returns once `condition` holds; fails after a minute, long enough for any scheduling.
    private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never happened: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func sixRequestsToOneHostShareTheTwoConnectionsAPerHostLimitOfTwoAllows(transport: TransportUnderTest) async throws
    {
        let gate = RequestGate()
        var settings = TransportSettings()
        settings.maxConnectionsPerHost = 2
        try await transport.withClient(settings: settings, routes: Route.defaults + [gate.route]) { client, server in
            defer { gate.open() }
            let requests = try (0..<6).map { try server.request("/gate/\($0)") }
            let responses = try await sendHeld(requests, through: gate, limit: 2, client: client)
            #expect(responses.count == 6 && responses.allSatisfy { $0.status == .ok })
            #expect(gate.peak == 2)
            #expect(server.acceptedConnectionCount == 2)
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .connectionLimits))
    func aTotalLimitOfTwoHoldsAcrossTwoHosts(transport: TransportUnderTest) async throws {
        let gate = RequestGate()
        let routes = Route.defaults + [gate.route]
        var settings = TransportSettings()
        settings.maxConnections = 2
        try await transport.withClient(settings: settings, routes: routes) { client, first in
            try await withTestServer(routes: routes) { second in
                defer { gate.open() }
                let requests = try (0..<6).map { try ($0.isMultiple(of: 2) ? first : second).request("/gate/\($0)") }
                let responses = try await sendHeld(requests, through: gate, limit: 2, client: client)
                #expect(responses.count == 6 && responses.allSatisfy { $0.status == .ok })
                #expect(gate.peak == 2, "never more than two requests, so two connections, busy across both hosts")
                #expect(first.receivedRequests.count == 3)
                #expect(second.receivedRequests.count == 3)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .connectionLimits))
    func aRequestWaitingForTheTotalLimitIsCancelledWithoutBeingSent(transport: TransportUnderTest) async throws {
        let gate = RequestGate()
        var settings = TransportSettings()
        settings.maxConnections = 1
        try await transport.withClient(settings: settings, routes: Route.defaults + [gate.route]) { client, server in
            defer { gate.open() }
            let holding = Task { try await client.send(try server.request("/gate/holding")) }
            try await gate.waitUntilHeld(1)
            let waiting = Task { try await client.send(try server.request("/echo/waiting")) }
            waiting.cancel()
            let error = await courierError { try await waiting.value }
            #expect(error?.code == .cancelled)
            gate.open()
            #expect(try await holding.value.status == .ok)
            #expect(server.receivedRequests.map(\.path) == ["/gate/holding"])
        }
    }

    /// AsyncHTTPClient keeps idle connections until its idle timeout, whatever their number: it has no `maxIdleConnections`.
    @Test(arguments: [TransportUnderTest.curl])
    func idleConnectionsBeyondMaxIdleConnectionsAreClosed(transport: TransportUnderTest) async throws {
        let gate = RequestGate()
        var settings = TransportSettings()
        settings.maxIdleConnections = 1
        try await transport.withClient(settings: settings, routes: Route.defaults + [gate.route]) { client, server in
            defer { gate.open() }
            let requests = try (0..<4).map { try server.request("/gate/\($0)") }
            _ = try await sendHeld(requests, through: gate, limit: 4, client: client)
            #expect(gate.peak == 4)
            #expect(server.acceptedConnectionCount == 4)
            try await waitUntil("three of the four connections closed") { server.openConnectionCount == 1 }
            for path in ["/echo/one", "/echo/two", "/echo/three"] {
                #expect(try await client.send(try server.request(path)).status == .ok)
            }
            #expect(server.acceptedConnectionCount == 4, "the one connection kept is reused")
            #expect(server.openConnectionCount == 1)
        }
    }

    /// curl closes a connection past its idle timeout when it would reuse it (CurlConnectionTests
    /// pins that down); AsyncHTTPClient closes it when the timeout passes, which the server sees.
    @Test(arguments: [TransportUnderTest.asyncHTTPClient])
    func aConnectionIdleLongerThanTheIdleTimeoutIsClosedAndNotReused(transport: TransportUnderTest) async throws {
        var settings = TransportSettings()
        settings.idleTimeout = .milliseconds(300)
        try await transport.withClient(settings: settings) { client, server in
            #expect(try await client.send(try server.request("/echo/one")).status == .ok)
            #expect(server.acceptedConnectionCount == 1)
            try await waitUntil("the idle connection closed") { server.openConnectionCount == 0 }
            #expect(try await client.send(try server.request("/echo/two")).status == .ok)
            #expect(server.acceptedConnectionCount == 2)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theConfiguredUserAgentIsSentOnlyWhenTheRequestHasNone(transport: TransportUnderTest) async throws {
        var settings = TransportSettings()
        settings.userAgent = "courier-conformance/1.0"
        try await transport.withClient(settings: settings) { client, server in
            let defaulted = try echoed(try await client.send(try server.request("/echo/default")))
            #expect(userAgents(defaulted) == ["courier-conformance/1.0"])
            let own = try echoed(
                try await client.send(try server.request("/echo/own") { Header.userAgent.setValue("mine/2.0") }))
            #expect(userAgents(own) == ["mine/2.0"])
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .noDefaultUserAgent))
    func noUserAgentIsSentWhenNoneIsConfigured(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let echo = try echoed(try await client.send(try server.request("/echo")))
            #expect(userAgents(echo) == [])
        }
    }

    private func userAgents(_ echo: EchoedRequest) -> [String] {
        echo.headers.filter { $0.first?.lowercased() == "user-agent" }.map { $0.last ?? "" }
    }
}
