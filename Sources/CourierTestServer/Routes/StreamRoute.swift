import Foundation

extension Route {
    /// `/stream/{n}`, any method: `n` lines of JSON, `{"id":0,"path":"/stream/3"}` and so on,
    /// each line in its own chunk, for clients that decode newline-delimited JSON as it arrives.
    public static let stream = Route("/stream/{n}") { request in
        let count = try request.integer(parameter: "n", in: 0...1_000_000)
        return TestServerResponse(
            headers: [("Content-Type", "application/x-ndjson")],
            stream: StreamedBody(length: nil, stream: JSONLinesStream(count: count, path: request.path)))
    }
}

/// The lines of `/stream/{n}`, made one at a time.
private struct JSONLinesStream: BodyStream {
    let count: Int
    let path: String
    var id = 0

    mutating func next() -> BodyStreamPart {
        guard id < count else { return .end }
        defer { id += 1 }
        let escapedPath = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return .bytes(Data("{\"id\":\(id),\"path\":\"\(escapedPath)\"}\n".utf8))
    }
}
