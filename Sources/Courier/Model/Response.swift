public import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An HTTP response as a value: status, header fields, body bytes, and the request that produced it.
///
/// A response is either buffered (`body` holds every byte; what `Client.send` returns) or streaming
/// (`bodyStream` is set and `body` is empty until collected; what transports and `Client.stream`
/// return). Interceptors see the streaming form, so a large download flows through the chain
/// without being held in memory; one that needs the bytes calls `collectingBody(upTo:)`.
public struct Response: Sendable {
    /// The status code and reason phrase.
    public var status: HTTPResponse.Status {
        get { storage.fields.status }
        _modify { yield &storage.fields.status }
    }
    /// The header fields, ordered, case-insensitive and multi-valued.
    ///
    /// The curl transport checks each line as it arrives and keeps the lines; the first read, from
    /// any thread, parses them into the fields every later read gets.
    public var headerFields: HTTPFields {
        get {
            switch storage.fields.headers {
            case .fields(let fields): fields
            case .received(let lines): lines.fields
            }
        }
        set { storage.fields.headers = .fields(newValue) }
    }
    /// Whether a header field is named `name`; unlike reading ``headerFields``, parses no fields
    /// a transport received unparsed.
    package func hasHeaderField(named name: HTTPField.Name) -> Bool {
        switch storage.fields.headers {
        case .fields(let fields): fields.contains(name)
        case .received(let lines): lines.contains(name)
        }
    }
    /// The body bytes, after any content decoding; empty while `bodyStream` is unread.
    public var body: Data {
        get { storage.fields.body }
        _modify { yield &storage.fields.body }
    }
    /// The body still arriving from the network, read once; `nil` when the body is buffered in `body`.
    public var bodyStream: ResponseBodyStream? {
        get { storage.fields.bodyStream }
        _modify { yield &storage.fields.bodyStream }
    }
    /// The request as it was finally sent, after every interceptor and redirect.
    public var request: Request {
        get { storage.fields.request }
        _modify { yield &storage.fields.request }
    }
    /// The redirect responses that led to this one, oldest first, each with the request that got
    /// it, as httpx's `Response.history`; empty when no redirect was followed.
    ///
    /// Each one's body is buffered when it is at most ``historyBodyLimit`` bytes (a redirect's body
    /// is a line of HTML, if any); a larger body is not read and left empty.
    public var history: [Response] {
        get { storage.fields.history }
        _modify { yield &storage.fields.history }
    }

    /// Where the time of the exchange went and what its connection was (``ResponseMetrics``): the
    /// phases up to the head when the response is returned, the body's phase and the totals once
    /// the body has been read (`Client.send` reads it; `collectingBody(upTo:)` fills them in).
    public var metrics: ResponseMetrics {
        get { storage.fields.metrics }
        _modify { yield &storage.fields.metrics }
    }

    /// The most body bytes a redirect response in ``history`` keeps.
    public static let historyBodyLimit: Int64 = 64 * 1024

    /// Where ``headerFields`` live: as fields, or as the lines a transport received, parsed on first read.
    private enum HeaderStorage: Sendable {
        case fields(HTTPFields)
        case received(ReceivedHeaderLines)
    }

    /// Every field, behind one reference that copies share until one of them changes.
    private struct Fields: Sendable {
        var status: HTTPResponse.Status
        var headers: HeaderStorage
        var body: Data
        var bodyStream: ResponseBodyStream?
        var request: Request
        var history: [Response] = []
        var metrics = ResponseMetrics()
    }

    private var storage: CopyOnWrite<Fields>

    /// Creates a buffered response, for interceptors that answer on their own and for tests.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(), request: Request) {
        storage = CopyOnWrite(
            Fields(status: status, headers: .fields(headerFields), body: body, bodyStream: nil, request: request))
    }

    /// Creates a streaming response, as transports do once the response head has arrived.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, bodyStream: ResponseBodyStream, request: Request)
    {
        storage = CopyOnWrite(
            Fields(
                status: status, headers: .fields(headerFields), body: Data(), bodyStream: bodyStream, request: request))
    }

    /// Creates a streaming response whose fields are parsed from `receivedHeaderLines` when first read.
    package init(
        status: HTTPResponse.Status, receivedHeaderLines: ReceivedHeaderLines, bodyStream: ResponseBodyStream,
        request: Request
    ) {
        storage = CopyOnWrite(
            Fields(
                status: status, headers: .received(receivedHeaderLines), body: Data(), bodyStream: bodyStream,
                request: request))
    }

    /// Whether the body is still a stream rather than bytes in `body`.
    public var isStreaming: Bool { bodyStream != nil }

    /// This response with its body read into `body`; a buffered response is returned as it is.
    ///
    /// - Throws: `limitExceeded` past `limit` bytes, or the error the body stream ended with.
    ///
    /// It consumes the response it is called on, so a caller that drops it after the call (as
    /// `Client.send` does) pays for no copy of the whole value.
    public consuming func collectingBody(upTo limit: Int64) async throws -> Response {
        guard let stream = bodyStream else { return self }
        let received: Data
        do {
            received = try await stream.collect(upTo: limit)
        } catch {
            throw Self.failure(error, collectingBodyOf: request)
        }
        take(received, collectedFrom: stream)
        return self
    }

    /// The error collecting the body failed with: a `CourierError` gains the request it lacks.
    /// A function of its own, as is `take(_:collectedFrom:)`: the frame of `collectingBody`, held
    /// while the body arrives, keeps none of their work.
    private static func failure(_ error: any Error, collectingBodyOf request: Request) -> any Error {
        guard let error = error as? CourierError else { return error }
        return error.filledIn(request: request)
    }

    /// Keeps `body`, read whole from `stream`, with the measurements the stream ended with.
    @inline(never)
    private mutating func take(_ body: Data, collectedFrom stream: ResponseBodyStream) {
        self.body = body
        bodyStream = nil
        completeMetrics(from: stream, bodyBytes: Int64(body.count))
    }

    /// Takes the measurements `stream` had at its end into ``metrics``, once its last byte was
    /// read: the body phase and the totals are known only then. `bodyBytes` is what the reader
    /// received, for a transport that does not count the decoded bytes itself.
    package mutating func completeMetrics(from stream: ResponseBodyStream, bodyBytes: Int64) {
        if let final = stream.metrics { metrics.complete(with: final) }
        if metrics.decodedBodyBytes == nil, metrics.hasTotal { metrics.decodedBodyBytes = bodyBytes }
    }

    /// The body decoded as UTF-8 text, with invalid bytes replaced.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The `Content-Type` of the response, when it has one.
    public var contentType: MIMEType? { headerFields[.contentType].map(MIMEType.init(rawValue:)) }
}
