public import HTTPTypes

/// The request method block: `Method.POST`, or `Method.custom("LINK")` for extension methods.
public struct Method: RequestBuildable, Sendable, Equatable {
    /// The method this block sets.
    public let method: HTTPRequest.Method?
    private let rawName: String

    private init(_ method: HTTPRequest.Method) {
        self.method = method
        self.rawName = method.rawValue
    }

    private init(invalid name: String) {
        self.method = nil
        self.rawName = name
    }

    /// `GET`.
    public static let GET = Method(.get)
    /// `POST`.
    public static let POST = Method(.post)
    /// `PUT`.
    public static let PUT = Method(.put)
    /// `DELETE`.
    public static let DELETE = Method(.delete)
    /// `PATCH`.
    public static let PATCH = Method(.patch)
    /// `HEAD`.
    public static let HEAD = Method(.head)
    /// `OPTIONS`.
    public static let OPTIONS = Method(.options)
    /// `TRACE`.
    public static let TRACE = Method(.trace)
    /// `CONNECT`.
    public static let CONNECT = Method(.connect)

    /// An extension method such as `LINK` or `PROPFIND`; a name that is not an HTTP token fails the build.
    public static func custom(_ name: String) -> Method {
        HTTPRequest.Method(name).map(Method.init) ?? Method(invalid: name)
    }

    public func apply(to draft: inout RequestDraft) throws {
        guard let method else {
            throw CourierError.invalidRequest(
                "\"\(rawName.debugEscaped)\" is not a valid method name (an HTTP token)",
                block: "Method.custom")
        }
        draft.method = method
    }
}
