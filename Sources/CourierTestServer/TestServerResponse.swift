public import Foundation

/// What a route answers: a status, header lines in order, and the whole body.
///
/// The server adds `Content-Length` (and `Connection: close` when closing), so routes never
/// frame the body themselves; for a `HEAD` request it sends the headers and drops the body.
public struct TestServerResponse: Sendable {
    /// The status code, such as 200 or 404.
    public var status: Int
    /// The header lines to send, in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain` response, for errors and simple routes.
    public static func text(_ text: String, status: Int = 200) -> TestServerResponse {
        TestServerResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    /// An `application/json` response holding `value` encoded with sorted keys (stable bytes across runs).
    public static func json(_ value: some Encodable, status: Int = 200) throws -> TestServerResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return TestServerResponse(status: status, headers: [("Content-Type", "application/json")],
                                  body: try encoder.encode(value))
    }
}
