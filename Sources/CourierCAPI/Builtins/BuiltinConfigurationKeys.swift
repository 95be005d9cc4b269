#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
import CourierCInterceptors
#endif

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
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
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
            context.codingPath.isEmpty
                ? "not a JSON object (\(context.debugDescription))"
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

/// Finds a member given twice in one JSON object, which `JSONDecoder` would settle silently by
/// keeping one of the values: a configuration that says two things must fail instead.
enum DuplicateMemberCheck {
    /// The first name given twice in one object of `json` (text that already decoded), or `nil`.
    static func firstDuplicate(in json: String) -> String? {
        struct Frame {
            let isObject: Bool
            var names: Set<String> = []
            var expectsName: Bool
        }
        var frames: [Frame] = []
        var bytes = Array(json.utf8)[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "{"):
                frames.append(Frame(isObject: true, expectsName: true))
            case UInt8(ascii: "["):
                frames.append(Frame(isObject: false, expectsName: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = frames.popLast()
            case UInt8(ascii: ","):
                if let last = frames.indices.last, frames[last].isObject { frames[last].expectsName = true }
            case UInt8(ascii: "\""):
                let string = takeString(&bytes)
                if let last = frames.indices.last, frames[last].isObject, frames[last].expectsName {
                    frames[last].expectsName = false
                    if !frames[last].names.insert(string).inserted { return string }
                }
            default:
                continue
            }
        }
        return nil
    }

    /// The raw text of the string whose opening quote was just taken, escapes left as written.
    private static func takeString(_ bytes: inout ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "\"") { break }
            text.append(byte)
            if byte == UInt8(ascii: "\\"), let escaped = bytes.popFirst() { text.append(escaped) }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
