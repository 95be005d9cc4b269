/// Picks the first route whose pattern and method match a request, and turns failures into responses.
struct Router: Sendable {
    let routes: [Route]

    /// The outcome of matching a request head.
    enum Match: Sendable {
        /// `route` answers; `request` has its `parameters` filled in.
        case route(Route, TestServerRequest)
        /// No route answers; send this response (404 or 405).
        case refused(TestServerResponse)
    }

    /// The route for `request` (404 when no pattern matches, 405 when only the method is wrong).
    func match(_ request: TestServerRequest) -> Match {
        var methodMismatch = false
        for route in routes {
            guard let parameters = route.match(path: request.path) else { continue }
            if let methods = route.methods, !methods.contains(request.method) {
                methodMismatch = true
                continue
            }
            var matched = request
            matched.parameters = parameters
            return .route(route, matched)
        }
        return .refused(
            methodMismatch
                ? .text("method \(request.method) not allowed for \(request.path)\n", status: 405)
                : .text("no route for \(request.path)\n", status: 404))
    }

    /// The response for `request`: the matching route's answer, 404 or 405 when none matches,
    /// 400 when the route rejects its input, 500 when it throws anything else.
    func response(for request: TestServerRequest) async -> TestServerResponse {
        switch match(request) {
        case .refused(let response): response
        case .route(let route, let matched): await Self.respond(with: route, to: matched)
        }
    }

    /// `route`'s answer to `request`, with thrown errors turned into 400 or 500 responses.
    static func respond(with route: Route, to request: TestServerRequest) async -> TestServerResponse {
        do {
            return try await route.respond(to: request)
        } catch let error as RouteInputError {
            return .text("\(error.message)\n", status: 400)
        } catch {
            return .text("route \(route.pattern) failed: \(error)\n", status: 500)
        }
    }
}
