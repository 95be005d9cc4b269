/// Sets the form encoder for the whole request: how `Query(encodable)` and `.urlEncoded(encodable)`
/// name nested keys, arrays, dates and booleans.
///
/// `Query` encodes when it is applied, so `FormCoding` must come before the `Query` blocks it
/// configures; bodies are encoded at build time and see it wherever it is declared.
///
/// ```swift
/// let request = try Request {
///     BaseURL(api)
///     FormCoding(encoder: URLFormEncoder(arrayEncoding: .brackets, keyEncoding: .convertToSnakeCase))
///     Query(filter)
/// }
/// ```
public struct FormCoding: RequestBuildable {
    let encoder: URLFormEncoder

    /// Uses `encoder` for the request's form-encoded queries and bodies.
    public init(encoder: URLFormEncoder) {
        self.encoder = encoder
    }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[URLFormEncoderOption.self] = encoder
    }
}
