#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value in the tree an `Encodable` writes; a class so nested containers can fill it later.
final class FormNode {
    enum Content {
        /// Nothing, or `nil`: no field.
        case absent
        case scalar(String)
        case object(FormObject)
        case array(FormArray)
    }

    var content: Content = .absent

    /// Whether this node holds an object or an array, which repeated names cannot express.
    var isContainer: Bool {
        switch content {
        case .object, .array: true
        case .absent, .scalar: false
        }
    }
}

/// Keyed members in the order they were first encoded; encoding a key again replaces its value in place.
final class FormObject {
    private(set) var entries: [(key: String, node: FormNode)] = []
    private var positions: [String: Int] = [:]

    /// A fresh node for `key`.
    func node(for key: String) -> FormNode {
        let node = FormNode()
        if let position = positions[key] {
            entries[position].node = node
        } else {
            positions[key] = entries.count
            entries.append((key, node))
        }
        return node
    }
}

final class FormArray {
    var elements: [FormNode] = []

    func append() -> FormNode {
        let node = FormNode()
        elements.append(node)
        return node
    }
}

/// What every container of one encoding shares: the options and the first misuse of the `Encoder` API.
final class FormEncodingState {
    let options: URLFormEncoder
    let userInfo: [CodingUserInfoKey: Any]
    var conflict: EncodingError?

    init(options: URLFormEncoder) {
        self.options = options
        self.userInfo = options.userInfo.mapValues { $0 as Any }
    }

    /// Records that a container of one kind was asked for where a value of another kind was encoded.
    func recordConflict(_ description: String, codingPath: [any CodingKey]) {
        guard conflict == nil else { return }
        conflict = EncodingError.invalidValue(
            description,
            EncodingError.Context(
                codingPath: codingPath, debugDescription: description))
    }
}

private struct FormIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct FormSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// The `Encoder` handed to each value; writes into `node`.
struct FormValueEncoder: Encoder {
    let node: FormNode
    let state: FormEncodingState
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    /// Encodes `value` into `node`, writing Foundation's value types as single strings
    /// rather than through their own (keyed) `Encodable` conformances.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        let options = state.options
        switch value {
        case let date as Date:
            node.content = .scalar(try options.string(for: date, codingPath: codingPath))
        case let data as Data:
            node.content = .scalar(data.base64EncodedString())
        case let url as URL:
            node.content = .scalar(url.absoluteString)
        case let decimal as Decimal:
            node.content = .scalar(decimal.description)
        default:
            try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FormKeyedContainer<Key>(object: objectNode(), state: state, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(array: arrayNode(), state: state, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(encoder: self)
    }

    /// The object in `node`, created if the node is empty; asking twice returns the same object.
    func objectNode() -> FormObject {
        switch node.content {
        case .object(let object):
            return object
        case .absent:
            break
        case .scalar, .array:
            state.recordConflict(
                "a keyed container was requested where another value was already encoded", codingPath: codingPath)
        }
        let object = FormObject()
        node.content = .object(object)
        return object
    }

    /// The array in `node`, created if the node is empty; asking twice returns the same array.
    func arrayNode() -> FormArray {
        switch node.content {
        case .array(let array):
            return array
        case .absent:
            break
        case .scalar, .object:
            state.recordConflict(
                "an unkeyed container was requested where another value was already encoded", codingPath: codingPath)
        }
        let array = FormArray()
        node.content = .array(array)
        return array
    }
}

private struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: FormObject
    let state: FormEncodingState
    let codingPath: [any CodingKey]

    private func set(_ value: String, forKey key: Key) {
        object.node(for: state.options.fieldName(for: key.stringValue)).content = .scalar(value)
    }

    private func encoder(forKey key: Key) -> FormValueEncoder {
        FormValueEncoder(
            node: object.node(for: state.options.fieldName(for: key.stringValue)),
            state: state, codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws {
        _ = object.node(for: state.options.fieldName(for: key.stringValue))
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(state.options.string(for: value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try state.options.string(for: value, codingPath: codingPath + [key]), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try state.options.string(for: value, codingPath: codingPath + [key]), forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { set(String(value), forKey: key) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try encoder(forKey: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder(forKey: key)
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(
                object: nested.objectNode(), state: state, codingPath: nested.codingPath))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoder(forKey: key)
        return FormUnkeyedContainer(array: nested.arrayNode(), state: state, codingPath: nested.codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(node: object.node(for: "super"), state: state, codingPath: codingPath + [FormSuperKey()])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(forKey: key) }
}

private struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let array: FormArray
    let state: FormEncodingState
    let codingPath: [any CodingKey]

    var count: Int { array.elements.count }

    private func set(_ value: String) { array.append().content = .scalar(value) }

    private var nextPath: [any CodingKey] { codingPath + [FormIndexKey(intValue: count)] }

    private func nextEncoder() -> FormValueEncoder {
        let path = nextPath
        return FormValueEncoder(node: array.append(), state: state, codingPath: path)
    }

    mutating func encodeNil() throws { _ = array.append() }
    mutating func encode(_ value: Bool) throws { set(state.options.string(for: value)) }
    mutating func encode(_ value: String) throws { set(value) }
    mutating func encode(_ value: Double) throws { set(try state.options.string(for: value, codingPath: nextPath)) }
    mutating func encode(_ value: Float) throws { set(try state.options.string(for: value, codingPath: nextPath)) }
    mutating func encode(_ value: Int) throws { set(String(value)) }
    mutating func encode(_ value: Int8) throws { set(String(value)) }
    mutating func encode(_ value: Int16) throws { set(String(value)) }
    mutating func encode(_ value: Int32) throws { set(String(value)) }
    mutating func encode(_ value: Int64) throws { set(String(value)) }
    mutating func encode(_ value: Int128) throws { set(String(value)) }
    mutating func encode(_ value: UInt) throws { set(String(value)) }
    mutating func encode(_ value: UInt8) throws { set(String(value)) }
    mutating func encode(_ value: UInt16) throws { set(String(value)) }
    mutating func encode(_ value: UInt32) throws { set(String(value)) }
    mutating func encode(_ value: UInt64) throws { set(String(value)) }
    mutating func encode(_ value: UInt128) throws { set(String(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try nextEncoder().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = nextEncoder()
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(
                object: nested.objectNode(), state: state, codingPath: nested.codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = nextEncoder()
        return FormUnkeyedContainer(array: nested.arrayNode(), state: state, codingPath: nested.codingPath)
    }

    mutating func superEncoder() -> any Encoder { nextEncoder() }
}

private struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: String) { encoder.node.content = .scalar(value) }

    mutating func encodeNil() throws { encoder.node.content = .absent }
    mutating func encode(_ value: Bool) throws { set(encoder.state.options.string(for: value)) }
    mutating func encode(_ value: String) throws { set(value) }
    mutating func encode(_ value: Double) throws {
        set(try encoder.state.options.string(for: value, codingPath: codingPath))
    }
    mutating func encode(_ value: Float) throws {
        set(try encoder.state.options.string(for: value, codingPath: codingPath))
    }
    mutating func encode(_ value: Int) throws { set(String(value)) }
    mutating func encode(_ value: Int8) throws { set(String(value)) }
    mutating func encode(_ value: Int16) throws { set(String(value)) }
    mutating func encode(_ value: Int32) throws { set(String(value)) }
    mutating func encode(_ value: Int64) throws { set(String(value)) }
    mutating func encode(_ value: Int128) throws { set(String(value)) }
    mutating func encode(_ value: UInt) throws { set(String(value)) }
    mutating func encode(_ value: UInt8) throws { set(String(value)) }
    mutating func encode(_ value: UInt16) throws { set(String(value)) }
    mutating func encode(_ value: UInt32) throws { set(String(value)) }
    mutating func encode(_ value: UInt64) throws { set(String(value)) }
    mutating func encode(_ value: UInt128) throws { set(String(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try encoder.encodeValue(value) }
}
