import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("Transport conformance: redirects", .timeLimit(.minutes(1)))
struct RedirectConformanceTests {
    @Test(arguments: TransportUnderTest.all)
    func relativeAndAbsoluteChainsEndAtTheTarget(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let relative = try await client.send(try server.request("/redirect/3"))
            #expect(relative.status == .ok)
            #expect(relative.request.url.path == "/echo/get")
            let absolute = try await client.send(try server.request("/absolute-redirect/2"))
            #expect(absolute.status == .ok)
            #expect(absolute.request.url.path == "/echo/get")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func historyHoldsEachRedirectWithItsRequestAndBody(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let response = try await client.send(try server.request("/redirect/2?status=307"))
            #expect(response.status == .ok)
            #expect(response.history.map(\.status.code) == [307, 307])
            #expect(response.history.map(\.request.url.path) == ["/redirect/2", "/redirect/1"])
            #expect(
                response.history.map(\.text) == [
                    "redirecting to 1?status=307\n", "redirecting to ../echo/get?status=307\n",
                ])
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aRedirectChainTravelsOneConnection(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let response = try await client.send(try server.request("/redirect/3"))
            #expect(response.status == .ok)
            #expect(server.acceptedConnectionCount == 1, "each redirect's body is read, so its connection is reused")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aLoopEndsInTooManyRedirects(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let error = await courierError { try await client.send(try server.request("/redirect-loop")) }
            #expect(error?.code == .tooManyRedirects)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func seeOtherAfterAPostFetchesWithGet(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let request = try server.request("/redirect-to?url=/echo/result&status=303") {
                Method.POST
                RequestBody.string("form")
            }
            let echo = try echoed(try await client.send(request))
            #expect(echo.method == "GET")
            #expect(echo.bodyLength == 0)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aPermanentRedirectResendsMethodAndBody(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let request = try server.request("/redirect-to?url=/echo/moved&status=308") {
                Method.PUT
                RequestBody.string("payload")
            }
            let echo = try echoed(try await client.send(request))
            #expect(echo.method == "PUT")
            #expect(echo.body == Data("payload".utf8))
        }
    }
}
