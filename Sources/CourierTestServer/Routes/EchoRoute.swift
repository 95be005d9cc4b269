public import Foundation

extension Route {
    /// `/echo` and any path under it, any method: the request as JSON, exactly as received.
    ///
    /// The body is `{"method", "path", "query", "headers", "body_base64", "body_length"}`, where
    /// `path` and `query` are raw (percent-encoded; `query` is `""` when absent) and `headers`
    /// lists `[name, value]` pairs in received order.
    public static let echo = Route("/echo/**") { request in
        try .json(EchoedRequest(request))
    }
}

/// The JSON body of an `/echo` response; decode it with `JSONDecoder` to see what the server received.
public struct EchoedRequest: Codable, Sendable, Equatable {
    /// The method token as sent.
    public var method: String
    /// The raw, percent-encoded path.
    public var path: String
    /// The raw query after `?`, or `""` when there was none.
    public var query: String
    /// `[name, value]` pairs in the order received.
    public var headers: [[String]]
    /// The body, base64-encoded.
    public var bodyBase64: String
    /// The number of body bytes received.
    public var bodyLength: Int

    /// The decoded body bytes; `nil` only if `bodyBase64` was tampered with.
    public var body: Data? { Data(base64Encoded: bodyBase64) }

    enum CodingKeys: String, CodingKey {
        case method, path, query, headers
        case headerList = "header_list"
        case bodyBase64 = "body_base64"
        case bodyLength = "body_length"
    }

    /// Decodes `/echo`'s answer, or the httpbin-shaped answer of `/anything`, `/get`, `/post`…,
    /// whose ordered header lines are `header_list` (its `headers` is httpbin's object).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decode(String.self, forKey: .query)
        headers =
            try container.decodeIfPresent([[String]].self, forKey: .headerList)
            ?? container.decode([[String]].self, forKey: .headers)
        bodyBase64 = try container.decode(String.self, forKey: .bodyBase64)
        bodyLength = try container.decode(Int.self, forKey: .bodyLength)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(query, forKey: .query)
        try container.encode(headers, forKey: .headers)
        try container.encode(bodyBase64, forKey: .bodyBase64)
        try container.encode(bodyLength, forKey: .bodyLength)
    }

    /// The echo of `request`.
    public init(_ request: TestServerRequest) {
        method = request.method
        path = request.path
        query = request.query ?? ""
        headers = request.headers.map { [$0.name, $0.value] }
        bodyBase64 = request.body.base64EncodedString()
        bodyLength = request.body.count
    }
}
