import CourierAPI
import CourierTestServer
import Foundation
import Testing

@API
struct CachedAPI {
    @GET("/cache/{key}?cc=max-age%3D60")
    func item(key: String) async throws -> Response
}

@Suite("A declared API through the cache")
struct CachedProviderTests {
    @Test(arguments: APITransport.allCases)
    func theProvidersClientAnswersARepeatFromTheCache(transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let cached = Provider(
                baseURL: provider.baseURL,
                client: Client(transport: provider.client.transport, interceptors: [CacheInterceptor()]))
            let api = CachedAPI(cached)
            let first = try await api.item(key: "api-\(transport)")
            let second = try await api.item(key: "api-\(transport)")
            #expect(first.headerFields[.cacheStatus]?.contains("stored") == true)
            #expect(second.headerFields[.cacheStatus]?.hasPrefix("Courier; hit") == true)
            #expect(String(decoding: second.body, as: UTF8.self) == "api-\(transport) #1\n")
        }
    }
}
