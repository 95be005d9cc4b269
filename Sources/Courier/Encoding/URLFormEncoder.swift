#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Flattens an `Encodable` value into ordered form fields, for query strings and
/// `application/x-www-form-urlencoded` bodies.
///
/// Nested objects become bracketed names (`filter[status]=open`), arrays repeat their name
/// (`tags=a&tags=b`, see `ArrayEncoding`), and `nil` values are left out. Fields come out in the
/// order the value encodes its keys, so synthesized `Codable` conformances give declaration order
/// (a `Dictionary` has no stable order of its own).
///
/// Form encoding has no way to write an empty array or object, so those produce no fields.
/// An array holding objects or arrays is always written with indices (`items[0][name]=x`),
/// whatever the `arrayEncoding`, because repeated or `[]` names cannot tell whose field is whose.
///
/// ```swift
/// struct Filter: Encodable { var status = "open"; var tags = ["a", "b"] }
/// try URLFormEncoder().encodeAsString(Filter())   // "status=open&tags=a&tags=b"
/// ```
public struct URLFormEncoder: Sendable {
    /// How the elements of an array are named.
    public enum ArrayEncoding: Sendable {
        /// The array's name repeated for each element: `tags=a&tags=b`.
        case repeatedKey
        /// Empty brackets after the name, as PHP and Rails read arrays: `tags[]=a&tags[]=b`.
        case brackets
        /// The element's index in brackets: `tags[0]=a&tags[1]=b`.
        case indexed
    }

    /// How a `Bool` is written.
    public enum BoolEncoding: Sendable {
        /// `true` and `false`.
        case trueFalse
        /// `1` and `0`.
        case numeric
    }

    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// ISO 8601 in UTC with whole seconds: `2024-05-06T07:08:09Z`.
        case iso8601
        /// Seconds since 1970-01-01 UTC; a whole number is written without a fraction.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 UTC; a whole number is written without a fraction.
        case millisecondsSince1970
        /// The string the closure returns; an error it throws fails the encoding. (With
        /// `import CourierFoundation`, `.formatted(DateFormatter)` makes one from a formatter.)
        case custom(@Sendable (Date) throws -> String)
    }

    /// How the keys of a value are turned into field names.
    public enum KeyEncoding: Sendable {
        /// Keys as the value encodes them.
        case useDefaultKeys
        /// `camelCase` keys as `snake_case`: `userID` → `user_id`, `myURLValue` → `my_url_value`.
        case convertToSnakeCase
        /// The name the closure returns for each key.
        case custom(@Sendable (String) -> String)
    }

    /// How array elements are named; `.repeatedKey` unless set.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written; `true`/`false` unless set.
    public var boolEncoding: BoolEncoding
    /// How dates are written; ISO 8601 unless set.
    public var dateEncoding: DateEncoding
    /// How keys become field names; unchanged unless set.
    public var keyEncoding: KeyEncoding
    /// Values handed to the encoded types through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates an encoder; the defaults match what most servers parse.
    public init(
        arrayEncoding: ArrayEncoding = .repeatedKey,
        boolEncoding: BoolEncoding = .trueFalse,
        dateEncoding: DateEncoding = .iso8601,
        keyEncoding: KeyEncoding = .useDefaultKeys,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.userInfo = userInfo
    }

    /// The fields of `value`, in encoding order.
    ///
    /// - Throws: `CourierError` with code `encodingFailed` when `value` is not keyed (an array or a
    ///   single value at the top level) or one of its members fails to encode.
    public func encode(_ value: some Encodable) throws -> [URLQueryItem] {
        try fields(of: value, source: "URLFormEncoder").map { URLQueryItem(name: $0.name, value: $0.value) }
    }

    /// `value` as an `application/x-www-form-urlencoded` string: `a=1&b=x+y`.
    ///
    /// Only ASCII letters, digits and `*-._` are left as they are; a space is written as `+`
    /// and every other byte as `%XX` (WHATWG URL, `application/x-www-form-urlencoded` serializer).
    ///
    /// - Throws: as `encode(_:)`.
    public func encodeAsString(_ value: some Encodable) throws -> String {
        Self.serialize(try fields(of: value, source: "URLFormEncoder"))
    }
}

extension URLFormEncoder {
    /// The fields of `value`, with any failure reported as `encodingFailed` from `source`.
    func fields(of value: some Encodable, source: String) throws -> [(name: String, value: String)] {
        let root = FormNode()
        let state = FormEncodingState(options: self)
        do {
            try FormValueEncoder(node: root, state: state, codingPath: []).encodeValue(value)
            if let conflict = state.conflict { throw conflict }
        } catch {
            throw CourierError(
                .encodingFailed, "could not encode \(type(of: value)) as form fields",
                source: source, underlying: error)
        }
        guard case .object(let object) = root.content else {
            throw CourierError(
                .encodingFailed,
                "form fields need a keyed value (a struct, class or String-keyed dictionary) at the top level, not \(type(of: value))",
                source: source)
        }
        var fields: [(name: String, value: String)] = []
        for entry in object.entries {
            flatten(entry.node, name: entry.key, into: &fields)
        }
        return fields
    }

    /// Fields serialized with the form character set; a `nil` value is written as `name=`.
    static func serialize(_ fields: [(name: String, value: String?)]) -> String {
        let complete = fields.map { (name: $0.name, value: Optional($0.value ?? "")) }
        return PercentEncoding.encodeQuery(complete, allowing: PercentEncoding.formComponent, spaceAsPlus: true)
    }

    private func flatten(_ node: FormNode, name: String, into fields: inout [(name: String, value: String)]) {
        switch node.content {
        case .absent:
            return
        case .scalar(let value):
            fields.append((name, value))
        case .object(let object):
            for entry in object.entries {
                flatten(entry.node, name: "\(name)[\(entry.key)]", into: &fields)
            }
        case .array(let array):
            let indexed = arrayEncoding == .indexed || array.elements.contains(where: \.isContainer)
            for (index, element) in array.elements.enumerated() {
                let elementName = indexed ? "\(name)[\(index)]" : arrayEncoding == .brackets ? "\(name)[]" : name
                flatten(element, name: elementName, into: &fields)
            }
        }
    }

    /// The field name for a coding key.
    func fieldName(for key: String) -> String {
        switch keyEncoding {
        case .useDefaultKeys: key
        case .convertToSnakeCase: Self.snakeCased(key)
        case .custom(let convert): convert(key)
        }
    }

    /// `key` in snake case; leading and trailing underscores are kept, a run of capitals is one word.
    static func snakeCased(_ key: String) -> String {
        let characters = Array(key)
        guard let first = characters.firstIndex(where: { $0 != "_" }),
            let last = characters.lastIndex(where: { $0 != "_" })
        else { return key }
        var result = String(characters[..<first])
        for index in first...last {
            let character = characters[index]
            if character.isUppercase, index > first {
                let previous = characters[index - 1]
                let next: Character? = index < last ? characters[index + 1] : nil
                let endsAcronym = previous.isUppercase && (next?.isLowercase ?? false)
                if previous.isLowercase || previous.isNumber || endsAcronym {
                    result.append("_")
                }
            }
            result += character.lowercased()
        }
        result += String(characters[(last + 1)...])
        return result
    }

    func string(for value: Bool) -> String {
        switch boolEncoding {
        case .trueFalse: value ? "true" : "false"
        case .numeric: value ? "1" : "0"
        }
    }

    func string<Number: BinaryFloatingPoint & LosslessStringConvertible>(
        for value: Number, codingPath: [any CodingKey]
    ) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "\(value) has no form representation"))
        }
        return value.description
    }

    func string(for date: Date, codingPath: [any CodingKey]) throws -> String {
        switch dateEncoding {
        case .iso8601:
            return date.formatted(Date.ISO8601FormatStyle())
        case .secondsSince1970:
            return try wholeIfPossible(date.timeIntervalSince1970, codingPath: codingPath)
        case .millisecondsSince1970:
            return try wholeIfPossible(date.timeIntervalSince1970 * 1000, codingPath: codingPath)
        case .custom(let format):
            return try format(date)
        }
    }

    private func wholeIfPossible(_ value: Double, codingPath: [any CodingKey]) throws -> String {
        if value.rounded() == value, let whole = Int64(exactly: value) { return String(whole) }
        return try string(for: value, codingPath: codingPath)
    }
}
