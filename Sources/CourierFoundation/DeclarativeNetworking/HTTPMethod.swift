public import Courier
public import HTTPTypes

/// The standard HTTP methods as a `String`-backed enum, written as a block: `HTTPMethod.POST`
/// (DeclarativeNetworking's spelling; `Method.POST` is the same block).
public enum HTTPMethod: String, CaseIterable, Sendable, RequestBuildable {
    case GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH

    /// The method as swift-http-types names it.
    public var method: HTTPRequest.Method { HTTPRequest.Method(rawValue)! }

    public func apply(to draft: inout RequestDraft) throws {
        draft.method = method
    }
}
