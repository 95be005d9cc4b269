import Foundation

extension Route {
    /// `/drip`, any method: `numbytes` bytes of `*` spread evenly over `duration_ms`, for read
    /// timeouts and progress reporting.
    ///
    /// The head goes out at once (after `delay_ms`); then each of the ⌈numbytes / chunk⌉ writes
    /// waits `duration_ms` divided by their number. Query: `numbytes` (default 10), `duration_ms`
    /// (default 1000), `chunk` bytes per write (default 1), `delay_ms` before the head (default 0),
    /// `code` the status (default 200), `content_length=true` to declare the length instead of chunking.
    public static let drip = Route("/drip") { request in
        let count = try request.integer(query: "numbytes", default: 10, in: 0...(1 << 30))
        let duration = try request.integer(query: "duration_ms", default: 1000, in: 0...60_000)
        let chunk = try request.integer(query: "chunk", default: 1, in: 1...CountingBytesStream.maximumChunkSize)
        let delay = try request.integer(query: "delay_ms", default: 0, in: 0...60_000)
        let code = try request.integer(query: "code", default: 200, in: 200...599)
        let writes = (count + chunk - 1) / chunk
        let pause = Duration.milliseconds(duration) / max(writes, 1)
        let stream = DripStream(remaining: count, chunk: chunk, pause: pause)
        var response = TestServerResponse(
            status: code, headers: [("Content-Type", "application/octet-stream")],
            stream: StreamedBody(
                length: request.query("content_length") == "true" ? count : nil,
                stream: stream))
        response.delay = .milliseconds(delay)
        return response
    }
}

/// Alternates a pause and a write of up to `chunk` asterisks.
private struct DripStream: BodyStream {
    var remaining: Int
    let chunk: Int
    let pause: Duration
    var paused = false

    mutating func next() -> BodyStreamPart {
        guard remaining > 0 else { return .end }
        if !paused, pause > .zero {
            paused = true
            return .pause(pause)
        }
        paused = false
        let length = min(chunk, remaining)
        remaining -= length
        return .bytes(Data(repeating: UInt8(ascii: "*"), count: length))
    }
}
