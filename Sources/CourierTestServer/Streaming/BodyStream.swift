public import Foundation

/// Produces a response body a part at a time, so a route can send more bytes than fit in
/// memory, send them slowly, or break off in the middle.
///
/// The server calls `next()` on the connection's event loop, and calls it again only once the
/// previous part was accepted by the socket (or the socket buffer has room), so a stream never
/// runs ahead of a slow client. Implementations are plain state machines: no I/O, no waiting.
public protocol BodyStream: Sendable {
    /// The next thing to do; after `.end` or `.fault` it is not called again.
    mutating func next() -> BodyStreamPart
}

/// One step of a `BodyStream`.
public enum BodyStreamPart: Sendable, Equatable {
    /// Write these bytes and flush them: one TCP write, and one chunk when the body is chunked.
    case bytes(Data)
    /// Wait this long before asking for the next part; a timer on the event loop, nothing blocks.
    case pause(Duration)
    /// The body is complete.
    case end
    /// Stop here, mid-body, and do this to the connection.
    case fault(ConnectionFault.Effect)
}

/// A streamed response body: its framing and the stream that produces it.
public struct StreamedBody: Sendable {
    /// The length sent as `Content-Length`, or `nil` for `Transfer-Encoding: chunked`.
    ///
    /// The server does not check that the stream produces exactly this many bytes, so a route can
    /// declare a length and then deliver less on purpose.
    public var length: Int?
    /// The producer of the body's bytes.
    public var stream: any BodyStream

    /// Creates a streamed body with `length` (`nil`: chunked).
    public init(length: Int?, stream: any BodyStream) {
        self.length = length
        self.stream = stream
    }
}

/// A `BodyStream` over a fixed list of parts, for routes and tests that know them up front.
public struct ScriptedBodyStream: BodyStream {
    private var parts: [BodyStreamPart]
    private var index = 0

    /// Streams `parts` in order, then `.end` (unless the parts end with `.end` or `.fault` themselves).
    public init(_ parts: [BodyStreamPart]) {
        self.parts = parts
    }

    public mutating func next() -> BodyStreamPart {
        guard index < parts.count else { return .end }
        defer { index += 1 }
        return parts[index]
    }
}
