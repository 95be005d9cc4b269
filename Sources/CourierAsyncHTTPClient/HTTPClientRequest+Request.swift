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
        try self.init(request, uploadProgress: nil)
    }

    /// Like `init(_:)`, also reporting body bytes as AsyncHTTPClient takes them for sending.
    init(_ request: Request, uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?) throws {
        guard let scheme = request.scheme, scheme == "http" || scheme == "https", request.host?.isEmpty == false else {
            throw CourierError(
                .invalidRequest, "AsyncHTTPClient sends only http and https URLs with a host, not \(request.url)",
                source: "AsyncHTTPClientTransport", request: request)
        }
        self.init(url: request.url.absoluteString)
        method = HTTPMethod(rawValue: request.method.rawValue)
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count + 1)
        for field in request.wireHeaderFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        self.headers = headers
        guard let body = request.body else { return }
        let length = body.contentLength
        if uploadProgress == nil, let data = body.singleBytesSegment {
            self.body = .bytes(ByteBuffer(data: data))
            return
        }
        let chunks: RequestBody.Chunks
        do {
            chunks = try body.chunks()
        } catch var error as CourierError {
            if error.request == nil { error.request = request }
            throw error
        }
        let sequence = UploadSequence(chunks: chunks, total: length, progress: uploadProgress)
        self.body = .stream(sequence, length: length.map { .known($0) } ?? .unknown)
    }
}

/// A request body's chunks as the `ByteBuffer`s AsyncHTTPClient writes, counting bytes for upload progress.
private struct UploadSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let chunks: RequestBody.Chunks
    let total: Int64?
    let progress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), total: total, progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: RequestBody.Chunks.AsyncIterator
        let total: Int64?
        let progress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?
        var sent: Int64 = 0

        /// The next chunk; a failure of the body's own source becomes `encodingFailed`, so it is not taken for a network error.
        mutating func next() async throws -> ByteBuffer? {
            do {
                while let chunk = try await chunks.next() {
                    guard !chunk.isEmpty else { continue }
                    sent += Int64(chunk.count)
                    progress?(sent, total)
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
