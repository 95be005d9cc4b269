import Courier
import CourierCurl
import Foundation
import TestProcesses
import Testing

/// HTTP/2 and TLS against a real server: nginx on loopback, answering each request with the
/// protocol it was received over.
@Suite("CurlTransport: HTTP/2 and TLS", .timeLimit(.minutes(1)))
struct CurlHTTP2Tests {
    @Test func priorKnowledgeSpeaksHTTP2ForEveryRequest() async throws {
        try await NginxServer.serving(listen: "http2", body: "$server_protocol") { (nginx: NginxServer) async throws in
            var configuration = CurlTransport.Configuration()
            configuration.httpVersion = .http2PriorKnowledge
            let transport = CurlTransport(configuration: configuration)
            let client = Client(transport: transport)
            for index in 0..<3 {
                #expect(
                    try await client.send(
                        try Request {
                            BaseURL(nginx.baseURL)
                            "sequential"
                            String(index)
                        }
                    ).text == "HTTP/2.0")
            }
            #expect(try await Self.concurrentProtocols(client, nginx.baseURL) == Array(repeating: "HTTP/2.0", count: 8))
            await transport.shutdown()
        }
    }

    /// Streams that end while others still share their connection leave libcurl 7.88 holding their
    /// handles' receive buffers, and such a handle refuses `CURLOPT_BUFFERSIZE` ever after; the
    /// transport must not hand one to a later request.
    @Test func requestsAfterStreamsThatSharedAConnectionSucceed() async throws {
        try await Self.withTLSClient(answering: "$server_protocol") { (client: Client, baseURL: URL) async throws in
            // One request first, so that the concurrent ones find its connection idle and share it.
            #expect(
                try await client.send(
                    try Request {
                        BaseURL(baseURL)
                        "first"
                    }
                ).text == "HTTP/2.0")
            for _ in 0..<3 {
                #expect(try await Self.concurrentProtocols(client, baseURL) == Array(repeating: "HTTP/2.0", count: 8))
            }
            for index in 0..<16 {
                #expect(
                    try await client.send(
                        try Request {
                            BaseURL(baseURL)
                            "after"
                            String(index)
                        }
                    ).text == "HTTP/2.0")
            }
        }
    }

    @Test func tlsNegotiatesHTTP2AndVerifiesTheCertificate() async throws {
        try await Self.withTLSClient(answering: "$server_protocol $ssl_protocol") {
            (client: Client, baseURL: URL) async throws in
            let first = try await client.send(try Request { BaseURL(baseURL) })
            #expect(first.text.hasPrefix("HTTP/2.0 TLSv1."))
            let all = try await Self.concurrentProtocols(client, baseURL)
            #expect(all.allSatisfy { $0.hasPrefix("HTTP/2.0") })
        }
    }

    /// Runs `body` with nginx serving HTTP/2 over TLS (answering `variables`) and a client that
    /// negotiates HTTP/2 and trusts the test authority that signed nginx's certificate.
    private static func withTLSClient(
        answering variables: String,
        _ body: (Client, URL) async throws -> Void
    ) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await NginxServer.serving(listen: "ssl http2", body: variables, tls: certificates.loopback) {
            (nginx: NginxServer) async throws in
            var configuration = CurlTransport.Configuration()
            configuration.httpVersion = .http2
            configuration.caInfo = certificates.authority.path
            let transport = CurlTransport(configuration: configuration)
            do {
                try await body(Client(transport: transport), nginx.baseURL)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    @Test func anUntrustedCertificateIsAnInsecureConnection() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await NginxServer.serving(listen: "ssl http2", body: "$server_protocol", tls: certificates.loopback) {
            (nginx: NginxServer) async throws in
            let transport = CurlTransport()
            let error = await courierError {
                _ = try await Client(transport: transport).send(try Request { BaseURL(nginx.baseURL) })
            }
            #expect(error?.code == .insecureConnection)
            await transport.shutdown()
        }
    }

    @Test func http1IsUsedWhenAsked() async throws {
        try await NginxServer.serving(listen: "", body: "$server_protocol") { (nginx: NginxServer) async throws in
            var configuration = CurlTransport.Configuration()
            configuration.httpVersion = .http1_1
            let transport = CurlTransport(configuration: configuration)
            let response = try await Client(transport: transport).send(try Request { BaseURL(nginx.baseURL) })
            #expect(response.text == "HTTP/1.1")
            await transport.shutdown()
        }
    }

    /// The protocol 8 concurrent requests were received over.
    static func concurrentProtocols(_ client: Client, _ base: URL) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                let request = try Request {
                    BaseURL(base)
                    "concurrent"
                    String(index)
                }
                group.addTask { try await client.send(request).text }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
    }
}
