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
        try request.checkSendableByAsyncHTTPClient()
        var headers = request.asyncHTTPClientHeaders
        var url = request.url
        if let socketPath = request.unixSocketPath {
            // AsyncHTTPClient connects to a socket named in an `http+unix` URL, and then writes
            // no `Host` (its URL has none): the request's own host goes in it, as curl writes it.
            url = try Self.url(of: request, overUnixSocket: socketPath)
            if !headers.contains(name: "host") { headers.add(name: "Host", value: request.host ?? "localhost") }
        }
        var body: HTTPClient.Body?
        if let requestBody = request.body {
            if let data = requestBody.singleBytesSegment {
                body = .byteBuffer(ByteBuffer(data: data))
            } else {
                let chunks = try request.chunks(of: requestBody)
                body = .stream(contentLength: requestBody.contentLength) { writer in
                    let finished = eventLoopGroup.any().makePromise(of: Void.self)
                    finished.completeWithTask { try await UploadPump.send(chunks, to: writer) }
                    return finished.futureResult
                }
            }
        }
        do {
            try self.init(url: url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: body)
        } catch {
            throw CourierError(
                .invalidRequest, "AsyncHTTPClient cannot send to \(request.url)", source: "AsyncHTTPClientTransport",
                request: request, underlying: error)
        }
    }
}

extension HTTPClient.Request {
    /// `request`'s path and query on the socket at `socketPath`, as AsyncHTTPClient spells it.
    private static func url(of request: Request, overUnixSocket socketPath: String) throws -> URL {
        var target = request.path
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        let url =
            request.scheme == "https"
            ? URL(httpsURLWithSocketPath: socketPath, uri: target) : URL(httpURLWithSocketPath: socketPath, uri: target)
        guard let url else {
            throw CourierError(
                .invalidRequest, "AsyncHTTPClient cannot address the Unix socket \"\(socketPath)\"",
                source: "AsyncHTTPClientTransport", request: request)
        }
        return url
    }
}

/// Writes a request body's chunks to AsyncHTTPClient's writer, each once the last was written.
enum UploadPump {
    /// Sends every chunk: a failure of the body's own source is `encodingFailed` (`UploadSequence`),
    /// while the writer's own failures pass through as they are.
    static func send(_ chunks: RequestBody.Chunks, to writer: HTTPClient.Body.StreamWriter) async throws {
        for try await buffer in UploadSequence(chunks: chunks) {
            try await writer.write(.byteBuffer(buffer)).get()
        }
    }
}
