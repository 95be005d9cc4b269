import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import ReadmeExamples

/// Prints each request as it leaves the client and each response as it comes back.
struct PrintExchange: Interceptor {
    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        print("→ \(request.method) \(request.url.absoluteString)   [\(context.requestID), attempt \(context.attempt)]")
        for field in request.wireHeaderFields { print("→ \(field.name): \(field.value)") }
        if let body = request.body { print("→", String(decoding: try await body.collect(upTo: 4096), as: UTF8.self)) }
        let response = try await next(request).collectingBody(upTo: 1 << 20)
        print("← \(response.status.code) \(response.status.reasonPhrase)")
        for field in response.headerFields { print("← \(field.name): \(field.value)") }
        print("←", response.text)
        return response
    }
}

/// Sends the documentation's login request (The Builder, by Example) through interceptors and libcurl to the embedded loopback server.
func runLiveExchange() async throws {
    try await withTestServer { server in
        print("== live exchange with the embedded test server at \(server.baseURL.absoluteString)")
        let client = Client(interceptors: [PrintExchange()])
        let login = try ReadmeExamples.login().updating {
            BaseURL(server.baseURL)
            Endpoint("/echo/v1/sessions")
        }
        let response = try await client.send(login)
        print("")
        print("status \(response.status.code) after \(response.request.url.path)")
    }
}
