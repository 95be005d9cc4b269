import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import TestProcesses
import Testing

/// Both transports through a real forward proxy on loopback that records what it was asked:
/// plain `http` and `https` (a `CONNECT` tunnel to nginx), proxy credentials accepted and
/// refused without showing up in the error, and `noProxy` going direct.
@Suite("Transport conformance: proxies", .timeLimit(.minutes(2)))
struct ProxyConformanceTests {
    /// Runs `body` with a client of `transport` routed by `proxy(forwardProxy)`, a test server and the proxy, then stops all three.
    private func withProxiedClient<Result: Sendable>(
        _ transport: TransportUnderTest, credentials: (user: String, password: String)? = nil,
        _ proxy: (ForwardProxy) throws -> ProxySettings,
        _ body: (Client, TestServer, ForwardProxy) async throws -> Result
    ) async throws -> Result {
        let forwardProxy = try await ForwardProxy.start(credentials: credentials)
        let made = transport.makeWith(TransportSettings(proxy: try proxy(forwardProxy), connectTimeout: .seconds(60)))
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(
                try await withTestServer { server in try await body(Client(transport: made), server, forwardProxy) })
        } catch {
            result = .failure(error)
        }
        await transport.shutdown(made)
        try await forwardProxy.shutdown()
        return try result.get()
    }

    private func server(_ proxy: ForwardProxy, user: String? = nil, password: String? = nil) -> ProxyServer {
        ProxyServer(kind: .http, host: "127.0.0.1", port: proxy.port, username: user, password: password)
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func plainHTTPGoesThroughTheProxy(transport: TransportUnderTest) async throws {
        try await withProxiedClient(transport, { ProxySettings(server: server($0)) }) { client, origin, proxy in
            let response = try await client.send(try origin.request("/echo?via=proxy"))
            #expect(response.status == .ok)
            #expect(try echoed(response).query == "via=proxy")
            let forwarded = proxy.forwarded
            // curl sends a plain-http request to the proxy in absolute form; AsyncHTTPClient tunnels every request.
            #expect(
                forwarded.contains {
                    $0.method == "GET" && $0.target == "\(origin.baseURL.absoluteString)/echo?via=proxy"
                }
                    || forwarded.contains { $0.method == "CONNECT" && $0.target == "127.0.0.1:\(origin.port)" },
                "\(forwarded)")
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func httpsGoesThroughAConnectTunnel(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await NginxServer.serving(listen: "ssl", body: "tunnelled", tls: certificates.loopback) { nginx in
            let forwardProxy = try await ForwardProxy.start()
            var tls = TLSSettings()
            tls.caFile = certificates.authority.path
            let made = transport.makeWith(
                TransportSettings(
                    tls: tls, proxy: ProxySettings(server: server(forwardProxy)),
                    connectTimeout: .seconds(60)))
            let outcome = await Swift.Result(awaiting: {
                try await Client(transport: made).send(try Request { BaseURL(nginx.baseURL) })
            })
            await transport.shutdown(made)
            try await forwardProxy.shutdown()
            let response = try outcome.get()
            #expect(response.text == "tunnelled")
            let port = try #require(nginx.baseURL.port)
            #expect(forwardProxy.forwarded.map(\.method) == ["CONNECT"])
            #expect(forwardProxy.forwarded.first?.target == "127.0.0.1:\(port)")
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func proxyCredentialsAreSentAndRefusedOnesNeverShow(transport: TransportUnderTest) async throws {
        let credentials = (user: "courier", password: "s3cret")
        try await withProxiedClient(
            transport, credentials: credentials,
            { ProxySettings(server: server($0, user: "courier", password: "s3cret")) }
        ) { client, origin, proxy in
            let response = try await client.send(try origin.request("/anything/ok"))
            #expect(response.status == .ok)
            #expect(
                proxy.forwarded.first?.proxyAuthorization == "Basic "
                    + Data("courier:s3cret".utf8).base64EncodedString())
            #expect(proxy.forwarded.first?.wasAuthorized == true)
        }
        try await withProxiedClient(
            transport, credentials: credentials,
            { ProxySettings(server: server($0, user: "courier", password: "wr0ng-pa55")) }
        ) { client, origin, proxy in
            let outcome = await Swift.Result(awaiting: {
                try await client.send(try origin.request("/anything/refused"))
            })
            switch outcome {
            case .success(let response):
                #expect(response.status.code == 407, "curl hands a plain-http 407 over as the response")
            case .failure(let error as CourierError):
                #expect(error.code == .cannotConnect)
                #expect(!String(describing: error).contains("wr0ng-pa55"))
            case .failure(let error):
                Issue.record("not a CourierError: \(error)")
            }
            #expect(proxy.forwarded.allSatisfy { !$0.wasAuthorized })
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func hostsInNoProxyGoDirect(transport: TransportUnderTest) async throws {
        try await withProxiedClient(
            transport, { ProxySettings(server: server($0), noProxy: ["localhost", "127.0.0.0/8"]) }
        ) { client, origin, proxy in
            let response = try await client.send(try origin.request("/anything/direct"))
            #expect(response.status == .ok)
            #expect(proxy.forwarded.isEmpty)
            #expect(origin.receivedRequests.count == 1)
        }
    }
}

extension Swift.Result where Failure == any Error {
    /// The outcome of an asynchronous throwing operation.
    init(awaiting operation: () async throws -> Success) async {
        do {
            self = .success(try await operation())
        } catch {
            self = .failure(error)
        }
    }
}
