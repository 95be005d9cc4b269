import HTTPTypes

/// A way of putting credentials on a request; conform to add your own (HMAC signing, API keys in the query).
///
/// The scheme runs once the rest of the request is complete, so it sees the final URL, headers
/// and body, whatever order the blocks were written in.
///
/// ```swift
/// struct APIKeyInQuery: AuthorizationScheme {
///     let key: String
///     func authorize(_ request: inout Request) throws {
///         request = try request.updating { Query("api_key", key) }
///     }
/// }
/// ```
public protocol AuthorizationScheme: Sendable {
    /// A short name used in error messages and logs (`"bearer"`).
    var name: String { get }

    /// Adds credentials to the complete request.
    func authorize(_ request: inout Request) throws
}

extension AuthorizationScheme {
    public var name: String { String(describing: Self.self) }
}

/// A scheme whose credentials are one `Authorization` field value.
struct HeaderAuthorization: AuthorizationScheme {
    let name: String
    let value: Result<String, CourierError>

    func authorize(_ request: inout Request) throws {
        let field = try RequestDraft.validatedField("Authorization", try value.get(), block: "Authorization.\(name)")
        request.headerFields[field.name] = field.value
    }
}

/// A scheme given as a closure that edits the request.
struct ClosureAuthorization: AuthorizationScheme {
    let name = "custom"
    let edit: @Sendable (inout Request) throws -> Void

    func authorize(_ request: inout Request) throws { try edit(&request) }
}
