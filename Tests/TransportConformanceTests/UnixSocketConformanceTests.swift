import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// Requests over a Unix domain socket (the test server listens on one beside its TCP port): an
/// `http+unix` URL, the `UnixSocket` block and the client's `unixSocketPath` all reach it through
/// libcurl and AsyncHTTPClient, with `Host: localhost`; URLSession refuses by name.
@Suite("Transport conformance: Unix domain sockets", .timeLimit(.minutes(1)))
struct UnixSocketConformanceTests {
    /// A socket path of its own under the temporary directory, short enough for `sun_path`.
    private static func socketPath() -> String {
        "/tmp/courier-\(UUID().uuidString.prefix(8)).sock"
    }

    private static func percentEncoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
    }

    @Test(arguments: TransportUnderTest.all)
    func everySpellingOfASocketReachesIt(transport: TransportUnderTest) async throws {
        let path = Self.socketPath()
        try await transport.withClient(unixSocketPath: path) { client, _ in
            let viaURL = try Request { BaseURL("http+unix://\(Self.percentEncoded(path))/echo/url?a=1") }
            #expect(viaURL.url.absoluteString == "http://localhost/echo/url?a=1")
            #expect(viaURL.unixSocketPath == path)
            let viaBlock = try Request {
                UnixSocket(path)
                BaseURL("http://localhost/echo/block")
            }
            var configured = client
            configured.configuration.unixSocketPath = path
            let viaClient = try Request { BaseURL("http://localhost/echo/client") }
            guard transport.description != "URLSession" else {
                for request in [viaURL, viaBlock] {
                    let error = try await #require(throws: CourierError.self) { try await client.send(request) }
                    #expect(error.code == .invalidRequest && error.message.contains("Unix socket"), "\(error)")
                }
                return
            }
            for (request, sender, expectedPath) in [
                (viaURL, client, "/echo/url"), (viaBlock, client, "/echo/block"),
                (viaClient, configured, "/echo/client"),
            ] {
                let response = try await sender.send(request)
                #expect(response.status == .ok)
                let echo = try echoed(response)
                #expect(echo.path == expectedPath)
                #expect(echo.headers.contains { $0.first?.lowercased() == "host" && $0.last == "localhost" })
            }
            // A raw request with an http+unix URL, made without the builder, goes there too.
            let raw = Request(url: URL(string: "http+unix://\(Self.percentEncoded(path))/echo/raw")!)
            #expect(try echoed(try await client.send(raw)).path == "/echo/raw")
        }
    }

    /// The socket serves its own origin: a redirect to another host goes there over TCP.
    @Test(arguments: TransportUnderTest.all(with: .unixSocket))
    func aRedirectToAnotherOriginLeavesTheSocket(transport: TransportUnderTest) async throws {
        let path = Self.socketPath()
        try await transport.withClient(unixSocketPath: path) { client, server in
            let target = server.baseURL.absoluteString + "/echo/over-tcp"
            let request = try Request {
                UnixSocket(path)
                BaseURL("http://localhost/redirect-to")
                Query("url", target)
            }
            let response = try await client.send(request)
            #expect(response.request.unixSocketPath == nil)
            #expect(try echoed(response).path == "/echo/over-tcp")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aSocketNobodyListensOnIsCannotConnect(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, _ in
            let request = try Request {
                UnixSocket(Self.socketPath())
                BaseURL("http://localhost/echo")
            }
            let error = try await #require(throws: CourierError.self) { try await client.send(request) }
            #expect(
                error.code == (transport.description == "URLSession" ? .invalidRequest : .cannotConnect), "\(error)")
        }
    }

    @Test func aPathASocketAddressCannotHoldIsRefusedWhenBuilt() {
        #expect(throws: CourierError.self) {
            try Request {
                UnixSocket("")
                BaseURL("http://localhost")
            }
        }
        #expect(throws: CourierError.self) {
            try Request {
                UnixSocket("/" + String(repeating: "s", count: 120))
                BaseURL("http://localhost")
            }
        }
        #expect(throws: CourierError.self) { try Request { BaseURL("http+unix:///echo") } }
    }
}
