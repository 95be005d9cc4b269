import CourierAPI
import CourierTestServer
import CourierURLSession
import Foundation
import HTTPTypes
import Testing

/// What `/anything` received, decoded whatever the endpoint's key mapping.
struct Echo: Decodable, Sendable {
    let method: String
    let path: String
    let query: String
    let headers: [[String]]
    let body: Data

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        method = try container.decode(String.self, forKey: Key(stringValue: "method"))
        path = try container.decode(String.self, forKey: Key(stringValue: "path"))
        query = try container.decode(String.self, forKey: Key(stringValue: "query"))
        // `/anything` answers in httpbin's shape: its ordered header lines are `header_list`.
        // (`headerList` when the endpoint decodes snake_case keys.)
        headers =
            try container.decodeIfPresent([[String]].self, forKey: Key(stringValue: "header_list"))
            ?? container.decodeIfPresent([[String]].self, forKey: Key(stringValue: "headerList"))
            ?? container.decode([[String]].self, forKey: Key(stringValue: "headers"))
        let base64 =
            try container.decodeIfPresent(String.self, forKey: Key(stringValue: "body_base64"))
            ?? container.decode(String.self, forKey: Key(stringValue: "bodyBase64"))
        body = Data(base64Encoded: base64) ?? Data()
    }

    /// The value of the first header named `name`, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Routes the return-kind tests answer from, beside the defaults (`/anything`, `/sse`, `/status`).
enum APITestRoutes {
    static let user = Route("/user") { _ in
        TestServerResponse(
            headers: [("Content-Type", "application/json"), ("X-Request-Cost", "3")],
            body: Data(#"{"id":"u1","name":"Ada","created_at":"2026"}"#.utf8))
    }
    static let list = Route("/list") { _ in
        TestServerResponse(
            headers: [("Content-Type", "application/json")],
            body: Data(#"{"data":{"list":[{"id":"1","name":"a"},{"id":"2","name":"b"}],"count":2}}"#.utf8))
    }
    static let empty = Route("/empty") { _ in TestServerResponse(status: 200) }
    static let failure = Route("/failure") { _ in
        TestServerResponse(
            status: 422, headers: [("Content-Type", "application/json")], body: Data(#"{"message":"name taken"}"#.utf8))
    }
    static let ticks = Route("/ticks") { _ in
        TestServerResponse(
            headers: [("Content-Type", "text/event-stream")],
            body: Data("data: {\"tick_count\":1}\n\nevent: other\ndata: {\"tick_count\":2}\n\n".utf8))
    }
    static let all: [Route] = [user, list, empty, failure, ticks] + Route.defaults
}

/// Runs `body` with a loopback test server and a provider whose base URL is the server's root.
func withProvider<Result>(
    transport: (any Transport)? = nil,
    _ body: (Provider, TestServer) async throws -> Result
) async throws -> Result {
    try await withTestServer(routes: APITestRoutes.all) { server in
        let provider =
            if let transport {
                Provider(baseURL: server.baseURL, client: Client(transport: transport))
            } else {
                Provider(baseURL: server.baseURL)
            }
        return try await body(provider, server)
    }
}

/// The transports the declared-API suites run each case on: the platform's default (libcurl on
/// Linux) and URLSession (FoundationNetworking here), the default of the seeds' Apple platforms.
enum APITransport: String, CaseIterable, CustomStringConvertible, Sendable {
    case platformDefault
    case urlSession

    var description: String { rawValue }
}

/// Runs `body` with a loopback test server and a provider on `transport`.
func withProvider<Result>(
    over transport: APITransport,
    _ body: (Provider, TestServer) async throws -> Result
) async throws -> Result {
    switch transport {
    case .platformDefault:
        return try await withProvider(body)
    case .urlSession:
        let session = URLSessionTransport()
        defer { session.shutdown() }
        return try await withProvider(transport: session, body)
    }
}
