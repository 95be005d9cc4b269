public import Courier
public import HTTPTypes

/// The standard HTTP methods as a `String`-backed enum, written as a block: `HTTPMethod.POST`.
///
/// DeclarativeNetworking's spelling, kept as a thin alias: each case is the core's ``Method``
/// block of the same name, which sets the method.
public enum HTTPMethod: String, CaseIterable, Sendable, RequestBuildable {
    case GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH

    /// The core's block for this method.
    public var block: Method { Method.custom(rawValue) }

    /// The method as swift-http-types names it.
    public var method: HTTPRequest.Method { HTTPRequest.Method(rawValue)! }

    public func apply(to draft: inout RequestDraft) throws {
        try block.apply(to: &draft)
    }
}
