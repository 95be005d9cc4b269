import CourierFoundation
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// "HTTP in Swift"'s model on Courier's: the error codes it names, `HTTPResult` with the request
/// and response on both sides, a response that keeps its request and its status's reason phrase.
@Suite struct HTTPInSwiftModelTests {
    let request: Request

    init() throws {
        request = try Request {
            BaseURL("https://api.example.com")
            "v1"
            Method.GET
        }
    }

    @Test func theSeriesErrorCodesExistWithTheirNames() {
        let codes: [CourierError.Code] = [
            .invalidRequest, .cannotConnect, .cancelled, .insecureConnection, .invalidResponse, .unknown,
        ]
        #expect(
            codes.map(\.description) == [
                "invalidRequest", "cannotConnect", "cancelled", "insecureConnection", "invalidResponse", "unknown",
            ])
    }

    @Test func aResultGivesItsRequestAndResponseOnBothSides() async throws {
        let mock = MockTransport()
        mock.enqueue(.status(.notFound))
        mock.enqueue(.failure(.cannotConnect))
        let client = Client(transport: mock)

        let success: HTTPResult = await client.load(request)
        let response = try #require(success.response)
        #expect(success.request?.url == request.url && response.request.url == request.url)
        #expect(response.status == .notFound && response.message == "Not Found")

        let failure = await client.load(request)
        guard case .failure(let error) = failure else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .cannotConnect && failure.request?.url == request.url && failure.response == nil)
    }

    @Test func aFailureAfterAResponseCarriesThatResponseAndItsRequest() async throws {
        let mock = MockTransport()
        mock.enqueue(.text("no such thing", status: .notFound))
        let client = Client(transport: mock, interceptors: [ValidationInterceptor()])

        let result = await client.load(request)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .unacceptableStatus)
        let response = try #require(result.response)
        #expect(response.status == .notFound && response.text == "no such thing")
        #expect(result.request?.url == request.url && response.request.url == request.url)
    }

    /// An interceptor that fails with an error naming no request, as one built by hand does.
    struct Refusing: Interceptor {
        nonisolated(nonsending) func intercept(
            _ request: Request, context: InterceptorContext, next: Next
        ) async throws -> Response {
            throw CourierError(.invalidRequest, "refused")
        }
    }

    @Test func everyFailureALoadGivesHasItsRequest() async throws {
        let client = Client(transport: MockTransport(), interceptors: [Refusing()])
        let result = await client.load(request)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .invalidRequest && result.request?.url == request.url && result.response == nil)
    }

    @Test func aFailureMadeWithoutARequestHasNone() {
        let result: HTTPResult = .failure(CourierError(.cancelled, "made by hand"))
        #expect(result.request == nil && result.response == nil)
    }

    @Test func theMessageIsTheReasonPhraseSentOrTheStandardOneWhenNoneWasSent() throws {
        let sent = Response(status: HTTPResponse.Status(code: 404, reasonPhrase: "Nothing Here"), request: request)
        #expect(sent.message == "Nothing Here")
        let none = Response(status: HTTPResponse.Status(code: 404, reasonPhrase: ""), request: request)
        #expect(none.status.reasonPhrase.isEmpty)
        #expect(none.message.lowercased() == "not found")
        let unavailable = Response(status: HTTPResponse.Status(code: 503, reasonPhrase: ""), request: request)
        #expect(unavailable.message.lowercased() == "service unavailable")
    }
}
