public import Courier
import Foundation
import HTTPTypes

/// A transport that answers every request at once with the same buffered 200, so a benchmark
/// measures the pipeline alone: no I/O, no sleeping, no locks, no recording.
public struct InMemoryTransport: Transport {
    private let body: Data
    private let headerFields: HTTPFields

    /// A transport answering with `body` as JSON.
    public init(body: String = #"{"ok":true,"id":42,"n":7}"#) {
        self.body = Data(body.utf8)
        self.headerFields = [.contentType: "application/json"]
    }

    public func send(_ request: Request, context: TransportContext) async throws -> Response {
        Response(status: .ok, headerFields: headerFields, body: body, request: request)
    }
}
