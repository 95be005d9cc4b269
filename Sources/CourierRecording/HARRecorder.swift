public import Courier
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Records the exchanges passing through it as an HTTP Archive (HAR 1.2), the format browsers'
/// developer tools and HAR viewers open: to look at what a client sent and received, with
/// timings, in tools people already know.
///
/// ```swift
/// let recorder = HARRecorder()
/// let client = Client(transport: CurlTransport(), interceptors: [recorder])
/// _ = try await client.send(request)
/// try recorder.write(to: URL(fileURLWithPath: "session.har"))
/// ```
///
/// The response body is recorded as it passes to the caller: the stream is neither buffered nor
/// delayed, and an exchange is added to the archive when its body ends (or is discarded), with
/// `timings.wait` up to the head and `timings.receive` up to the body's end. Up to
/// `maxBodyBytes` of each body are kept; UTF-8 text is written as text, anything else as base64.
/// One-shot request streams are not read (they could not be sent afterwards) and are noted.
///
/// Secrets are hidden by default with `Redaction`, as `LoggingInterceptor` hides them:
/// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, the names you add, hidden
/// query values, and those values wherever they reappear in text bodies. Pass `redaction: nil`
/// to record everything as it was, for archives that never leave your machine.
///
/// Register it first (outermost) to record each exchange once, as the caller sees it; redirects
/// and retries inside are not separate entries. A failed send is recorded with status 0 and the
/// error in `response.comment`.
public final class HARRecorder: Interceptor {
    private struct State {
        var started = 0
        var entries: [(order: Int, entry: HTTPArchive.Entry)] = []
    }

    /// What is hidden; `nil` when nothing is.
    public let redaction: Redaction?
    /// The most bytes of one request or response body kept in the archive.
    public let maxBodyBytes: Int
    /// The application named in the archive.
    public let creator: HTTPArchive.Creator

    private let state = Protected(State())

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - redaction: what to hide; `nil` records secrets as they are.
    ///   - maxBodyBytes: the most bytes of one body kept (1 MiB by default); longer bodies are cut with a note.
    ///   - creator: the application named in the archive.
    public init(
        redaction: Redaction? = Redaction(), maxBodyBytes: Int = 1 << 20, creator: HTTPArchive.Creator = .courier
    ) {
        self.redaction = redaction
        self.maxBodyBytes = maxBodyBytes
        self.creator = creator
    }

    /// The exchanges recorded so far, in the order they started.
    public var entries: [HTTPArchive.Entry] {
        state.withLock { $0.entries }.sorted { $0.order < $1.order }.map(\.entry)
    }

    /// The archive of the exchanges recorded so far.
    public var archive: HTTPArchive { HTTPArchive(creator: creator, entries: entries) }

    /// Writes the archive to `file` (conventionally `.har`), replacing it.
    ///
    /// - Throws: `encodingFailed` when the file cannot be written.
    public func write(to file: URL) throws(CourierError) {
        try archive.write(to: file)
    }

    /// Forgets the exchanges recorded so far.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let order = state.withLock { state in
            state.started += 1
            return state.started
        }
        let transcriber = HARTranscriber(redaction: redaction, maxBodyBytes: maxBodyBytes)
        return try await HARExchange.recording(request, transcriber: transcriber, send: { try await next($0) }) {
            entry, _ in
            self.state.withLock { $0.entries.append((order, entry)) }
        }
    }
}
