/// Picks the first route whose pattern and method match a request, and turns failures into responses.
struct Router: Sendable {
    let routes: [Route]

    /// The response for `request`: the matching route's answer, 404 when no pattern matches,
    /// 405 when only the method is wrong, 500 when the route throws.
    func response(for request: TestServerRequest) async -> TestServerResponse {
        var methodMismatch = false
        for route in routes {
            guard let parameters = route.match(path: request.path) else { continue }
            if let methods = route.methods, !methods.contains(request.method) {
                methodMismatch = true
                continue
            }
            var matched = request
            matched.parameters = parameters
            do {
                return try await route.respond(to: matched)
            } catch {
                return .text("route \(route.pattern) failed: \(error)\n", status: 500)
            }
        }
        return methodMismatch
            ? .text("method \(request.method) not allowed for \(request.path)\n", status: 405)
            : .text("no route for \(request.path)\n", status: 404)
    }
}
