import Courier
import Foundation
import Testing

/// What becomes of an error that a transport or an interceptor throws without mapping it.
@Suite struct UnmappedErrorTests {
    struct Unmapped: Error, CustomStringConvertible {
        var description: String { "disk on fire" }
    }

    /// A transport that fails with an error of its own type.
    struct FailingTransport: Transport {
        func send(_ request: Request, context: TransportContext) async throws -> Response { throw Unmapped() }
    }

    @Test func anUnmappedTransportErrorBecomesAnInvalidResponseThatKeepsIt() async throws {
        let request = try Request { BaseURL("http://127.0.0.1:9/x") }
        let error = try #require(
            await #expect(throws: CourierError.self) {
                _ = try await Client(transport: FailingTransport()).send(request)
            })
        #expect(error.code == .invalidResponse)
        #expect(error.stage == "transport")
        #expect(error.message == "the transport failed: disk on fire")
        #expect(error.underlying is Unmapped)
        #expect(error.request?.url == request.url)
    }

    struct Throwing: Interceptor {
        var name: String { "Throwing" }
        func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
            throw Unmapped()
        }
    }

    @Test func anUnmappedInterceptorErrorBecomesInterceptorFailedNamingIt() async throws {
        let request = try Request { BaseURL("http://127.0.0.1:9/x") }
        let error = try #require(
            await #expect(throws: CourierError.self) {
                _ = try await Client(transport: FailingTransport(), interceptors: [Throwing()]).send(request)
            })
        #expect(error.code == .interceptorFailed)
        #expect(error.stage == "Throwing")
        #expect(error.message == "Throwing failed: disk on fire")
        #expect(error.underlying is Unmapped)
    }
}
