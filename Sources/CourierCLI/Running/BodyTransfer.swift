import Courier
import Foundation
import HTTPTypes

/// How the built request's body goes on the wire: `--compress` deflates it, `--chunked` sends it
/// as a stream of unknown length, which both transports send with `Transfer-Encoding: chunked`.
///
/// It runs after the request is built, so every body (data items, `--raw`, piped input, a
/// multipart upload) is treated alike, and compression comes before chunking, as HTTPie does it.
struct BodyTransfer: Sendable {
    /// How often `--compress` was given: 1 deflates only when that makes the body smaller, 2 always.
    var compress = 0
    /// Whether `--chunked` was given.
    var chunked = false

    /// `request` with its body compressed and/or chunked as asked; a request without a body is
    /// returned unchanged, since there is nothing to compress or to chunk.
    func apply(to request: Request) async throws -> Request {
        guard var body = request.body, compress > 0 || chunked else { return request }
        var request = request
        if compress > 0 {
            let bytes = try await body.collect()
            let deflated = try Deflate.compress(bytes)
            if compress > 1 || deflated.count < bytes.count {
                body = .data(deflated, type: body.contentType)
                request.headerFields[.contentEncoding] = "deflate"
            }
        }
        if chunked {
            let whole = body
            body = .stream(type: whole.contentType) { LazyChunks(body: whole) }
        }
        request.body = body
        return request
    }
}

/// A body's chunks, started only when iterated, so a chunked body can be restarted for a redirect
/// or a retry like the body it wraps.
private struct LazyChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let body: RequestBody

    func makeAsyncIterator() -> Iterator { Iterator(body: body) }

    struct Iterator: AsyncIteratorProtocol {
        let body: RequestBody
        var chunks: RequestBody.Chunks.AsyncIterator?

        mutating func next() async throws -> Data? {
            if chunks == nil { chunks = try body.chunks().makeAsyncIterator() }
            return try await chunks?.next()
        }
    }
}
