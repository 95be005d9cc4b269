public import Foundation

extension Route {
    /// `/raw/{name}`, any method: a canned, hand-written response written straight to the
    /// socket, bypassing the HTTP encoder, then the connection is closed. See `CannedRawResponse`
    /// for the names; `oversized-headers` takes the query `size` (bytes of headers, default 1 MiB).
    public static let raw = Route("/raw/{name}") { request in
        guard let canned = request.parameters["name"].flatMap(CannedRawResponse.init(rawValue:)) else {
            throw RouteInputError("name must be one of \(CannedRawResponse.allCases.map(\.rawValue))")
        }
        let size = try request.integer(query: "size", default: 1 << 20, in: 0...(256 << 20))
        return .raw(canned.bytes(headerSize: size))
    }

    /// A route answering `pattern` with `bytes` written straight to the socket, then `effect`,
    /// for responses no canned one covers.
    public static func raw(
        _ pattern: String, methods: Set<String>? = nil, bytes: Data,
        then effect: ConnectionFault.Effect = .close
    ) -> Route {
        Route(pattern, methods: methods) { _ in .raw(bytes, then: effect) }
    }
}

/// The responses of `/raw/{name}`: each breaks one rule of HTTP/1.1 framing in a way a client must notice.
public enum CannedRawResponse: String, Sendable, CaseIterable {
    /// `HTTP/1.1 2x0 OK`: a status code that is not three digits.
    case malformedStatusLine = "malformed-status-line"
    /// A chunked body whose second chunk size is `zz`.
    case malformedChunkSize = "malformed-chunk-size"
    /// A header block of `size` bytes (1 MiB by default) of `X-Filler-…` lines.
    case oversizedHeaders = "oversized-headers"
    /// `Content-Length: 100` and a body of 5 bytes, then the connection closes.
    case contentLengthTooLong = "content-length-too-long"
    /// `Content-Length: 5` and `Content-Length: 6`, followed by 6 bytes.
    case conflictingContentLength = "conflicting-content-length"
    /// `Transfer-Encoding: chunked` and `Content-Length: 3` together; the chunked body holds 5 bytes.
    case chunkedAndContentLength = "chunked-and-content-length"
    /// The connection closes in the middle of a header line.
    case closesMidHeaders = "closes-mid-headers"

    /// The bytes written; `headerSize` only matters for `oversizedHeaders`.
    public func bytes(headerSize: Int = 1 << 20) -> Data {
        let text: String
        switch self {
        case .malformedStatusLine:
            text = "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n"
        case .malformedChunkSize:
            text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nhello\r\n0\r\n\r\n"
        case .oversizedHeaders:
            return Self.oversizedHeaders(size: headerSize)
        case .contentLengthTooLong:
            text = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello"
        case .conflictingContentLength:
            text = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"
        case .chunkedAndContentLength:
            text = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        case .closesMidHeaders:
            text = "HTTP/1.1 200 OK\r\nContent-Ty"
        }
        return Data(text.utf8)
    }

    /// A head of `size` bytes (a few more when `size` is below 64) with an empty body.
    private static func oversizedHeaders(size: Int) -> Data {
        let start = "HTTP/1.1 200 OK\r\n"
        let end = "Content-Length: 0\r\n\r\n"
        var head = Data(start.utf8)
        var remaining = size - start.utf8.count - end.utf8.count
        var index = 0
        while remaining > 0 {
            let name = "X-Filler-\(index): "
            // A line is at least name + one value byte + CRLF; a short last line merges into a longer one.
            let length = remaining < 2 * 1024 ? remaining : 1024
            let valueLength = max(length - name.utf8.count - 2, 1)
            head.append(
                contentsOf: Array(name.utf8) + Array(repeating: UInt8(ascii: "a"), count: valueLength) + [13, 10])
            remaining -= name.utf8.count + valueLength + 2
            index += 1
        }
        head.append(contentsOf: Array(end.utf8))
        return head
    }
}
