import Foundation

extension Route {
    /// `/stream-bytes/{n}`, any method: the bytes of `/bytes/{n}`, but chunked, without a length.
    ///
    /// Query: `chunk_size` bytes per chunk (default 10240, maximum 65536), so a client's
    /// chunked decoder meets chunk boundaries wherever a test wants them.
    public static let streamBytes = Route("/stream-bytes/{n}") { request in
        let count = try request.integer(parameter: "n", in: 0...maximumBytesCount)
        let chunkSize = try request.integer(
            query: "chunk_size", default: 10240, in: 1...CountingBytesStream.maximumChunkSize)
        return TestServerResponse(
            headers: [("Content-Type", "application/octet-stream")],
            stream: StreamedBody(length: nil, stream: CountingBytesStream(count: count, chunkSize: chunkSize)))
    }
}
