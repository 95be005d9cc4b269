public import CourierFoundation
import Foundation

// README: loaders
/// A request option (part 8): a key with its default, carried on the request.
enum APIVersionOption: RequestOptionKey {
    static var defaultValue: Int { 2 }
}

/// A loader that modifies requests (part 7) is an interceptor.
struct APIVersionLoader: Interceptor {
    nonisolated(nonsending) func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let version = request.options[APIVersionOption.self]
        return try await next(try request.updating { Header.custom("X-API-Version").setValue(String(version)) })
    }
}

func loadWithVersion3(_ request: Request) async -> HTTPResult {
    let mock = MockTransport()                            // the mock loader (part 5)
    mock.enqueue(.json(#"{"ok": true}"#))
    let client = Client(transport: mock,                  // a chain of loaders (part 6)
                        interceptors: [APIVersionLoader(), RetryInterceptor()])
    var request = request
    request.options[APIVersionOption.self] = 3
    return await client.load(request)                     // load(request) -> HTTPResult (part 4)
}
// README: end

extension ReadmeExamples {
    /// The loaders example, for its test.
    public static func loaders(_ request: Request) async -> HTTPResult { await loadWithVersion3(request) }
}
