#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The `JSONEncoder` a request's `.json` bodies use; read by interceptors that re-encode.
public enum JSONEncoderOption: RequestOptionKey {
    public static var defaultValue: JSONEncoder { JSONEncoder() }
}

/// The `JSONDecoder` the pipeline decodes this request's responses with.
public enum JSONDecoderOption: RequestOptionKey {
    public static var defaultValue: JSONDecoder { JSONDecoder() }
}

/// Sets the JSON encoder and/or decoder for the whole request, wherever it is declared.
///
/// ```swift
/// let snakeCase = JSONEncoder()
/// snakeCase.keyEncodingStrategy = .convertToSnakeCase
/// let request = try Request { BaseURL(api); JSONCoding(encoder: snakeCase); RequestBody.json(profile) }
/// ```
public struct JSONCoding: RequestBuildable {
    let encoder: JSONEncoder?
    let decoder: JSONDecoder?

    /// Uses `encoder` for JSON bodies and `decoder` for JSON responses; `nil` keeps the current one.
    public init(encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil) {
        self.encoder = encoder
        self.decoder = decoder
    }

    public func apply(to draft: inout RequestDraft) throws {
        if let encoder { draft.options[JSONEncoderOption.self] = encoder }
        if let decoder { draft.options[JSONDecoderOption.self] = decoder }
    }
}

/// Blocks that encode JSON with a given encoder, and pass it on to the blocks nested inside them.
public struct WithJSONEncoder: RequestBuildable {
    let encoder: JSONEncoder
    let content: any RequestBuildable

    /// Applies `content` with `encoder` as its JSON encoder.
    public init(_ encoder: JSONEncoder, @RequestBuilder _ content: () throws -> RequestBlockGroup) rethrows {
        self.encoder = encoder
        self.content = try content()
    }

    init(_ encoder: JSONEncoder, wrapping content: any RequestBuildable) {
        self.encoder = encoder
        self.content = content
    }

    public func apply(to draft: inout RequestDraft) throws {
        let outer = draft.options.contains(JSONEncoderOption.self) ? draft.options[JSONEncoderOption.self] : nil
        let outerBody = draft.body
        draft.options[JSONEncoderOption.self] = encoder
        draft.body = nil
        defer {
            if let outer {
                draft.options[JSONEncoderOption.self] = outer
            } else {
                draft.options.removeValue(for: JSONEncoderOption.self)
            }
        }
        try content.apply(to: &draft)
        guard let innerBody = draft.body else {
            draft.body = outerBody
            return
        }
        if case .deferred(let source, _) = innerBody.storage {
            let encoder = self.encoder
            draft.body = .deferred(source: source) { context in
                var pinned = context
                pinned.jsonEncoder = encoder
                return try innerBody.resolved(with: pinned)
            }
        }
    }
}

extension RequestBuildable {
    /// This block, with `encoder` as the JSON encoder for it and every block nested in it.
    public func useEncoder(_ encoder: JSONEncoder) -> some RequestBuildable {
        WithJSONEncoder(encoder, wrapping: self)
    }
}
