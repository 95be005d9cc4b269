import CourierTestServer
import Foundation
import Testing

/// `ForwardProxy` between curl and a `TestServer` origin: plain forwarding, `CONNECT` tunnels,
/// proxy authentication, large bodies, and the refusals that keep it on loopback.
@Suite("ForwardProxy")
struct ForwardProxyTests {
    /// curl through `proxy`; `--noproxy ''` so that no `NO_PROXY` in the environment lets it bypass the proxy.
    private static func curl(through proxy: ForwardProxy, _ arguments: String) -> String {
        "curl -s --max-time 30 --noproxy '' --proxy '\(proxy.url.absoluteString)' \(arguments)"
    }

    /// Starts an origin and a proxy, runs `body`, and shuts both down, also when `body` throws.
    private func withOriginAndProxy(
        credentials: (user: String, password: String)? = nil,
        _ body: (TestServer, ForwardProxy) async throws -> Void
    ) async throws {
        try await withTestServer { server in
            let proxy = try await ForwardProxy.start(credentials: credentials)
            do {
                try await body(server, proxy)
            } catch {
                try? await proxy.shutdown()
                throw error
            }
            try await proxy.shutdown()
        }
    }

    @Test func plainGetIsAnsweredByTheOriginAndRecordedWithItsAbsoluteTarget() async throws {
        try await withOriginAndProxy { server, proxy in
            let target = "\(server.baseURL.absoluteString)/echo/plain?q=1"
            let result = try await Shell.run(Self.curl(through: proxy, "'\(target)'"))
            #expect(result.status == 0, "curl exit \(result.status): \(result.standardError)")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: result.standardOutput)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo/plain")
            #expect(echo.query == "q=1")
            let names = echo.headers.map { $0[0].lowercased() }
            #expect(!names.contains("proxy-connection"))
            #expect(!names.contains("proxy-authorization"))
            #expect(echo.headers.filter { $0[0].lowercased() == "connection" } == [["Connection", "close"]])
            #expect(echo.headers.contains(["Host", "127.0.0.1:\(server.port)"]))
            #expect(proxy.forwarded == [ForwardedRequest(method: "GET", target: target, wasAuthorized: true)])
            #expect(server.receivedRequests.count == 1)
        }
    }

    @Test func connectTunnelReachesThePlainOriginAndIsRecordedAsConnect() async throws {
        try await withOriginAndProxy { server, proxy in
            let result = try await Shell.run(
                Self.curl(through: proxy, "--proxytunnel '\(server.baseURL.absoluteString)/echo/tunnel?t=2'"))
            #expect(result.status == 0, "curl exit \(result.status): \(result.standardError)")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: result.standardOutput)
            #expect(echo.path == "/echo/tunnel")
            #expect(echo.query == "t=2")
            #expect(
                proxy.forwarded == [
                    ForwardedRequest(method: "CONNECT", target: "127.0.0.1:\(server.port)", wasAuthorized: true)
                ])
        }
    }

    @Test func credentialsAreRequiredAndTheBasicValueIsRecorded() async throws {
        try await withOriginAndProxy(credentials: (user: "courier", password: "s3cret")) { server, proxy in
            let target = "\(server.baseURL.absoluteString)/echo/auth"

            let missing = try await Shell.run(Self.curl(through: proxy, "-D - -o /dev/null '\(target)'"))
            let missingHead = String(decoding: missing.standardOutput, as: UTF8.self)
            #expect(missingHead.hasPrefix("HTTP/1.1 407 Proxy Authentication Required\r\n"))
            #expect(missingHead.contains("Proxy-Authenticate: Basic realm=\"courier-test-proxy\"\r\n"))

            let wrong = try await Shell.run(
                Self.curl(through: proxy, "--proxy-user 'courier:wrong' -o /dev/null -w '%{http_code}' '\(target)'"))
            #expect(String(decoding: wrong.standardOutput, as: UTF8.self) == "407")

            let accepted = try await Shell.run(Self.curl(through: proxy, "--proxy-user 'courier:s3cret' '\(target)'"))
            #expect(accepted.status == 0, "curl exit \(accepted.status): \(accepted.standardError)")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: accepted.standardOutput)
            #expect(echo.path == "/echo/auth")
            #expect(!echo.headers.contains { $0[0].lowercased() == "proxy-authorization" })

            let basic = { (userAndPassword: String) in "Basic " + Data(userAndPassword.utf8).base64EncodedString() }
            #expect(
                proxy.forwarded == [
                    ForwardedRequest(method: "GET", target: target, proxyAuthorization: nil, wasAuthorized: false),
                    ForwardedRequest(
                        method: "GET", target: target, proxyAuthorization: basic("courier:wrong"), wasAuthorized: false),
                    ForwardedRequest(
                        method: "GET", target: target, proxyAuthorization: basic("courier:s3cret"), wasAuthorized: true),
                ])
            #expect(server.receivedRequests.count == 1, "refused requests never reach the origin")
        }
    }

    @Test func largePostBodyArrivesIntactAtTheOrigin() async throws {
        try await withOriginAndProxy { server, proxy in
            // `seq` gives about 229 KB of distinct lines, so a lost, repeated or reordered chunk shows.
            let body = Data((1...40000).map { "\($0)\n" }.joined().utf8)
            let result = try await Shell.run(
                "seq 1 40000 | "
                    + Self.curl(
                        through: proxy,
                        "-H 'Expect:' -H 'Content-Type: application/octet-stream' --data-binary @- "
                            + "'\(server.baseURL.absoluteString)/echo/upload'"))
            #expect(result.status == 0, "curl exit \(result.status): \(result.standardError)")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: result.standardOutput)
            #expect(echo.method == "POST")
            #expect(echo.bodyLength == body.count)
            #expect(echo.body == body)
        }
    }

    @Test func largeResponseToASlowClientArrivesWholeThoughTheOriginClosesFirst() async throws {
        try await withOriginAndProxy { server, proxy in
            // 8 MiB read at 4 MB/s: the client is the slow side, so the relay is held back by it,
            // and the origin has written everything and closed before the client has read it all.
            let count = 8 << 20
            let result = try await Shell.run(
                Self.curl(
                    through: proxy,
                    "--limit-rate 4M '\(server.baseURL.absoluteString)/bytes/\(count)'"))
            #expect(result.status == 0, "curl exit \(result.status): \(result.standardError)")
            #expect(result.standardOutput.count == count)
            #expect(result.standardOutput == Data((0..<count).map { UInt8(truncatingIfNeeded: $0) }))
        }
    }

    @Test func bodyBytesSentWithTheHeadAreForwarded() async throws {
        try await withOriginAndProxy { server, proxy in
            // One write: the head and the whole body reach the proxy in the same read.
            let exchange = try await RawSocket.exchange(
                port: proxy.port,
                """
                POST \(server.baseURL.absoluteString)/echo/raw HTTP/1.1\r
                Host: 127.0.0.1:\(server.port)\r
                Content-Length: 11\r
                \r
                hello world
                """)
            #expect(exchange.ending == "eof", "the proxy closes once the origin has answered and closed")
            let text = String(decoding: exchange.received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 "))
            let json = try #require(text.range(of: "\r\n\r\n")).upperBound
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: Data(text[json...].utf8))
            #expect(echo.body == Data("hello world".utf8))
        }
    }

    @Test(arguments: ["http://192.0.2.1/", "http://example.com/echo", "http://10.0.0.1:8080/x?y"])
    func nonLoopbackTargetIsRefusedWith403(target: String) async throws {
        try await withOriginAndProxy { server, proxy in
            let result = try await Shell.run(Self.curl(through: proxy, "-o /dev/null -w '%{http_code}' '\(target)'"))
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == "403")
            #expect(proxy.forwarded == [ForwardedRequest(method: "GET", target: target, wasAuthorized: true)])
            #expect(server.receivedRequests.isEmpty)
        }
    }

    @Test func nonLoopbackConnectIsRefusedWith403() async throws {
        try await withOriginAndProxy { _, proxy in
            let exchange = try await RawSocket.exchange(
                port: proxy.port, "CONNECT 192.0.2.1:443 HTTP/1.1\r\nHost: 192.0.2.1:443\r\n\r\n")
            #expect(String(decoding: exchange.received, as: UTF8.self).hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
            #expect(exchange.ending == "eof")
            #expect(
                proxy.forwarded == [ForwardedRequest(method: "CONNECT", target: "192.0.2.1:443", wasAuthorized: true)])
        }
    }

    @Test func unreachableTargetGets502() async throws {
        try await withOriginAndProxy { _, proxy in
            // Nothing listens on port 1 of the loopback interface: the connection is refused at once.
            let result = try await Shell.run(
                Self.curl(through: proxy, "-o /dev/null -w '%{http_code}' 'http://127.0.0.1:1/echo'"))
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == "502")
        }
    }
}
