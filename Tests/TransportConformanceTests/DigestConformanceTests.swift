import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// `DigestAuthenticationInterceptor` on both transports against the test server's Digest
/// routes, which check every answer with swift-crypto: each algorithm, RFC 2069's form, a wrong
/// password, a challenge it cannot answer, a stale nonce, the answer sent before being asked,
/// and a body resent with it.
@Suite("Transport conformance: Digest authentication")
struct DigestConformanceTests {
    static let cases: [(TransportUnderTest, String)] = TransportUnderTest.all.flatMap { transport in
        [
            "auth/ada/s3cret/MD5", "auth/ada/s3cret/SHA-256", "auth/ada/s3cret/MD5-sess",
            "auth/ada/s3cret/SHA-256-sess",
            "none/ada/s3cret/MD5", "auth/ada/s3cret",
        ].map { (transport, $0) }
    }

    /// The test server's requests to `path` so far.
    static func count(_ server: TestServer, _ path: String) -> Int {
        server.receivedRequests.filter { $0.path == path }.count
    }

    @Test(arguments: cases)
    func eachAlgorithmIsAnsweredOnceAndThenSentBeforeBeingAsked(
        transport: TransportUnderTest, route: String
    ) async throws {
        try await transport.withClient { client, server in
            let digest = Client(
                transport: client.transport,
                interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "s3cret")])
            let path = "/digest-auth/" + route
            let first = try await digest.send(try server.request(path))
            #expect(first.status.code == 200 && first.text.contains(#""authenticated":true"#), "\(first.text)")
            #expect(Self.count(server, path) == 2)
            let second = try await digest.send(try server.request(path))
            #expect(second.status.code == 200)
            #expect(Self.count(server, path) == 3, "the second request answers the remembered challenge with nc=2")
            let counts = server.receivedRequests.filter { $0.path == path }.compactMap { $0.header("authorization") }
                .compactMap { $0.firstMatch(of: /nc=([0-9a-f]{8})/).map { String($0.1) } }
            #expect(counts == (route.hasPrefix("none") ? [] : ["00000001", "00000002"]))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aWrongPasswordEndsInTheServers401AfterOneAnswer(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let digest = Client(
                transport: client.transport,
                interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "wrong")])
            let path = "/digest-auth/auth/ada/s3cret/SHA-256"
            let refused = try await digest.send(try server.request(path))
            #expect(refused.status.code == 401)
            #expect(Self.count(server, path) == 2)
            // The remembered challenge, refused again with the same nonce: no third attempt.
            let again = try await digest.send(try server.request(path))
            #expect(again.status.code == 401)
            #expect(Self.count(server, path) <= 4)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aChallengeOfferingOnlyAuthIntIsReturnedUnanswered(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let digest = Client(
                transport: client.transport,
                interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "s3cret")])
            let path = "/digest-auth/auth-int/ada/s3cret/MD5"
            let response = try await digest.send(try server.request(path))
            #expect(
                response.status.code == 401 && response.headerFields[.wwwAuthenticate]?.contains("auth-int") == true)
            #expect(Self.count(server, path) == 1)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aStaleNonceIsReplacedWithoutFailing(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let digest = Client(
                transport: client.transport,
                interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "s3cret")])
            let path = "/digest-auth/auth/ada/s3cret/MD5/1"
            for _ in 0..<3 {
                let response = try await digest.send(try server.request(path))
                #expect(response.status.code == 200)
            }
            // 2 for the first, then 2 for each later one: the remembered nonce is stale after one use.
            #expect(Self.count(server, path) == 6)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyIsResentWithTheAnswer(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let digest = Client(
                transport: client.transport,
                interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "s3cret")])
            let path = "/digest-auth/auth/ada/s3cret/SHA-256"
            let response = try await digest.send(
                try server.request(path) {
                    Method.PUT
                    RequestBody.string("the body")
                })
            #expect(response.status.code == 200)
            let bodies = server.receivedRequests.filter { $0.path == path }.map {
                String(decoding: $0.body, as: UTF8.self)
            }
            #expect(bodies == ["the body", "the body"])
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aOneShotBodyIsNotResentEmpty(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let digest = Client(
                transport: client.transport,
                interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "s3cret")])
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(Data("once".utf8))
                continuation.finish()
            }
            let request = try server.request("/digest-auth/auth/ada/s3cret/MD5") {
                Method.POST
                RequestBody.stream(chunks, length: 4)
            }
            await #expect(throws: CourierError.self) { try await digest.send(request) }
        }
    }
}
