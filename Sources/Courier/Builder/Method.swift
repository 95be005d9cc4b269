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

    public static let GET = Method(.get)
    public static let POST = Method(.post)
    public static let PUT = Method(.put)
    public static let DELETE = Method(.delete)
    public static let PATCH = Method(.patch)
    public static let HEAD = Method(.head)
    public static let OPTIONS = Method(.options)
    public static let TRACE = Method(.trace)
    public static let CONNECT = Method(.connect)

    /// An extension method such as `LINK` or `PROPFIND`; a name that is not an HTTP token fails the build.
    public static func custom(_ name: String) -> Method {
        HTTPRequest.Method(name).map(Method.init) ?? Method(invalid: name)
    }

    public func apply(to draft: inout RequestDraft) throws {
        guard let method else {
            throw CourierError.invalidRequest("\"\(rawName.debugEscaped)\" is not a valid method name (an HTTP token)",
                                              block: "Method.custom")
        }
        draft.method = method
    }
}
