/// Path segments written as a string literal with slashes: `"v1/accounts"` appends `v1` and
/// `accounts`, as `URL.appendingPathComponent` does in DeclarativeNetworking.
///
/// A bare string *literal* in a builder is this block; a string *value* (`accountId`) stays one
/// segment (`PathComponent`), so user input cannot add segments. Each segment is percent-encoded,
/// `.` and `..` included, and empty segments (a leading, trailing or doubled slash) are dropped.
public struct PathSegments: RequestBuildable, Sendable, ExpressibleByStringLiteral {
    /// The path as written.
    public let path: String

    /// The segments of `path`.
    public init(_ path: String) { self.path = path }

    public init(stringLiteral path: String) { self.path = path }

    public func apply(to draft: inout RequestDraft) throws {
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            try PathComponent(String(segment)).apply(to: &draft)
        }
    }
}
