import Foundation

/// Percent-encoding of query names and values: everything but unreserved characters, so `&`, `=`,
/// `+` and `#` in a value never change the query's meaning.
enum QueryText {
    static let allowed = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// The fields of an endpoint as one JSON object or form, in declaration order.
struct FieldsObject: Encodable, Sendable {
    let fields: [(name: String, value: any Encodable & Sendable)]

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for field in fields {
            try container.encode(field.value, forKey: Key(stringValue: field.name))
        }
    }
}

/// A core block an endpoint received as a parameter, applied as it is.
struct ParameterBlock: RequestBuildable {
    let base: any RequestBuildable & Sendable

    func apply(to draft: inout RequestDraft) throws {
        try base.apply(to: &draft)
    }
}
