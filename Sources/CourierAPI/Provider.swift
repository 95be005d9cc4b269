public import Foundation

/// Where an API lives and the `Client` its calls go through: the value an `@API` type is created with.
///
/// ```swift
/// let provider = Provider(baseURL: "https://api.example.com")
///     .modifyRequests { request in request.headerFields[.userAgent] = "app/1.0" }
/// let users = UsersAPI(provider)
/// ```
///
/// Endpoint paths are appended to the base URL's path (`/v1` + `/users` is `/v1/users`), as in
/// Netrofit and Papyrus. Every call runs through the client's interceptors, so retry, logging,
/// authentication refresh and `explaining()` apply to declared APIs as to any request.
public struct Provider: Sendable {
    /// The base URL as given.
    public let baseURL: String
    /// The client calls are sent with, including the interceptors `modifyRequests` and `intercept` added.
    public let client: Client

    /// A provider on the default libcurl transport.
    public init(baseURL: String) {
        self.init(baseURL: baseURL, client: Client())
    }

    /// A provider on the default libcurl transport.
    public init(baseURL: URL) {
        self.init(baseURL: baseURL.absoluteString)
    }

    /// A provider sending through `client`: another transport, a `MockTransport`, or your own interceptors.
    public init(baseURL: String, client: Client) {
        self.baseURL = baseURL
        self.client = client
    }

    /// A provider sending through `client`.
    public init(baseURL: URL, client: Client) {
        self.init(baseURL: baseURL.absoluteString, client: client)
    }

    /// A new provider whose requests `modify` edits before they are sent (Papyrus's `modifyRequests`).
    ///
    /// It runs as the innermost interceptor added so far, so it sees the request after earlier ones.
    public func modifyRequests(_ modify: @escaping @Sendable (inout Request) throws -> Void) -> Provider {
        adding(
            ClosureInterceptor("modifyRequests") { request, _, next in
                var request = request
                try modify(&request)
                return try await next(request)
            })
    }

    /// A new provider whose exchanges pass through `body`, which must call `next` for the request to go on.
    public func intercept(
        _ body: @escaping @Sendable (Request, Next) async throws -> Response
    ) -> Provider {
        adding(ClosureInterceptor("intercept") { request, _, next in try await body(request, next) })
    }

    /// A new provider with `interceptor` appended to the client's chain.
    public func adding(_ interceptor: any Interceptor) -> Provider {
        var client = client
        client.interceptors.append(interceptor)
        return Provider(baseURL: baseURL, client: client)
    }
}
