public import Foundation

/// What a route answers: a status, header lines in order, and a body that is either whole
/// (`body`) or streamed (`stream`); or, bypassing HTTP altogether, raw bytes (`raw`).
///
/// The server frames the body itself: `Content-Length` for a whole body and for a stream of
/// known length, `Transfer-Encoding: chunked` otherwise (and `Connection: close` when closing),
/// so routes never frame it. For a `HEAD` request it sends the headers and drops the body.
public struct TestServerResponse: Sendable {
    /// The status code, such as 200 or 404.
    public var status: Int
    /// The header lines to send, in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes, when `stream` is `nil`.
    public var body: Data
    /// A body produced while it is sent, for bodies too large, too slow or too broken for `body`.
    public var stream: StreamedBody?
    /// How long to wait before sending anything; a timer on the event loop, so nothing else waits.
    public var delay: Duration?
    /// A fault to inject while answering, at `afterRequest`, `atResponseStart` or `midResponseBody`.
    /// `atConnect` and `midRequestBody` come before a route answers (see `TestServer.planFaults(_:)`
    /// and `RequestBodyHandling.fault`); here they act as `afterRequest`.
    public var fault: ConnectionFault?
    /// Bytes to write to the socket instead of an HTTP response; everything else is then ignored.
    public var raw: RawResponse?

    /// Creates a response with a whole body.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body `stream` produces while it is sent.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], stream: StreamedBody) {
        self.init(status: status, headers: headers)
        self.stream = stream
    }

    /// A `text/plain` response, for errors and simple routes.
    public static func text(_ text: String, status: Int = 200) -> TestServerResponse {
        TestServerResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    /// An `application/json` response holding `value` encoded with sorted keys (stable bytes across runs).
    public static func json(_ value: some Encodable, status: Int = 200) throws -> TestServerResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return TestServerResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: try encoder.encode(value))
    }

    /// `bytes` written to the socket as they are, then `effect` (by default the connection is closed).
    public static func raw(_ bytes: Data, then effect: ConnectionFault.Effect = .close) -> TestServerResponse {
        var response = TestServerResponse()
        response.raw = RawResponse(bytes: bytes, then: effect)
        return response
    }

    /// A redirect to `location` with `status` and a short text body.
    public static func redirect(to location: String, status: Int = 302) -> TestServerResponse {
        var response = TestServerResponse.text("redirecting to \(location)\n", status: status)
        response.headers.append(("Location", location))
        return response
    }

    /// This response with `fault` injected while it is sent.
    public func injecting(_ fault: ConnectionFault?) -> TestServerResponse {
        var copy = self
        copy.fault = fault
        return copy
    }
}

/// Bytes the server writes straight to the socket, bypassing the HTTP encoder, for responses no
/// correct encoder would produce.
///
/// Afterwards the server no longer knows where the connection stands, so it always ends the
/// connection with `effect`.
public struct RawResponse: Sendable {
    /// The bytes, exactly as they go on the wire.
    public var bytes: Data
    /// What happens to the connection once the bytes are written.
    public var effect: ConnectionFault.Effect

    /// Creates a raw response.
    public init(bytes: Data, then effect: ConnectionFault.Effect = .close) {
        self.bytes = bytes
        self.effect = effect
    }
}
