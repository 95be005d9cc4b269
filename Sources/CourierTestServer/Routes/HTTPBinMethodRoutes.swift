import Foundation

extension Route {
    /// `/get`, GET (and HEAD) only: httpbin's `args`, `headers`, `origin` and `url`.
    public static let get = httpbinMethod("/get", allowing: ["GET", "HEAD"], shape: .query)
    /// `/post`, POST only: httpbin's answer with the body's `data`, `form`, `files` and `json`.
    public static let post = httpbinMethod("/post", allowing: ["POST"], shape: .withBody)
    /// `/put`, PUT only, as `/post`.
    public static let put = httpbinMethod("/put", allowing: ["PUT"], shape: .withBody)
    /// `/patch`, PATCH only, as `/post`.
    public static let patch = httpbinMethod("/patch", allowing: ["PATCH"], shape: .withBody)
    /// `/delete`, DELETE only, as `/post`.
    public static let delete = httpbinMethod("/delete", allowing: ["DELETE"], shape: .withBody)

    /// `/ip`, any method: httpbin's `{"origin": address}`.
    public static let ip = Route("/ip") { request in
        try .json(["origin": request.origin])
    }

    /// `/user-agent`, any method: httpbin's `{"user-agent": value}` (`null` without one).
    public static let userAgent = Route("/user-agent") { request in
        try .json(["user-agent": request.header("user-agent")])
    }

    /// A route answering as httpbin's `path` does for `methods`, and 405 with `Allow` otherwise.
    static func httpbinMethod(_ path: String, allowing methods: [String], shape: HTTPBinEcho.Shape) -> Route {
        Route(path) { request in
            guard methods.contains(request.method) else {
                var refused = TestServerResponse.text("Method Not Allowed\n", status: 405)
                refused.headers.append(("Allow", (methods + ["OPTIONS"]).joined(separator: ", ")))
                return refused
            }
            return try .httpbin(request, shape)
        }
    }
}

extension TestServerResponse {
    /// `request` described as httpbin would, in `shape`.
    static func httpbin(_ request: TestServerRequest, _ shape: HTTPBinEcho.Shape) throws -> TestServerResponse {
        TestServerResponse(
            status: 200, headers: [("Content-Type", "application/json")],
            body: try HTTPBinEcho(request: request).json(shape))
    }
}
