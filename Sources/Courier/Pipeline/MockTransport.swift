public import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A transport that answers from a script and records what it was sent, for your own tests.
///
/// ```swift
/// let mock = MockTransport()
/// mock.enqueue(.json(#"{"id": 42}"#))
/// mock.enqueue(.status(.serviceUnavailable))
/// let client = Client(transport: mock)
/// …
/// #expect(mock.requests.map(\.url.path) == ["/users", "/users"])
/// ```
///
/// Scripted responses are used in order; once they run out, the handler (if any) answers.
/// A request nobody answers fails with `cannotConnect`, naming the request.
public final class MockTransport: Transport {
    /// Answers a request when no scripted response is left.
    public typealias Handler = @Sendable (Request) async throws -> MockResponse

    private struct State {
        var script: [MockResponse] = []
        var handler: Handler?
        var requests: [Request] = []
    }

    private let state = Protected(State())

    /// A transport with an empty script; `handler` answers what the script does not.
    public init(handler: Handler? = nil) {
        state.withLock { $0.handler = handler }
    }

    /// Adds a response to the end of the script.
    public func enqueue(_ response: MockResponse) {
        state.withLock { $0.script.append(response) }
    }

    /// Every request sent so far, in order, as the transport received it.
    public var requests: [Request] { state.withLock { $0.requests } }

    public nonisolated(nonsending) func send(_ request: Request, context: TransportContext) async throws -> Response {
        let (scripted, handler) = state.withLock { state -> (MockResponse?, Handler?) in
            state.requests.append(request)
            return (state.script.isEmpty ? nil : state.script.removeFirst(), state.handler)
        }
        let answer: MockResponse
        if let scripted {
            answer = scripted
        } else if let handler {
            answer = try await handler(request)
        } else {
            throw CourierError(
                .cannotConnect, "MockTransport has no response for \(request.method) \(request.url.absoluteString)",
                source: "MockTransport", request: request)
        }
        if let delay = answer.delay {
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw CourierError(.cancelled, "the request was cancelled", source: "MockTransport", request: request)
            }
        }
        if let failure = answer.failure {
            throw CourierError(
                failure, "MockTransport was scripted to fail with \(failure)", source: "MockTransport", request: request
            )
        }
        if let body = request.body {
            _ = try await body.collect()
        }
        return Response(
            status: answer.status, headerFields: answer.headerFields,
            bodyStream: ResponseBodyStream(answer.body), request: request)
    }
}

/// One scripted answer of a `MockTransport`.
public struct MockResponse: Sendable {
    /// The status to answer with.
    public var status: HTTPResponse.Status
    /// The header fields to answer with.
    public var headerFields: HTTPFields
    /// The body to answer with.
    public var body: Data
    /// How long to wait before answering (cancellation ends the wait).
    public var delay: Duration?
    /// When set, the send fails with this code instead of answering.
    public var failure: CourierError.Code?

    /// A response with the given parts.
    public init(
        status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: Data = Data(), delay: Duration? = nil
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.delay = delay
    }

    /// An empty response with `status`.
    public static func status(_ status: HTTPResponse.Status, headerFields: HTTPFields = [:]) -> MockResponse {
        MockResponse(status: status, headerFields: headerFields)
    }

    /// A JSON body given as text, with `Content-Type: application/json`.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> MockResponse {
        MockResponse(status: status, headerFields: [.contentType: "application/json"], body: Data(text.utf8))
    }

    /// A plain-text body.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> MockResponse {
        MockResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// A redirect to `location`.
    public static func redirect(to location: String, status: HTTPResponse.Status = .found) -> MockResponse {
        MockResponse(status: status, headerFields: [.location: location])
    }

    /// A send that fails with `code`, as a transport error would.
    public static func failure(_ code: CourierError.Code) -> MockResponse {
        var response = MockResponse()
        response.failure = code
        return response
    }
}
