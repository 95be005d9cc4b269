import Foundation

/// One endpoint of the test server: a path pattern and the function that answers it.
///
/// Patterns are matched segment by segment against the raw (percent-encoded) path:
/// a literal segment must be equal, `{name}` captures one segment into
/// `TestServerRequest.parameters`, and a final `**` matches any number of segments, none included.
///
/// ```swift
/// let hello = Route("/hello/{name}") { request in
///     .text("hello \(request.parameters["name"] ?? "")")
/// }
/// ```
public struct Route: Sendable {
    /// A request handler; errors it throws become a 500 response carrying the error's description.
    public typealias Handler = @Sendable (TestServerRequest) async throws -> TestServerResponse

    /// The pattern this route was created with, such as `/status/{code}`.
    public let pattern: String
    /// The methods this route answers, or `nil` for any method.
    public let methods: Set<String>?
    private let segments: [Segment]
    private let handler: Handler
    private let bodyHandling: @Sendable (TestServerRequest) -> RequestBodyHandling

    private enum Segment: Sendable {
        case literal(Substring)
        case parameter(String)
        case rest
    }

    /// Creates a route for `pattern`, answering `methods` (all when `nil`).
    ///
    /// `requestBody` is asked, with the request head and parameters but no body yet, what to do
    /// with the body as it arrives; by default it is collected into `TestServerRequest.body`.
    public init(
        _ pattern: String,
        methods: Set<String>? = nil,
        requestBody: @escaping @Sendable (TestServerRequest) -> RequestBodyHandling = { _ in .collect },
        handler: @escaping Handler
    ) {
        self.pattern = pattern
        self.methods = methods
        self.handler = handler
        self.bodyHandling = requestBody
        self.segments = pattern.split(separator: "/").map { segment in
            if segment == "**" { return .rest }
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(segment)
        }
    }

    /// The captured parameters when `path` matches this route's pattern, `nil` otherwise.
    func match(path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var remaining = parts[...]
        var parameters: [String: String] = [:]
        for segment in segments {
            switch segment {
            case .rest:
                return parameters
            case .literal(let literal):
                guard remaining.popFirst() == literal else { return nil }
            case .parameter(let name):
                guard let value = remaining.popFirst(), !value.isEmpty else { return nil }
                parameters[name] = value.removingPercentEncoding ?? String(value)
            }
        }
        return remaining.isEmpty ? parameters : nil
    }

    /// What to do with the body of `head`, a request whose body has not arrived yet.
    func bodyHandling(for head: TestServerRequest) -> RequestBodyHandling {
        bodyHandling(head)
    }

    /// Answers `request`, whose `parameters` the router has filled in.
    func respond(to request: TestServerRequest) async throws -> TestServerResponse {
        try await handler(request)
    }
}

extension Route {
    /// The routes every test server has unless told otherwise: all of the routes of this module.
    public static var defaults: [Route] {
        [
            .echo, .anything, .headers, .get, .post, .put, .patch, .delete, .ip, .userAgent, .status, .delay,
            .bytes, .range, .streamBytes, .stream, .drip, .upload, .serverSentEvents,
            .redirect, .absoluteRedirect, .redirectTo, .redirectLoop,
            .cookies, .setCookies, .deleteCookies, .basicAuth, .bearer(),
            .gzip, .gzipBomb, .fault, .raw, .flaky(), .inFlight(),
        ] + digestAuth() + hostile + cache()
    }
}
