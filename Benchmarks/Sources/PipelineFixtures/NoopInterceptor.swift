public import Courier

/// An interceptor that only passes the request on: the fixed cost of one stage of the chain.
public struct NoopInterceptor: Interceptor {
    /// A no-op stage.
    public init() {}

    public nonisolated(nonsending) func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        try await next(request)
    }
}

extension Array where Element == any Interceptor {
    /// `count` no-op stages.
    public static func noops(_ count: Int) -> [any Interceptor] {
        Array(repeating: NoopInterceptor(), count: count)
    }
}
