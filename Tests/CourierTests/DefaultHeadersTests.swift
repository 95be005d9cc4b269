import Courier
import Foundation
import HTTPTypes
import Testing

/// `Client.Configuration.defaultHeaders`: added to every request that lacks the field, before the
/// interceptors, never replacing what the request set.
@Suite struct DefaultHeadersTests {
    /// Records the header fields it saw, to show the interceptors get the defaults.
    struct Recorder: Interceptor {
        let seen: @Sendable (HTTPFields) -> Void
        nonisolated(nonsending) func intercept(
            _ request: Request, context: InterceptorContext, next: Next
        ) async throws -> Response {
            seen(request.headerFields)
            return try await next(request)
        }
    }

    final class Seen: Sendable {
        let fields = Protected<HTTPFields?>(nil)
    }

    @Test func defaultsFillOnlyTheFieldsARequestLeavesUnset() async throws {
        let mock = MockTransport()
        mock.enqueue(.status(.ok))
        var configuration = Client.Configuration()
        configuration.defaultHeaders = [
            .userAgent: "courier-tests/1", HTTPField.Name("X-Api-Key")!: "k1", .accept: "application/json",
        ]
        let seenByInterceptor = Seen()
        let client = Client(
            transport: mock,
            interceptors: [Recorder { fields in seenByInterceptor.fields.withLock { $0 = fields } }],
            configuration: configuration)
        _ = try await client.send(
            try Request {
                BaseURL(URL(string: "http://example.com")!)
                Accept(.plainText)
            })
        let sent = try #require(mock.requests.first).headerFields
        #expect(sent[.userAgent] == "courier-tests/1")
        #expect(sent[HTTPField.Name("X-Api-Key")!] == "k1")
        #expect(sent[values: .accept] == ["text/plain"], "the request's own field wins and is not doubled")
        #expect(seenByInterceptor.fields.withLock { $0 } == sent)
    }
}
