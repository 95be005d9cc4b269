import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import TestProcesses
import Testing

/// Both transports routed by proxy variables, end to end through the loopback forward proxy:
/// `ALL_PROXY` for `http`, `HTTPS_PROXY` for `https` (a `CONNECT` tunnel to nginx), `NO_PROXY`
/// sending a host direct, and the upper-case `HTTP_PROXY` ignored as curl ignores it.
///
/// The variables reach the transport through `ProxySettings.environment`, which stands in for the
/// process's environment: tests run in parallel, so none may change the environment they all share.
@Suite("Transport conformance: proxies from the environment", .timeLimit(.minutes(2)))
struct EnvironmentProxyConformanceTests {
    /// Default proxy settings (the environment read, no explicit server) with `environment` in place of the process's.
    private func settings(_ environment: [String: String]) -> ProxySettings {
        var proxy = ProxySettings()
        proxy.environment = environment
        return proxy
    }

    /// Runs `body` with a client of `transport` routed by `environment(forwardProxy)`, a test server and the proxy, then stops all three.
    private func withEnvironmentClient<Result: Sendable>(
        _ transport: TransportUnderTest,
        _ environment: (ForwardProxy) -> [String: String],
        _ body: (Client, TestServer, ForwardProxy) async throws -> Result
    ) async throws -> Result {
        let forwardProxy = try await ForwardProxy.start()
        let made = transport.makeWith(
            TransportSettings(proxy: settings(environment(forwardProxy)), connectTimeout: .seconds(60)))
        let result = await Swift.Result(awaiting: {
            try await withTestServer { server in try await body(Client(transport: made), server, forwardProxy) }
        })
        await transport.shutdown(made)
        try await forwardProxy.shutdown()
        return try result.get()
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func allProxyRoutesPlainHTTPThroughTheProxy(transport: TransportUnderTest) async throws {
        try await withEnvironmentClient(transport, { ["ALL_PROXY": $0.url.absoluteString] }) { client, origin, proxy in
            let response = try await client.send(try origin.request("/echo?via=all_proxy"))
            #expect(try echoed(response).query == "via=all_proxy")
            // curl sends a plain-http request to the proxy in absolute form; AsyncHTTPClient tunnels every request.
            let forwarded = proxy.forwarded
            #expect(
                forwarded.contains {
                    $0.method == "GET" && $0.target == "\(origin.baseURL.absoluteString)/echo?via=all_proxy"
                }
                    || forwarded.contains { $0.method == "CONNECT" && $0.target == "127.0.0.1:\(origin.port)" },
                "\(forwarded)")
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func aHostInNoProxyBypassesTheProxyAllProxyNames(transport: TransportUnderTest) async throws {
        try await withEnvironmentClient(
            transport, { ["ALL_PROXY": $0.url.absoluteString, "NO_PROXY": "example.com,127.0.0.1"] }
        ) { client, origin, proxy in
            let response = try await client.send(try origin.request("/anything/direct"))
            #expect(response.status == .ok)
            #expect(proxy.forwarded.isEmpty)
            #expect(origin.receivedRequests.count == 1)
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func theUpperCaseHTTPProxyVariableIsIgnoredAsCurlIgnoresIt(transport: TransportUnderTest) async throws {
        try await withEnvironmentClient(transport, { ["HTTP_PROXY": $0.url.absoluteString] }) { client, origin, proxy in
            let response = try await client.send(try origin.request("/anything/direct"))
            #expect(response.status == .ok)
            #expect(proxy.forwarded.isEmpty)
        }
        try await withEnvironmentClient(transport, { ["http_proxy": $0.url.absoluteString] }) { client, origin, proxy in
            let response = try await client.send(try origin.request("/anything/proxied"))
            #expect(response.status == .ok)
            #expect(!proxy.forwarded.isEmpty, "the lower-case form is read")
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .explicitProxy))
    func httpsProxyTunnelsHTTPSWithConnect(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await NginxServer.serving(listen: "ssl", body: "tunnelled", tls: certificates.loopback) { nginx in
            let forwardProxy = try await ForwardProxy.start()
            var tls = TLSSettings()
            tls.caFile = certificates.authority.path
            // `http_proxy` names a proxy that is not listening: an https URL must not use it.
            let environment = ["HTTPS_PROXY": forwardProxy.url.absoluteString, "http_proxy": "http://127.0.0.1:1"]
            let made = transport.makeWith(
                TransportSettings(tls: tls, proxy: settings(environment), connectTimeout: .seconds(60)))
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
}
