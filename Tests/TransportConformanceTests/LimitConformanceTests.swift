import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// Each bound in `Limits` holds at its boundary: exactly the limit passes, one more fails.
@Suite("Transport conformance: limits", .timeLimit(.minutes(1)))
struct LimitConformanceTests {
    /// `/many-headers/{n}`: a response with `n` header lines besides those the server adds itself.
    static let manyHeaders = Route("/many-headers/{n}") { request in
        let count = Int(request.parameters["n"] ?? "") ?? 0
        return TestServerResponse(headers: (0..<count).map { ("X-H\($0)", "v") }, body: Data())
    }

    /// `/big-head/{n}`: a complete response with `n` header lines of 1000 bytes each, on a kept-alive
    /// connection, so that only the head's size can fail the exchange.
    static let bigHead = Route("/big-head/{n}") { request in
        let count = Int(request.parameters["n"] ?? "") ?? 0
        return TestServerResponse(
            headers: (0..<count).map { ("X-Pad-\($0)", String(repeating: "a", count: 990)) }, body: Data())
    }

    @Test(arguments: TransportUnderTest.all)
    func headerCountAtTheLimitPassesAndOneMoreFails(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.limits.maxHeaderCount = 40
        try await transport.withClient(configuration: configuration, routes: [Self.manyHeaders] + Route.defaults) {
            client, server in
            let added = try await client.send(try server.request("/many-headers/0")).headerFields.count
            let atLimit = try await client.send(try server.request("/many-headers/\(40 - added)"))
            #expect(atLimit.headerFields.count == 40)
            let error = await courierError { try await client.send(try server.request("/many-headers/\(41 - added)")) }
            #expect(error?.code == .limitExceeded, "\(String(describing: error))")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func headerBytesPastTheLimitFail(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.limits.maxHeaderBytes = 16 * 1024
        try await transport.withClient(configuration: configuration, routes: [Self.bigHead] + Route.defaults) {
            client, server in
            let small = try await client.send(try server.request("/big-head/8") { Timeout(30) })
            #expect(small.status == .ok)
            let error = await courierError { try await client.send(try server.request("/big-head/40") { Timeout(30) }) }
            #expect(error?.code == .limitExceeded, "\(String(describing: error))")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func bodyBytesAtTheLimitPassAndOneMoreFails(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.limits.maxBodyBytes = 100_000
        try await transport.withClient(configuration: configuration) { client, server in
            let atLimit = try await client.send(try server.request("/bytes/100000"))
            #expect(atLimit.body.count == 100_000)
            let error = await courierError { try await client.send(try server.request("/bytes/100001")) }
            #expect(error?.code == .limitExceeded)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aDecompressionBombIsStopped(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let started = ContinuousClock.now
            let error = await courierError {
                try await client.send(try server.request("/gzip-bomb?inflated=200000000"))
            }
            #expect(error?.code == .limitExceeded, "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(30), "stopped at the limit, not after inflating it all")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func redirectsAtTheLimitAreFollowedAndOneMoreFails(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.limits.maxRedirects = 3
        try await transport.withClient(configuration: configuration) { client, server in
            let followed = try await client.send(try server.request("/redirect/3"))
            #expect(followed.status == .ok)
            let error = await courierError { try await client.send(try server.request("/redirect/4")) }
            #expect(error?.code == .tooManyRedirects)
        }
    }
}
