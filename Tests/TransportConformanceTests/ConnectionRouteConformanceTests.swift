import Courier
import CourierTestServer
import Foundation
import Testing

/// Routes (`--resolve`, `--connect-to`) to the loopback test server under a name that does not
/// exist: the connection goes to the server while the URL and `Host` keep the name. curl honours
/// every route; AsyncHTTPClient those it can (one address or host, same port) and refuses the
/// others by name; URLSession refuses routes.
@Suite("Transport conformance: connection routes", .timeLimit(.minutes(1)))
struct ConnectionRouteConformanceTests {
    private static let name = "courier-route.invalid"

    /// Sends `path` on `url` through `transport` set up with `routes`; the transport is shut down on every path.
    private func send(
        _ transport: TransportUnderTest, routes: [ConnectionRoute], url: String
    ) async throws -> Result<Response, CourierError> {
        var settings = TransportSettings(connectTimeout: .seconds(60))
        settings.routes = routes
        let made = transport.makeWith(settings)
        let result: Result<Response, CourierError>
        do {
            result = .success(try await Client(transport: made).send(try Request { BaseURL(url) }))
        } catch let error as CourierError {
            result = .failure(error)
        } catch {
            await transport.shutdown(made)
            throw error
        }
        await transport.shutdown(made)
        return result
    }

    private func host(of response: Response) throws -> String? {
        try echoed(response).headers.first { $0.first?.lowercased() == "host" }?.last
    }

    @Test(arguments: TransportUnderTest.all)
    func aResolvedNameReachesItsAddressWithTheNameAsHost(transport: TransportUnderTest) async throws {
        try await withTestServer { server in
            let port = try #require(server.baseURL.port)
            let url = "http://\(Self.name):\(port)/echo/resolved"
            let routes = [try ConnectionRoute(resolve: "\(Self.name):\(port):127.0.0.1")]
            switch try await send(transport, routes: routes, url: url) {
            case .success(let response):
                #expect(transport.description != "URLSession")
                #expect(try host(of: response) == "\(Self.name):\(port)")
                #expect(try echoed(response).path == "/echo/resolved")
            case .failure(let error):
                #expect(transport.description == "URLSession", "\(error)")
                #expect(error.code == .invalidRequest && error.source?.contains("routes") == true, "\(error)")
            }
            // Without the route the name does not resolve.
            if transport.description != "URLSession" {
                let unrouted = try await send(transport, routes: [], url: url)
                #expect(unrouted.failure?.code == .cannotConnect, "\(unrouted)")
            }
        }
    }

    @Test(arguments: [TransportUnderTest.curl, .asyncHTTPClient])
    func connectToAnotherHostOnTheSamePortKeepsTheName(transport: TransportUnderTest) async throws {
        try await withTestServer { server in
            let port = try #require(server.baseURL.port)
            let routes = [try ConnectionRoute(connectTo: "\(Self.name):\(port):localhost:\(port)")]
            let response = try await send(transport, routes: routes, url: "http://\(Self.name):\(port)/echo").get()
            #expect(try host(of: response) == "\(Self.name):\(port)")
        }
    }

    /// curl connects port 80 of the name to the server's port; AsyncHTTPClient keeps the port, so it refuses the route.
    @Test(arguments: [TransportUnderTest.curl, .asyncHTTPClient])
    func connectToAnotherPortIsCurlsAlone(transport: TransportUnderTest) async throws {
        try await withTestServer { server in
            let port = try #require(server.baseURL.port)
            let routes = [try ConnectionRoute.connect(Self.name, port: 80, to: "127.0.0.1", port: port)]
            switch try await send(transport, routes: routes, url: "http://\(Self.name)/echo") {
            case .success(let response):
                #expect(transport.description == "curl")
                #expect(try host(of: response) == Self.name)
            case .failure(let error):
                #expect(transport.description == "AsyncHTTPClient", "\(error)")
                #expect(error.code == .invalidRequest && error.message.contains("same port"), "\(error)")
            }
        }
    }

    /// AsyncHTTPClient would take every port of a routed host to the route: a request to another port is refused.
    @Test(arguments: [TransportUnderTest.curl, .asyncHTTPClient])
    func aRoutedHostOnAnotherPortIsNotMisrouted(transport: TransportUnderTest) async throws {
        try await withTestServer { server in
            let port = try #require(server.baseURL.port)
            let routes = [try ConnectionRoute.resolve(Self.name, port: port, to: ["127.0.0.1"])]
            let result = try await send(transport, routes: routes, url: "http://\(Self.name):\(port == 1 ? 2 : 1)/echo")
            let error = try #require(result.failure)
            #expect(error.code == (transport.description == "curl" ? .cannotConnect : .invalidRequest), "\(error)")
        }
    }

    @Test func routesAreReadAsCurlWritesThem() throws {
        let resolve = try ConnectionRoute(resolve: "Example.COM:443:127.0.0.1,[::1]")
        #expect(resolve.host == "example.com" && resolve.port == 443)
        #expect(resolve.target == .addresses(["127.0.0.1", "::1"]))
        #expect(resolve.description == "example.com:443:127.0.0.1,[::1]")
        let connect = try ConnectionRoute(connectTo: "[::1]:80:backend.internal:8080")
        #expect(connect.host == "::1" && connect.target == .host("backend.internal", port: 8080))
        #expect(connect.description == "[::1]:80:backend.internal:8080")
        #expect(connect.takes(host: "[::1]", port: 80))
        for bad in [
            "example.com:443", "example.com:http:127.0.0.1", "example.com:443:not-an-address", ":443:127.0.0.1",
        ] {
            #expect(throws: CourierError.self, "\(bad)") { try ConnectionRoute(resolve: bad) }
        }
        for bad in ["a:1:b", "a:1:b:0", "a:1:b:c:2"] {
            #expect(throws: CourierError.self, "\(bad)") { try ConnectionRoute(connectTo: bad) }
        }
    }
}
