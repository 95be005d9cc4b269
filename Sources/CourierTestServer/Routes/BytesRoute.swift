import Foundation

extension Route {
    /// The largest body `/bytes/{n}` and `/stream-bytes/{n}` produce: a terabyte, far more than
    /// any test downloads, so a typo is refused rather than streamed for hours.
    public static let maximumBytesCount = 1 << 40

    /// `/bytes/{n}`, any method: `n` bytes of `application/octet-stream` with `Content-Length`,
    /// byte `i` being `i % 256`, so a client can check every byte arrived in place.
    ///
    /// The body is generated while it is sent, as fast as the client reads and no faster, so
    /// multi-gigabyte downloads cost the server no memory. Query: `chunk_size` bytes per write
    /// (default and maximum 65536).
    public static let bytes = Route("/bytes/{n}") { request in
        let count = try request.integer(parameter: "n", in: 0...maximumBytesCount)
        let chunkSize = try request.integer(
            query: "chunk_size", default: CountingBytesStream.maximumChunkSize,
            in: 1...CountingBytesStream.maximumChunkSize)
        return TestServerResponse(
            headers: [("Content-Type", "application/octet-stream")],
            stream: StreamedBody(length: count, stream: CountingBytesStream(count: count, chunkSize: chunkSize)))
    }
}
