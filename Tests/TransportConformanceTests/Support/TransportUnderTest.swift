import Courier
import CourierAsyncHTTPClient
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// A transport the conformance suite runs against; every test runs once per entry of `all`.
struct TransportUnderTest: Sendable, CustomStringConvertible {
    let description: String
    let make: @Sendable () -> any Transport
    /// A transport with these TLS settings, the same on both.
    let makeWithTLS: @Sendable (TLSSettings) -> any Transport
    let shutdown: @Sendable (any Transport) async -> Void

    static let curl = TransportUnderTest(
        description: "curl", make: { CurlTransport() },
        makeWithTLS: { tls in
            var configuration = CurlTransport.Configuration()
            configuration.caInfo = tls.caInfo
            configuration.verifyPeer = tls.verifyPeer
            configuration.verifyHost = tls.verifyHost
            return CurlTransport(configuration: configuration)
        },
        shutdown: { transport in await (transport as? CurlTransport)?.shutdown() })

    static let asyncHTTPClient = TransportUnderTest(
        description: "AsyncHTTPClient", make: { AsyncHTTPClientTransport() },
        makeWithTLS: { tls in
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.caInfo = tls.caInfo
            configuration.verifiesCertificates = tls.verifyPeer
            configuration.verifiesHostNames = tls.verifyHost
            return AsyncHTTPClientTransport(configuration: configuration)
        },
        shutdown: { transport in try? await (transport as? AsyncHTTPClientTransport)?.shutdown() })

    static let all: [TransportUnderTest] = [.curl, .asyncHTTPClient]

    /// Runs `body` with a fresh transport wrapped in a client, and a test server, then shuts both down.
    func withClient<Result: Sendable>(
        configuration: Client.Configuration = Client.Configuration(),
        routes: [Route] = Route.defaults,
        faultPlan: [ConnectionFault] = [],
        _ body: (Client, TestServer) async throws -> Result
    ) async throws -> Result {
        let transport = make()
        do {
            let result = try await withTestServer(routes: routes, faultPlan: faultPlan) { server in
                try await body(Client(transport: transport, configuration: configuration), server)
            }
            await shutdown(transport)
            return result
        } catch {
            await shutdown(transport)
            throw error
        }
    }
}

/// The TLS switches both transports have: trusted authorities, peer and host-name verification.
struct TLSSettings: Sendable {
    var caInfo: String?
    var verifyPeer = true
    var verifyHost = true
}

extension TestServer {
    /// A request to `path` (with any query) on this server, with more blocks.
    func request(_ path: String, @RequestBuilder _ content: () throws -> RequestBlockGroup = { RequestBlockGroup.empty }) throws -> Request {
        try baseURL.buildRequest {
            Endpoint(path)
            try content()
        }
    }
}

extension RequestBlockGroup {
    /// No blocks.
    static var empty: RequestBlockGroup { RequestBuilder.buildBlock() }
}

/// The `CourierError` an operation throws, or `nil` when it succeeds; any other error (one the
/// transport did not map) is recorded as a test failure, never passed off as a `CourierError`.
func courierError<T>(_ operation: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> CourierError? {
    do {
        _ = try await operation()
        return nil
    } catch let error as CourierError {
        return error
    } catch {
        Issue.record("not a CourierError: \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Decodes the test server's `/echo` answer.
func echoed(_ response: Response) throws -> EchoedRequest {
    try JSONDecoder().decode(EchoedRequest.self, from: response.body)
}
