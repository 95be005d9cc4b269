import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension HTTPClient.Request {
    /// The request as AsyncHTTPClient's delegate API sends it: method, the URL as it is (no text to
    /// parse again), `wireHeaderFields` in order, and the body.
    ///
    /// One in-memory segment is written in one go; any other body is pulled chunk by chunk while
    /// sending (known length with `Content-Length`, unknown chunked), so a file or stream is never
    /// held whole. Upload progress comes from the delegate, as AsyncHTTPClient writes each part.
    ///
    /// - Throws: `invalidRequest` for a URL AsyncHTTPClient cannot send (not `http` or `https`, or
    ///   no host), or the error `RequestBody.chunks()` throws (a one-shot stream already used).
    init(sending request: Request, pumpingOn eventLoopGroup: any EventLoopGroup) throws {
        guard let scheme = request.scheme, scheme == "http" || scheme == "https", request.host?.isEmpty == false else {
            throw CourierError(
                .invalidRequest, "AsyncHTTPClient sends only http and https URLs with a host, not \(request.url)",
                source: "AsyncHTTPClientTransport", request: request)
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count + 1)
        for field in request.wireHeaderFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        var body: HTTPClient.Body?
        if let requestBody = request.body {
            if let data = requestBody.singleBytesSegment {
                body = .byteBuffer(ByteBuffer(data: data))
            } else {
                let chunks: RequestBody.Chunks
                do {
                    chunks = try requestBody.chunks()
                } catch var error as CourierError {
                    if error.request == nil { error.request = request }
                    throw error
                }
                body = .stream(contentLength: requestBody.contentLength) { writer in
                    let finished = eventLoopGroup.any().makePromise(of: Void.self)
                    finished.completeWithTask { try await UploadPump.send(chunks, to: writer) }
                    return finished.futureResult
                }
            }
        }
        do {
            try self.init(
                url: request.url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: body)
        } catch {
            throw CourierError(
                .invalidRequest, "AsyncHTTPClient cannot send to \(request.url)", source: "AsyncHTTPClientTransport",
                request: request, underlying: error)
        }
    }
}

/// Writes a request body's chunks to AsyncHTTPClient's writer, each once the last was written.
enum UploadPump {
    /// Sends every chunk; a failure of the body's own source becomes `encodingFailed`, so it is not
    /// taken for a network error, while the writer's own failures pass through as they are.
    static func send(_ chunks: RequestBody.Chunks, to writer: HTTPClient.Body.StreamWriter) async throws {
        var iterator = chunks.makeAsyncIterator()
        var sent: Int64 = 0
        while true {
            let chunk: Data?
            do {
                chunk = try await iterator.next()
            } catch let error as CourierError {
                throw error
            } catch {
                throw CourierError(
                    .encodingFailed, "the request body failed after \(sent) bytes were sent", source: "RequestBody",
                    underlying: error)
            }
            guard let chunk else { return }
            guard !chunk.isEmpty else { continue }
            sent += Int64(chunk.count)
            try await writer.write(.byteBuffer(ByteBuffer(data: chunk))).get()
        }
    }
}

extension RequestBody {
    /// The bytes when the body is exactly one in-memory segment, which AsyncHTTPClient can write in one go.
    var singleBytesSegment: Data? {
        guard let segments, segments.count == 1, case .bytes(let data) = segments[0] else { return nil }
        return data
    }
}
