import Foundation

extension Route {
    /// The routes of a server that means harm, under `/hostile/`: each sends what a broken or
    /// malicious server could, so tests can check a client stays bounded and keeps a terminal safe.
    public static var hostile: [Route] {
        [.hostileCookies, .hostileEscapes, .hostileDisposition, .hostileLongLine, .hostileUnterminatedEvents]
    }

    /// `/hostile/cookies?count=N&prefix=P`, any method: 200 with `N` (default 200, at most 250)
    /// `Set-Cookie: P-i=…; Path=/` lines, each a new cookie, so a few responses flood a jar.
    public static let hostileCookies = Route("/hostile/cookies") { request in
        let count = try request.integer(query: "count", default: 200, in: 0...250)
        let prefix = request.query("prefix") ?? "flood"
        var response = TestServerResponse.text("\(count) cookies\n")
        for index in 0..<count {
            response.headers.append(("Set-Cookie", "\(prefix)-\(index)=\(String(repeating: "v", count: 24)); Path=/"))
        }
        return response
    }

    /// `/hostile/escapes/{where}`, any method: terminal escape sequences (a window title set with
    /// `ESC ] 0 ; … BEL`, the screen cleared with `ESC [ 2 J`, a C1 `CSI`) where a client quotes
    /// server bytes: `status-line` (an invalid status line), `header-line` (an invalid header
    /// line), `body` (a valid response whose body carries them, as HTTPie prints bodies as sent).
    public static let hostileEscapes = Route("/hostile/escapes/{where}") { request in
        let escapes = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m"
        switch request.parameters["where"] {
        case "status-line":
            return .raw(Data("HTTP/1.1 2\(escapes)00 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        case "header-line":
            return .raw(Data("HTTP/1.1 200 OK\r\nX-Evil\(escapes)\r\nContent-Length: 0\r\n\r\n".utf8))
        case "body":
            return .text("before\(escapes)after\n")
        default:
            throw RouteInputError("where must be status-line, header-line or body")
        }
    }

    /// `/hostile/disposition?filename=NAME`, any method: `payload` with `Content-Disposition:
    /// attachment; filename="NAME"`, NAME as given (percent-decoded, so it may hold `../`, a
    /// leading dot or control bytes), written raw so no encoder cleans it up.
    public static let hostileDisposition = Route("/hostile/disposition") { request in
        let name = request.query("filename") ?? ""
        var head = Data("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n".utf8)
        head.append(Data("Content-Disposition: attachment; filename=\"\(name)\"\r\n".utf8))
        head.append(Data("Content-Length: 7\r\n\r\npayload".utf8))
        return .raw(head)
    }

    /// `/hostile/long-line?bytes=N&chunk_size=C`, any method: `text/plain` of one line of `N`
    /// bytes of `a` (default 2 MiB, at most 256 MiB) and its `\n`, then `end\n`, streamed in
    /// chunks of `C` bytes (default 16 KiB): a line that arrives in many pieces.
    public static let hostileLongLine = Route("/hostile/long-line") { request in
        let count = try request.integer(query: "bytes", default: 2 << 20, in: 0...(256 << 20))
        let chunkSize = try request.integer(query: "chunk_size", default: 16 << 10, in: 1...(1 << 20))
        return TestServerResponse(
            headers: [("Content-Type", "text/plain; charset=utf-8")],
            stream: StreamedBody(
                length: count + 5,
                stream: RepeatedByteStream(byte: UInt8(ascii: "a"), count: count, chunkSize: chunkSize, tail: "\nend\n")
            ))
    }

    /// `/hostile/unterminated-events?lines=N&size=S`, any method: a `text/event-stream` of `N`
    /// (default 100,000) `data:` lines of `S` bytes (default 100) and never the blank line that
    /// ends an event, so a parser that keeps the data grows without bound.
    public static let hostileUnterminatedEvents = Route("/hostile/unterminated-events") { request in
        let lines = try request.integer(query: "lines", default: 100_000, in: 0...10_000_000)
        let size = try request.integer(query: "size", default: 100, in: 1...65536)
        let line = Data(("data: " + String(repeating: "x", count: size) + "\n").utf8)
        return TestServerResponse(
            headers: [("Content-Type", "text/event-stream")],
            stream: StreamedBody(length: nil, stream: RepeatedChunkStream(chunk: line, count: lines, perWrite: 64)))
    }
}

/// `count` copies of one byte in chunks of `chunkSize`, then `tail`; constant memory for any count.
struct RepeatedByteStream: BodyStream {
    private let chunk: Data
    private var remaining: Int
    private var tail: Data?

    init(byte: UInt8, count: Int, chunkSize: Int, tail: String) {
        chunk = Data(repeating: byte, count: chunkSize)
        remaining = count
        self.tail = Data(tail.utf8)
    }

    mutating func next() -> BodyStreamPart {
        if remaining > 0 {
            let length = min(remaining, chunk.count)
            remaining -= length
            return .bytes(length == chunk.count ? chunk : chunk.prefix(length))
        }
        guard let tail else { return .end }
        self.tail = nil
        return .bytes(tail)
    }
}

/// `count` copies of `chunk`, `perWrite` of them to a write.
struct RepeatedChunkStream: BodyStream {
    private let batch: Data
    private let single: Data
    private var remaining: Int
    private let perWrite: Int

    init(chunk: Data, count: Int, perWrite: Int) {
        single = chunk
        batch = Data(repeatElement(chunk, count: perWrite).joined())
        remaining = count
        self.perWrite = perWrite
    }

    mutating func next() -> BodyStreamPart {
        guard remaining > 0 else { return .end }
        if remaining >= perWrite {
            remaining -= perWrite
            return .bytes(batch)
        }
        remaining -= 1
        return .bytes(single)
    }
}
