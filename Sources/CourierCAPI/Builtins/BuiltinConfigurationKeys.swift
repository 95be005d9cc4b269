import Foundation

/// The coding key of any JSON member, so a configuration can list the members it was given and
/// refuse those it does not know instead of ignoring them.
struct AnyConfigurationKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Throws when the JSON object has a member `Keys` does not name: a misspelt option must fail,
    /// never be dropped silently.
    func refuseUnknownMembers<Keys: CodingKey & CaseIterable>(besides keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let given = try container(keyedBy: AnyConfigurationKey.self).allKeys.map(\.stringValue)
        if let unknown = given.sorted().first(where: { !known.contains($0) }) {
            let names = known.sorted().joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [AnyConfigurationKey(stringValue: unknown)],
                debugDescription: "unknown option (known: \(names))"))
        }
    }
}

extension DecodingError {
    /// One line naming the member at fault and what was wrong, for a C error message.
    var configurationMessage: String {
        switch self {
        case .typeMismatch(let type, let context):
            "\(Self.path(context)): expected \(Self.kind(type))"
        case .valueNotFound(let type, let context):
            "\(Self.path(context)): expected \(Self.kind(type)), found null"
        case .keyNotFound(let key, let context):
            "\(Self.path(context, appending: key)): required"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "not a JSON object (\(context.debugDescription))"
                : "\(Self.path(context)): \(context.debugDescription)"
        @unknown default:
            "\(self)"
        }
    }

    private static func path(_ context: Context, appending key: (any CodingKey)? = nil) -> String {
        let keys = context.codingPath + (key.map { [$0] } ?? [])
        guard !keys.isEmpty else { return "the configuration" }
        return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacing(".[", with: "[")
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
