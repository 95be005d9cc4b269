import CourierAPI
import CourierTestServer
import Foundation
import Testing

@API
struct OptionsAPI {
    @GET("/flaky/{key}/{failures}")
    @Retry(maxAttempts: 3)
    func retried(key: String, failures: Int) async throws -> Response

    @GET("/flaky/{key}/{failures}")
    func once(key: String, failures: Int) async throws -> Response

    @GET("/delay/{ms}")
    @Timeout(0.2)
    func slow(ms: Int) async throws
}

@Suite("Per-endpoint options")
struct EndpointOptionsTests {
    @Test func retryAddsTheRetryInterceptorForThatEndpointOnly() async throws {
        try await withProvider { provider, _ in
            let api = OptionsAPI(provider)
            let retried = try await api.retried(key: "a", failures: 2)
            #expect(retried.status.code == 200)
            #expect(retried.headerFields[HTTPField.Name("X-Attempt")!] == "3")
            let once = try await api.once(key: "b", failures: 2)
            #expect(once.status.code == 503)
        }
    }

    @Test func timeoutBoundsTheWholeExchange() async throws {
        try await withProvider { provider, _ in
            let error = await #expect(throws: CourierError.self) { try await OptionsAPI(provider).slow(ms: 2_000) }
            #expect(error?.code == .timedOut)
        }
    }
}
