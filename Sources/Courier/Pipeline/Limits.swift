/// The bounds a client enforces on what a server may send, in one place.
///
/// Each bound protects against a server that is broken or hostile; each is tested at its
/// boundary. A response exceeding one fails with `CourierError.Code.limitExceeded`
/// (`tooManyRedirects` for redirects).
public struct Limits: Sendable, Hashable {
    /// The most bytes in a response head (status line plus header lines).
    public var maxHeaderBytes: Int = 64 * 1024
    /// The most header lines in a response.
    public var maxHeaderCount: Int = 256
    /// The most body bytes a buffered response (`Client.send`) may hold; streamed bodies are not bounded.
    public var maxBodyBytes: Int64 = 64 * 1024 * 1024
    /// The most a compressed body may grow when decoded (decoded bytes ÷ received bytes).
    public var maxDecompressionRatio: Int = 100
    /// The longest line in a Server-Sent Events stream, in bytes without its line ending.
    public var maxEventLineBytes: Int = 1024 * 1024
    /// The most `data` one Server-Sent Event may gather before the blank line that dispatches it,
    /// in bytes (its lines and the line feeds joining them): a server that never ends an event
    /// would otherwise grow it without bound.
    public var maxEventBytes: Int = 16 * 1024 * 1024
    /// The most redirects followed for one request.
    public var maxRedirects: Int = 10

    /// The default bounds.
    public init() {}
}
