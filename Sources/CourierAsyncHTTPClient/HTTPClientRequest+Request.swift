public import AsyncHTTPClient
public import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension HTTPClientRequest {
    /// The request as AsyncHTTPClient sends it: method, URL, `wireHeaderFields` in order, and the body.
    ///
    /// A body of known length is sent with `Content-Length`, one of unknown length chunked. The
    /// body is pulled chunk by chunk while sending, so a file or stream is never held whole.
    ///
    /// - Throws: `invalidRequest` for a URL AsyncHTTPClient cannot send (not `http` or `https`),
    ///   or the error `RequestBody.chunks()` throws (a one-shot stream already used).
    public init(_ request: Request) throws {
        try request.checkSendableByAsyncHTTPClient()
        self.init(url: request.url.absoluteString)
        method = HTTPMethod(rawValue: request.method.rawValue)
        headers = request.asyncHTTPClientHeaders
        guard let body = request.body else { return }
        if let data = body.singleBytesSegment {
            self.body = .bytes(ByteBuffer(data: data))
            return
        }
        let length = body.contentLength
        let sequence = UploadSequence(chunks: try request.chunks(of: body))
        self.body = .stream(sequence, length: length.map { .known($0) } ?? .unknown)
    }
}

/// A request body's chunks as the `ByteBuffer`s AsyncHTTPClient writes, for both of its request
/// types (`UploadPump` writes them for the delegate API).
struct UploadSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let chunks: RequestBody.Chunks

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: RequestBody.Chunks.AsyncIterator
        var sent: Int64 = 0

        /// The next chunk; a failure of the body's own source becomes `encodingFailed`, so it is not taken for a network error.
        mutating func next() async throws -> ByteBuffer? {
            do {
                while let chunk = try await chunks.next() {
                    guard !chunk.isEmpty else { continue }
                    sent += Int64(chunk.count)
                    return ByteBuffer(data: chunk)
                }
                return nil
            } catch let error as CourierError {
                throw error
            } catch {
                throw CourierError(
                    .encodingFailed, "the request body failed after \(sent) bytes were sent",
                    source: "RequestBody", underlying: error)
            }
        }
    }
}
