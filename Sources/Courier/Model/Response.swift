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
        get { storage.status }
        _modify {
            makeUnique()
            yield &storage.status
        }
    }
    /// The header fields, ordered, case-insensitive and multi-valued.
    ///
    /// The curl transport checks each line as it arrives and keeps the lines; the first read, from
    /// any thread, parses them into the fields every later read gets.
    public var headerFields: HTTPFields {
        get {
            switch storage.headers {
            case .fields(let fields): fields
            case .received(let lines): lines.fields
            }
        }
        set {
            makeUnique()
            storage.headers = .fields(newValue)
        }
    }
    /// The body bytes, after any content decoding; empty while `bodyStream` is unread.
    public var body: Data {
        get { storage.body }
        _modify {
            makeUnique()
            yield &storage.body
        }
    }
    /// The body still arriving from the network, read once; `nil` when the body is buffered in `body`.
    public var bodyStream: ResponseBodyStream? {
        get { storage.bodyStream }
        _modify {
            makeUnique()
            yield &storage.bodyStream
        }
    }
    /// The request as it was finally sent, after every interceptor and redirect.
    public var request: Request {
        get { storage.request }
        _modify {
            makeUnique()
            yield &storage.request
        }
    }
    /// The redirect responses that led to this one, oldest first, each with the request that got
    /// it, as httpx's `Response.history`; empty when no redirect was followed.
    ///
    /// Each one's body is buffered when it is at most ``historyBodyLimit`` bytes (a redirect's body
    /// is a line of HTML, if any); a larger body is not read and left empty.
    public var history: [Response] {
        get { storage.history }
        _modify {
            makeUnique()
            yield &storage.history
        }
    }

    /// Where the time of the exchange went and what its connection was (``ResponseMetrics``): the
    /// phases up to the head when the response is returned, the body's phase and the totals once
    /// the body has been read (`Client.send` reads it; `collectingBody(upTo:)` fills them in).
    public var metrics: ResponseMetrics {
        get { storage.metrics }
        _modify {
            makeUnique()
            yield &storage.metrics
        }
    }

    /// The most body bytes a redirect response in ``history`` keeps.
    public static let historyBodyLimit: Int64 = 64 * 1024

    /// Where ``headerFields`` live: as fields, or as the lines a transport received, parsed on first read.
    private enum HeaderStorage: Sendable {
        case fields(HTTPFields)
        case received(ReceivedHeaderLines)
    }

    /// Every field, behind one reference that copies share until one of them changes (copy on
    /// write). Held inline, a response was 384 bytes: each copy retained a dozen references, and
    /// every async function of the pipeline that holds one kept room for it in its task's frame,
    /// about 35 KiB per send in flight.
    private final class Storage: @unchecked Sendable {
        // Unchecked: a storage is changed only while one response holds it (`makeUnique`), and
        // then only through that response's accessors, one at a time.
        @exclusivity(unchecked) var status: HTTPResponse.Status
        @exclusivity(unchecked) var headers: HeaderStorage
        @exclusivity(unchecked) var body: Data
        @exclusivity(unchecked) var bodyStream: ResponseBodyStream?
        @exclusivity(unchecked) var request: Request
        @exclusivity(unchecked) var history: [Response]
        @exclusivity(unchecked) var metrics: ResponseMetrics

        init(
            status: HTTPResponse.Status, headers: HeaderStorage, body: Data, bodyStream: ResponseBodyStream?,
            request: Request, history: [Response] = [], metrics: ResponseMetrics = ResponseMetrics()
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.bodyStream = bodyStream
            self.request = request
            self.history = history
            self.metrics = metrics
        }

        func copy() -> Storage {
            Storage(
                status: status, headers: headers, body: body, bodyStream: bodyStream, request: request,
                history: history, metrics: metrics)
        }
    }

    private var storage: Storage

    /// Gives this response a storage of its own before a change, when a copy shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Creates a buffered response, for interceptors that answer on their own and for tests.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(), request: Request) {
        storage = Storage(status: status, headers: .fields(headerFields), body: body, bodyStream: nil, request: request)
    }

    /// Creates a streaming response, as transports do once the response head has arrived.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, bodyStream: ResponseBodyStream, request: Request)
    {
        storage = Storage(
            status: status, headers: .fields(headerFields), body: Data(), bodyStream: bodyStream, request: request)
    }

    /// Creates a streaming response whose fields are parsed from `receivedHeaderLines` when first read.
    package init(
        status: HTTPResponse.Status, receivedHeaderLines: ReceivedHeaderLines, bodyStream: ResponseBodyStream,
        request: Request
    ) {
        storage = Storage(
            status: status, headers: .received(receivedHeaderLines), body: Data(), bodyStream: bodyStream,
            request: request)
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
        guard let bodyStream else { return self }
        do {
            body = try await bodyStream.collect(upTo: limit)
        } catch var error as CourierError {
            if error.request == nil { error.request = request }
            throw error
        }
        self.bodyStream = nil
        completeMetrics(from: bodyStream, bodyBytes: Int64(body.count))
        return self
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
