import Courier
import CourierAsyncHTTPClient
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Logging
import Testing

/// Proxy credentials stay out of everything a client writes about a request: `LoggingInterceptor`
/// at trace (heads, bodies, the curl command, failures) and `explaining()`, on both transports,
/// through the loopback forward proxy, with the credentials accepted, refused, read from a proxy
/// variable, and in a proxy variable that does not parse.
@Suite("Proxy credentials in logs and explanations", .timeLimit(.minutes(2)))
struct ProxyCredentialRedactionTests {
    static let password = "secret-pw"

    /// What a client logged and explained about one send through a proxy, and how the send ended.
    private struct Record {
        var lines: [String]
        var explanation: String
        var outcome: Result<Response, any Error>

        /// Every place a secret could show, as one text.
        var everything: String {
            let error =
                switch outcome {
                case .success: ""
                case .failure(let error): "\(error) \(String(reflecting: error))"
                }
            return (lines + [explanation, error]).joined(separator: "\n")
        }
    }

    /// A transport of `kind` routed by `proxy`, and how to shut it down.
    private func makeTransport(
        _ kind: ServerTransport, proxy: ProxySettings
    ) -> (any Transport, @Sendable () async -> Void) {
        switch kind {
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.proxy = proxy
            let transport = CurlTransport(configuration: configuration)
            return (transport, { await transport.shutdown() })
        case .asyncHTTPClient:
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.proxy = proxy
            // Every suite starts at once on two cores: a loopback connect may wait seconds.
            configuration.connectTimeout = .seconds(60)
            let transport = AsyncHTTPClientTransport(configuration: configuration)
            return (transport, { try? await transport.shutdown() })
        }
    }

    /// Sends `path` to a test server through a forward proxy that accepts `user:secret-pw`, on a
    /// client routed by `proxy(forwardProxy)` that logs at trace and explains; returns what it wrote.
    private func sendThroughProxy(
        _ kind: ServerTransport, path: String,
        proxy: (ForwardProxy) -> ProxySettings
    ) async throws -> (Record, [ForwardedRequest]) {
        let forwardProxy = try await ForwardProxy.start(credentials: (user: "user", password: Self.password))
        let (transport, shutdown) = makeTransport(kind, proxy: proxy(forwardProxy))
        let capture = LogCapture()
        let logging = LoggingInterceptor(logger: capture.logger(level: .trace), level: .info, logsCurlCommand: true)
        let (client, recorder) = Client(transport: transport, interceptors: [logging]).explaining()
        let outcome = try await withTestServer { server in
            do {
                return Result<Response, any Error>.success(try await client.send(Request(url: server.url(path))))
            } catch {
                return .failure(error)
            }
        }
        await shutdown()
        try await forwardProxy.shutdown()
        let explanation =
            try recorder.last.map { $0.text + "\n" + String(decoding: try $0.json(), as: UTF8.self) } ?? ""
        return (Record(lines: capture.all, explanation: explanation, outcome: outcome), forwardProxy.forwarded)
    }

    /// Checks that `record` shows neither the password nor, base64-encoded as `Basic` sends them, the credentials `user:password`.
    private func expectNoSecret(
        in record: Record, password: String = ProxyCredentialRedactionTests.password,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!record.lines.isEmpty, "the logging interceptor wrote something", sourceLocation: sourceLocation)
        #expect(!record.explanation.isEmpty, "the send was explained", sourceLocation: sourceLocation)
        let text = record.everything
        for secret in [Self.password, password, Data("user:\(password)".utf8).base64EncodedString()] {
            #expect(!text.contains(secret), "\(secret) shows in \(text)", sourceLocation: sourceLocation)
        }
    }

    private func server(_ proxy: ForwardProxy, password: String) -> ProxyServer {
        ProxyServer(kind: .http, host: "127.0.0.1", port: proxy.port, username: "user", password: password)
    }

    @Test(arguments: ServerTransport.all)
    func acceptedProxyCredentialsAreNeitherLoggedNorExplained(transport: ServerTransport) async throws {
        let (record, forwarded) = try await sendThroughProxy(transport, path: "/anything/accepted") { proxy in
            ProxySettings(server: server(proxy, password: Self.password))
        }
        #expect(try record.outcome.get().status == .ok)
        #expect(forwarded.first?.wasAuthorized == true, "the credentials were sent")
        expectNoSecret(in: record)
    }

    @Test(arguments: ServerTransport.all)
    func refusedProxyCredentialsAreNeitherLoggedNorExplained(transport: ServerTransport) async throws {
        // The proxy accepts `user:secret-pw`; the client sends `user:secret-pw-but-wrong`, which contains it.
        let (record, forwarded) = try await sendThroughProxy(transport, path: "/anything/refused") { proxy in
            ProxySettings(server: server(proxy, password: Self.password + "-but-wrong"))
        }
        #expect(forwarded.allSatisfy { !$0.wasAuthorized })
        expectNoSecret(in: record, password: Self.password + "-but-wrong")
    }

    @Test(arguments: ServerTransport.all)
    func credentialsInAProxyVariableAreNeitherLoggedNorExplained(transport: ServerTransport) async throws {
        let (record, forwarded) = try await sendThroughProxy(transport, path: "/anything/from-environment") { proxy in
            var settings = ProxySettings()
            settings.environment = ["ALL_PROXY": "http://user:\(Self.password)@127.0.0.1:\(proxy.port)"]
            return settings
        }
        #expect(try record.outcome.get().status == .ok)
        #expect(forwarded.first?.wasAuthorized == true, "the credentials were read from ALL_PROXY and sent")
        expectNoSecret(in: record)
    }

    @Test(arguments: ServerTransport.all)
    func aProxyVariableThatDoesNotParseFailsWithoutShowingItsCredentials(transport: ServerTransport) async throws {
        let (record, forwarded) = try await sendThroughProxy(transport, path: "/anything/bad-variable") { proxy in
            var settings = ProxySettings()
            settings.environment = ["ALL_PROXY": "http://user:\(Self.password)@127.0.0.1:\(proxy.port)/a/path"]
            return settings
        }
        guard case .failure(let error) = record.outcome else {
            Issue.record("a proxy URL with a path must fail the request")
            return
        }
        #expect((error as? CourierError)?.code == .invalidRequest)
        #expect("\(error)".contains("ALL_PROXY"), "the error names the variable")
        #expect(forwarded.isEmpty)
        expectNoSecret(in: record)
    }
}
