import Foundation

extension Route {
    /// `/gzip-bomb`, any method: a gzip body (`Content-Encoding: gzip`) about 1/1000 of the size it
    /// inflates to, all zeros, for testing a client's decompression limits.
    ///
    /// Query: `inflated`, the inflated size in bytes (default 1 GiB, at most 1 TiB). The body is
    /// streamed, so even a terabyte bomb costs the server no memory; see `GzipBomb`.
    public static let gzipBomb = Route("/gzip-bomb") { request in
        let size = try request.integer(query: "inflated", default: 1 << 30, in: 0...(1 << 40))
        let bomb = GzipBomb(inflatedSize: size)
        return TestServerResponse(
            headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")],
            stream: StreamedBody(length: bomb.compressedSize, stream: GzipBombStream(bomb: bomb)))
    }
}

/// The head, the zero run in 64 KiB chunks, and the tail of a `GzipBomb`.
private struct GzipBombStream: BodyStream {
    private static let zeros = Data(count: 64 << 10)
    let bomb: GzipBomb
    var step = 0
    var zerosLeft: Int

    init(bomb: GzipBomb) {
        self.bomb = bomb
        zerosLeft = bomb.zeroCount
    }

    mutating func next() -> BodyStreamPart {
        switch step {
        case 0:
            step = 1
            return .bytes(bomb.head)
        case 1 where zerosLeft > 0:
            let count = min(zerosLeft, Self.zeros.count)
            zerosLeft -= count
            return .bytes(Self.zeros.prefix(count))
        case 1:
            step = 2
            return bomb.tail.isEmpty ? .end : .bytes(bomb.tail)
        default:
            return .end
        }
    }
}
