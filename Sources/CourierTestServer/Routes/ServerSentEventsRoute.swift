import Foundation

extension Route {
    /// `/sse`, any method: a `text/event-stream` of numbered events, for Server-Sent Events clients.
    ///
    /// Event `i` (from 1) is a comment, `id`, `event` and two `data` lines:
    /// ```
    /// : event 2
    /// id: 2
    /// event: tick
    /// data: event 2
    /// data: of 3
    ///
    /// ```
    /// A `Last-Event-ID: k` request header resumes after event `k`; when nothing is left the
    /// answer is 204, which tells a client to stop reconnecting.
    ///
    /// Query: `count` events in all (default 3); `interval_ms` between events (default 0);
    /// `retry_ms` sends a `retry:` field first; `drop_after=k` closes the connection halfway
    /// through the event after the `k`-th one sent; `chunk=1` writes one byte per TCP write
    /// (each byte its own chunk, flushed); `newline` is `lf` (default), `crlf` or `cr`;
    /// `status` answers with that status and no stream instead (204 ends a stream).
    public static let serverSentEvents = Route("/sse") { request in
        let status = try request.integer(query: "status", default: 200, in: 200...599)
        guard status == 200 else { return TestServerResponse(status: status) }
        let count = try request.integer(query: "count", default: 3, in: 0...1_000_000)
        let lastID = request.header("last-event-id").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        guard lastID < count else { return TestServerResponse(status: 204) }
        let newline: String
        switch request.query("newline") ?? "lf" {
        case "lf": newline = "\n"
        case "crlf": newline = "\r\n"
        case "cr": newline = "\r"
        default: throw RouteInputError("newline must be lf, crlf or cr")
        }
        let stream = ServerSentEventsStream(
            firstID: max(lastID, 0) + 1,
            count: count,
            interval: .milliseconds(try request.integer(query: "interval_ms", default: 0, in: 0...60_000)),
            retry: try request.query("retry_ms").map { _ in
                try request.integer(query: "retry_ms", default: 0, in: 0...3_600_000)
            },
            dropAfter: try request.query("drop_after").map { _ in
                try request.integer(query: "drop_after", default: 0, in: 0...1_000_000)
            },
            bytewise: request.query("chunk") == "1",
            newline: newline)
        return TestServerResponse(
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
            stream: StreamedBody(length: nil, stream: stream))
    }
}

/// The events of `/sse`, as text parts, optionally split into single bytes.
struct ServerSentEventsStream: BodyStream {
    var nextID: Int
    let count: Int
    let interval: Duration
    var retry: Int?
    let dropAfter: Int?
    let bytewise: Bool
    let newline: String
    private var sent = 0
    private var pending: [BodyStreamPart] = []

    init(firstID: Int, count: Int, interval: Duration, retry: Int?, dropAfter: Int?, bytewise: Bool, newline: String) {
        self.nextID = firstID
        self.count = count
        self.interval = interval
        self.retry = retry
        self.dropAfter = dropAfter
        self.bytewise = bytewise
        self.newline = newline
    }

    /// The text of event `id`.
    func event(_ id: Int) -> String {
        [": event \(id)", "id: \(id)", "event: tick", "data: event \(id)", "data: of \(count)", "", ""].joined(
            separator: newline)
    }

    mutating func next() -> BodyStreamPart {
        if !pending.isEmpty { return pending.removeFirst() }
        if let retry {
            self.retry = nil
            return emit("retry: \(retry)\(newline)\(newline)")
        }
        guard nextID <= count else { return .end }
        let text = event(nextID)
        let isFirst = sent == 0
        nextID += 1
        sent += 1
        var parts: [BodyStreamPart] = []
        if !isFirst, interval > .zero { parts.append(.pause(interval)) }
        if let dropAfter, sent > dropAfter {
            parts += split(String(text.prefix(text.count / 2)))
            parts.append(.fault(.close))
        } else {
            parts += split(text)
        }
        pending = Array(parts.dropFirst())
        return parts[0]
    }

    private mutating func emit(_ text: String) -> BodyStreamPart {
        let parts = split(text)
        pending += parts.dropFirst()
        return parts[0]
    }

    private func split(_ text: String) -> [BodyStreamPart] {
        let bytes = Data(text.utf8)
        guard bytewise else { return [.bytes(bytes)] }
        return bytes.map { .bytes(Data([$0])) }
    }
}
